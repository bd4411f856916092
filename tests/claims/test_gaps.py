"""Gaps in an episode's numbering: said in one line on its page, and at their permalinks."""

import pytest

from claims.gaps import missing_numbers, sentence
from claims.models import ClaimStatus
from episodes.models import Status
from tests.factories import make_claim, make_episode

REFERENCE_URL = "/episodes/the-cognitive-revolution/the-rl-fine-tuning-playbook/"
NOT_PUBLISHED = "of this episode is not published in this ledger"


def ledger_with(*statuses):
    """An episode whose claims 1, 2, … have these statuses (None: no claim at that number)."""
    episode = make_episode()
    for number, status in enumerate(statuses, start=1):
        if status == ClaimStatus.RETRACTED:
            make_claim(episode, number=number).retract("Misattributed.")
        elif status is not None:
            make_claim(episode, number=number, status=status)
    return episode


P, D, R = ClaimStatus.PUBLISHED, ClaimStatus.DRAFT, ClaimStatus.RETRACTED


# The words.


@pytest.mark.parametrize(
    "missing, words",
    [
        ([], ""),
        ([10], "Record 10 is not published."),
        ([7], "Record 07 is not published."),
        ([10, 16, 20], "Records 10, 16 and 20 are not published."),
        ([10, 11], "Records 10 and 11 are not published."),
        ([10, 11, 12, 16], "Records 10–12 and 16 are not published."),
        ([1, 2, 3, 5, 7, 8, 9], "Records 01–03, 05 and 07–09 are not published."),
    ],
)
def test_gaps_in_words(missing, words):
    assert sentence(missing) == words


def test_the_range_ends_at_the_highest_published_number():
    assert missing_numbers([1, 3, 6]) == [2, 4, 5]
    assert missing_numbers([]) == []


# The episode page.


def test_the_reference_episode_notes_its_gaps(client, demo):
    response = client.get(REFERENCE_URL)

    page = response.content.decode()
    assert "19 published records</p>" in page
    assert '<p class="ledger-note ledger-gaps">Records 10, 16 and 20 are not published.</p>' in page


def test_an_episode_page_notes_drafts_and_retractions_inside_its_range_alike(client, db):
    episode = ledger_with(P, D, R, None, P, P, D)

    response = client.get(episode.get_absolute_url())

    assert "Records 02–04 are not published." in response.content.decode()


def test_an_episode_without_gaps_says_nothing_of_them(client, db):
    episode = ledger_with(P, P, P, D)

    response = client.get(episode.get_absolute_url())

    assert "not published." not in response.content.decode()


# A permalink inside the range.


def test_a_draft_inside_the_range_is_not_published_with_a_404(client, db):
    episode = ledger_with(P, D, P)

    response = client.get(f"{episode.get_absolute_url()}claims/2/")

    assert response.status_code == 404
    assert f"Record 02 {NOT_PUBLISHED}" in response.content.decode()


def test_a_draft_and_a_missing_number_read_exactly_alike(client, db):
    episode = ledger_with(P, D, None, P)

    draft = client.get(f"{episode.get_absolute_url()}claims/2/").content.decode()
    missing = client.get(f"{episode.get_absolute_url()}claims/3/").content.decode()

    # Only the number may differ: the record's label and its address. (Replacing every
    # "02" also rewrote the factories' running numbers, "Episode 2028", once they grew.)
    for said, asked in (("ecord 02", "ecord 03"), ("claims/2/", "claims/3/")):
        draft = draft.replace(said, asked)
    assert draft == missing


def test_the_reference_episode_explains_record_10(client, demo):
    response = client.get(f"{REFERENCE_URL}claims/10/")

    assert response.status_code == 404
    assert f"Record 10 {NOT_PUBLISHED}" in response.content.decode()
    assert f'href="{REFERENCE_URL}"' in response.content.decode()


def test_a_draft_beyond_the_highest_published_number_gets_the_ordinary_404(client, db):
    episode = ledger_with(P, P, D)

    response = client.get(f"{episode.get_absolute_url()}claims/3/")

    assert response.status_code == 404
    assert NOT_PUBLISHED not in response.content.decode()
    assert "There is no public page here" in response.content.decode()


@pytest.mark.parametrize("number", [0, 4, 99])
def test_numbers_outside_the_range_get_the_ordinary_404(client, db, number):
    episode = ledger_with(P, D, P)

    response = client.get(f"{episode.get_absolute_url()}claims/{number}/")

    assert response.status_code == 404
    assert NOT_PUBLISHED not in response.content.decode()


def test_a_retracted_claim_keeps_its_own_page(client, db):
    episode = ledger_with(P, R, P)

    response = client.get(f"{episode.get_absolute_url()}claims/2/")

    assert response.status_code == 200
    assert "Retracted" in response.content.decode()


def test_a_draft_episode_explains_nothing(client, db):
    episode = make_episode(status=Status.DRAFT)
    make_claim(episode, number=1, status=ClaimStatus.DRAFT)
    make_claim(episode, number=2)

    response = client.get(f"{episode.get_absolute_url()}claims/1/")

    assert response.status_code == 404
    assert NOT_PUBLISHED not in response.content.decode()


def test_the_not_published_page_sets_no_cookie(client, db):
    episode = ledger_with(P, D, P)

    response = client.get(f"{episode.get_absolute_url()}claims/2/")

    assert response.status_code == 404
    assert not response.cookies


def test_the_not_published_page_query_count(client, db, django_assert_num_queries):
    episode = ledger_with(P, D, P)
    # the ledger's version, for the page cache key and ETag; then
    # 1. the claim at that address, not found among those on record
    # 2. the episode with its podcast and its highest published number
    with django_assert_num_queries(3):
        response = client.get(f"{episode.get_absolute_url()}claims/2/")
    assert response.status_code == 404
