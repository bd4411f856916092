"""ClaimLink in the database: what it refuses, on SQLite and PostgreSQL alike."""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from claims.models import ClaimLink
from tests.factories import make_claim, make_episode, make_link

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_claims():
    episode = make_episode()
    return make_claim(episode), make_claim(episode)


def refused(**fields):
    with pytest.raises(IntegrityError), transaction.atomic():
        ClaimLink.objects.create(**fields)


def test_the_database_refuses_a_claim_linked_to_itself(two_claims):
    claim, _ = two_claims

    refused(from_claim=claim, to_claim=claim, relation="supports")


def test_the_database_refuses_the_same_link_twice(two_claims):
    first, second = two_claims
    make_link(first, second, "contradicts")

    refused(from_claim=first, to_claim=second, relation="contradicts")


def test_the_database_refuses_the_same_link_made_the_other_way(two_claims):
    first, second = two_claims
    make_link(first, second, "refines")

    refused(from_claim=second, to_claim=first, relation="refines")


def test_two_claims_may_be_linked_by_two_different_relations(two_claims):
    first, second = two_claims
    make_link(first, second, "responds_to")
    make_link(first, second, "contradicts")

    assert ClaimLink.objects.count() == 2


def test_the_database_refuses_a_relation_it_does_not_know(two_claims):
    first, second = two_claims

    refused(from_claim=first, to_claim=second, relation="agrees")


def test_a_repeated_link_the_other_way_is_refused_with_a_message_before_the_database(
    two_claims,
):
    first, second = two_claims
    make_link(first, second, "contradicts")

    with pytest.raises(ValidationError) as refusal:
        ClaimLink(from_claim=second, to_claim=first, relation="contradicts").full_clean()

    assert refusal.value.messages == [
        "These two claims are already linked by this relation (in one direction or the other)."
    ]


def test_a_deleted_draft_takes_its_links_with_it(two_claims):
    first, _ = two_claims
    draft = make_claim(first.episode, status="draft")
    make_link(draft, first)

    draft.delete()

    assert not ClaimLink.objects.exists()


def test_a_claim_names_its_episode_number_and_the_start_of_its_words():
    claim = make_claim(
        make_episode(title="Testing Carefully"),
        number=7,
        excerpt="Every outage we had last year started with a change that had passed all its tests.",
    )

    assert str(claim) == (
        "Testing Carefully · 07 — “Every outage we had last year started with a change that ha…”"
    )


def test_a_link_to_itself_is_refused_with_a_message_before_the_database(two_claims):
    claim, _ = two_claims

    with pytest.raises(ValidationError) as refusal:
        ClaimLink(from_claim=claim, to_claim=claim, relation="supports").full_clean()

    assert refusal.value.messages == ["A claim cannot be linked to itself."]
