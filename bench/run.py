"""The benchmark: `make bench` (or `.venv/bin/python bench/run.py --sizes 10000,100000`).

For each database (SQLite, PostgreSQL) and size it:

1. makes the data once: a SQLite file or a PostgreSQL database `ledger_bench_<size>`
   filled by `generate_synthetic --seed 1`, kept in bench/data/ (gitignored) and
   reused while generate_synthetic.py is unchanged;
2. measures queries per page and server-side latency in-process (bench/inprocess.py),
   page cache off (uncached), on (cached) and with a matching ETag (revalidated);
3. serves the same database with gunicorn on loopback and loads each page with wrk,
   reporting requests/second as a share of /bench/minimal/ served by the same
   gunicorn in the same run, page cache off and on;
4. serves a copy of the published claims with Datasette and its FTS5 search, the
   peer a user might pick instead, and times its search and browse pages beside
   ours on each database over the same loopback HTTP, in alternating rounds.

It writes bench/results/report.md and report.json, with each target's pass/fail.
"""

import argparse
import hashlib
import http.client
import json
import os
import platform
import re
import secrets
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from urllib.parse import quote, urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import time_split  # noqa: E402
from bench.download import measure_download  # noqa: E402
from bench.stats import summary  # noqa: E402
from bench.targets import DATASETTE_PEERS, targets  # noqa: E402

BENCH = ROOT / "bench"
DATA = Path(os.environ.get("BENCH_DATA", BENCH / "data"))
RESULTS = BENCH / "results"
PYTHON = sys.executable
PG_SERVER = os.environ.get("BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432")
SEED = 1
GENERATOR = (
    ROOT / "claims/management/commands/generate_synthetic.py",
    ROOT / "claims/synthetic.py",
    ROOT / "claims/synthetic_curation.py",
)

# Pages loaded with wrk, and the targets' pages among them.
THROUGHPUT_PAGES = ("home", "episodes", "episode", "speaker", "claims (filtered)", "search")
TARGET_PAGES = ("episode", "claims (filtered)")
WHILE_EDITING = ("episode", "claims (filtered)")
HTTP_REPEAT = 10
# Rounds of the search and browse mix beside Datasette (measure_beside_datasette()).
HTTP_ROUNDS = 3
# Requests at once that warm a server before its latency is timed: gunicorn's workers.
WARM_AT_ONCE = int(os.environ.get("BENCH_WORKERS", "4"))
# Alternating runs of the minimal view and each page (see load()).
ROUNDS = 3
WRK_CONNECTIONS = 8


def log(message):
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def database_url(db, size):
    if db == "sqlite":
        return f"sqlite:///{DATA / f'ledger_bench_{size}.sqlite3'}"
    return f"{PG_SERVER}/ledger_bench_{size}"


def django_env(url, **extra):
    """The production settings, on plain local HTTP, for `url`."""
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env.update(
        DATABASE_URL=url,
        DEBUG="false",
        SECRET_KEY=os.environ.get("BENCH_SECRET_KEY") or secrets.token_urlsafe(50),
        ALLOWED_HOSTS="testserver,127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="false",
        STATIC_ROOT=str(DATA / "static"),
        LOG_LEVEL="WARNING",
        REDIS_URL="",
        # The benchmark asks far faster than any reader may.
        API_RATE="100000000/minute",
        DOWNLOAD_RATE="100000000/minute",
    )
    env.update(extra)
    return env


def manage(url, *args):
    subprocess.run(
        [PYTHON, "manage.py", *args], cwd=ROOT, env=django_env(url), check=True, stdout=sys.stderr
    )


# -- data --------------------------------------------------------------------


def fingerprint():
    """Changes whenever the generated data would: the generator or its plan."""
    digest = hashlib.sha256(b"".join(path.read_bytes() for path in GENERATOR))
    return digest.hexdigest()[:16] + f"-seed{SEED}"


def stamps():
    path = DATA / "stamps.json"
    return json.loads(path.read_text()) if path.exists() else {}


def save_stamp(key, value):
    current = stamps()
    current[key] = value
    DATA.mkdir(parents=True, exist_ok=True)  # PostgreSQL's data alone leaves it unmade
    (DATA / "stamps.json").write_text(json.dumps(current, indent=1))


