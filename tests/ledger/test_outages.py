"""Outages of what the site leans on: real servers that refuse, or accept and never answer.

A down cache must not take the public pages down, and a hung database must not
hang the health check. Times are bounds, not benchmarks: each outage must be
noticed within a few seconds, where before it hung until gunicorn's timeout.
"""

import contextlib
import http.client
import logging
import time

import pytest
from django.conf import settings
from django.db import connection

from ledger.settings import redis_cache
from tests.factories import make_claim
from tests.ledger.stack import free_port, gunicorn, production_env, silent_server
from tests.ledger.test_production import url_of_the_test_database

BUDGET_SECONDS = 5


@contextlib.contextmanager
def outage(kind):
    """A port where a server is down ("refusing") or hung ("silent")."""
    if kind == "silent":
        with silent_server() as port:
            yield port
    else:
        yield free_port()


@pytest.fixture(params=["refusing", "silent"])
def redis_down(request, settings):
    """REDIS_URL pointing at nothing, or at a server that never answers."""
    with outage(request.param) as port:
        settings.CACHES = {"default": redis_cache(f"redis://127.0.0.1:{port}/0")}
        yield


@pytest.fixture
def claim(db):
    return make_claim(excerpt="Said while the cache was down.")


def test_public_pages_render_while_the_cache_is_down(client, claim, redis_down):
    for url in ("/", "/claims/", claim.episode.get_absolute_url(), claim.get_absolute_url()):
        started = time.monotonic()
        response = client.get(url)
        assert response.status_code == 200, url
        assert time.monotonic() - started < BUDGET_SECONDS, url
    assert "Said while the cache was down." in response.content.decode()


def test_a_cache_outage_is_logged_once_not_on_every_request(client, claim, redis_down, caplog):
    with caplog.at_level(logging.WARNING, logger="ledger.fail_open"):
        for _ in range(3):
            assert client.get("/claims/").status_code == 200
    warnings = [r.getMessage() for r in caplog.records if r.name == "ledger.fail_open"]
    assert warnings == ["The page cache failed; working without it for 30 seconds"]


def test_health_check_reports_a_down_cache_but_stays_in_service(client, db, redis_down):
    started = time.monotonic()
    response = client.get("/healthz")
    assert time.monotonic() - started < BUDGET_SECONDS
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "cache": "down"}


@pytest.fixture(scope="module", params=["refusing", "silent"])
def database_down(request, tmp_path_factory):
    """gunicorn whose PostgreSQL is down or hung, whatever database the suite runs on."""
    with outage(request.param) as db_port:
        env = production_env(
            DATABASE_URL=f"postgres://ledger@127.0.0.1:{db_port}/ledger",
            DATABASE_CONNECT_TIMEOUT="2",
            SECURE_SSL_REDIRECT="false",
        )
        with gunicorn(env, tmp_path_factory.mktemp("log") / "gunicorn.log") as port:
            yield port


def timed_get(port, path):
    started = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", path, headers={"Host": "ledger.example.org"})
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response.status, body, time.monotonic() - started


def test_health_check_answers_503_within_its_budget_when_the_database_is_down(database_down):
    status, body, seconds = timed_get(database_down, "/healthz")
    assert status == 503
    assert b'"database": "unreachable"' in body
    assert seconds < BUDGET_SECONDS


def test_a_page_fails_within_the_connect_timeout_when_the_database_is_down(database_down):
    status, _, seconds = timed_get(database_down, "/claims/")
    assert status == 500
    assert seconds < BUDGET_SECONDS


def test_database_statements_and_lock_waits_are_time_limited(db):
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SHOW statement_timeout")
            assert cursor.fetchone()[0] == f"{settings.DATABASE_STATEMENT_TIMEOUT}s"
    else:
        assert connection.settings_dict["OPTIONS"]["timeout"] == settings.DATABASE_CONNECT_TIMEOUT


@pytest.mark.parametrize(
    "setting, value",
    [
        # No query is compiled just in time.
        ("jit", "off"),
        # The planner costs a random read as data in memory or on SSD.
        ("random_page_cost", "1.1"),
        # Parallel workers only for statements that read much.
        ("parallel_setup_cost", "10000"),
    ],
)
def test_postgresql_connections_carry_the_ledgers_planner_settings(db, setting, value):
    if connection.vendor != "postgresql":
        pytest.skip(f"{setting} is PostgreSQL's")
    with connection.cursor() as cursor:
        cursor.execute(f"SHOW {setting}")
        assert cursor.fetchone()[0] == value


@pytest.fixture(scope="module", params=["refusing", "silent"])
def replica_down(request, django_db_setup, django_db_blocker, tmp_path_factory):
    """gunicorn whose one read replica is down or hung, its primary the test database."""
    with django_db_blocker.unblock():
        primary = url_of_the_test_database()
    with outage(request.param) as replica_port:
        env = production_env(
            DATABASE_URL=primary,
            DATABASE_REPLICA_URLS=f"postgres://ledger@127.0.0.1:{replica_port}/ledger",
            DATABASE_CONNECT_TIMEOUT="2",
            # Static files from the finders: this stack has no collectstatic of its own.
            DEBUG="true",
            GUNICORN_WORKERS="1",
        )
        with gunicorn(env, tmp_path_factory.mktemp("log") / "gunicorn.log") as port:
            yield port


@pytest.fixture
def committed_claim(transactional_db):
    # Committed, so gunicorn's own connections see it.
    return make_claim(excerpt="Read from the primary while the replica was down.")


def test_public_pages_read_from_the_primary_when_the_replica_is_down(replica_down, committed_claim):
    for _ in range(2):
        status, body, seconds = timed_get(replica_down, committed_claim.get_absolute_url())
        assert status == 200
        assert "Read from the primary while the replica was down." in body.decode()
        assert seconds < BUDGET_SECONDS


def test_health_check_reports_a_down_replica_but_stays_in_service(replica_down, transactional_db):
    status, body, seconds = timed_get(replica_down, "/healthz")
    assert status == 200
    assert '"replicas": {"replica_1": {"status": "unreachable"}}' in body.decode()
    assert seconds < BUDGET_SECONDS
