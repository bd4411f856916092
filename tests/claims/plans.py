"""The plan a database makes for a queryset, to check which index serves a page."""

from django.db import connection


def plan(queryset) -> str:
    """EXPLAIN on PostgreSQL, with scans and sorts forbidden (a test's tiny tables are
    cheapest scanned and sorted: this asks whether an index can serve the query at all);
    EXPLAIN QUERY PLAN on SQLite; both after ANALYZE, as the benchmark's data has it
    (unanalyzed, PostgreSQL guesses one row a table, and any index that orders will do)."""
    sql, params = queryset.query.sql_with_params()
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("ANALYZE")
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute("SET LOCAL enable_sort = off")
            cursor.execute("EXPLAIN " + sql, params)
        else:
            cursor.execute("ANALYZE")
            cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
        return "\n".join(str(row) for row in cursor.fetchall())


# sqlite_stat1 as ANALYZE wrote it for the benchmark's million claims (bench/run.py), for
# the tables a claims page reads: SQLite plans a test's few rows otherwise than a
# million, where walking every episode instead of a small index cost 340 ms.
STATISTICS_AT_A_MILLION = {
    "claims_claim": {
        "claim_contradiction_aired": "10394 4 2 1 1 1 1",
        "claim_contradiction_oldest": "10394 4 2 1 1 1 1",
        "claim_episode_predictions": "95595 4 3 2 1 1 1 1",
        "claim_in_contradiction": "10394 1 1 1 1",
        "claim_published_aired": "958321 253 36 1 1 1",
        "claim_published_episode_type": "958321 36 5 5",
        "claim_published_prediction": "71946 21 1 1 1 1 1 1 1 1",
        "claim_published_resolved": "95595 23899 13 1 1",
        "claim_published_speaker": "958321 93 1 1",
        "claim_published_type_aired": "958321 106481 29 5 1 1 1",
        "claim_speaker_outcomes": "95595 14 8 2 2",
        "claim_speaker_record": "958321 93 11 9 1 1",
        "claim_speaker_resolved": "23649 7 1 1 1",
        "claim_speaker_status_episode": "1000000 97 63 7 7",
        "claim_speaker_type_record": "958321 93 15 2 2 1 1",
        "claim_status_episode": "1000000 333334 21 21",
        "claim_status_type": "1000000 333334 37038 1 1 1 1 1 1 1",
        "claims_claim_episode_id_455b41c5": "1000000 37",
        "claims_claim_speaker_id_e031226b": "1000000 97",
        "sqlite_autoindex_claims_claim_1": "1000000 37 1",
    },
    "episodes_episode": {
        "episode_air_date_id": "27282 8 1",
        "episode_podcast_newest": "27282 110 66 2 1",
        "episode_status_air_date": "27282 13641 6",
        "episodes_episode_podcast_id_4ee89141": "27282 110",
        "episodes_episode_slug_03d055e3": "27282 7",
        "sqlite_autoindex_episodes_episode_1": "27282 110 1",
    },
    "episodes_podcast": {"sqlite_autoindex_episodes_podcast_1": "250 1"},
    "episodes_speaker": {
        "speaker_on_record": "10230 18 1 1",
        "sqlite_autoindex_episodes_speaker_1": "25000 1",
    },
}


def plan_at_a_million(queryset) -> str:
    """SQLite's plan for `queryset` as it would be with the benchmark's million claims:
    its statistics put in place of the test's own, for this test's transaction."""
    sql, params = queryset.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
        for table, indexes in STATISTICS_AT_A_MILLION.items():
            cursor.execute("DELETE FROM sqlite_stat1 WHERE tbl = %s", [table])
            cursor.executemany(
                "INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (%s, %s, %s)",
                [(table, index, stat) for index, stat in indexes.items()],
            )
        # The planner reads the statistics again.
        cursor.execute("ANALYZE sqlite_schema")
        cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
        return "\n".join(str(row) for row in cursor.fetchall())
