"""The ledger as a file: import and export, in JSON or CSV.

One format, two spellings (README: "Importing and exporting the ledger"). A
file holds records of six kinds — podcasts, speakers, topics, references, episodes and their
numbered claims — under the same field names in JSON and in CSV.

Import reads the whole file, checks every record on its own, against the other
records and against the ledger, and reports every problem with where it is
("row 7" in a CSV, "episodes[0].claims[3]" in JSON) and which field. With any
problem nothing is written; otherwise everything is written in one transaction,
in bulk (a few queries per batch of claims, never one per row). Podcasts and
speakers are matched by slug, episodes by podcast and slug, claims by episode
and number: importing the same file twice changes nothing, and a changed row
updates its record. Nothing is ever deleted. A field left out of a record (a
JSON key or a CSV column that isn't there) leaves that field as it is.

Export writes what the public sees — published claims of published episodes,
with their episodes, podcasts and speakers — in the same format, so an export
imported into an empty ledger and exported again gives the same file.
"""

import logging

from django.db import transaction

from claims.ledger_io.export import export_document, write_csv, write_json
from claims.ledger_io.formats import LedgerFileError, Problem, decode, guess_format
from claims.ledger_io.plan import Plan, Report
from claims.ledger_io.read import read_records
from claims.ledger_io.write import write_plan

logger = logging.getLogger(__name__)

__all__ = [
    "LedgerFileError",
    "Problem",
    "Report",
    "export_document",
    "import_ledger",
    "write_csv",
    "write_json",
]


def import_ledger(
    content: bytes,
    name: str,
    *,
    file_format: str | None = None,
    dry_run: bool = False,
    changed_by=None,
    progress=None,
) -> Report:
    """Check the file and, if it is sound and this is not a dry run, write it.

    Returns a Report; never raises for anything wrong with the file. `progress`,
    if given, is called as progress(stage, done, total).
    """
    try:
        text = decode(content)
        records, problems = read_records(text, file_format or guess_format(name, text))
        plan = Plan(
            records, problems, via=f"import of {name}", changed_by=changed_by, progress=progress
        )
        with transaction.atomic():
            report = plan.check(dry_run=dry_run)
            if report.ok and not dry_run:
                write_plan(plan)
                report.written = True
    except LedgerFileError as error:
        return Report(problems=[error.problem], dry_run=dry_run)
    except Exception as error:  # a file no check foresaw: reported, never a traceback
        logger.exception("Importing %s failed", name)
        message = (
            f"the file could not be imported ({type(error).__name__}); nothing was written. "
            "Please report this with the file."
        )
        return Report(problems=[Problem("", "", message)], dry_run=dry_run)
    return report
