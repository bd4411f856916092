from django.core.management.base import BaseCommand
from django.db import transaction

from claims.recount import recount_everything


class Command(BaseCommand):
    help = (
        "Count again every public count kept beside the records (episodes, speakers, "
        "podcasts, topics, references, predictions) from the claims themselves, and say "
        "how many were wrong."
    )

    def handle(self, *args, **options):
        with transaction.atomic():
            fixed = recount_everything()
        wrong = ", ".join(f"{n} {kind}" for kind, n in fixed.items() if n) or "none"
        self.stdout.write(f"Recounted. Counts that were wrong: {wrong}.")
