"""The API and downloads over HTTP: cross-origin reads, no cookies, rate limits, validation."""

import pytest

from claims.api.throttles import APIThrottle, DownloadThrottle
from tests.factories import make_claim, make_speaker

pytestmark = pytest.mark.django_db

ORIGIN = {"HTTP_ORIGIN": "https://notebook.example.org"}


@pytest.mark.parametrize("path", ["/api/v1/claims/", "/claims.csv", "/claims.json"])
def test_any_origin_may_read_without_credentials(client, path):
    make_claim()

    response = client.get(path, **ORIGIN)

    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Credentials" not in response
    assert "origin" in response["Vary"].lower()
    assert not response.cookies


def test_a_preflight_allows_reading_only(client):
    response = client.options("/api/v1/claims/", HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET", **ORIGIN)

    assert response["Access-Control-Allow-Origin"] == "*"
    assert response["Access-Control-Allow-Methods"] == "GET, HEAD, OPTIONS"


def test_the_pages_are_not_opened_to_other_origins(client):
    assert "Access-Control-Allow-Origin" not in client.get("/claims/", **ORIGIN)


def test_api_answers_carry_the_ledgers_version_and_revalidate_to_304(client):
    make_claim()
    first = client.get("/api/v1/claims/", **ORIGIN)

    again = client.get("/api/v1/claims/", HTTP_IF_NONE_MATCH=first["ETag"], **ORIGIN)

    assert first["ETag"].startswith('"ledger-')
    assert "Last-Modified" in first
    assert again.status_code == 304
    assert again["Access-Control-Allow-Origin"] == "*"


@pytest.mark.parametrize("path", ["/claims.csv", "/speakers/ada-example/claims.json"])
def test_a_download_carries_the_ledgers_version_and_revalidates_to_304(client, path):
    make_claim(speaker=make_speaker(slug="ada-example"))
    first = client.get(path)
    b"".join(first.streaming_content)

    again = client.get(path, HTTP_IF_NONE_MATCH=first["ETag"])

    assert first["ETag"].startswith('"ledger-')
    assert "Last-Modified" in first
    assert "cookie" not in first.get("Vary", "").lower()
    assert again.status_code == 304


def test_a_change_to_the_ledger_changes_the_api_answer(client):
    claim = make_claim(excerpt="Before the change.")
    first = client.get("/api/v1/claims/")
    claim.retract("Withdrawn.")

    again = client.get("/api/v1/claims/", HTTP_IF_NONE_MATCH=first["ETag"])

    assert again.status_code == 200
    assert again.json()["results"] == []


def test_a_cached_answer_keeps_its_host(client, settings):
    settings.ALLOWED_HOSTS = ["a.example.org", "b.example.org"]
    client.get("/api/v1/", HTTP_HOST="a.example.org")

    body = client.get("/api/v1/", HTTP_HOST="b.example.org").json()

    assert body["claims"] == "http://b.example.org/api/v1/claims/"


@pytest.mark.parametrize(
    ("throttle", "paths"),
    [
        (APIThrottle, ["/api/v1/stats/", "/api/v1/podcasts/", "/api/v1/speakers/"]),
        (DownloadThrottle, ["/claims.csv", "/claims.json", "/claims.csv?bom=1"]),
    ],
)
def test_too_many_requests_from_one_address_are_told_when_to_retry(
    client, monkeypatch, throttle, paths
):
    monkeypatch.setattr(throttle, "rate", "2/minute", raising=False)
    first, second, third = (client.get(path) for path in paths)

    assert (first.status_code, second.status_code, third.status_code) == (200, 200, 429)
    assert 0 < int(third["Retry-After"]) <= 60
    assert client.get(paths[0], REMOTE_ADDR="192.0.2.7").status_code == 200
