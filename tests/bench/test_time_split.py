"""The benchmark's account of where a search's time goes (bench/time_split.py)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bench.time_split import report_section, split
from tests.factories import make_ledger


@pytest.fixture
def searched(db, settings):
    settings.PAGE_CACHE_SECONDS = 0
    make_ledger(2, 3, 2)
    return "/claims/?q=exact"


def test_every_statement_of_the_page_is_caught_and_its_time_is_split(client, searched):
    with CaptureQueriesContext(connection) as page:
        client.get(searched)
    # Counted now: the next request starts Django's log of queries again.
    statements = len(page)

    timed = split(client, searched, [0.040, 0.050, 0.060])

    # On PostgreSQL the page's ranked ids come with the count.
    assert timed["statements"] == statements == 7 - (connection.vendor == "postgresql")
    assert timed["page_ms"] == 50
    assert 0 < timed["slowest_ms"] <= timed["sql_ms"]
    assert timed["rest_ms"] == pytest.approx(50 - timed["sql_ms"], abs=0.02)


def test_the_slowest_statement_comes_with_its_plan(client, searched):
    timed = split(client, searched, [0.05])

    assert timed["slowest_sql"].lstrip().upper().startswith(("SELECT", "WITH"))
    assert timed["plan"] and all(isinstance(line, str) for line in timed["plan"])


def figures(page_ms, sql_ms):
    return {
        "page_ms": page_ms,
        "sql_ms": sql_ms,
        "rest_ms": page_ms - sql_ms,
        "statements": 7,
        "slowest_ms": sql_ms / 2,
        "slowest_sql": "SELECT 1",
        "plan": [f"SCAN plan of a {page_ms} ms page"],
    }


def test_the_report_plans_only_the_pages_datasette_answers_faster():
    by_size = {
        10_000: {"time_split": {"search: rare": figures(5, 1)}},
        1_000_000: {
            "time_split": {"search: rare": figures(30, 10), "claims": figures(20, 7)},
            "http_latency": {"search: rare": {"median_ms": 31}, "claims": {"median_ms": 21}},
        },
    }
    datasette = {
        1_000_000: {
            "latency": {"search: rare": {"median_ms": 11}, "browse: all claims": {"median_ms": 40}}
        }
    }

    lines = report_section(by_size, datasette, {"browse: all claims": "claims"})

    assert "### Where the time goes at 1,000,000 (in-process, median ms)" in lines
    assert "| claims | 20 | 7 (7 statements) | 13 | 3.5 |" in "\n".join(lines)
    assert "SCAN plan of a 30 ms page" in lines
    assert "SCAN plan of a 20 ms page" not in lines
    assert any(
        line.startswith("**search: rare**: 31 ms over HTTP against Datasette's 11")
        for line in lines
    )


def test_a_plan_shown_once_is_named_after_that():
    splits = {"search: rare": figures(30, 10), "search: phrase": figures(60, 40)}
    splits["search: phrase"]["plan"] = splits["search: rare"]["plan"]
    by_size = {
        1_000_000: {
            "time_split": splits,
            "http_latency": {page: {"median_ms": 99} for page in splits},
        }
    }
    datasette = {1_000_000: {"latency": {page: {"median_ms": 11} for page in splits}}}

    lines = report_section(by_size, datasette, {})

    assert lines.count("SCAN plan of a 30 ms page") == 1
    assert lines[-1].endswith("planned as for search: rare above.")