def psql(sql, database="postgres"):
    """Run `sql` with psql; its output, unaligned and without headers."""
    output = subprocess.run(
        ["psql", f"{PG_SERVER}/{database}", "-qtAc", sql],
        check=True,
        stdout=subprocess.PIPE,
        text=True,
    )
    return output.stdout.strip()


def postgres_server():
    """The server's version and the settings the figures depend on most."""
    return "PostgreSQL " + psql(
        "SELECT current_setting('server_version') || ', shared_buffers ' || "
        "current_setting('shared_buffers') || ', work_mem ' || current_setting('work_mem')"
    )


def code_version():
    """The commit measured, marked when the working tree differs from it."""

    def git(*args):
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True).stdout

    commit = git("rev-parse", "--short", "HEAD").strip() or "unknown"
    return commit + (
        " with uncommitted changes"
        if git("status", "--porcelain", "--", ".", ":!bench/results")
        else ""
    )


def ensure_data(db, size):
    """Generate the database for (db, size) unless an up-to-date one is already there."""
    url, key = database_url(db, size), f"{db}:{size}"
    if stamps().get(key) == fingerprint():
        manage(url, "migrate", "--no-input", "-v0")  # new migrations apply to old data
        # A new index has no statistics yet: SQLite's planner then misjudges it
        # (the claims browser took 1.2 s instead of 38 ms at a million claims).
        settle_data(db, size)
        return url
    log(f"generating {size:,} claims on {db}")
    started = time.monotonic()
    if db == "sqlite":
        path = DATA / f"ledger_bench_{size}.sqlite3"
        for stale in DATA.glob(f"ledger_bench_{size}.sqlite3*"):
            stale.unlink()
        path.parent.mkdir(parents=True, exist_ok=True)
    else:
        psql(f"DROP DATABASE IF EXISTS ledger_bench_{size} WITH (FORCE)")
        psql(f"CREATE DATABASE ledger_bench_{size}")
    manage(url, "migrate", "--no-input", "-v0")
    manage(url, "generate_synthetic", "--claims", str(size), "--seed", str(SEED))
    save_stamp(key, fingerprint())
    save_stamp(f"{key}:seconds", round(time.monotonic() - started, 1))
    (DATA / f"datasette_{size}.db").unlink(missing_ok=True)
    settle_data(db, size)
    return url


def settle_data(db, size):
    """Statistics for every index, and on PostgreSQL a vacuum: a production database
    has long been vacuumed, and until it is, index-only scans read the heap too (the
    rare-word search took 152-165 ms at a million straight after generating, 54-63 ms
    once settled). A new index without statistics misleads SQLite's planner too (the
    claims browser took 1.2 s instead of 38 ms at a million claims)."""
    log(f"{db} {size:,}: settling the data ({'ANALYZE' if db == 'sqlite' else 'VACUUM (ANALYZE)'})")
    if db == "sqlite":
        connection = sqlite3.connect(DATA / f"ledger_bench_{size}.sqlite3")
        connection.execute("ANALYZE")
        connection.close()
    else:
        psql("VACUUM (ANALYZE)", database=f"ledger_bench_{size}")


def datasette_copy(size):
    """A SQLite file of the published claims, one table with FTS5, as Datasette would publish it."""
    target = DATA / f"datasette_{size}.db"
    if target.exists():
        return target
    log(f"building the Datasette copy of {size:,} claims")
    source = DATA / f"ledger_bench_{size}.sqlite3"
    partial = target.with_suffix(".partial")
    partial.unlink(missing_ok=True)
    conn = sqlite3.connect(partial)
    conn.executescript(
        f"""
        ATTACH DATABASE '{source}' AS ledger;
        CREATE TABLE claims (
            id INTEGER PRIMARY KEY, podcast TEXT, episode TEXT, air_date TEXT, number INTEGER,
            type TEXT, speaker TEXT, attribution TEXT, excerpt TEXT, search_context TEXT
        );
        INSERT INTO claims
        SELECT c.id, p.name, e.title, e.air_date, c.number, c.type,
               coalesce(s.name, nullif(c.unresolved_label, ''), 'Unresolved voice'),
               c.attribution, c.excerpt, c.search_context
        FROM ledger.claims_claim c
        JOIN ledger.episodes_episode e ON e.id = c.episode_id
        JOIN ledger.episodes_podcast p ON p.id = e.podcast_id
        LEFT JOIN ledger.episodes_speaker s ON s.id = c.speaker_id
        WHERE c.status = 'published' AND e.status = 'published';
        CREATE INDEX claims_type ON claims (type);
        CREATE INDEX claims_podcast ON claims (podcast);
        CREATE INDEX claims_speaker ON claims (speaker);
        CREATE INDEX claims_air_date ON claims (air_date);
        CREATE VIRTUAL TABLE claims_fts USING fts5(
            excerpt, search_context, content="claims", content_rowid="id",
            tokenize='porter unicode61 remove_diacritics 2'
        );
        INSERT INTO claims_fts(claims_fts) VALUES ('rebuild');
        ANALYZE;
        """
    )
    conn.commit()
    conn.close()
    partial.rename(target)
    return target


