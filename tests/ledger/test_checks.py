"""The deploy check that a pooled database's sessions run as the ledger's own connections."""

import pytest
from django.db import connection

from ledger.checks import pooled_sessions_run_as_direct_ones

pytestmark = pytest.mark.django_db

on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the sessions' settings are PostgreSQL's"
)


def warnings_for_default():
    return pooled_sessions_run_as_direct_ones(databases=["default"])


def test_without_a_pooler_nothing_is_asked(django_assert_num_queries):
    with django_assert_num_queries(0):
        assert warnings_for_default() == []


def test_checks_run_without_databases_ask_nothing(settings, django_assert_num_queries):
    settings.DATABASE_POOLER = "transaction"

    with django_assert_num_queries(0):
        assert pooled_sessions_run_as_direct_ones(databases=None) == []


@on_postgresql
def test_a_session_with_the_ledgers_settings_passes(settings):
    settings.DATABASE_POOLER = "transaction"

    assert warnings_for_default() == []


@on_postgresql
def test_a_session_without_them_is_named_with_the_statements_that_fix_the_role(settings):
    settings.DATABASE_POOLER = "transaction"
    with connection.cursor() as cursor:
        # For this test's transaction only, as a role without them would leave them.
        cursor.execute("SET LOCAL statement_timeout = 0")
        cursor.execute("SET LOCAL jit = on")
        cursor.execute("SELECT current_user")
        role = cursor.fetchone()[0]

    [warning] = warnings_for_default()

    assert warning.id == "ledger.W001"
    assert "sessions run with jit = on, statement_timeout = 0," in warning.msg
    assert "random_page_cost" not in warning.msg
    assert warning.hint == (
        "PgBouncer refuses startup options, so the role must carry them: "
        f'ALTER ROLE "{role}" SET jit = off; ALTER ROLE "{role}" SET statement_timeout = '
        f"{settings.DATABASE_STATEMENT_TIMEOUT * 1000};"
        " (docs/scaling.md)"
    )


def test_sqlite_has_no_sessions_to_check(settings, django_assert_num_queries):
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's")
    settings.DATABASE_POOLER = "transaction"

    with django_assert_num_queries(0):
        assert warnings_for_default() == []
