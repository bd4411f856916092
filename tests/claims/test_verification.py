"""The verbatim check: is each excerpt, word for word, in its episode's transcript?"""

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from claims import verbatim
from claims.models import Claim, ClaimStatus, Verification
from episodes.models import Status, Transcript
from tests.claims.admin_forms import claim_change_form
from tests.factories import make_claim, make_episode, make_speaker

pytestmark = pytest.mark.django_db

TRANSCRIPT = (
    "ADA EXAMPLE: Welcome back.\n"
    "BEN SAMPLE: I’ll be honest — the “cheap” option\n"
    "  cost us more in the end…\n"
    "ADA EXAMPLE: Noted."
)
CLAIMS = reverse("admin:claims_claim_changelist")


def verified_line(claim_page):
    """What a reader is told about the verbatim check, from a page with one claim."""
    html = claim_page.content.decode()
    return html.split("<dt>Transcript</dt><dd>", 1)[1].split("</dd>", 1)[0]


@pytest.mark.parametrize(
    "excerpt",
    [
        "I’ll be honest — the “cheap” option cost us more in the end…",
        'I\'ll be honest - the "cheap" option cost us more in the end...',
        "i'll be honest -- the 'cheap' option cost us more in the end...".replace(
            "'cheap'", '"cheap"'
        ),
        "I’ll   be honest —\tthe “cheap” option\ncost us more",
        "I'LL BE HONEST — THE “CHEAP” OPTION",
        "ll be honest—the “cheap",
    ],
    ids=["as-said", "straight-quotes", "double-hyphen", "whitespace", "case", "mid-word"],
)
def test_an_excerpt_in_the_transcript_is_found_whatever_its_typography(excerpt):
    assert verbatim.check(excerpt, TRANSCRIPT) == Verification.FOUND


@pytest.mark.parametrize(
    "excerpt",
    [
        "I’ll be honest — the cheap option cost us more in the end…",
        "I’ll be honest — the “cheap” option cost us much more in the end…",
        "the “cheap” option, cost us more",
    ],
    ids=["dropped-quotes", "added-word", "added-comma"],
)
def test_an_excerpt_that_differs_in_its_words_or_punctuation_is_not_found(excerpt):
    assert verbatim.check(excerpt, TRANSCRIPT) == Verification.NOT_FOUND


@pytest.mark.parametrize(
    ("excerpt", "as_written"),
    [
        ('I\'ll be honest - the "cheap"', "I’ll be honest — the “cheap”"),
        ("option cost us more in the end...", "option\n  cost us more in the end…"),
        ("welcome back.", "Welcome back."),
        ("noted.", "Noted."),
    ],
    ids=["typography", "line-break-and-ellipsis", "start", "end"],
)
def test_locate_finds_the_words_as_the_transcript_writes_them(excerpt, as_written):
    start, end = verbatim.locate(excerpt, TRANSCRIPT)
    assert TRANSCRIPT[start:end] == as_written


def test_locate_finds_nothing_for_words_not_said():
    assert verbatim.locate("Words nobody said.", TRANSCRIPT) is None


def test_a_found_claim_remembers_where_its_excerpt_is():
    claim = make_claim(
        make_episode(transcript=TRANSCRIPT), excerpt="the 'cheap' option".replace("'", '"')
    )
    claim.refresh_from_db()
    assert TRANSCRIPT[claim.transcript_start : claim.transcript_end] == "the “cheap” option"


def test_a_new_transcript_moves_the_place_of_its_claims():
    episode = make_episode(transcript=TRANSCRIPT)
    claim = make_claim(episode, excerpt="Noted.")

    episode.save_transcript("Ben: Good.\nAda: Noted.")

    claim.refresh_from_db()
    assert (claim.transcript_start, claim.transcript_end) == (16, 22)


def test_a_claim_not_found_has_no_place():
    claim = make_claim(make_episode(transcript=TRANSCRIPT), excerpt="Words nobody said.")
    claim.refresh_from_db()
    assert (claim.verification, claim.transcript_start) == (Verification.NOT_FOUND, None)


def test_the_database_refuses_a_found_excerpt_without_its_place():
    claim = make_claim(make_episode(transcript=TRANSCRIPT), excerpt="Noted.")
    with pytest.raises(IntegrityError), transaction.atomic():
        Claim.objects.filter(pk=claim.pk).update(transcript_start=None, transcript_end=None)


