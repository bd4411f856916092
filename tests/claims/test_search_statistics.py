"""PostgreSQL's statistics of the claims' search vectors
(claims/migrations/0036_search_vector_statistics.py), and of the titles and names a search
matches (claims.search_index.TRIGRAM_STATISTICS)."""

import pytest
from django.db import connection

from claims import search_index


def test_postgresql_samples_ten_times_the_default_words_of_the_claims(db):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite's full-text index keeps no such statistics")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT attstattarget FROM pg_attribute "
            "WHERE attrelid = 'claims_claim'::regclass AND attname = 'search_vector'"
        )
        # A rare word's estimate comes from the rarest word sampled: at ten million
        # claims the default put one 7,000 claims hold at 19,608.
        assert cursor.fetchone()[0] == 1000


def trigram_targets():
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT index.relname, expression.attstattarget FROM pg_class AS index "
            "JOIN pg_attribute AS expression ON expression.attrelid = index.oid "
            "WHERE index.relname IN ('episode_title_trgm', 'speaker_name_trgm') "
            "ORDER BY index.relname"
        )
        return cursor.fetchall()


def test_postgresql_samples_ten_times_the_default_titles_and_names(db):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite's trigram tables keep no such statistics")
    # Of a hundred titles sampled, one holding a word made it one title in a hundred,
    # and the matching episodes were walked by date looking for five.
    assert trigram_targets() == [("episode_title_trgm", 1000), ("speaker_name_trgm", 1000)]


def test_a_trigram_index_without_its_statistics_target_gets_it_at_the_next_migrate(db):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite's trigram tables keep no such statistics")
    with connection.cursor() as cursor:
        cursor.execute("ALTER INDEX episode_title_trgm ALTER COLUMN 1 SET STATISTICS -1")

    search_index.install(connection)

    assert trigram_targets() == [("episode_title_trgm", 1000), ("speaker_name_trgm", 1000)]
