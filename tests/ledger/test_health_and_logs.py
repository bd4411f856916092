import contextlib
import io
import json
import logging
import subprocess
import sys
import time
import urllib.request
from urllib.parse import unquote

from django.db import DatabaseError
from django.test import RequestFactory

from ledger.logs import JSONFormatter
from tests.ledger.stack import BASE_DIR, free_port, production_env


def test_health_check_reports_a_reachable_database(client, db):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "cache": "ok"}


def test_health_check_answers_503_when_the_database_is_unreachable(client, db, monkeypatch):
    class RefusingConnection:
        def cursor(self):
            raise DatabaseError("connection refused")

        def close(self):
            pass

    monkeypatch.setattr("ledger.health.connection", RefusingConnection())
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "error", "database": "unreachable", "cache": "ok"}


def test_log_lines_are_json_with_the_request_but_not_its_query_or_cookies():
    request = RequestFactory().get("/claims/?q=private+search", HTTP_COOKIE="sessionid=secret")
    try:
        raise ValueError("boom")
    except ValueError:
        record = logging.getLogger("django.request").makeRecord(
            "django.request",
            logging.ERROR,
            __file__,
            1,
            "Internal Server Error: %s",
            (request.path,),
            exc_info=__import__("sys").exc_info(),
            extra={"request": request, "status_code": 500},
        )
    line = JSONFormatter().format(record)
    entry = json.loads(line)
    assert entry["level"] == "ERROR"
    assert entry["message"] == "Internal Server Error: /claims/"
    assert (entry["method"], entry["path"], entry["status"]) == ("GET", "/claims/", 500)
    assert "ValueError: boom" in entry["exception"]
    assert "private" not in line
    assert "secret" not in line


def test_a_hostile_request_is_logged_as_one_json_line(client, db):
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JSONFormatter())
    logger = logging.getLogger("django.request")
    logger.addHandler(handler)
    level = logger.level
    logger.setLevel(logging.WARNING)  # "Not Found: <path>"
    # A newline, a quote, a backslash and what str.splitlines() also splits on.
    path = "/x%0A%7Bforged%7D%20FAKE-ERROR-LINE%0D%0A%22%5C%E2%80%A8%C2%85%1E/"
    try:
        assert client.get(path).status_code == 404
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 1
    assert json.loads(lines[0])["path"] == unquote(path)


def test_the_development_server_logs_one_readable_line_per_event(tmp_path):
    """DEBUG on: Django's own console handler and the root's must not both print."""
    port = free_port()
    env = {
        **production_env(DEBUG="true", DATABASE_URL=f"sqlite:///{tmp_path / 'dev.sqlite3'}"),
        "PYTHONUNBUFFERED": "1",
    }
    log_path = tmp_path / "runserver.log"
    with open(log_path, "wb") as output:
        server = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}"],
            cwd=BASE_DIR,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
        try:
            deadline = time.monotonic() + 30
            while b"GET /static/ledger/site.css" not in log_path.read_bytes():
                assert time.monotonic() < deadline, log_path.read_text()
                with contextlib.suppress(OSError):
                    urllib.request.urlopen(
                        f"http://127.0.0.1:{port}/static/ledger/site.css"
                    ).close()
                time.sleep(0.2)
        finally:
            server.terminate()
            server.wait(timeout=30)
    lines = log_path.read_text().splitlines()
    assert sum("Watching for file changes" in line for line in lines) == 1, lines
    assert not [line for line in lines if line.startswith("{")], lines
