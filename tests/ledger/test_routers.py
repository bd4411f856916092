"""Which database each read goes to: a replica for public reads, the primary for the rest."""

import logging

import pytest
from django.db import OperationalError
from django.http import HttpResponse, StreamingHttpResponse
from django.test import RequestFactory

from claims.models import Claim
from ledger import routers
from ledger.routers import ReplicaReadsMiddleware, ReplicaRouter
from tests.factories import make_claim

router = ReplicaRouter()


@pytest.fixture(autouse=True)
def one_replica(monkeypatch):
    """One replica, awake and current unless a test says otherwise."""
    monkeypatch.setattr(routers, "replica_aliases", lambda: ["replica_1"])
    monkeypatch.setattr(routers, "_resting_until", {})
    monkeypatch.setattr(routers, "replica_serves", lambda alias, needs_version: True)


def reads_of(request, before_reading=lambda: None):
    """The alias the router picks for a read inside `request`."""
    seen = []

    def view(request):
        before_reading()
        seen.append(router.db_for_read(Claim))
        return HttpResponse()

    ReplicaReadsMiddleware(view)(request)
    return seen[0]


def test_an_anonymous_public_get_reads_from_the_replica():
    assert reads_of(RequestFactory().get("/claims/")) == "replica_1"


def test_an_anonymous_head_reads_from_the_replica():
    assert reads_of(RequestFactory().head("/claims/")) == "replica_1"


def test_a_post_reads_from_the_primary():
    assert reads_of(RequestFactory().post("/claims/")) == "default"


def test_the_admin_reads_from_the_primary():
    assert reads_of(RequestFactory().get("/admin/claims/claim/")) == "default"


def test_a_signed_in_editor_reads_their_own_writes_on_public_pages(settings):
    request = RequestFactory().get("/claims/", HTTP_COOKIE=f"{settings.SESSION_COOKIE_NAME}=x")

    assert reads_of(request) == "default"


def test_a_request_that_wrote_reads_from_the_primary_afterwards():
    def write():
        assert router.db_for_write(Claim) == "default"

    assert reads_of(RequestFactory().get("/claims/"), before_reading=write) == "default"


def test_reads_outside_a_request_go_to_the_primary():
    assert router.db_for_read(Claim) == "default"


def test_a_replica_that_fails_its_check_sends_the_request_to_the_primary(monkeypatch):
    monkeypatch.setattr(routers, "replica_serves", lambda alias, needs_version: False)

    assert reads_of(RequestFactory().get("/claims/")) == "default"


def test_writes_go_to_the_primary():
    assert router.db_for_write(Claim) == "default"


def test_migrations_run_only_on_the_primary():
    assert router.allow_migrate("default", "claims")
    assert not router.allow_migrate("replica_1", "claims")


def test_a_download_reads_from_the_replica_while_it_streams():
    """The body of a streamed download is read after the middleware has returned."""
    seen = []

    def rows():
        seen.append(router.db_for_read(Claim))
        yield b"row\n"

    response = ReplicaReadsMiddleware(lambda request: StreamingHttpResponse(rows()))(
        RequestFactory().get("/claims.csv")
    )
    b"".join(response.streaming_content)

    assert seen == ["replica_1"]


@pytest.mark.django_db
def test_the_page_cache_asks_the_replica_for_the_primarys_version(client, settings, monkeypatch):
    """A replica that has not replayed the version a page is cached under must not render it."""
    settings.DATABASE_ROUTERS = ["ledger.routers.ReplicaRouter"]
    claim = make_claim(excerpt="Read at the current version.")
    asked = []

    def replica_serves(alias, needs_version):
        asked.append((alias, needs_version))
        return False

    monkeypatch.setattr(routers, "replica_serves", replica_serves)

    response = client.get(claim.get_absolute_url())

    assert "Read at the current version." in response.content.decode()
    assert asked == [("replica_1", routers.current_version()[0])]


@pytest.mark.django_db
def test_a_replica_behind_the_pages_version_is_not_read(monkeypatch):
    monkeypatch.undo()
    monkeypatch.setattr(routers, "current_version", lambda using: (4, None))

    assert not routers.replica_serves("replica_1", needs_version=5)
    assert routers.replica_serves("replica_1", needs_version=4)


def test_an_unreachable_replica_is_left_alone_for_a_while(monkeypatch, caplog):
    monkeypatch.undo()
    monkeypatch.setattr(routers, "replica_aliases", lambda: ["replica_1"])
    monkeypatch.setattr(routers, "_resting_until", {})

    def refused(using):
        raise OperationalError("connection refused")

    monkeypatch.setattr(routers, "current_version", refused)

    with caplog.at_level(logging.WARNING, logger="ledger.routers"):
        assert not routers.replica_serves("replica_1", needs_version=1)
    assert routers.choose_replica() is None
    assert [r.getMessage() for r in caplog.records] == [
        "The read replica replica_1 failed; reading from the primary for 30 seconds"
    ]