def test_the_database_refuses_a_place_for_an_excerpt_not_found():
    claim = make_claim(make_episode(transcript=TRANSCRIPT), excerpt="Words nobody said.")
    with pytest.raises(IntegrityError), transaction.atomic():
        Claim.objects.filter(pk=claim.pk).update(transcript_start=0, transcript_end=5)


def test_without_a_transcript_there_is_nothing_to_check():
    assert verbatim.check("Any words at all.", "  \n ") == Verification.NO_TRANSCRIPT


def test_saving_a_claim_stores_its_check():
    claim = make_claim(make_episode(transcript=TRANSCRIPT), excerpt="Welcome back.")

    assert Claim.objects.get(pk=claim.pk).verification == Verification.FOUND


def test_editing_a_draft_excerpt_checks_it_again():
    claim = make_claim(
        make_episode(transcript=TRANSCRIPT), excerpt="Welcome back.", status=Status.DRAFT
    )

    claim.excerpt = "Welcome back, everyone."
    claim.save()

    assert Claim.objects.get(pk=claim.pk).verification == Verification.NOT_FOUND


def test_saving_a_transcript_checks_every_claim_of_the_episode_again():
    episode = make_episode()
    found = make_claim(episode, excerpt="Welcome back.")
    missing = make_claim(episode, excerpt="Words nobody said.")
    assert found.verification == Verification.NO_TRANSCRIPT

    episode.save_transcript(TRANSCRIPT)

    verifications = dict(Claim.objects.values_list("pk", "verification"))
    assert verifications == {found.pk: Verification.FOUND, missing.pk: Verification.NOT_FOUND}


def test_removing_the_transcript_leaves_nothing_to_check():
    episode = make_episode(transcript=TRANSCRIPT)
    claim = make_claim(episode, excerpt="Welcome back.")

    episode.save_transcript("")

    claim.refresh_from_db()
    assert claim.verification == Verification.NO_TRANSCRIPT


def test_deleting_the_transcript_leaves_nothing_to_check():
    episode = make_episode(transcript=TRANSCRIPT)
    claim = make_claim(episode, excerpt="Welcome back.")

    Transcript.objects.filter(episode=episode).delete()

    claim.refresh_from_db()
    assert claim.verification == Verification.NO_TRANSCRIPT


# What readers see -----------------------------------------------------------------


def test_the_episode_page_says_which_excerpts_were_verified(client):
    episode = make_episode(transcript=TRANSCRIPT)
    make_claim(episode, excerpt="Welcome back.")
    make_claim(episode, excerpt="Words nobody said.")

    html = client.get(episode.get_absolute_url()).content.decode()

    assert html.count('<dd><span aria-hidden="true">✓ </span>verified verbatim</dd>') == 1
    assert html.count("<dd>not found verbatim</dd>") == 1


def test_the_permalink_says_the_excerpt_was_verified(client):
    claim = make_claim(make_episode(transcript=TRANSCRIPT), excerpt="Noted.")

    response = client.get(claim.get_absolute_url())

    assert verified_line(response) == '<span aria-hidden="true">✓ </span>verified verbatim'


def test_the_claims_browser_shows_the_check_only_where_there_was_one(client):
    make_claim(make_episode(), excerpt="Said without a transcript.")
    make_claim(make_episode(transcript=TRANSCRIPT), excerpt="Words nobody said.")

    html = client.get(reverse("claims:claim_list")).content.decode()

    assert html.count("<dt>Transcript</dt>") == 1
    assert html.count("<dd>not found verbatim</dd>") == 1


def test_an_episode_without_a_transcript_says_so_once_not_under_each_claim(client):
    episode = make_episode()
    for _ in range(3):
        make_claim(episode)

    html = client.get(episode.get_absolute_url()).content.decode()

    assert html.count("No transcript of this episode yet") == 1
    assert "<dt>Transcript</dt>" not in html


def test_an_episode_with_a_transcript_does_not_say_it_has_none(client):
    make_claim(episode := make_episode(transcript=TRANSCRIPT), excerpt="Noted.")

    html = client.get(episode.get_absolute_url()).content.decode()

    assert "no transcript" not in html
    assert verified_line(client.get(episode.get_absolute_url())).endswith("verified verbatim")


