"""Claim.objects.published(): the one gate between the ledger and the public."""

from unittest.mock import patch

import pytest
from django.db import DatabaseError

from claims.models import Claim, ClaimType
from episodes.models import Episode, Status
from tests.factories import make_claim, make_episode

pytestmark = pytest.mark.django_db


def test_published_includes_published_claims_of_published_episodes():
    claim = make_claim(status=Status.PUBLISHED)

    assert list(Claim.objects.published()) == [claim]


def test_published_excludes_draft_claims():
    episode = make_episode()
    public = make_claim(episode, status=Status.PUBLISHED)
    make_claim(episode, status=Status.DRAFT)

    assert list(Claim.objects.published()) == [public]


def test_published_excludes_claims_of_draft_episodes():
    make_claim(make_episode(status=Status.DRAFT), status=Status.PUBLISHED)

    assert list(Claim.objects.published()) == []


def test_an_episode_unpublished_and_saved_takes_its_claims_out_of_the_public_record():
    claim = make_claim()
    claim.episode.status = Status.DRAFT
    claim.episode.save()

    assert list(Claim.objects.published()) == []
    assert list(Claim.objects.on_record()) == []


def test_an_episode_published_and_saved_brings_its_published_claims_in():
    episode = make_episode(status=Status.DRAFT)
    public = make_claim(episode, status=Status.PUBLISHED)
    make_claim(episode, status=Status.DRAFT)
    episode.status = Status.PUBLISHED
    episode.save()

    assert list(Claim.objects.published()) == [public]


@pytest.mark.parametrize(
    "action, before, after",
    [("unpublish", Status.PUBLISHED, Status.DRAFT), ("publish", Status.DRAFT, Status.PUBLISHED)],
)
def test_the_admins_episode_actions_move_their_claims_in_and_out(
    admin_client, action, before, after
):
    claim = make_claim(make_episode(status=before))
    other = make_claim()

    admin_client.post(
        "/admin/episodes/episode/", {"action": action, "_selected_action": [claim.episode_id]}
    )

    expected = [claim, other] if after == Status.PUBLISHED else [other]
    assert list(Claim.objects.published().order_by("pk")) == expected
    assert admin_client.get(claim.get_absolute_url()).status_code == (
        200 if after == Status.PUBLISHED else 404
    )


@pytest.mark.parametrize(
    "action, before", [("unpublish", Status.PUBLISHED), ("publish", Status.DRAFT)]
)
def test_an_episode_action_from_a_changelist_filtered_by_status_moves_its_claims(
    admin_client, action, before
):
    # The filter no longer holds the episodes once the action has changed them.
    claim = make_claim(make_episode(status=before))

    admin_client.post(
        f"/admin/episodes/episode/?status__exact={before}",
        {"action": action, "_selected_action": [claim.episode_id]},
    )

    claim.refresh_from_db()
    assert claim.episode_published is (before == Status.DRAFT)
    assert Claim.objects.published().exists() is (before == Status.DRAFT)


def test_an_unpublish_that_fails_part_way_leaves_the_episode_and_its_claims_public():
    claim = make_claim()
    episode = claim.episode
    episode.status = Status.DRAFT

    with (
        patch("claims.counters.recount_speakers", side_effect=DatabaseError("gone")),
        pytest.raises(DatabaseError),
    ):
        episode.save()

    assert Episode.objects.get(pk=episode.pk).status == Status.PUBLISHED
    assert list(Claim.objects.published()) == [claim]


def test_an_unpublish_action_that_fails_part_way_changes_nothing(admin_client):
    claim = make_claim()

    with (
        patch("claims.counters.recount_speakers", side_effect=DatabaseError("gone")),
        pytest.raises(DatabaseError),
    ):
        admin_client.post(
            "/admin/episodes/episode/",
            {"action": "unpublish", "_selected_action": [claim.episode_id]},
        )

    assert Episode.objects.get(pk=claim.episode_id).status == Status.PUBLISHED
    assert list(Claim.objects.published()) == [claim]


def test_a_draft_claim_moved_to_a_published_episode_is_still_no_public_claim():
    claim = make_claim(make_episode(status=Status.DRAFT), status=Status.DRAFT)
    claim.episode = make_episode()
    claim.number = 1
    claim.save()

    assert claim.episode_published is True
    assert list(Claim.objects.published()) == []


def test_type_mix_orders_largest_first():
    episode = make_episode()
    for claim_type, count in (
        (ClaimType.RECOMMENDATION, 1),
        (ClaimType.PREDICTION, 3),
        (ClaimType.BELIEF, 2),
    ):
        for _ in range(count):
            make_claim(episode, type=claim_type)

    assert Claim.objects.published().type_mix() == [
        (ClaimType.PREDICTION, 3),
        (ClaimType.BELIEF, 2),
        (ClaimType.RECOMMENDATION, 1),
    ]


def test_type_mix_breaks_ties_in_the_order_types_are_defined():
    episode = make_episode()
    for claim_type in (ClaimType.DISAGREEMENT, ClaimType.UNCERTAINTY, ClaimType.EVALUATION):
        make_claim(episode, type=claim_type)

    assert Claim.objects.published().type_mix() == [
        (ClaimType.EVALUATION, 1),
        (ClaimType.UNCERTAINTY, 1),
        (ClaimType.DISAGREEMENT, 1),
    ]


def test_type_mix_of_published_claims_leaves_drafts_out():
    episode = make_episode()
    make_claim(episode, type=ClaimType.BELIEF)
    make_claim(episode, type=ClaimType.PREDICTION, status=Status.DRAFT)
    make_claim(episode, type=ClaimType.PREDICTION, status=Status.DRAFT)

    assert Claim.objects.published().type_mix() == [(ClaimType.BELIEF, 1)]
