"""Statements over every row of a big ledger, which run for minutes by design."""

from collections.abc import Iterator
from contextlib import contextmanager


def lift_time_limit(connection) -> None:
    """Lift the site's statement timeout (DATABASE_STATEMENT_TIMEOUT, meant for a page's
    queries) for the rest of the open transaction: a migration that rewrites every claim,
    a recount or a bulk load would otherwise be cancelled halfway. SQLite has none."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL statement_timeout = 0")


@contextmanager
def time_limit_lifted_for_session(connection) -> Iterator[None]:
    """The statement timeout lifted for the session while inside, for what cannot run in
    a transaction (VACUUM, which at ten million claims took longer than the page's
    limit), then put back as the connection started with it. Not nestable.

    Behind a transaction-mode pooler (DISABLE_SERVER_SIDE_CURSORS, see settings) the
    statements may each run on another server connection, so a SET for the session
    could leave some other client's connection without a limit: the role's own
    timeout then applies."""
    pooled = connection.settings_dict.get("DISABLE_SERVER_SIDE_CURSORS")
    if connection.vendor != "postgresql" or pooled:
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("SET statement_timeout = 0")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET statement_timeout")
