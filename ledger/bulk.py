"""Statements over every row of a big ledger, which run for minutes by design."""


def lift_time_limit(connection) -> None:
    """Lift the site's statement timeout (DATABASE_STATEMENT_TIMEOUT, meant for a page's
    queries) for the rest of the open transaction: a migration that rewrites every claim,
    a recount or a bulk load would otherwise be cancelled halfway. SQLite has none."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL statement_timeout = 0")
