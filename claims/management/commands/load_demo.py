"""Load the demo ledger: the reference episode, verbatim, and a small fictional show.

The demo files are ledger files (README: "Importing and exporting the ledger"),
loaded through the importer in order, so the records get the same ids every time.
The last one moves the record on as an editor would, by a later import: it corrects
one claim and retracts another, which the importer writes as public corrections
through the claims' one write path (claims/history.py).

Idempotent: records are matched by slug and by (episode, claim number), so running
it again updates them in place and never duplicates. A claim that a later file
changes is left out of the earlier files once it is in the ledger: the earlier
file holds it as first published, and importing that again would undo the
correction (or be refused, for a retracted claim).
"""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from claims import ledger_io
from claims.models import Claim
from episodes.models import Episode

DEMO_DIR = Path(__file__).resolve().parents[2] / "demo"
DEMO_FILES = ("reference_episode.json", "example_show.json", "example_show_later.json")


def claim_keys(document: dict) -> set[tuple[str, str, int]]:
    """(podcast, episode, number) of each claim in a ledger document."""
    return {
        (episode["podcast"], episode["slug"], claim["number"])
        for episode in document.get("episodes", [])
        for claim in episode.get("claims", [])
    }


def keys_in_ledger(keys: set) -> set:
    """The claims among `keys` that the ledger holds already (one query)."""
    podcasts = {podcast for podcast, _, _ in keys}
    stored = Claim.objects.filter(episode__podcast__slug__in=podcasts).values_list(
        "episode__podcast__slug", "episode__slug", "number"
    )
    return keys & set(stored)


def without_claims(document: dict, left_out: set) -> dict:
    """The document without the claims in `left_out`."""
    episodes = [
        {
            **episode,
            "claims": [
                claim
                for claim in episode.get("claims", [])
                if (episode["podcast"], episode["slug"], claim["number"]) not in left_out
            ],
        }
        for episode in document.get("episodes", [])
    ]
    return {**document, "episodes": episodes}


class Command(BaseCommand):
    help = "Load the reference episode and a little fictional data (safe to run again)."

    @transaction.atomic
    def handle(self, *args, **options):
        documents = [json.loads((DEMO_DIR / name).read_bytes()) for name in DEMO_FILES]
        for index, name in enumerate(DEMO_FILES):
            later = set().union(*map(claim_keys, documents[index + 1 :]))
            document = without_claims(documents[index], keys_in_ledger(later))
            content = json.dumps(document, ensure_ascii=False).encode()
            report = ledger_io.import_ledger(content, name)
            if not report.ok:
                problems = "; ".join(str(problem) for problem in report.problems)
                raise CommandError(f"{name}: {report.summary()} {problems}")
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo ledger ready: {Claim.objects.published().count()} published claims "
                f"in {Episode.objects.published().count()} published episodes."
            )
        )
