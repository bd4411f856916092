"""Podcasts, episodes and speakers: unique slugs, and deletion that never loses published work."""

import pytest
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError
from django.urls import set_script_prefix

from claims.models import Claim
from episodes.models import Episode, Podcast, Speaker, Status
from tests.factories import make_claim, make_episode, make_podcast, make_speaker

pytestmark = pytest.mark.django_db


def test_duplicate_episode_slug_within_a_podcast_is_rejected():
    episode = make_episode(slug="pilot")

    with pytest.raises(IntegrityError), transaction.atomic():
        make_episode(podcast=episode.podcast, slug="pilot")


def test_same_episode_slug_in_another_podcast_is_allowed():
    make_episode(slug="pilot")

    make_episode(slug="pilot")

    assert Episode.objects.filter(slug="pilot").count() == 2


def test_duplicate_podcast_slug_is_rejected():
    make_podcast(slug="example-show")

    with pytest.raises(IntegrityError), transaction.atomic():
        make_podcast(slug="example-show")


def test_duplicate_speaker_slug_is_rejected():
    make_speaker(slug="ada-example")

    with pytest.raises(IntegrityError), transaction.atomic():
        make_speaker(slug="ada-example")


def test_deleting_an_episode_with_a_published_claim_is_refused():
    claim = make_claim(status=Status.PUBLISHED)

    with pytest.raises(ProtectedError), transaction.atomic():
        claim.episode.delete()

    assert Claim.objects.filter(pk=claim.pk).exists()


def test_deleting_an_episode_with_only_draft_claims_deletes_them():
    episode = make_episode()
    drafts = [make_claim(episode, status=Status.DRAFT) for _ in range(2)]

    episode.delete()

    assert not Episode.objects.filter(pk=episode.pk).exists()
    assert not Claim.objects.filter(pk__in=[c.pk for c in drafts]).exists()


def test_deleting_a_podcast_with_a_published_claim_is_refused():
    claim = make_claim(episode=make_episode(status=Status.DRAFT), status=Status.PUBLISHED)
    podcast = claim.episode.podcast

    with pytest.raises(ProtectedError), transaction.atomic():
        podcast.delete()

    assert Podcast.objects.filter(pk=podcast.pk).exists()
    assert Claim.objects.filter(pk=claim.pk).exists()


def test_deleting_a_podcast_with_a_published_episode_is_refused():
    episode = make_episode(status=Status.PUBLISHED)

    with pytest.raises(ProtectedError), transaction.atomic():
        episode.podcast.delete()

    assert Episode.objects.filter(pk=episode.pk).exists()


def test_deleting_a_podcast_with_only_drafts_deletes_its_episodes_and_claims():
    podcast = make_podcast()
    episode = make_episode(podcast=podcast, status=Status.DRAFT)
    draft = make_claim(episode, status=Status.DRAFT)

    podcast.delete()

    assert not Episode.objects.filter(pk=episode.pk).exists()
    assert not Claim.objects.filter(pk=draft.pk).exists()


def test_deleting_a_speaker_with_claims_is_refused():
    claim = make_claim()

    with pytest.raises(ProtectedError), transaction.atomic():
        claim.speaker.delete()

    assert Speaker.objects.filter(pk=claim.speaker_id).exists()
    assert Claim.objects.filter(pk=claim.pk).exists()


def test_deleting_a_speaker_with_only_draft_claims_is_refused():
    claim = make_claim(status=Status.DRAFT)

    with pytest.raises(ProtectedError), transaction.atomic():
        claim.speaker.delete()

    assert Claim.objects.filter(pk=claim.pk).exists()


# Addresses: worked out once per instance (reverse_once), yet never stale.


def test_a_speakers_address_follows_a_changed_slug():
    speaker = make_speaker(slug="ada-example")
    assert speaker.get_absolute_url() == "/speakers/ada-example/"

    speaker.slug = "ada-lovelace"

    assert speaker.get_absolute_url() == "/speakers/ada-lovelace/"


def test_an_episodes_address_follows_its_podcasts_changed_slug():
    episode = make_episode(podcast=make_podcast(slug="example-show"), slug="pilot")
    assert episode.get_absolute_url() == "/episodes/example-show/pilot/"

    episode.podcast.slug = "sample-show"

    assert episode.get_absolute_url() == "/episodes/sample-show/pilot/"


def test_an_address_follows_the_mount_point_of_the_request():
    # Addresses are shared between instances (one per process): a site served under
    # a prefix must still get its own, not the one worked out without it.
    assert make_speaker(slug="ada-example").get_absolute_url() == "/speakers/ada-example/"
    set_script_prefix("/ledger/")
    try:
        assert Speaker.objects.get().get_absolute_url() == "/ledger/speakers/ada-example/"
    finally:
        set_script_prefix("/")
