"""The claims browser's filters two at a time, each alone in both orders: the slowest.

`make bench` times the pages and the few filters a reader asks most. A reader may
combine any two, and a plan that serves each alone can go wrong together: at a
million claims SQLite listed the claims in a contradiction in 372 ms, then 20, and
still takes 250-262 ms for them of one type. This times every such URL of the
benchmark's data in-process (page cache off, the median of three once warm) and
prints those slower than --over milliseconds, slowest first.

    .venv/bin/python bench/combinations.py                      # both databases, 1M
    .venv/bin/python bench/combinations.py --databases sqlite --size 10000 --over 20

The data is the benchmark's own (bench/run.py makes it if missing).
"""

import argparse
import itertools
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TIMES = 3


def filters():
    """(name, value) of each filter the browser offers, once, with values of the
    benchmark's data that find many claims or few."""
    from bench.pages import COMMON_TERM, RARE_TERMS, biggest_show, search_queries, top_speaker
    from claims.synthetic_curation import SYNTHETIC_TOPIC
    from claims.topics import Topic
    from episodes.models import Speaker

    quiet = Speaker.objects.filter(public_claim_count__gt=0).order_by("public_claim_count", "pk")
    topic = Topic.objects.filter(description=SYNTHETIC_TOPIC).order_by("pk").first()
    queries = search_queries()
    return [
        ("type", "prediction"),
        ("type", "belief"),
        ("due", "overdue"),
        ("due", "soon"),
        ("resolution", "came_true"),
        ("contradictions", "only"),
        ("speaker", top_speaker().slug),
        ("speaker", quiet.first().slug),
        ("podcast", biggest_show().slug),
        ("topic", topic.slug),
        ("aired_from", "2025-01-01"),
        ("aired_to", "2020-01-01"),
        ("attribution", "unresolved"),
        ("q", COMMON_TERM),
        ("q", RARE_TERMS[0]),
        ("q", queries["phrase"]),
        ("q", queries["exclusion"]),
    ]


def urls(chosen):
    """The browser unfiltered; each filter alone, newest and oldest first; and every two
    filters of different names."""
    from bench.pages import claims_url

    alone = [dict([one, ("order", order)]) for one in chosen for order in ("newest", "oldest")]
    pairs = [
        dict([one, other]) for one, other in itertools.combinations(chosen, 2) if one[0] != other[0]
    ]
    return [claims_url(), *(claims_url(**params) for params in alone + pairs)]


def measure(over):
    """In a process whose DATABASE_URL is the benchmark's: print the slow URLs."""
    from django.test import Client, override_settings

    from bench.inprocess import timed

    client, slow, every = Client(), [], urls(filters())
    with override_settings(PAGE_CACHE_SECONDS=0):
        for url in every:
            median = statistics.median(timed(client, url, repeat=TIMES)) * 1000
            if median > over:
                slow.append((median, url))
    for median, url in sorted(slow, reverse=True):
        print(f"{median:8.1f} ms  {url}")
    print(f"{len(slow)} of {len(every)} URLs over {over:g} ms")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--size", type=int, default=1_000_000)
    parser.add_argument("--over", type=float, default=50, help="milliseconds")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.measure:
        # bench.inprocess sets Django up as a gunicorn worker is.
        return measure(options.over)
    from bench import run

    for db in options.databases.split(","):
        url = run.ensure_data(db, options.size)
        print(f"# {db}, {options.size:,} claims", flush=True)
        subprocess.run(
            [sys.executable, __file__, "--measure", "--over", str(options.over)],
            cwd=ROOT,
            env=run.django_env(url),
            check=True,
        )


if __name__ == "__main__":
    main()
