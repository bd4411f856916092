import json
import logging

from django.db import DatabaseError
from django.test import RequestFactory

from ledger.logs import JSONFormatter


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
