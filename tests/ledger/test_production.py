"""The production stack: gunicorn with DEBUG off, against the test database."""

import http.client
import json
import os
import socket
import subprocess
import sys
import time

import pytest
from django.conf import settings
from django.db import connection

from tests.factories import make_claim
from tests.ledger.stack import BASE_DIR, gunicorn, production_env


def url_of_the_test_database():
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture(scope="module")
def server(django_db_setup, django_db_blocker, tmp_path_factory):
    """gunicorn serving the test database on a free loopback port, behind a pretend proxy."""
    static_root = tmp_path_factory.mktemp("static")
    with django_db_blocker.unblock():
        env = production_env(
            DATABASE_URL=url_of_the_test_database(),
            STATIC_ROOT=str(static_root),
            GUNICORN_WORKERS="2",
            DATABASE_CONN_MAX_AGE="0",
        )
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--no-input", "-v0"],
        cwd=BASE_DIR,
        env=env,
        check=True,
    )
    log_path = tmp_path_factory.mktemp("log") / "gunicorn.log"
    with gunicorn(env, log_path) as port:
        yield {"port": port, "static_root": static_root, "log": log_path}


def fetch(server, path, headers=None, proxied=True):
    """GET through gunicorn; `proxied` adds the headers a TLS-terminating proxy sets."""
    conn = http.client.HTTPConnection("127.0.0.1", server["port"], timeout=10)
    sent = {"Host": "ledger.example.org", **(headers or {})}
    if proxied:
        sent["X-Forwarded-Proto"] = "https"
    conn.request("GET", path, headers=sent)
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response, body


@pytest.fixture
def published_claim(transactional_db):
    # Committed (transactional_db), so gunicorn's own connections see it.
    return make_claim(excerpt="Served by gunicorn, verbatim.")


def test_gunicorn_serves_a_public_page(server, published_claim):
    response, body = fetch(server, published_claim.episode.get_absolute_url())
    assert response.status == 200
    assert "Served by gunicorn, verbatim." in body.decode()


def test_public_pages_carry_the_security_headers(server, published_claim):
    response, _ = fetch(server, "/")
    hsts = response.getheader("Strict-Transport-Security")
    assert int(hsts.split("max-age=")[1].split(";")[0]) >= 31536000
    assert "includeSubDomains" in hsts
    csp = response.getheader("Content-Security-Policy")
    assert "frame-ancestors 'none'" in csp
    assert "default-src 'self'" in csp
    assert "unsafe-inline" not in csp
    assert response.getheader("X-Content-Type-Options") == "nosniff"
    assert response.getheader("X-Frame-Options") == "DENY"
    assert response.getheader("Referrer-Policy") == "strict-origin-when-cross-origin"
    assert response.getheader("Cross-Origin-Opener-Policy") == "same-origin"


def test_public_pages_set_no_cookies(server, published_claim):
    for path in ("/", "/episodes/", "/claims/?q=gunicorn", published_claim.get_absolute_url()):
        response, _ = fetch(server, path)
        assert response.status == 200, path
        assert response.getheader("Set-Cookie") is None, path


def test_plain_http_is_redirected_to_https(server, transactional_db):
    response, _ = fetch(server, "/episodes/", proxied=False)
    assert response.status == 301
    assert response.getheader("Location") == "https://ledger.example.org/episodes/"


def test_admin_cookies_are_secure_httponly_and_same_site(server, transactional_db):
    response, _ = fetch(server, f"/{settings.ADMIN_URL}login/")
    cookie = response.getheader("Set-Cookie")
    assert cookie.startswith("__Host-csrftoken=")
    for flag in ("Secure", "HttpOnly", "SameSite=Lax", "Path=/"):
        assert flag in cookie


def test_a_repeat_visit_gets_304(server, published_claim):
    first, _ = fetch(server, "/")
    etag = first.getheader("ETag")
    assert etag
    again, body = fetch(server, "/", {"If-None-Match": etag})
    assert again.status == 304
    assert body == b""


