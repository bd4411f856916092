"""Ledger files for the import and export tests: plainly fictional shows and people."""

import copy
import csv
import io
import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from claims import ledger_io

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
TRANSCRIPT = (
    "Ada Example: Welcome to the show.\n"
    "Ben Sample: I’ll say it plainly — a quote without a source is a rumour.\n"
    "Caller 1: I think every podcast will publish a transcript."
)


def document(claims=3):
    """A fresh ledger document: one podcast, two speakers, one episode with `claims` claims."""
    rows = [
        {
            "number": 1,
            "type": "belief",
            "excerpt": "I'll say it plainly - a quote without a source is a rumour.",
            "speaker": "ben-sample",
            "timestamp": 42,
            "status": "published",
        },
        {
            "number": 2,
            "type": "prediction",
            "excerpt": "I think every podcast will publish a transcript.",
            "speaker": None,
            "unresolved_label": "Caller 1",
            "status": "published",
        },
        {
            "number": 3,
            "type": "recommendation",
            "excerpt": "Welcome to the show.",
            "speaker": "ada-example",
            "summary": "A greeting.",
            "status": "draft",
        },
    ][:claims]
    return copy.deepcopy(
        {
            "format": "evidence-ledger",
            "version": 1,
            "podcasts": [{"slug": "example-show", "name": "Example Show"}],
            "speakers": [
                {"slug": "ada-example", "name": "Ada Example"},
                {"slug": "ben-sample", "name": "Ben Sample", "description": "Fictional guest"},
            ],
            "episodes": [
                {
                    "podcast": "example-show",
                    "slug": "pilot",
                    "title": "Pilot",
                    "air_date": "2026-05-12",
                    "original_url": "https://example.com/example-show/pilot/",
                    "transcript": TRANSCRIPT,
                    "status": "published",
                    "claims": rows,
                }
            ],
        }
    )


def as_json(doc):
    return json.dumps(doc, ensure_ascii=False, indent=2).encode()


def as_csv(doc):
    stream = io.StringIO(newline="")
    ledger_io.write_csv(doc, stream)
    return stream.getvalue().encode()


def csv_with_rows(
    *rows, header=("record", "podcast", "episode", "number", "speaker", "type", "excerpt")
):
    """A CSV file of claim rows for an episode the test has made: header, then `rows`."""
    stream = io.StringIO(newline="")
    writer = csv.writer(stream)
    writer.writerow(header)
    writer.writerows(rows)
    return stream.getvalue().encode()


def run_import(tmp_path, content, name="ledger.json", *options):
    """Run `manage.py import_ledger` on `content`; returns (stdout, stderr)."""
    path = tmp_path / name
    path.write_bytes(content)
    out, err = io.StringIO(), io.StringIO()
    call_command("import_ledger", str(path), *options, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def failed_import(tmp_path, content, name="ledger.json", *options):
    """Run an import that must fail; returns (the command's error, what it wrote to stderr)."""
    path = tmp_path / name
    path.write_bytes(content)
    err = io.StringIO()
    with pytest.raises(CommandError) as failure:
        call_command("import_ledger", str(path), *options, stdout=io.StringIO(), stderr=err)
    return str(failure.value), err.getvalue()


def run_export(*options):
    out, err = io.StringIO(), io.StringIO()
    call_command("export_ledger", *options, stdout=out, stderr=err)
    return out.getvalue()
