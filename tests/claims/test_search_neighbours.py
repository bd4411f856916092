"""PostgreSQL's pairs of neighbouring words, which serve phrases (claims/neighbours.py)."""

import pytest
from django.db import connection

from claims import search, search_index
from claims.models import Claim
from tests.factories import make_claim


@pytest.fixture
def postgresql(db):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite's index keeps where each word stands")


def found(text):
    matches = search.search(Claim.objects.published(), search.parse(text))
    return set(matches.values_list("number", flat=True))


def test_the_index_is_asked_for_a_phrases_neighbouring_words(postgresql):
    make_claim(excerpt="Reward hacking is real.")
    matches = search.search(Claim.objects.order_by(), search.parse('"reward hacking" real'))
    sql, params = matches.query.sql_with_params()
    with connection.cursor() as cursor:
        # The table is tiny, where a scan is cheapest: forbid it to see the index's part.
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("EXPLAIN " + sql, params)
        plan = [row[0] for row in cursor.fetchall()]
    index_conditions = [line for line in plan if "Index Cond" in line]
    assert index_conditions and "'reward hack'" in index_conditions[0]


def test_words_the_parser_drops_leave_the_rest_of_the_query_to_match(postgresql):
    make_claim(excerpt="Reward hacking is real.")
    # Python reads "²" as a word; PostgreSQL's parser drops it, as it did before pairs.
    assert found('"reward hacking" ²') == {1}
    assert found('"² ³" hacking') == {1}


def test_a_claim_with_long_neighbouring_words_is_saved_and_found(postgresql):
    # Each word fits a lexeme (2,047 bytes), the two together would not.
    make_claim(excerpt=f"{'a' * 1500} {'b' * 1500} reward hacking")
    assert found('"reward hacking"') == {1}


def pairs_kept():
    with connection.cursor() as cursor:
        cursor.execute("SELECT search_vector::text FROM claims_claim")
        (vector,) = cursor.fetchone()
    return "'reward hack'" in vector


def test_a_changed_neighbours_function_reindexes_every_claim(postgresql):
    make_claim(excerpt="Reward hacking is real.")
    with connection.cursor() as cursor:
        # A release whose claims kept no pairs.
        cursor.execute(
            "CREATE OR REPLACE FUNCTION claims_neighbours(words tsvector) RETURNS tsvector "
            "AS $$ SELECT ''::tsvector $$ LANGUAGE sql IMMUTABLE"
        )
        cursor.execute("UPDATE claims_claim SET excerpt = excerpt")
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    assert not pairs_kept()

    search_index.install(connection)

    assert pairs_kept()
    assert found('"reward hacking"') == {1}
