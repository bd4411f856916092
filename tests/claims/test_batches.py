"""Large reads in batches: behind a transaction-mode pooler, one bounded query per batch."""

import csv
import io
import re

import pytest
from django.db import connection
from django.http import QueryDict
from django.test.utils import CaptureQueriesContext

from claims.batches import in_batches
from claims.browse import ClaimSearch
from claims.models import Claim
from tests.claims.plans import plan_of
from tests.factories import make_claim, make_episode, make_podcast, make_speaker

pytestmark = pytest.mark.django_db


@pytest.fixture
def claims():
    """Seven claims over three episodes, two of which aired on the same day."""
    podcast = make_podcast()
    ada = make_speaker(name="Ada Example")
    episodes = [
        make_episode(podcast, air_date="2026-01-05"),
        make_episode(podcast, air_date="2026-01-05"),
        make_episode(podcast, air_date="2026-02-01"),
    ]
    for n, episode in enumerate([0, 0, 0, 1, 1, 2, 2]):
        make_claim(episodes[episode], ada, excerpt=f"Receipts matter, take {n}.")
    return Claim.objects.published()


@pytest.fixture
def pooled(monkeypatch):
    """The connection as DATABASE_POOLER=transaction configures it."""
    monkeypatch.setitem(connection.settings_dict, "DISABLE_SERVER_SIDE_CURSORS", True)


def ordered(query=""):
    """The claims browser's order for `query`, as downloads read it."""
    return ClaimSearch(QueryDict(query)).ordered()


def ids(rows):
    return [row.pk for row in rows]


@pytest.mark.parametrize("order", ["newest", "oldest"])
def test_batches_without_server_side_cursors_keep_the_order(claims, pooled, order):
    claims_in_order = ordered(f"order={order}")
    expected = ids(claims_in_order)

    assert ids(in_batches(claims_in_order, 3)) == expected


def test_batches_keep_the_order_of_relevance(claims, pooled):
    if connection.vendor != "postgresql":
        pytest.skip("keyset batches serve PgBouncer, which fronts PostgreSQL only")
    by_relevance = ordered("q=receipts")
    expected = ids(by_relevance)

    assert len(expected) == 7
    assert ids(in_batches(by_relevance, 3)) == expected


def test_without_server_side_cursors_each_batch_is_one_bounded_query(claims, pooled):
    with CaptureQueriesContext(connection) as queries:
        rows = list(in_batches(ordered(), 3))

    assert len(rows) == 7
    # Rows 1-3, 4-6, then 7: never more than a batch in memory.
    assert len(queries) == 3
    assert all("LIMIT 3" in query["sql"] for query in queries)


def test_with_server_side_cursors_the_rows_come_from_one_query(claims):
    with CaptureQueriesContext(connection) as queries:
        rows = list(in_batches(ordered(), 3))

    assert len(rows) == 7
    assert len(queries) == 1


def test_a_download_behind_the_pooler_holds_every_claim_in_order(client, claims, monkeypatch):
    expected = client.get("/claims.csv")
    expected_rows = list(csv.reader(io.StringIO(b"".join(expected.streaming_content).decode())))
    monkeypatch.setitem(connection.settings_dict, "DISABLE_SERVER_SIDE_CURSORS", True)
    monkeypatch.setattr("claims.downloads.BATCH", 2)

    response = client.get("/claims.csv")
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))

    assert len(rows) == 8
    assert rows == expected_rows


def test_each_later_batch_starts_at_its_row_in_the_index_of_the_first_key(claims, pooled):
    """The first key's bound is an index's condition, not a filter of every row before."""
    with CaptureQueriesContext(connection) as queries:
        list(in_batches(ordered(), 3))
    plan = plan_of(queries[1]["sql"])

    if connection.vendor == "postgresql":
        assert re.search(r"Index Cond: \(.*air_date <= '2026-01-05'::date", plan), plan
    else:
        assert "USING INDEX episode_status_air_date (status=? AND air_date<?)" in plan
