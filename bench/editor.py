"""An editor at work during the benchmark: one public edit a second (bench/run.py).

Each edit changes a published claim's summary through the claim's write path, as
the admin would, so it moves the ledger's version and the page cache starts
again. Runs until killed; prints how many edits it made when it stops.
"""

import os
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ledger.settings")

import django  # noqa: E402

django.setup()

from bench.pages import biggest_show  # noqa: E402
from claims.models import Claim  # noqa: E402

EDITS_PER_SECOND = 1


def main():
    claims = list(
        Claim.objects.published().filter(episode__podcast=biggest_show()).order_by("-pk")[:500]
    )
    edits = 0

    def stop(*_):
        print(edits, flush=True)
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    while True:
        started = time.monotonic()
        claim = claims[edits % len(claims)]
        claim.summary = f"Benchmark edit {edits}"
        claim.save(via="benchmark")
        edits += 1
        time.sleep(max(0.0, 1 / EDITS_PER_SECOND - (time.monotonic() - started)))


if __name__ == "__main__":
    main()
