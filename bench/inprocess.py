"""Server-side measurements, in one Django process: queries per page and latency.

Run by bench/run.py once per database and size, with DATABASE_URL pointing at a
generated benchmark database; prints one JSON object on stdout. Pages are
requested through Django's test Client, so every figure includes the whole
middleware stack and template rendering, but no HTTP or network.
"""

import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ledger.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from bench.pages import admin_pages, fts5_queries, pages, search_mix  # noqa: E402
from bench.stats import percentile, summary  # noqa: E402
from bench.time_split import split  # noqa: E402
from ledger.heap import settle_after_startup  # noqa: E402

# As ledger/wsgi.py does in each gunicorn worker, so that latency here is a worker's.
settle_after_startup()

# Enough samples that a p95 is not simply the slowest one: of 15, the nearest-rank
# p95 is the maximum, and one stray pause decided the "flat" targets (a speaker page,
# 6.6 ms at the median, had a p95 of 27 ms). Of 40, two samples lie above it.
REPEAT = int(os.environ.get("BENCH_REPEAT", "40"))
# A page slower than this gets fewer repetitions (never fewer than MIN_REPEAT).
PAGE_BUDGET_SECONDS = float(os.environ.get("BENCH_PAGE_BUDGET", "6"))
MIN_REPEAT = 5


def timed(client, url, repeat=REPEAT, **headers):
    """Seconds per request for `repeat` GETs of `url` after one warm-up request."""
    response = client.get(url, headers=headers)
    assert response.status_code in (200, 304), (url, response.status_code)
    samples, started = [], time.perf_counter()
    for i in range(repeat):
        begin = time.perf_counter()
        client.get(url, headers=headers)
        samples.append(time.perf_counter() - begin)
        if i + 1 >= MIN_REPEAT and time.perf_counter() - started > PAGE_BUDGET_SECONDS:
            break
    return samples


def count_queries(client, url):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(queries), [query["sql"] for query in queries]


def main():
    client = Client()
    the_pages = pages()
    result = {
        "pages": the_pages,
        "fts5": fts5_queries(),
        "queries": {},
        "uncached": {},
        "cached": {},
        "revalidated": {},
    }

    with override_settings(PAGE_CACHE_SECONDS=0):
        for name, url in the_pages.items():
            result["queries"][name], _ = count_queries(client, url)
        # A sitemap section lists every claim up to 50,000: its length grows with the
        # data by design, so the flat target compares it per address.
        result["addresses"] = {
            name: client.get(url).content.count(b"<url>")
            for name, url in the_pages.items()
            if name.startswith("sitemap (")
        }
        samples = {name: timed(client, url) for name, url in the_pages.items()}
        searches = search_mix()
        mix = {kind: timed(client, url) for kind, url in searches.items()}
        samples.update({f"search: {kind}": times for kind, times in mix.items()})
        result["uncached"] = {name: summary(times) for name, times in samples.items()}
        rare = [s for kind, times in mix.items() if kind.startswith("rare") for s in times]
        result["search_mix"] = {
            "p95_ms": round(percentile([s for times in mix.values() for s in times], 95), 2),
            "rare_median_ms": round(statistics.median(rare) * 1000, 2),
            "queries": searches,
        }
        # The search and browse pages measured beside Datasette: their SQL, the rest,
        # split from the samples just taken.
        result["time_split"] = {
            name: split(client, url, samples[name])
            for name, url in {
                **{f"search: {kind}": url for kind, url in searches.items()},
                "claims": the_pages["claims"],
                "claims (filtered)": the_pages["claims (filtered)"],
            }.items()
        }

    with override_settings(PAGE_CACHE_SECONDS=600):
        for name, url in the_pages.items():
            result["cached"][name] = summary(timed(client, url))
            etag = client.get(url)["ETag"]
            result["revalidated"][name] = summary(timed(client, url, if_none_match=etag))

    admin = get_user_model().objects.filter(username="bench-admin").first()
    if admin is None:
        admin = get_user_model().objects.create_superuser("bench-admin", "", None)
    client.force_login(admin)
    result["admin"] = {}
    for name, url in admin_pages().items():
        # Counted on a second visit, as a worker that has served the admin before: the
        # first page of a process also reads the content types the process keeps, so
        # whichever page came first would count more.
        client.get(url)
        count, sql = count_queries(client, url)
        result["admin"][name] = {
            "url": url,
            "queries": count,
            "count_queries": [q for q in sql if "COUNT(" in q.upper()],
            **summary(timed(client, url, repeat=min(REPEAT, 10))),
        }
    json.dump(result, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
