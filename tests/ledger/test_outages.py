"""Outages of what the site leans on: real servers that refuse, or accept and never answer.

A down cache must not take the public pages down, and a hung database must not
hang the health check. Times are bounds, not benchmarks: each outage must be
noticed within a few seconds, where before it hung until gunicorn's timeout.
"""

import logging
import socket
import threading
import time

import pytest

from ledger.settings import redis_cache
from tests.factories import make_claim

BUDGET_SECONDS = 5


def unused_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def silent_server():
    """A port on 127.0.0.1 that accepts connections and never says a word."""
    listener = socket.create_server(("127.0.0.1", 0))
    accepted = []
    stop = threading.Event()

    def hold():
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=hold, daemon=True)
    thread.start()
    yield listener.getsockname()[1]
    stop.set()
    thread.join()
    for conn in accepted:
        conn.close()
    listener.close()


@pytest.fixture(params=["refusing", "silent"])
def redis_down(request, settings):
    """REDIS_URL pointing at nothing, or at a server that never answers."""
    port = (
        unused_port() if request.param == "refusing" else request.getfixturevalue("silent_server")
    )
    settings.CACHES = {"default": redis_cache(f"redis://127.0.0.1:{port}/0")}


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
    with caplog.at_level(logging.WARNING, logger="ledger.caching"):
        for _ in range(3):
            assert client.get("/claims/").status_code == 200
    assert len([r for r in caplog.records if r.name == "ledger.caching"]) == 1


def test_health_check_reports_a_down_cache_but_stays_in_service(client, db, redis_down):
    started = time.monotonic()
    response = client.get("/healthz")
    assert time.monotonic() - started < BUDGET_SECONDS
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "cache": "down"}
