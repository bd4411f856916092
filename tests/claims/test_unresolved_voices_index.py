"""The index of the public claims of unresolved voices, on PostgreSQL only
(claims/migrations/0034_unresolved_voices_on_postgresql.py)."""

import pytest
from django.db import connection
from django.http import QueryDict

from claims.browse import ClaimSearch
from claims.models import Attribution, Topic
from tests.claims.plans import plan
from tests.factories import make_claim, make_episode


def index_names():
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, "claims_claim")
    return {name for name, details in constraints.items() if details["index"]}


@pytest.fixture
def topic(db):
    topic = Topic.objects.create(name="Tariffs", slug="tariffs")
    episode = make_episode()
    for number in range(1, 7):
        attribution = Attribution.UNRESOLVED if number % 3 == 0 else Attribution.IDENTIFIED
        make_claim(episode, number=number, attribution=attribution).topics.add(topic)
    return topic


def test_postgresql_counts_the_claims_of_unresolved_voices_from_their_index(topic):
    if connection.vendor != "postgresql":
        pytest.skip("the index is PostgreSQL's only")
    # Statistics of these rows, as a production database keeps of its own: left to
    # autovacuum, they were those of another test's rows now and then, and so was the plan.
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE claims_claim, claims_claim_topics")
    found = ClaimSearch(QueryDict(f"topic={topic.slug}&attribution=unresolved"))

    assert found.count == 2
    # Not every public claim's entry in claim_status_type, which leads with the type.
    assert "claim_unresolved" in plan(found.without(None).order_by().values("pk"))


def test_the_index_is_made_on_postgresql_only(db):
    # Its planner chose it over better plans: ?attribution=unresolved alone took 340 ms
    # where it took 57 at a million claims.
    assert ("claim_unresolved" in index_names()) is (connection.vendor == "postgresql")
