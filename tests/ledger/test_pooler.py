"""Behind a real PgBouncer in transaction mode: what DATABASE_POOLER=transaction is for.

Run by .ci/run's fourth run (`pytest -m pooler`), with DATABASE_URL naming PgBouncer
in front of the primary and the role `ledger`, which carries the ledger's session
settings as docs/scaling.md says; skipped without DATABASE_POOLER. Every statement
commits on its own (transaction=True), so the pool hands out its server connections
between them, as it does in production.
"""

import csv
import io

import psycopg
import pytest
from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.test import Client

from claims.models import Claim
from episodes.models import Status
from ledger.checks import pooled_sessions_run_as_direct_ones
from tests.claims.admin_forms import claim_change_form
from tests.factories import make_claim, make_episode, make_podcast, make_speaker
from tests.ledger.pooler import through_the_pooler

pytestmark = [pytest.mark.pooler, pytest.mark.django_db(transaction=True)]


def server_pid(cursor):
    cursor.execute("SELECT pg_backend_pid()")
    return cursor.fetchone()[0]


@pytest.fixture
def claims():
    """Seven published claims, newest aired first in the browser, and a draft."""
    podcast, ada = make_podcast(), make_speaker(name="Ada Example")
    for day in range(1, 8):
        episode = make_episode(podcast, air_date=f"2026-03-{day:02d}")
        make_claim(episode, ada, excerpt=f"Pooled receipts, day {day}.")
    make_claim(episode, ada, excerpt="A draft the pool must not show.", status=Status.DRAFT)


def test_the_pool_hands_a_server_connection_out_per_transaction():
    with through_the_pooler() as other:
        with connection.cursor() as cursor:
            first = server_pid(cursor)
        # Ours was given back when its statement committed: the other client gets it.
        assert server_pid(other.cursor()) == first
        with transaction.atomic(), connection.cursor() as cursor:
            held = server_pid(cursor)
            # Ours is held until the transaction ends: the other client gets another.
            assert server_pid(other.cursor()) != held


def test_the_startup_options_of_a_direct_connection_are_refused():
    with pytest.raises(psycopg.OperationalError, match="unsupported startup parameter: options"):
        through_the_pooler(options=settings.POSTGRESQL_OPTIONS)


def test_every_session_runs_with_the_roles_limit_and_planner_settings():
    with connection.cursor() as cursor:
        cursor.execute("SHOW statement_timeout")
        assert cursor.fetchone()[0] == f"{settings.DATABASE_STATEMENT_TIMEOUT}s"
    assert pooled_sessions_run_as_direct_ones(databases=["default"]) == []


def test_a_server_side_cursor_breaks_when_another_client_holds_its_server(claims, monkeypatch):
    """Why the pooler's setting turns them off: a cursor lives on one server connection,
    and its next rows are asked on whichever one the pool hands out."""
    monkeypatch.setitem(connection.settings_dict, "DISABLE_SERVER_SIDE_CURSORS", False)
    rows = Claim.objects.order_by("pk").iterator(chunk_size=1)
    next(rows)
    with through_the_pooler() as other, other.transaction():
        other.execute("SELECT 1")
        # Django's error, or psycopg's as Django closes the cursor it lost.
        with pytest.raises((DatabaseError, psycopg.Error), match="does not exist"):
            next(rows)


def test_a_full_download_holds_every_public_claim_in_order(client, claims, monkeypatch):
    # Batches of three, three, then one: each a statement of its own, on whichever server
    # connection the pool gives it.
    monkeypatch.setattr("claims.downloads.BATCH", 3)

    response = client.get("/claims.csv")
    text = b"".join(response.streaming_content).decode()
    excerpts = [row["excerpt"] for row in csv.DictReader(io.StringIO(text.lstrip("\ufeff")))]

    assert response.status_code == 200
    assert excerpts == [f"Pooled receipts, day {day}." for day in range(7, 0, -1)]


def test_an_editors_change_is_shown_to_readers_at_once(client, django_user_model):
    editor = Client()
    editor.force_login(django_user_model.objects.create_superuser("chief", password=None))
    claim = make_claim(excerpt="Kept through the pool.", summary="As first written.")

    saved = editor.post(
        f"/admin/claims/claim/{claim.pk}/change/",
        claim_change_form(claim, summary="Changed through the pool."),
    )
    page = client.get(claim.get_absolute_url())

    assert saved.status_code == 302
    assert "Changed through the pool." in page.content.decode()