def test_the_permalink_says_once_that_there_is_no_transcript(client):
    claim = make_claim(make_episode())

    html = client.get(claim.get_absolute_url()).content.decode()

    assert html.count("No transcript of this episode yet") == 1
    assert "<dt>Transcript</dt>" not in html


def test_a_speaker_page_says_no_transcript_once_per_episode(client):
    ada = make_speaker(name="Ada Example")
    without, checked = make_episode(), make_episode(transcript=TRANSCRIPT)
    for _ in range(3):
        make_claim(without, speaker=ada)
    make_claim(checked, speaker=ada, excerpt="Noted.")

    html = client.get(ada.get_absolute_url()).content.decode()

    assert html.count("no transcript to check against") == 1
    assert html.count("<dt>Transcript</dt>") == 1


# The admin ------------------------------------------------------------------------


def test_the_admin_filters_the_claims_not_found_in_the_transcript(editor_client):
    episode = make_episode(transcript=TRANSCRIPT)
    make_claim(episode, excerpt="Welcome back.")
    make_claim(episode, excerpt="Words nobody said.")

    response = editor_client.get(CLAIMS, {"verification__exact": Verification.NOT_FOUND})

    html = response.content.decode()
    assert "Words nobody said." in html
    assert "Welcome back." not in html


def test_the_admin_shows_the_check_on_the_claim(editor_client):
    claim = make_claim(make_episode(transcript=TRANSCRIPT), excerpt="Words nobody said.")

    response = editor_client.get(reverse("admin:claims_claim_change", args=[claim.pk]))

    assert "<strong>Not found</strong> in the episode's transcript." in response.content.decode()


def test_publishing_an_unverified_claim_asks_for_confirmation_first(editor_client):
    claim = make_claim(
        make_episode(transcript=TRANSCRIPT), excerpt="Words nobody said.", status=Status.DRAFT
    )

    response = editor_client.post(CLAIMS, {"action": "publish", "_selected_action": [claim.pk]})

    assert response.status_code == 200
    assert "Publish claims not found in their transcripts?" in response.content.decode()
    assert "“Words nobody said.”" in response.content.decode()
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.DRAFT


def test_confirming_publishes_unverified_claims(editor_client):
    claim = make_claim(
        make_episode(transcript=TRANSCRIPT), excerpt="Words nobody said.", status=Status.DRAFT
    )

    response = editor_client.post(
        CLAIMS,
        {"action": "publish", "_selected_action": [claim.pk], "unverified": "publish"},
        follow=True,
    )

    assert "Published 1 claim(s)." in response.content.decode()
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.PUBLISHED


def test_publishing_only_the_verified_claims_leaves_the_others_drafts(editor_client):
    episode = make_episode(transcript=TRANSCRIPT)
    verified = make_claim(episode, excerpt="Welcome back.", status=Status.DRAFT)
    unverified = make_claim(episode, excerpt="Words nobody said.", status=Status.DRAFT)

    editor_client.post(
        CLAIMS,
        {
            "action": "publish",
            "_selected_action": [verified.pk, unverified.pk],
            "unverified": "skip",
        },
    )

    statuses = dict(Claim.objects.values_list("pk", "status"))
    assert statuses == {verified.pk: ClaimStatus.PUBLISHED, unverified.pk: ClaimStatus.DRAFT}


def test_the_change_form_asks_before_publishing_an_unverified_claim(editor_client):
    claim = make_claim(
        make_episode(transcript=TRANSCRIPT), excerpt="Words nobody said.", status=Status.DRAFT
    )
    url = reverse("admin:claims_claim_change", args=[claim.pk])

    response = editor_client.post(url, claim_change_form(claim, status=ClaimStatus.PUBLISHED))

    assert response.status_code == 200
    assert "The excerpt was not found in the episode&#x27;s transcript." in (
        response.content.decode()
    )
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.DRAFT


def test_the_change_form_publishes_an_unverified_claim_when_told_to(editor_client):
    claim = make_claim(
        make_episode(transcript=TRANSCRIPT), excerpt="Words nobody said.", status=Status.DRAFT
    )
    url = reverse("admin:claims_claim_change", args=[claim.pk])

    response = editor_client.post(
        url, claim_change_form(claim, status=ClaimStatus.PUBLISHED, publish_unverified="on")
    )

    assert response.status_code == 302
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.PUBLISHED
