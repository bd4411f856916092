"""Load the demo ledger: the reference episode, verbatim, and a small fictional show.

The demo files are ledger files (README: "Importing and exporting the ledger"),
loaded through the importer in order, so the records get the same ids every time.
Idempotent: records are matched by slug and by (episode, claim number), so running
it again updates them in place and never duplicates.
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from claims import ledger_io
from claims.models import Claim
from episodes.models import Episode

DEMO_DIR = Path(__file__).resolve().parents[2] / "demo"
DEMO_FILES = ("reference_episode.json", "example_show.json")


class Command(BaseCommand):
    help = "Load the reference episode and a little fictional data (safe to run again)."

    @transaction.atomic
    def handle(self, *args, **options):
        for name in DEMO_FILES:
            report = ledger_io.import_ledger((DEMO_DIR / name).read_bytes(), name)
            if not report.ok:
                problems = "; ".join(str(problem) for problem in report.problems)
                raise CommandError(f"{name}: {report.summary()} {problems}")
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo ledger ready: {Claim.objects.published().count()} published claims "
                f"in {Episode.objects.published().count()} published episodes."
            )
        )
