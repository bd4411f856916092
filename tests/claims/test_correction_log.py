"""/corrections/: every correction and retraction of a public claim, newest first, paged."""

import datetime
import re

import pytest
from django.utils import timezone

from claims.corrections import CORRECTIONS_PER_PAGE, public_corrections
from claims.models import ClaimRevision, RevisionKind
from claims.pagination import CappedPaginator
from episodes.models import Episode, Status
from tests.claims.plans import plan
from tests.factories import make_claim, make_episode

pytestmark = pytest.mark.django_db


def entries(response):
    """(kind, claim link text) of each entry on the page, in order."""
    html = response.content.decode()
    return re.findall(
        r'<span class="correction-kind[^"]*">(\w+)</span> <span aria-hidden="true">·</span> '
        r'<a href="[^"]+">([^<]+)</a>',
        html,
    )


def correct(claim, note):
    claim.excerpt = f"{claim.excerpt} (corrected)"
    claim.save(correction_note=note)
    return claim


@pytest.fixture
def episode():
    return make_episode(title="Example Episode")


def test_corrections_and_retractions_are_listed_newest_first_with_their_notes(client, episode):
    first, second = make_claim(episode), make_claim(episode)
    correct(first, "The speaker said Wednesday, not Tuesday.")
    second.retract("The voice was misattributed.")

    response = client.get("/corrections/")

    assert entries(response) == [
        ("Retraction", "Claim 02 of “Example Episode”"),
        ("Correction", "Claim 01 of “Example Episode”"),
    ]
    html = response.content.decode()
    assert "The voice was misattributed." in html
    assert "The speaker said Wednesday, not Tuesday." in html
    assert f'href="{first.get_absolute_url()}"' in html
    assert "2 corrections and retractions" in html


def test_a_retraction_entry_does_not_repeat_the_retracted_words(client, episode):
    claim = make_claim(episode, excerpt="Words no longer vouched for.")
    claim.retract("Misheard.")

    assert "Words no longer vouched for." not in client.get("/corrections/").content.decode()


def test_edits_made_while_a_claim_was_a_draft_never_appear(client, episode):
    draft = make_claim(episode, status=Status.DRAFT)
    draft.excerpt = "Reworded before anyone saw it."
    draft.save(correction_note="Not a correction: it was never public.")

    assert entries(client.get("/corrections/")) == []
    assert "No published claim has been corrected or retracted." in (
        client.get("/corrections/").content.decode()
    )


def test_corrections_of_claims_in_a_draft_episode_never_appear(client):
    claim = correct(make_claim(make_episode()), "Wrong minute.")
    claim.episode.status = Status.DRAFT
    claim.episode.save()

    assert entries(client.get("/corrections/")) == []


def test_the_log_is_paged_with_the_newest_on_the_first_page(client, episode):
    claims = [make_claim(episode) for _ in range(CORRECTIONS_PER_PAGE + 1)]
    for claim in claims:
        correct(claim, f"Note for claim {claim.label}.")

    first = client.get("/corrections/")
    second = client.get("/corrections/?page=2")

    assert len(entries(first)) == CORRECTIONS_PER_PAGE
    assert entries(first)[0][1] == f"Claim {claims[-1].label} of “Example Episode”"
    assert entries(second) == [("Correction", "Claim 01 of “Example Episode”")]
    assert "Page 2 of 2" in second.content.decode()
    assert 'rel="prev" href="?page=1"' in second.content.decode()


def test_a_page_that_is_not_a_number_shows_the_first(client, episode):
    correct(make_claim(episode), "Wrong minute.")

    response = client.get("/corrections/?page=bogus")

    assert response.status_code == 200
    assert len(entries(response)) == 1


def test_the_page_and_the_feed_list_the_same_revisions(client, episode):
    claims = [make_claim(episode) for _ in range(3)]
    correct(claims[0], "First note.")
    claims[1].retract("Second note.")
    correct(claims[2], "Third note.")

    feed_ids = re.findall(
        r"#revision-(\d+)</id>", client.get("/corrections/feed/").content.decode()
    )
    page_ids = re.findall(r'<li id="revision-(\d+)">', client.get("/corrections/").content.decode())

    assert page_ids == feed_ids
    assert [int(pk) for pk in page_ids] == list(public_corrections().values_list("pk", flat=True))


def test_entries_made_in_the_same_instant_keep_a_stable_order(client, episode):
    first, second = make_claim(episode), make_claim(episode)
    correct(first, "First.")
    correct(second, "Second.")
    same = timezone.now() - datetime.timedelta(days=1)
    ClaimRevision.objects.filter(kind=RevisionKind.CORRECTED).update(created_at=same)

    assert [label for _, label in entries(client.get("/corrections/"))] == [
        "Claim 02 of “Example Episode”",
        "Claim 01 of “Example Episode”",
    ]


def count_shown(response):
    return re.search(r'<p class="facts">(\S+) correction', response.content.decode())[1]


def set_status(episode, status):
    # As the admin does: the episode as stored, with the counts its claims moved.
    episode = Episode.objects.get(pk=episode.pk)
    episode.status = status
    episode.save()


def test_the_count_follows_an_episode_out_of_the_record_and_back(client):
    episode = make_episode()
    correct(make_claim(episode), "Wrong minute.")
    make_claim(episode).retract("Misattributed.")
    correct(make_claim(), "Wrong speaker.")
    assert count_shown(client.get("/corrections/")) == "3"

    set_status(episode, Status.DRAFT)
    assert count_shown(client.get("/corrections/")) == "1"
    assert "1 correction or retraction" in client.get("/corrections/").content.decode()

    set_status(episode, Status.PUBLISHED)
    assert count_shown(client.get("/corrections/")) == "3"


def test_a_correction_of_the_words_alone_is_counted(client, episode):
    claim = make_claim(episode)
    correct(claim, "Wrong minute.")
    correct(claim, "Still the wrong minute.")

    assert count_shown(client.get("/corrections/")) == "2"


def test_past_the_cap_the_log_counts_as_it_did(client, episode, monkeypatch):
    monkeypatch.setattr(CappedPaginator, "cap", 2)
    for claim in [make_claim(episode) for _ in range(3)]:
        correct(claim, "Wrong minute.")

    assert count_shown(client.get("/corrections/")) == "2+"


@pytest.mark.parametrize("count", [2, 12])
def test_the_log_runs_a_constant_number_of_queries(client, count, django_assert_num_queries):
    for _ in range(count):
        claim = make_claim(make_episode())
        correct(claim, "Wrong minute.")
        make_claim(claim.episode).retract("Misattributed.")
    # the ledger's version, for the page cache key and ETag; then
    # 1. the count of public corrections and retractions, summed from the podcasts' kept
    #    counts (no revision is read)
    # 2. the page of revisions with their claim, episode, podcast and speaker
    with django_assert_num_queries(3):
        response = client.get("/corrections/")
    assert len(entries(response)) == 2 * count


def test_the_log_is_read_newest_first_from_its_partial_index(episode):
    correct(make_claim(episode), "Wrong minute.")

    page = plan(public_corrections()[:CORRECTIONS_PER_PAGE])

    # Not every revision of every claim, sorted (SQLite, given the kinds as parameters).
    assert "claim_revision_public_log" in page
    assert "TEMP B-TREE" not in page and "Sort" not in page


def test_the_log_names_its_feed_in_its_head(client):
    html = client.get("/corrections/").content.decode()

    assert (
        '<link rel="alternate" type="application/atom+xml" title="Evidence Ledger: corrections '
        'and retractions" href="/corrections/feed/">'
    ) in html