# -- servers and load --------------------------------------------------------


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(port, path, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            status, _, _ = http_get(port, path)
            if status < 500:
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise RuntimeError(f"nothing answered on 127.0.0.1:{port}{path}")


def http_get(port, path, headers=None, connection=None):
    conn = connection or http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    conn.request("GET", path, headers={"Host": "127.0.0.1", **(headers or {})})
    response = conn.getresponse()
    body = response.read()
    if connection is None:
        conn.close()
    return response.status, dict(response.getheaders()), body


class Server:
    """A server process on a loopback port, stopped (its process group) on exit."""

    def __init__(self, argv, env, port, ready_path):
        self.argv, self.env, self.port, self.ready_path = argv, env, port, ready_path

    def __enter__(self):
        self.process = subprocess.Popen(
            self.argv,
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=open(DATA / "server.log", "ab"),
            start_new_session=True,
        )
        wait_for(self.port, self.ready_path)
        return self

    def __exit__(self, *exc):
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


def gunicorn(url, page_cache_seconds, workers=None, **settings):
    port = free_port()
    env = django_env(
        url,
        **settings,
        BENCHMARK_VIEWS="true",
        PAGE_CACHE_SECONDS=str(page_cache_seconds),
        GUNICORN_BIND=f"127.0.0.1:{port}",
        GUNICORN_WORKERS=str(workers or os.environ.get("BENCH_WORKERS", "4")),
        GUNICORN_ACCESS_LOG="/dev/null",
        GUNICORN_LOG_LEVEL="warning",
        GUNICORN_MAX_REQUESTS="0",
    )
    argv = [str(Path(PYTHON).parent / "gunicorn"), "ledger.wsgi", "--config", "gunicorn.conf.py"]
    return Server(argv, env, port, "/bench/minimal/")


def datasette(path):
    port = free_port()
    argv = [
        str(Path(PYTHON).parent / "datasette"),
        "serve",
        "-i",
        str(path),
        "-h",
        "127.0.0.1",
        "-p",
        str(port),
        "--setting",
        "sql_time_limit_ms",
        "60000",
        "--setting",
        "facet_time_limit_ms",
        "60000",
        "--setting",
        "suggest_facets",
        "off",
        "--setting",
        "default_page_size",
        "20",
    ]
    return Server(argv, dict(os.environ), port, "/-/versions.json")


def warm(port, path, at_once=WARM_AT_ONCE):
    """`path` asked `at_once` at a time, twice: a gunicorn sync worker answers one request
    at a time, so each of its workers answers one. One request warmed one worker of
    four, and a worker's first answer of a page took twice as long as the next (its
    database connection, its first use of code): up to three of ten timed requests then
    landed on a cold worker (p95s of 80-130 ms where medians were 20-35). Datasette, one
    process, is asked the same."""
    with ThreadPoolExecutor(at_once) as pool:
        for _ in range(2):
            list(pool.map(lambda _: http_get(port, path), range(at_once)))


def wrk(port, path, seconds, headers=None):
    """Requests per second from wrk on loopback: 2 threads, 8 connections, `seconds` long."""
    argv = ["wrk", "-t2", f"-c{WRK_CONNECTIONS}", f"-d{seconds}s", "--timeout", "30s"]
    for name, value in (headers or {}).items():
        argv += ["-H", f"{name}: {value}"]
    output = subprocess.run(
        [*argv, f"http://127.0.0.1:{port}{path}"], capture_output=True, text=True, check=True
    ).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    return {"rps": round(rps, 1), "errors": int(errors.group(1)) if errors else 0}


def http_samples(port, path, repeat=HTTP_REPEAT):
    """Seconds each of `repeat` sequential GETs took over one keep-alive loopback
    connection, once every worker of the server has answered `path` (warm())."""
    warm(port, path)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    status, _, _ = http_get(port, path, connection=conn)
    if status != 200:
        raise RuntimeError(f"{path} answered {status}")
    samples, started = [], time.perf_counter()
    for i in range(repeat):
        begin = time.perf_counter()
        http_get(port, path, connection=conn)
        samples.append(time.perf_counter() - begin)
        if i >= 4 and time.perf_counter() - started > 8:
            break
    conn.close()
    return samples


def load(port, pages, names, seconds, revalidate=False):
    """wrk on each page, as a share of the minimal view measured alongside it.

    The machine drifts (other work, autovacuum, the load generator itself): a
    page measured once against a yardstick taken minutes apart was off by up to
    40% (a 304 at 73%, then 111%). So each page runs in ROUNDS pairs, the minimal
    view straight before the page, `seconds` shared between the rounds, and its
    share is the median of the pairs' ratios.
    """
    minimal_path = "/bench/minimal/"
    minimal_headers = _request_headers(port, minimal_path, revalidate)
    wrk(port, minimal_path, 1, minimal_headers)  # warm every worker
    per_round = max(1, seconds // ROUNDS)
    yardstick, figures = [], {}
    for name in names:
        path = pages.get(name, name)
        headers = _request_headers(port, path, revalidate)
        wrk(port, path, 1, headers)  # warm every worker (and its cache)
        pairs = []
        for _ in range(ROUNDS):
            settle(port)
            minimal = wrk(port, minimal_path, per_round, minimal_headers)
            pairs.append((minimal, wrk(port, path, per_round, headers)))
            yardstick.append(minimal["rps"])
        figures[name] = {
            "rps": statistics.median(page["rps"] for _, page in pairs),
            "errors": sum(page["errors"] for _, page in pairs),
            "ratio": round(statistics.median(page["rps"] / m["rps"] for m, page in pairs), 3),
        }
    return {
        "minimal_rps": statistics.median(yardstick),
        "minimal_runs": yardstick,
        "pages": figures,
    }


def settle(port, timeout=60):
    """Wait until every worker is free again.

    When wrk stops, the workers still finish the requests they hold: after a slow
    page, a one-second run of the minimal view could complete none. Idle means a
    burst of as many requests as wrk's connections all answer quickly.
    """
    deadline = time.monotonic() + timeout
    with ThreadPoolExecutor(WRK_CONNECTIONS) as pool:
        while time.monotonic() < deadline:
            started = time.monotonic()
            list(pool.map(lambda _: http_get(port, "/bench/minimal/"), range(WRK_CONNECTIONS)))
            if time.monotonic() - started < 0.05:
                return


def _request_headers(port, path, revalidate):
    """Checks that `path` answers 200; with `revalidate`, the If-None-Match that makes it a 304."""
    status, headers, _ = http_get(port, path)
    if status != 200:
        raise RuntimeError(f"{path} answered {status}")
    return {"If-None-Match": headers["ETag"]} if revalidate else None


# -- one database at one size ------------------------------------------------


def measure(db, size, options):
    url = ensure_data(db, size)
    log(f"{db} {size:,}: in-process queries and latency")
    output = subprocess.run(
        [PYTHON, str(BENCH / "inprocess.py")],
        cwd=ROOT,
        env=django_env(url),
        capture_output=True,
        text=True,
    )
    if output.returncode:
        sys.stderr.write(output.stderr)
        raise SystemExit(f"bench/inprocess.py failed on {db} at {size}")
    result = json.loads(output.stdout)
    result["generated_in_seconds"] = stamps().get(f"{db}:{size}:seconds")
    pages = result["pages"]

    if not options.no_throughput:
        log(f"{db} {size:,}: throughput under gunicorn (wrk, {options.seconds}s a page)")
        result["throughput"] = {}
        for label, seconds in (("uncached", 0), ("cached", 600)):
            with gunicorn(url, seconds) as server:
                names = THROUGHPUT_PAGES
                result["throughput"][label] = load(server.port, pages, names, options.seconds)
                if label == "cached":
                    result["throughput"]["revalidated"] = load(
                        server.port, pages, TARGET_PAGES, options.seconds, revalidate=True
                    )

        log(f"{db} {size:,}: readers while an editor makes one edit a second")
        with gunicorn(url, 600) as server:
            result["while_editing"] = while_editing(url, server.port, pages, options.seconds)

    result["database_mb"] = database_megabytes(db, size)
    log(f"{db} {size:,}: a full CSV download under gunicorn, one worker")
    # Threads: a sync worker is killed GUNICORN_TIMEOUT (30 s) into a download that
    # streams for minutes; a threaded worker's timeout watches the worker, not the
    # request (docs/scaling.md).
    with gunicorn(url, 0, workers=1, GUNICORN_THREADS="2") as server:
        result["download"] = measure_download(server.port, server.process.pid)

    return result


def while_editing(url, port, pages, seconds):
    """Readers' throughput on WHILE_EDITING pages, page cache on, with no editor and then
    with one public edit a second (each edit moves the version: the cache starts again)."""
    quiet = load(port, pages, WHILE_EDITING, seconds)
    editor = subprocess.Popen(
        [PYTHON, str(BENCH / "editor.py")], cwd=ROOT, env=django_env(url), stdout=subprocess.PIPE
    )
    try:
        busy = load(port, pages, WHILE_EDITING, seconds)
    finally:
        editor.terminate()
        edits = int(editor.communicate(timeout=30)[0] or 0)
    return {
        "edits": edits,
        "pages": {
            name: {
                "quiet_rps": quiet["pages"][name]["rps"],
                "editing_rps": busy["pages"][name]["rps"],
            }
            for name in WHILE_EDITING
        },
    }


def database_megabytes(db, size):
    if db == "sqlite":
        return round((DATA / f"ledger_bench_{size}.sqlite3").stat().st_size / 2**20)
    return round(int(psql(f"SELECT pg_database_size('ledger_bench_{size}')")) / 2**20)


def our_mix(result):
    """{name: path} of our pages in the search and browse mix, as one database measured them."""
    pages, searches = result["pages"], result["search_mix"]["queries"]
    return {
        "claims": pages["claims"],
        "claims (filtered)": pages["claims (filtered)"],
        **{f"search: {kind}": path for kind, path in searches.items()},
    }


def measure_beside_datasette(size, results):
    """The search and browse mix over loopback HTTP, page cache off: Datasette's queries
    and our pages on each database, in alternating rounds within the same minutes.

    Measured apart, each minutes after the other, the machine's drift decided the
    verdict: browsing every claim passed one run (23 ms against 30) and failed the next
    (17 against 13) with the page unchanged. Here each of our pages is timed on every
    database and its peers on Datasette, HTTP_ROUNDS times over, each round starting
    with another of them; each figure is of all its rounds' samples.

    Writes each database's `http_latency` and SQLite's `datasette` at `size`.
    """
    log(f"beside Datasette at {size:,}: the search and browse mix, alternating")
    copy = datasette_copy(size)
    sqlite = results["sqlite"][size]
    filtered = urlencode(
        {"type": "prediction", "air_date__gte": "2025-01-01", "_sort_desc": "air_date"}
    )
    facets = "&_facet=type&_facet=speaker&_facet=podcast&_facet=attribution"
    theirs = {
        "browse: all claims": "/" + copy.stem + "/claims",
        "browse: filtered": f"/{copy.stem}/claims?{filtered}",
        "browse: filtered, faceted": f"/{copy.stem}/claims?{filtered}{facets}",
        **{
            f"search: {kind}": f"/{copy.stem}/claims?_search={quote(expression)}&_searchmode=raw"
            for kind, expression in sqlite["fts5"].items()
        },
    }
    ours = {db: our_mix(by_size[size]) for db, by_size in results.items()}
    samples = {server: {} for server in ("datasette", *results)}
    with ExitStack() as stack:
        peer = stack.enter_context(datasette(copy))
        servers = {db: stack.enter_context(gunicorn(database_url(db, size), 0)) for db in results}
        for round_ in range(HTTP_ROUNDS):
            for name in ours["sqlite"]:
                timings = [
                    *((db, name, server.port, ours[db][name]) for db, server in servers.items()),
                    *(
                        ("datasette", query, peer.port, theirs[query])
                        for query in theirs
                        if DATASETTE_PEERS.get(query, query) == name
                    ),
                ]
                # Each round starts with another server, so none is always timed first.
                shift = round_ % len(timings)
                for server, label, port, path in timings[shift:] + timings[:shift]:
                    samples[server].setdefault(label, []).extend(http_samples(port, path))
        version = json.loads(http_get(peer.port, "/-/versions.json")[2])["datasette"]["version"]
    for db in results:
        results[db][size]["http_latency"] = {n: summary(s) for n, s in samples[db].items()}
    sqlite["datasette"] = {
        "version": version,
        "paths": theirs,
        "latency": {query: summary(s) for query, s in samples["datasette"].items()},
    }


# -- targets and report ------------------------------------------------------


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def markdown(report):
    results = report["results"]
    out = [
        "# Benchmark report",
        "",
        f"{report['started']}, code {report['code']}, {report['machine']}. "
        f"Command: `{report['command']}` "
        f"({report['seconds']:.0f} s in all). Generated by bench/run.py; see docs/performance.md.",
        "",
        "## Targets",
        "",
        table(
            ("target", "measured", ""),
            [
                (t["target"], t["measured"], "pass" if t["pass"] else "**FAIL**")
                for t in report["targets"]
            ],
        ),
    ]
    for db, by_size in results.items():
        out += ["", f"## {db}", ""]
        names = list(next(iter(by_size.values()))["queries"])
        out += [
            "### Queries per request",
            "",
            table(
                ("page", *(f"{s:,}" for s in by_size)),
                [(n, *(r["queries"][n] for r in by_size.values())) for n in names],
            ),
            "",
            "### Server-side latency, in-process (median / p95 ms)",
            "",
        ]
        for label in ("uncached", "cached", "revalidated"):
            rows = []
            for name in next(iter(by_size.values()))[label]:
                rows.append(
                    (
                        name,
                        *(
                            f"{r[label][name]['median_ms']} / {r[label][name]['p95_ms']}"
                            for r in by_size.values()
                        ),
                    )
                )
            out += [f"**{label}**", "", table(("page", *(f"{s:,}" for s in by_size)), rows), ""]
        out += [
            "Search mix: "
            + "; ".join(
                f"{s:,}: p95 {r['search_mix']['p95_ms']} ms, rare-term median {r['search_mix']['rare_median_ms']} ms"
                for s, r in by_size.items()
            ),
            "",
            "### Admin pages (median / p95 ms, queries)",
            "",
            table(
                ("page", *(f"{s:,}" for s in by_size)),
                [
                    (
                        name,
                        *(
                            f"{r['admin'][name]['median_ms']} / {r['admin'][name]['p95_ms']}, "
                            f"{r['admin'][name]['queries']} queries"
                            if name in r["admin"]
                            else ""
                            for r in by_size.values()
                        ),
                    )
                    for name in next(iter(by_size.values()))["admin"]
                ],
            ),
            "",
            "Data: "
            + "; ".join(
                f"{s:,}: generated in {r.get('generated_in_seconds')} s, "
                f"{r.get('database_mb', '?')} MB on disk"
                for s, r in by_size.items()
            ),
        ]
        out += [
            "",
            "Full CSV download under gunicorn (one worker): "
            + "; ".join(
                f"{s:,}: {r['download']['rows']:,} rows, {r['download']['megabytes']} MB in "
                f"{r['download']['seconds']} s (first byte {r['download']['first_byte_ms']} ms), "
                f"worker peak {r['download']['peak_worker_mb']} MB"
                for s, r in by_size.items()
                if "download" in r
            ),
        ]
        datasette_runs = {
            size: r["datasette"]
            for size, r in results.get("sqlite", {}).items()
            if "datasette" in r
        }
        out += time_split.report_section(by_size, datasette_runs, DATASETTE_PEERS)
        for size, r in by_size.items():
            if "throughput" not in r:
                continue
            out += [
                "",
                f"### Throughput under gunicorn at {size:,} (req/s, share of the minimal view)",
                "",
            ]
            rows = [
                (
                    "minimal view",
                    *(
                        f"{r['throughput'][label]['minimal_rps']:.0f}"
                        for label in ("uncached", "cached")
                    ),
                    "",
                )
            ]
            for name in THROUGHPUT_PAGES:
                cells = []
                for label in ("uncached", "cached"):
                    f = r["throughput"][label]["pages"][name]
                    cells.append(
                        f"{f['rps']:.0f} ({f['ratio']:.0%})"
                        + (f", {f['errors']} errors" if f["errors"] else "")
                    )
                reval = r["throughput"]["revalidated"]["pages"].get(name)
                cells.append(f"{reval['rps']:.0f} ({reval['ratio']:.0%})" if reval else "")
                rows.append((name, *cells))
            out.append(table(("page", "uncached", "cached", "revalidated (304)"), rows))
        for size, r in by_size.items():
            if "while_editing" not in r:
                continue
            w = r["while_editing"]
            out += [
                "",
                f"### Readers while an editor works at {size:,} "
                f"({w['edits']} edits, one a second; req/s, page cache on)",
                "",
                table(
                    ("page", "no edits", "one edit a second"),
                    [
                        (name, f"{f['quiet_rps']:.0f}", f"{f['editing_rps']:.0f}")
                        for name, f in w["pages"].items()
                    ],
                ),
            ]
        for size, r in by_size.items():
            if "datasette" not in r:
                continue
            d = r["datasette"]
            out += [
                "",
                f"### Datasette {d['version']} beside us at {size:,} (HTTP on loopback, "
                f"{HTTP_ROUNDS} alternating rounds, median / p95 ms)",
                "",
            ]
            ours = {**r.get("http_latency", {})}
            pg = results.get("postgresql", {}).get(size, {}).get("http_latency", {})
            rows = []
            for name, figure in d["latency"].items():
                mine = DATASETTE_PEERS.get(name, name)
                rows.append(
                    (
                        name,
                        f"{figure['median_ms']} / {figure['p95_ms']}",
                        f"{ours[mine]['median_ms']} / {ours[mine]['p95_ms']}"
                        if mine in ours
                        else "",
                        f"{pg[mine]['median_ms']} / {pg[mine]['p95_ms']}" if mine in pg else "",
                    )
                )
            out.append(table(("query", "Datasette", "ours, SQLite", "ours, PostgreSQL"), rows))
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=os.environ.get("SIZES", "10000,100000"))
    parser.add_argument("--databases", default=os.environ.get("DATABASES", "sqlite,postgresql"))
    parser.add_argument("--seconds", type=int, default=int(os.environ.get("BENCH_SECONDS", "3")))
    parser.add_argument("--no-throughput", action="store_true", help="Skip gunicorn and wrk.")
    parser.add_argument(
        "--no-datasette",
        action="store_true",
        help="Skip the Datasette peer, and with it the search mix's latency over HTTP.",
    )
    parser.add_argument("--output", default=str(RESULTS / "report"), help="Path without suffix.")
    options = parser.parse_args()
    sizes = [int(s.replace("_", "")) for s in options.sizes.split(",") if s.strip()]
    databases = [d.strip() for d in options.databases.split(",") if d.strip()]
    if not options.no_throughput and not shutil.which("wrk"):
        raise SystemExit("wrk is not installed: apt-get install wrk (make bench does it).")

    started, clock = time.strftime("%Y-%m-%d %H:%M"), time.monotonic()
    DATA.mkdir(parents=True, exist_ok=True)
    manage(database_url("sqlite", 0), "collectstatic", "--no-input", "-v0")
    results = {}
    # SQLite first at each size: the Datasette copy is made from it.
    for db in databases:
        for size in sizes:
            results.setdefault(db, {})[size] = measure(db, size, options)
    if "sqlite" in results and not options.no_datasette:
        for size in sizes:
            measure_beside_datasette(size, results)
    report = {
        "started": started,
        "code": code_version(),
        "machine": ", ".join(
            [f"{os.cpu_count()} cores", platform.machine(), f"Python {platform.python_version()}"]
            + ([postgres_server()] if "postgresql" in databases else [])
        ),
        "command": " ".join(["bench/run.py", *sys.argv[1:]])
        if sys.argv[1:]
        else f"make bench SIZES={options.sizes}",
        "sizes": sizes,
        "seconds": time.monotonic() - clock,
        "results": results,
    }
    report["targets"] = targets(results, sizes)
    output = Path(options.output)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.with_suffix(".json").write_text(json.dumps(report, indent=1, default=str))
    output.with_suffix(".md").write_text(markdown(report))
    log(f"wrote {output.with_suffix('.md')} and .json in {report['seconds']:.0f}s")
    print(markdown(report))


if __name__ == "__main__":
    main()
