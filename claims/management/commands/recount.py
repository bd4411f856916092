from django.core.management.base import BaseCommand
from django.db import connection, transaction

from claims.recount import recount_everything
from ledger.bulk import lift_time_limit


class Command(BaseCommand):
    help = (
        "Count again every public count kept beside the records (episodes, speakers, "
        "podcasts, topics, references, predictions) from the claims themselves, and say "
        "how many were wrong."
    )

    def handle(self, *args, **options):
        with transaction.atomic():
            # Every count of a big ledger: minutes, not a page's seconds.
            lift_time_limit(connection)
            fixed = recount_everything()
        wrong = ", ".join(f"{n} {kind}" for kind, n in fixed.items() if n) or "none"
        self.stdout.write(f"Recounted. Counts that were wrong: {wrong}.")
