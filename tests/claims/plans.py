"""The plan a database makes for a queryset, to check which index serves a page."""

from django.db import connection


def plan(queryset) -> str:
    """EXPLAIN on PostgreSQL, with scans and sorts forbidden (a test's tiny tables are
    cheapest scanned and sorted: this asks whether an index can serve the query at all);
    EXPLAIN QUERY PLAN on SQLite; both after ANALYZE, as the benchmark's data has it
    (unanalyzed, PostgreSQL guesses one row a table, and any index that orders will do)."""
    return plan_of(*queryset.query.sql_with_params())


def plan_of(sql: str, params=None) -> str:
    """plan() of a statement as written, such as one a test captured as it ran."""
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
