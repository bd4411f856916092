"""Load the demo ledger: the reference episode, verbatim, and a small fictional show.

Idempotent: records are matched by slug and by (episode, claim number), so running
it again updates them in place and never duplicates.
"""

import json
from pathlib import Path

from django.core.management.base import BaseCommand
from django.db import transaction

from claims.models import Attribution, Claim
from episodes.models import Episode, Podcast, Speaker, Status

DEMO_DIR = Path(__file__).resolve().parents[2] / "demo"


class Command(BaseCommand):
    help = "Load the reference episode and a little fictional data (safe to run again)."

    @transaction.atomic
    def handle(self, *args, **options):
        reference = json.loads((DEMO_DIR / "reference_episode.json").read_text())
        fictional = json.loads((DEMO_DIR / "example_show.json").read_text())

        speakers = self.load_speakers(reference["speakers"] + fictional["speakers"])
        by_name = {s.name: s for s in speakers.values()}

        podcast = self.load_podcast(reference["podcast"])
        episode = self.load_episode(podcast, {**reference["episode"], "status": Status.PUBLISHED})
        for record in reference["claims"]:
            self.load_claim(
                episode,
                {**record, "speaker": by_name[record["speaker"]], "status": Status.PUBLISHED},
            )

        podcast = self.load_podcast(fictional["podcast"])
        for data in fictional["episodes"]:
            claims = data.pop("claims")
            episode = self.load_episode(podcast, data)
            for record in claims:
                speaker = speakers[record["speaker"]] if record["speaker"] else None
                self.load_claim(episode, {**record, "speaker": speaker})

        self.stdout.write(
            self.style.SUCCESS(
                f"Demo ledger ready: {Claim.objects.published().count()} published claims "
                f"in {Episode.objects.published().count()} published episodes."
            )
        )

    def load_speakers(self, records):
        return {
            r["slug"]: Speaker.objects.update_or_create(slug=r["slug"], defaults=r)[0]
            for r in records
        }

    def load_podcast(self, record):
        return Podcast.objects.update_or_create(slug=record["slug"], defaults=record)[0]

    def load_episode(self, podcast, record):
        episode, _ = Episode.objects.update_or_create(
            podcast=podcast, slug=record["slug"], defaults=record
        )
        return episode

    def load_claim(self, episode, record):
        speaker = record["speaker"]
        return Claim.objects.update_or_create(
            episode=episode,
            number=record["number"],
            defaults={
                "type": record["type"],
                "excerpt": record["excerpt"],
                "summary": record.get("summary", ""),
                "speaker": speaker,
                "attribution": Attribution.IDENTIFIED if speaker else Attribution.UNRESOLVED,
                "unresolved_label": record.get("unresolved_label", ""),
                "status": record["status"],
            },
        )[0]
