"""Only what readers can see moves the ledger's public version (ETag, Last-Modified, cache).

Editors' work on drafts must not empty readers' cache, nor tell outsiders through
the ETag when someone is curating.
"""

import pytest

from claims.choices import ClaimStatus
from claims.models import ClaimLink
from episodes.models import Status
from ledger.models import current_version
from tests.factories import make_appearance, make_claim, make_episode, make_link, make_speaker


def version():
    return current_version()[0]


@pytest.fixture
def episode(db):
    return make_episode(transcript="An exact excerpt, number 1, as it was said.")


@pytest.fixture
def draft_episode(db):
    return make_episode(status=Status.DRAFT, transcript="Words.")


def test_adding_a_draft_claim_leaves_the_version(episode):
    before = version()
    make_claim(episode, status=ClaimStatus.DRAFT)
    assert version() == before


def test_editing_a_draft_claim_leaves_the_version(episode):
    claim = make_claim(episode, status=ClaimStatus.DRAFT)
    before = version()
    claim.excerpt = "Another wording, still a draft."
    claim.save()
    assert version() == before


def test_deleting_a_draft_claim_leaves_the_version(episode):
    claim = make_claim(episode, status=ClaimStatus.DRAFT)
    before = version()
    claim.delete()
    assert version() == before


def test_publishing_a_claim_moves_the_version(episode):
    claim = make_claim(episode, status=ClaimStatus.DRAFT)
    before = version()
    claim.status = ClaimStatus.PUBLISHED
    claim.save()
    assert version() == before + 1


def test_editing_a_published_claim_moves_the_version(episode):
    claim = make_claim(episode)
    before = version()
    claim.summary = "A clearer summary."
    claim.save()
    assert version() == before + 1


def test_a_published_claim_of_a_draft_episode_is_unseen(draft_episode):
    before = version()
    claim = make_claim(draft_episode)
    claim.summary = "Edited while the episode is a draft."
    claim.save()
    assert version() == before


def test_retitling_a_draft_episode_with_claims_leaves_the_version(draft_episode):
    make_claim(draft_episode)
    before = version()
    draft_episode.title = "A better working title"
    draft_episode.save()
    draft_episode.save_transcript("A new transcript to check against.")
    assert version() == before


def test_publishing_an_episode_moves_the_version(draft_episode):
    before = version()
    draft_episode.status = Status.PUBLISHED
    draft_episode.save()
    assert version() > before


def test_retitling_a_published_episode_moves_the_version(episode):
    make_claim(episode)
    before = version()
    episode.title = "A corrected title"
    episode.save()
    assert version() > before


def test_renaming_a_speaker_of_drafts_only_leaves_the_version(episode):
    speaker = make_speaker()
    make_claim(episode, speaker=speaker, status=ClaimStatus.DRAFT)
    before = version()
    speaker.name = "Ada Renamed"
    speaker.save()
    assert version() == before


def test_renaming_a_speaker_in_the_public_record_moves_the_version(episode):
    speaker = make_speaker()
    make_claim(episode, speaker=speaker)
    before = version()
    speaker.name = "Ada Renamed"
    speaker.save()
    assert version() > before


def test_a_reader_keeps_a_304_while_editors_save_drafts(client, episode):
    make_claim(episode)
    url = episode.get_absolute_url()
    etag = client.get(url)["ETag"]

    make_claim(episode, status=ClaimStatus.DRAFT, excerpt="Captured, not yet checked.")

    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_a_changed_transcript_of_a_published_episode_moves_the_version(episode):
    before = version()
    episode.save_transcript("Words readers can now check against.")
    assert version() != before


def test_linking_two_public_claims_moves_the_version(episode):
    first, second = make_claim(episode), make_claim(episode)
    before = version()
    make_link(first, second)
    assert version() > before


def test_linking_a_public_claim_to_a_draft_leaves_the_version(episode):
    first, draft = make_claim(episode), make_claim(episode, status=ClaimStatus.DRAFT)
    before = version()
    make_link(first, draft).delete()
    assert version() == before


@pytest.mark.parametrize("relation", ["contradicts", "supports"])
def test_pointing_a_public_link_at_a_draft_moves_the_version(episode, relation):
    first, second = make_claim(episode), make_claim(episode)
    link = make_link(first, second, relation)
    before = version()
    link.to_claim = make_claim(episode, status=ClaimStatus.DRAFT)
    link.save()
    # The second claim's page no longer shows it; a contradiction also leaves the filter.
    assert version() > before


def test_links_created_in_bulk_move_the_version(episode):
    first, second = make_claim(episode, number=1), make_claim(episode, number=2)
    before = version()
    ClaimLink.objects.bulk_create(
        [ClaimLink(from_claim=first, to_claim=second, relation="repeats")]
    )
    assert version() > before


def test_adding_or_removing_an_appearance_on_a_published_episode_moves_the_version(episode):
    before = version()
    appearance = make_appearance(episode)
    assert version() > before
    before = version()
    appearance.delete()
    assert version() > before


def test_an_appearance_on_a_draft_episode_leaves_the_version(draft_episode):
    before = version()
    make_appearance(draft_episode).delete()
    assert version() == before
