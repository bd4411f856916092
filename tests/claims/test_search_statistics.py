"""PostgreSQL's statistics of the claims' search vectors
(claims/migrations/0036_search_vector_statistics.py)."""

import pytest
from django.db import connection


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
