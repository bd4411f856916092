"""Against a real PostgreSQL streaming replica: who reads where, and no one sees the past.

Run by .ci/run's third run (`pytest -m replica`), with DATABASE_REPLICA_URLS naming
a standby of DATABASE_URL's server; skipped when no replica is configured. The
test database is made on the primary and reaches the standby by replication, so
every write here is committed (transaction=True) and waited for.
"""

import time

import psycopg
import pytest
from django.db import connections
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.claims.admin_forms import claim_change_form
from tests.factories import make_claim

pytestmark = [pytest.mark.replica, pytest.mark.django_db(transaction=True, databases="__all__")]

REPLICA = "replica_1"
REPLAY_TIMEOUT_SECONDS = 30


def replica_server():
    """A connection to the standby outside Django's: its test database may not exist yet."""
    db = connections[REPLICA].settings_dict
    return psycopg.connect(
        host=db["HOST"], port=db["PORT"], user=db["USER"], dbname="postgres", autocommit=True
    )


def wait_for_replay():
    """Until the standby has replayed everything the primary has written so far."""
    with connections["default"].cursor() as cursor:
        cursor.execute("SELECT pg_current_wal_lsn()")
        written = cursor.fetchone()[0]
    deadline = time.monotonic() + REPLAY_TIMEOUT_SECONDS
    with replica_server() as standby:
        while time.monotonic() < deadline:
            replayed = standby.execute(
                "SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", [written]
            ).fetchone()[0]
            if replayed:
                return
            time.sleep(0.05)
    raise AssertionError(f"the replica did not replay {written} in {REPLAY_TIMEOUT_SECONDS} s")


class replay_paused:
    """The standby stops applying what it receives: a replica lagging as long as we like."""

    def __enter__(self):
        with replica_server() as standby:
            standby.execute("SELECT pg_wal_replay_pause()")

    def __exit__(self, *exc):
        with replica_server() as standby:
            standby.execute("SELECT pg_wal_replay_resume()")
        wait_for_replay()


@pytest.fixture
def claim():
    claim = make_claim(excerpt="Served by the standby.", summary="As first written.")
    wait_for_replay()
    return claim


@pytest.fixture
def editor_client(django_user_model, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    editor = django_user_model.objects.create_superuser("chief", password="x" * 20)
    client = Client()
    client.force_login(editor)
    return client


def read(client, url):
    """The page's text, and the SQL each database ran for it."""
    with (
        CaptureQueriesContext(connections["default"]) as primary,
        CaptureQueriesContext(connections[REPLICA]) as replica,
    ):
        response = client.get(url)
        text = b"".join(response.streaming_content if response.streaming else [response.content])
    assert response.status_code == 200, url
    return text.decode(), [q["sql"] for q in primary], [q["sql"] for q in replica]


def test_the_standby_is_a_replica_of_the_primary():
    with connections[REPLICA].cursor() as cursor:
        cursor.execute("SELECT pg_is_in_recovery()")
        assert cursor.fetchone()[0] is True


def test_a_public_page_reads_from_the_replica(client, claim):
    text, on_primary, on_replica = read(client, claim.episode.get_absolute_url())

    assert "Served by the standby." in text
    # Only the ledger's version, which names the page in the cache.
    assert len(on_primary) == 1 and "ledger_ledgerversion" in on_primary[0]
    assert any('"claims_claim"' in sql for sql in on_replica)


@pytest.mark.parametrize("url", ["/api/v1/claims/", "/claims.csv"])
def test_the_api_and_downloads_read_from_the_replica(client, claim, url):
    text, on_primary, on_replica = read(client, url)

    assert "Served by the standby." in text
    assert len(on_primary) == 1
    assert any('"claims_claim"' in sql for sql in on_replica)


def test_an_edit_in_the_admin_is_visible_to_the_editor_at_once(client, editor_client, claim):
    with replay_paused():
        saved = editor_client.post(
            f"/admin/claims/claim/{claim.pk}/change/",
            claim_change_form(claim, summary="Changed by the editor."),
        )
        text, _, on_replica = read(editor_client, claim.episode.get_absolute_url())

    assert saved.status_code == 302
    assert "Changed by the editor." in text
    assert on_replica == []


def test_a_lagging_replica_is_not_read_for_a_page_newer_than_it(client, editor_client, claim):
    """The version moved on the primary: the page is rendered from the primary, and so
    no old page is cached under the new version."""
    with replay_paused():
        editor_client.post(
            f"/admin/claims/claim/{claim.pk}/change/",
            claim_change_form(claim, summary="Changed while the replica lagged."),
        )
        text, on_primary, on_replica = read(client, claim.episode.get_absolute_url())

    assert "Changed while the replica lagged." in text
    assert len(on_replica) == 1 and "ledger_ledgerversion" in on_replica[0]
    assert any('"claims_claim"' in sql for sql in on_primary)


def test_once_replayed_the_edit_is_read_from_the_replica(client, editor_client, claim):
    editor_client.post(
        f"/admin/claims/claim/{claim.pk}/change/",
        claim_change_form(claim, summary="Changed, then replayed."),
    )
    wait_for_replay()

    text, _, on_replica = read(client, claim.episode.get_absolute_url())

    assert "Changed, then replayed." in text
    assert any('"claims_claim"' in sql for sql in on_replica)


def test_the_health_check_reports_the_replicas_lag(client):
    replicas = client.get("/healthz").json()["replicas"]

    assert replicas[REPLICA]["status"] == "ok"
    assert replicas[REPLICA]["lag_seconds"] >= 0
