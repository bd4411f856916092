"""Where a page's time goes: its SQL, and the rest (Python and template rendering).

For each search Datasette answers faster, issue 18 asks the report to show why. A
page's statements are caught as it runs, then each is run again on its own and read
to the end: a driver's execute() returns at the first row, so timing it alone would
leave the fetching in "the rest". The slowest statement's plan comes with it.
"""

import statistics
import time

from django.db import connection

REPLAYS = 3


def split(client, url, page_seconds):
    """{"page_ms", "sql_ms", "rest_ms", "statements", "slowest_ms", "slowest_sql",
    "plan"}: `page_seconds` are the page's timed samples; its SQL is that of one
    more request, each statement's best of REPLAYS runs."""
    caught = []

    def catch(execute, sql, params, many, context):
        caught.append((sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(catch):
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    timed = [(_replayed(sql, params), sql, params) for sql, params in caught if _reads(sql)]
    page_ms = statistics.median(page_seconds) * 1000
    sql_ms = sum(ms for ms, _, _ in timed)
    slowest_ms, sql, params = max(timed, key=lambda statement: statement[0])
    return {
        "page_ms": round(page_ms, 2),
        "sql_ms": round(sql_ms, 2),
        "rest_ms": round(max(page_ms - sql_ms, 0), 2),
        "statements": len(caught),
        "slowest_ms": round(slowest_ms, 2),
        "slowest_sql": sql,
        "plan": plan(sql, params),
    }


def _reads(sql):
    return sql.lstrip().upper().startswith(("SELECT", "WITH"))


def _replayed(sql, params):
    """Milliseconds, the best of REPLAYS: the statement run and every row fetched."""
    with connection.cursor() as cursor:
        return min(_run(cursor, sql, params) for _ in range(REPLAYS)) * 1000


def _run(cursor, sql, params):
    begin = time.perf_counter()
    cursor.execute(sql, params)
    cursor.fetchall()
    return time.perf_counter() - begin


def plan(sql, params):
    """The database's plan for a statement, one line a step."""
    sqlite = connection.vendor == "sqlite"
    with connection.cursor() as cursor:
        # PostgreSQL runs it to say what each step took; SQLite can only say the steps.
        cursor.execute(("EXPLAIN QUERY PLAN " if sqlite else "EXPLAIN ANALYZE ") + sql, params)
        rows = cursor.fetchall()
    if not sqlite:
        return [line for (line,) in rows]
    # SQLite's rows are (id, parent, _, detail): indent each step under its parent.
    depth = {0: -1}
    lines = []
    for step, parent, _, detail in rows:
        depth[step] = depth.get(parent, -1) + 1
        lines.append("  " * depth[step] + detail)
    return lines


def report_section(by_size, datasette_by_size, peers):
    """Markdown lines: at the largest size, each measured page's SQL and the rest, and
    for each that Datasette answers faster over HTTP, its slowest statement's plan.
    `datasette_by_size`: {size: Datasette's result}, measured on SQLite's copy;
    `peers`: {Datasette's query: our page} where the names differ."""
    size, result = max(by_size.items())
    splits = result.get("time_split")
    if not splits:
        return []
    theirs = datasette_by_size.get(size, {}).get("latency", {})
    ours = result.get("http_latency", {})
    slower = {}
    for name, figure in theirs.items():
        page = peers.get(name, name)
        if page in ours and page in splits and ours[page]["median_ms"] > figure["median_ms"]:
            slower[page] = (ours[page]["median_ms"], figure["median_ms"])
    rows = "\n".join(
        f"| {page} | {s['page_ms']} | {s['sql_ms']} ({s['statements']} statements) "
        f"| {s['rest_ms']} | {s['slowest_ms']} |"
        for page, s in splits.items()
    )
    lines = [
        "",
        f"### Where the time goes at {size:,} (in-process, median ms)",
        "",
        "SQL: each of the page's statements run again on its own and read to the end, the "
        "best of three. The rest: Python and template rendering (bench/time_split.py).",
        "",
        "| page | page | SQL | the rest | slowest statement |",
        "|---|---|---|---|---|",
        rows,
    ]
    shown = {}
    for page, (mine, peer) in slower.items():
        s = splits[page]
        lines += [
            "",
            f"**{page}**: {mine} ms over HTTP against Datasette's {peer} ms. Its slowest "
            f"statement ({s['slowest_ms']} ms of {s['sql_ms']} ms of SQL), planned",
        ]
        steps = "\n".join(s["plan"])
        if steps in shown:
            # Most pages' slowest statement is the same count of facets: one plan is enough.
            lines[-1] += f" as for {shown[steps]} above."
            continue
        shown[steps] = page
        lines[-1] += ":"
        # Folded: a PostgreSQL plan with its timings runs to a hundred lines and more.
        lines += [
            "",
            "<details><summary>plan</summary>",
            "",
            "```",
            *s["plan"],
            "```",
            "</details>",
        ]
    return lines
