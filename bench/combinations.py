"""The claims browser's filters two at a time, each alone in both orders: the slowest.

`make bench` times the pages and the few filters a reader asks most. A reader may
combine any two, and a plan that serves each alone can go wrong together: at a
million claims SQLite listed the claims in a contradiction in 372 ms, then 20, and
still takes 230-340 ms for them of one type. This times every such URL of the
benchmark's data in-process (page cache off, the median of three once warm) and
prints those slower than --over milliseconds, slowest first.

    .venv/bin/python bench/combinations.py                      # both databases, 1M
    .venv/bin/python bench/combinations.py --databases sqlite --size 10000 --over 20

The data is the benchmark's own (bench/run.py makes it if missing).
"""

import argparse
import itertools
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIMES = 3


def filters(speaker, quiet_speaker, podcast, topic):
    """Each filter the browser offers once, with a value that finds many claims or few."""
    return [
        "type=prediction",
        "type=belief",
        "due=overdue",
        "due=soon",
        "resolution=came_true",
        "contradictions=only",
        f"speaker={speaker}",
        f"speaker={quiet_speaker}",
        f"podcast={podcast}",
        f"topic={topic}",
        "aired_from=2025-01-01",
        "aired_to=2020-01-01",
        "attribution=unresolved",
        "q=model",
        "q=quokka",
        'q="open source"',
        "q=model -market",
    ]


def urls(chosen):
    alone = [f"{one}&{order}" for one in chosen for order in ("order=newest", "order=oldest")]
    pairs = [
        f"{one}&{other}"
        for one, other in itertools.combinations(chosen, 2)
        if one.split("=")[0] != other.split("=")[0]
    ]
    return ["/claims/", *(f"/claims/?{query}" for query in alone + pairs)]


def measure(over):
    """In a process whose DATABASE_URL is the benchmark's: print the slow URLs."""
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ledger.settings")
    import django

    django.setup()
    from django.test import Client, override_settings

    from claims.models import Topic
    from episodes.models import Podcast, Speaker

    speakers = Speaker.objects.filter(public_claim_count__gt=0)
    chosen = filters(
        speakers.order_by("-public_claim_count").first().slug,
        speakers.order_by("public_claim_count").first().slug,
        Podcast.objects.order_by("-public_claim_count").first().slug,
        Topic.objects.order_by("pk").first().slug,
    )
    client, slow, every = Client(), [], urls(chosen)
    with override_settings(PAGE_CACHE_SECONDS=0):
        for url in every:
            client.get(url)
            samples = []
            for _ in range(TIMES):
                started = time.perf_counter()
                response = client.get(url)
                samples.append((time.perf_counter() - started) * 1000)
            assert response.status_code == 200, (url, response.status_code)
            if statistics.median(samples) > over:
                slow.append((statistics.median(samples), url))
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
        return measure(options.over)
    sys.path.insert(0, str(ROOT))
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