def test_hashed_static_files_are_compressed_and_cached_for_ever(server, transactional_db):
    manifest = json.loads((server["static_root"] / "staticfiles.json").read_text())
    hashed = manifest["paths"]["ledger/site.css"]
    assert hashed != "ledger/site.css"
    for encoding in ("br", "gzip"):
        response, _ = fetch(server, f"/static/{hashed}", {"Accept-Encoding": encoding})
        assert response.status == 200
        assert response.getheader("Content-Encoding") == encoding
        assert "immutable" in response.getheader("Cache-Control")
        assert "max-age=315360000" in response.getheader("Cache-Control")


def test_health_check_answers_for_any_host_without_redirect(server, transactional_db):
    response, body = fetch(server, "/healthz", {"Host": "10.0.0.7"}, proxied=False)
    assert response.status == 200
    assert json.loads(body) == {"status": "ok", "database": "ok", "cache": "ok"}


def run_manage(*args, **env):
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=BASE_DIR, env=env, capture_output=True, text=True
    )


def test_deploy_check_passes_with_no_warnings():
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", **production_env())
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(
    ("unset", "message"),
    [("SECRET_KEY", "SECRET_KEY must be set"), ("ALLOWED_HOSTS", "ALLOWED_HOSTS must be set")],
)
def test_production_refuses_to_start_without(unset, message):
    env = production_env()
    env.pop(unset)
    result = run_manage("check", **env)
    assert result.returncode != 0
    assert message in result.stderr


def test_production_refuses_a_short_secret_key():
    result = run_manage("check", **production_env(SECRET_KEY="too-short"))
    assert result.returncode != 0
    assert "50 or more characters" in result.stderr


HOSTILE_PATHS = [
    "/x%0A%7Bforged%7D%20FAKE-ERROR-LINE%0A",
    "/x%0D%0A%22level%22:%20%22ERROR%22",
    "/back\\slash\\%5C\\",
    '/"quoted"/%22/',
    "/caf%C3%A9/%E2%80%A8/%C2%85/",
    "/bad%ZZpercent%C3",
    "/nul%00byte",
]


def send_raw(server, path, headers=""):
    """One request as raw bytes: http.client would refuse some of these paths and headers."""
    with socket.create_connection(("127.0.0.1", server["port"]), timeout=10) as sock:
        sock.sendall(
            f"GET {path} HTTP/1.1\r\nHost: ledger.example.org\r\n{headers}Connection: close\r\n\r\n".encode(
                "latin-1"
            )
        )
        while sock.recv(65536):
            pass


def test_every_log_line_is_one_json_object_whatever_the_request_holds(server, transactional_db):
    for path in HOSTILE_PATHS:
        send_raw(server, path, 'User-Agent: a\\b"c\r\nX-Forwarded-Proto: https\r\n')
    send_raw(server, "/the-last-hostile-request/", "X-Forwarded-Proto: https\r\n")
    deadline = time.monotonic() + 5
    while b"the-last-hostile-request" not in server["log"].read_bytes():
        assert time.monotonic() < deadline, "the access log never showed the last request"
        time.sleep(0.1)
    lines = server["log"].read_bytes().decode().splitlines()
    entries = [json.loads(line) for line in lines]
    assert {"method", "path", "status"} <= set(entries[-1])
    forged = next(e for e in entries if "FAKE-ERROR-LINE" in e.get("path", ""))
    assert forged["path"] == "/x\n{forged} FAKE-ERROR-LINE\n"
    assert forged["status"] == 404


def test_the_migrations_check_needs_no_database():
    # `make test` runs it before the suite creates its test database: with
    # DATABASE_URL naming a database that doesn't exist yet, it must stay quiet.
    result = subprocess.run(
        ["make", "--no-print-directory", "check-migrations"],
        cwd=BASE_DIR,
        env={**os.environ, "DATABASE_URL": "postgres://postgres@127.0.0.1:1/not_created_yet"},
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No changes detected" in result.stdout
    assert "Warning" not in result.stdout + result.stderr
