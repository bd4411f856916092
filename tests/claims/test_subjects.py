"""What claims are about and what they name, read for many claims at once (claims.subjects)."""

import pytest

from claims.models import ClaimReference, Reference, Role, Topic
from claims.subjects import with_subjects
from tests.factories import make_claim, make_episode

pytestmark = pytest.mark.django_db


def reference(title):
    return Reference.objects.create(kind="book", title=title, slug=title.lower())


def test_each_claim_gets_its_own_topics_by_name():
    episode = make_episode()
    first, second, bare = (make_claim(episode, number=n) for n in (1, 2, 3))
    zeppelins = Topic.objects.create(name="Zeppelins", slug="zeppelins")
    airships = Topic.objects.create(name="Airships", slug="airships")
    first.topics.add(zeppelins, airships)
    second.topics.add(zeppelins)

    with_subjects([first, second, bare])

    assert [topic.slug for topic in first.subjects.topics] == ["airships", "zeppelins"]
    assert [topic.slug for topic in second.subjects.topics] == ["zeppelins"]
    assert bare.subjects.topics == []


def test_a_claims_references_come_in_role_order_then_by_title():
    claim, other = make_claim(number=1), make_claim(number=2)
    lighter, balloons = reference("Lighter"), reference("Balloons")
    for ref, role in (
        (lighter, Role.MENTIONS),
        (lighter, Role.RECOMMENDS),
        (balloons, Role.MENTIONS),
    ):
        ClaimReference.objects.create(claim=claim, reference=ref, role=role)
    ClaimReference.objects.create(claim=other, reference=balloons, role=Role.USES)

    with_subjects([claim, other])

    assert [(n.role, n.reference.title) for n in claim.subjects.references] == [
        (Role.RECOMMENDS, "Lighter"),
        (Role.MENTIONS, "Balloons"),
        (Role.MENTIONS, "Lighter"),
    ]
    assert [(n.role, n.reference.title) for n in other.subjects.references] == [
        (Role.USES, "Balloons")
    ]


def test_two_queries_whatever_the_claims(django_assert_num_queries):
    episode = make_episode()
    claims = [make_claim(episode, number=n) for n in range(1, 6)]
    topic = Topic.objects.create(name="Airships", slug="airships")
    for claim in claims:
        claim.topics.add(topic)
        ClaimReference.objects.create(claim=claim, reference=reference(f"Book{claim.number}"))

    with django_assert_num_queries(2):
        with_subjects(claims)
    with django_assert_num_queries(0):
        with_subjects([])
