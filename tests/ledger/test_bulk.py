"""Work over every row runs without the page's statement timeout, and only that work."""

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection, transaction

from ledger.bulk import lift_time_limit

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
