"""Export the published ledger in the import format (README: "Importing and exporting")."""

import io

from django.core.management.base import BaseCommand, CommandError
from django.template.defaultfilters import pluralize

from claims import ledger_io


class Command(BaseCommand):
    help = (
        "Write the published ledger — all of it, one podcast's or one episode's — as JSON "
        "or CSV, in the format import_ledger reads."
    )

    def add_arguments(self, parser):
        scope = parser.add_mutually_exclusive_group()
        scope.add_argument("--podcast", metavar="SLUG", help="Only this podcast's episodes.")
        scope.add_argument(
            "--episode", metavar="PODCAST_SLUG/EPISODE_SLUG", help="Only this episode."
        )
        parser.add_argument("--format", choices=("json", "csv"), default="json")
        parser.add_argument(
            "--output", "-o", metavar="FILE", help="Write to FILE instead of standard output."
        )

    def handle(self, *args, podcast, episode, format, output, **options):
        if episode:
            podcast_slug, _, episode_slug = episode.partition("/")
            if not podcast_slug or not episode_slug:
                raise CommandError("--episode takes PODCAST_SLUG/EPISODE_SLUG.")
            episode = (podcast_slug, episode_slug)
        document = ledger_io.export_document(podcast=podcast, episode=episode)
        if (podcast or episode) and not document["episodes"]:
            scope = f"podcast “{podcast}”" if podcast else f"episode “{'/'.join(episode)}”"
            raise CommandError(f"Nothing published under {scope}.")
        write = ledger_io.write_json if format == "json" else ledger_io.write_csv
        claims = sum(len(e["claims"]) for e in document["episodes"])
        episodes = len(document["episodes"])
        summary = (
            f"Exported {claims} published claim{pluralize(claims)} "
            f"in {episodes} episode{pluralize(episodes)}."
        )
        if output:
            with open(output, "w", encoding="utf-8", newline="") as stream:
                write(document, stream)
            self.stdout.write(self.style.SUCCESS(f"{summary} ({output})"))
        else:
            buffer = io.StringIO(newline="")
            write(document, buffer)
            self.stdout.write(buffer.getvalue(), ending="")
            self.stderr.write(summary)
