"""Work over every row runs without the page's statement timeout, and only that work."""

import io

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection, transaction

from ledger.bulk import lift_time_limit, time_limit_lifted_for_session

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="SQLite has no statement timeout"
)


def statement_timeout():
    with connection.cursor() as cursor:
        cursor.execute("SHOW statement_timeout")
        return cursor.fetchone()[0]


@pytest.mark.django_db(transaction=True)
def test_the_time_limit_is_lifted_for_one_transaction_only():
    with transaction.atomic():
        lift_time_limit(connection)
        assert statement_timeout() == "0"
    assert statement_timeout() == f"{settings.DATABASE_STATEMENT_TIMEOUT}s"


@pytest.mark.django_db(transaction=True)
def test_recount_runs_without_the_pages_time_limit(monkeypatch):
    seen = []

    def recount_everything():
        seen.append(statement_timeout())
        return {}

    monkeypatch.setattr("claims.management.commands.recount.recount_everything", recount_everything)
    call_command("recount")
    assert seen == ["0"]


@pytest.mark.django_db(transaction=True)
def test_a_lifted_session_limit_comes_back_as_the_connection_started():
    with time_limit_lifted_for_session(connection):
        assert statement_timeout() == "0"
    assert statement_timeout() == f"{settings.DATABASE_STATEMENT_TIMEOUT}s"


@pytest.mark.django_db(transaction=True)
def test_behind_a_transaction_pooler_the_session_keeps_its_limit(monkeypatch):
    # A SET for the session could reach another client's server connection there.
    monkeypatch.setitem(connection.settings_dict, "DISABLE_SERVER_SIDE_CURSORS", True)
    with time_limit_lifted_for_session(connection):
        assert statement_timeout() == f"{settings.DATABASE_STATEMENT_TIMEOUT}s"


@pytest.mark.django_db(transaction=True)
def test_synthetic_data_is_vacuumed_without_the_pages_time_limit():
    # VACUUM cannot run in a transaction, so SET LOCAL cannot lift its limit: at ten
    # million claims the page's 25 seconds cancelled it.
    seen = []

    def note_the_limit(execute, sql, params, many, context):
        if sql.startswith("VACUUM"):
            seen.append(statement_timeout())
        return execute(sql, params, many, context)

    with connection.execute_wrapper(note_the_limit):
        call_command("generate_synthetic", "--claims", "40", stdout=io.StringIO())

    assert seen and set(seen) == {"0"}
    assert statement_timeout() == f"{settings.DATABASE_STATEMENT_TIMEOUT}s"
