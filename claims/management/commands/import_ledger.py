"""Import a ledger file (JSON or CSV; the format is in the README)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from claims import ledger_io

# Below this many records a progress line would only flicker.
PROGRESS_FROM = 1000


class Command(BaseCommand):
    last_tenth = None
    help = (
        "Import podcasts, speakers, episodes and numbered claims from a JSON or CSV file. "
        "Every row is checked first; with any problem nothing is written."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path, help="The ledger file: .json or .csv.")
        parser.add_argument(
            "--dry-run",
            action="store_true",
            help="Check the file and say what would change, without writing anything.",
        )
        parser.add_argument(
            "--format",
            choices=("json", "csv"),
            help="The file's format, when its name doesn't end in .json or .csv.",
        )

    def handle(self, *args, file, dry_run, format, verbosity, **options):
        try:
            content = file.read_bytes()
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror}.") from None
        report = ledger_io.import_ledger(
            content,
            file.name,
            file_format=format,
            dry_run=dry_run,
            progress=self.progress if verbosity >= 1 else None,
        )
        if not report.ok:
            for problem in report.problems:
                self.stderr.write(f"  {problem}")
            raise CommandError(f"{file.name}: {report.summary()}")
        self.stdout.write(self.style.SUCCESS(f"{file.name}: {report.summary()}"))
        if verbosity >= 1:
            for change in report.changes:
                self.stdout.write(f"  {'would update' if dry_run else 'updated'} {change}")

    def progress(self, stage, done, total):
        """A one-line counter on a terminal; a line per tenth of the work otherwise (logs)."""
        if total < PROGRESS_FROM:
            return
        line = f"{stage}: {done}/{total} ({done * 100 // total}%)"
        if self.stderr.isatty():
            self.stderr.write(f"\r{line}", ending="\n" if done == total else "")
            self.stderr.flush()
            return
        tenth = (stage, done * 10 // total)
        if tenth != self.last_tenth:
            self.last_tenth = tenth
            self.stderr.write(line)
