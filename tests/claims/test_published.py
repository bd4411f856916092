"""Claim.objects.published(): the one gate between the ledger and the public."""

import pytest

from claims.models import Claim, ClaimType
from episodes.models import Status
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
