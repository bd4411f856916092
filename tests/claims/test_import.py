"""manage.py import_ledger: JSON and CSV files, checked in full before anything is written."""

import json
import re
import tracemalloc

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from claims.models import Claim, ClaimRevision, Verification
from episodes.models import Episode, Podcast, Speaker
from tests.claims.ledger_files import (
    EXAMPLES,
    as_csv,
    as_json,
    csv_with_rows,
    document,
    failed_import,
    run_import,
)
from tests.factories import make_episode, make_podcast

pytestmark = pytest.mark.django_db


def ledger_rows():
    return [
        (c.number, c.type, c.voice, c.status, c.excerpt)
        for c in Claim.objects.select_related("speaker").order_by("number")
    ]


def record_counts():
    return [model.objects.count() for model in (Podcast, Speaker, Episode, Claim)]


def test_the_json_example_creates_its_podcast_speakers_episode_and_claims(tmp_path):
    out, _ = run_import(tmp_path, (EXAMPLES / "ledger-example.json").read_bytes(), "example.json")

    assert (
        "Created: 1 podcast, 2 speakers, 1 topic, 1 reference, 1 episode, 4 claims, 1 link." in out
    )
    episode = Episode.objects.get(podcast__slug="example-show", slug="on-keeping-receipts")
    assert episode.title == "On Keeping Receipts"
    assert [(c.number, c.voice, c.status) for c in episode.claims.order_by("number")] == [
        (1, "Ben Sample", "published"),
        (2, "Ben Sample", "published"),
        (3, "Caller 1", "published"),
        (4, "Ada Example", "draft"),
    ]


def test_the_csv_example_holds_the_same_ledger_as_the_json_example(tmp_path):
    run_import(tmp_path, (EXAMPLES / "ledger-example.json").read_bytes(), "example.json")
    from_json = ledger_rows()

    out, _ = run_import(tmp_path, (EXAMPLES / "ledger-example.csv").read_bytes(), "example.csv")

    assert (
        "Unchanged: 1 podcast, 2 speakers, 1 topic, 1 reference, 1 episode, 4 claims, 1 link."
        in out
    )
    assert ledger_rows() == from_json


def test_imported_claims_are_checked_against_the_transcript(tmp_path):
    run_import(tmp_path, as_json(document()))

    assert set(Claim.objects.values_list("verification", flat=True)) == {Verification.FOUND}


def test_errors_in_several_csv_rows_are_each_reported_with_row_and_field(tmp_path):
    episode = make_episode(podcast=make_podcast(slug="example-show"), slug="pilot")
    content = csv_with_rows(
        ("claim", "example-show", "pilot", "1", "", "belief", "Fine words."),
        ("claim", "example-show", "pilot", "2", "", "predicton", "A typo in the type."),
        ("claim", "example-show", "pilot", "3", "nobody-at-all", "belief", "Who said this?"),
        ("claim", "example-show", "pilot", "four", "", "belief", "Not a number."),
        ("claim", "example-show", "pilot", "5", "", "belief", "   "),
    )

    error, stderr = failed_import(tmp_path, content, "ledger.csv")

    assert error == "ledger.csv: 4 problems found; nothing was written."
    assert stderr.splitlines() == [
        "  row 3, type: “predicton” is not one of evaluation, belief, prediction, "
        "recommendation, uncertainty, observation, preference, commitment, disagreement.",
        "  row 4, speaker: no speaker “nobody-at-all” in this file or in the ledger.",
        "  row 5, number: “four” value must be an integer.",
        "  row 6, excerpt: required: it cannot be blank.",
    ]
    assert not episode.claims.exists()


def test_errors_in_json_are_reported_with_their_path_and_nothing_is_written(tmp_path):
    doc = document()
    doc["episodes"][0]["air_date"] = "2026-02-30"
    doc["episodes"][0]["claims"][1]["excerpt"] = ""
    doc["episodes"][0]["claims"][2]["speaker"] = "ada-exampel"

    error, stderr = failed_import(tmp_path, as_json(doc))

    assert error == "ledger.json: 3 problems found; nothing was written."
    assert stderr.splitlines() == [
        "  episodes[0], air_date: “2026-02-30” value has the correct format (YYYY-MM-DD) but "
        "it is an invalid date.",
        "  episodes[0].claims[1], excerpt: required: it cannot be blank.",
        "  episodes[0].claims[2], speaker: no speaker “ada-exampel” in this file or in the ledger.",
    ]
    assert record_counts() == [0, 0, 0, 0]


def test_an_unknown_json_field_is_reported_rather_than_ignored(tmp_path):
    doc = document()
    doc["episodes"][0]["claims"][0]["exerpt"] = "A misspelt key."

    _, stderr = failed_import(tmp_path, as_json(doc))

    assert "  episodes[0].claims[0], exerpt: unknown field (expected " in stderr


def test_a_claim_number_given_twice_is_reported_at_its_second_row(tmp_path):
    make_episode(podcast=make_podcast(slug="example-show"), slug="pilot")
    content = csv_with_rows(
        ("claim", "example-show", "pilot", "7", "", "belief", "First."),
        ("claim", "example-show", "pilot", "7", "", "belief", "Second."),
    )

    _, stderr = failed_import(tmp_path, content, "ledger.csv")

    assert stderr.strip() == "row 3, number: this claim is already in the file at row 2."


def test_reimporting_the_same_file_changes_nothing(tmp_path):
    content = as_json(document())
    run_import(tmp_path, content)
    before = list(Claim.objects.order_by("pk").values_list("pk", "updated_at", "excerpt"))
    revisions = ClaimRevision.objects.count()

    out, _ = run_import(tmp_path, content)

    assert (
        "Created: nothing. Updated: nothing. "
        "Unchanged: 1 podcast, 2 speakers, 1 episode, 3 claims." in out
    )
    assert list(Claim.objects.order_by("pk").values_list("pk", "updated_at", "excerpt")) == before
    assert ClaimRevision.objects.count() == revisions


def test_a_changed_row_updates_its_claim_and_keeps_the_change(tmp_path):
    run_import(tmp_path, as_json(document()))
    doc = document()
    doc["episodes"][0]["claims"][2]["excerpt"] = "Welcome to the show, everyone."
    doc["episodes"][0]["claims"][0]["timestamp"] = "0:45"

    out, _ = run_import(tmp_path, as_json(doc))

    assert "Updated: 2 claims. Unchanged: 1 podcast, 2 speakers, 1 episode, 1 claim." in out
    assert "  updated claim example-show/pilot 01: timestamp" in out
    assert "  updated claim example-show/pilot 03: excerpt" in out
    claim = Claim.objects.get(number=3)
    assert claim.excerpt == "Welcome to the show, everyone."
    assert claim.verification == Verification.NOT_FOUND
    assert Claim.objects.get(number=1).timestamp == 45
    assert claim.revisions.first().changes == {
        "excerpt": ["Welcome to the show.", "Welcome to the show, everyone."]
    }


def test_a_dry_run_says_what_would_change_and_writes_nothing(tmp_path):
    run_import(tmp_path, as_json(document(claims=2)))
    doc = document()
    doc["episodes"][0]["claims"][0]["type"] = "evaluation"
    doc["episodes"][0]["claims"][0]["correction_note"] = "It was typed as a belief by mistake."

    out, _ = run_import(tmp_path, as_json(doc), "ledger.json", "--dry-run")

    assert (
        "ledger.json: Created: 1 claim. Updated: 1 claim. "
        "Unchanged: 1 podcast, 2 speakers, 1 episode, 1 claim. "
        "Nothing would be written: this was a dry run." in out
    )
    assert "  would update claim example-show/pilot 01: type" in out
    assert Claim.objects.count() == 2
    assert Claim.objects.get(number=1).type == "belief"


def test_fields_a_file_leaves_out_are_left_as_they_are(tmp_path):
    run_import(tmp_path, as_json(document()))
    content = csv_with_rows(
        ("claim", "example-show", "pilot", "3", "ada-example", "recommendation", "Welcome!"),
    )

    run_import(tmp_path, content, "ledger.csv")

    claim = Claim.objects.get(number=3)
    assert (claim.excerpt, claim.summary, claim.status) == ("Welcome!", "A greeting.", "draft")


def test_a_claim_may_name_an_episode_and_speaker_already_in_the_ledger(tmp_path):
    run_import(tmp_path, as_json(document(claims=1)))
    content = csv_with_rows(
        ("claim", "example-show", "pilot", "9", "ada-example", "observation", "New words."),
    )

    out, _ = run_import(tmp_path, content, "ledger.csv")

    assert "Created: 1 claim." in out
    assert Claim.objects.get(number=9).voice == "Ada Example"


@pytest.mark.parametrize(
    ("timestamp", "seconds"),
    [("754", 754), ("12:34", 754), ("1:02:03", 3723), ("", None)],
    ids=["seconds", "minutes", "hours", "none"],
)
def test_a_timestamp_may_be_seconds_or_a_clock_time(tmp_path, timestamp, seconds):
    make_episode(podcast=make_podcast(slug="example-show"), slug="pilot")
    content = csv_with_rows(
        ("claim", "example-show", "pilot", "1", "", "belief", "Words.", timestamp),
        header=(
            "record",
            "podcast",
            "episode",
            "number",
            "speaker",
            "type",
            "excerpt",
            "timestamp",
        ),
    )

    run_import(tmp_path, content, "ledger.csv")

    assert Claim.objects.get().timestamp == seconds


# Broken files: a clear message, never a traceback ------------------------------------


def test_a_file_that_is_not_utf8_gets_a_clear_error(tmp_path):
    content = "record,podcast\npodcast,caf\xe9-show\n".encode("latin-1")

    error, stderr = failed_import(tmp_path, content, "ledger.csv")

    assert error == "ledger.csv: 1 problem found; nothing was written."
    assert stderr.strip() == (
        "line 2: the file is not UTF-8 text (byte 0xe9 cannot be read). Save it as UTF-8 — in "
        "a spreadsheet, “CSV UTF-8” — and import it again."
    )


def test_invalid_json_gets_a_clear_error_with_its_line_and_column(tmp_path):
    content = b'{\n  "podcasts": [\n    {"slug": "example-show",}\n  ]\n}\n'

    _, stderr = failed_import(tmp_path, content)

    assert stderr.strip() == (
        "line 3, column 29: this is not valid JSON (Expecting property name enclosed in double "
        "quotes)."
    )


def test_a_csv_missing_required_columns_gets_a_clear_error(tmp_path):
    content = csv_with_rows(
        ("claim", "example-show", "pilot", "1", "Words."),
        header=("record", "podcast", "episode", "number", "excerpt"),
    )

    _, stderr = failed_import(tmp_path, content, "ledger.csv")

    assert stderr.strip() == "row 1: missing columns: type, speaker (for claim rows)."


def test_a_csv_without_a_record_column_gets_a_clear_error(tmp_path):
    content = b"podcast,name\nexample-show,Example Show\n"

    _, stderr = failed_import(tmp_path, content, "ledger.csv")

    assert stderr.startswith(
        "  row 1: the header row must name the columns; the column “record” (podcast, speaker, "
        "topic, reference, episode, claim) is missing. Columns: record, podcast, episode,"
    )


def test_a_csv_row_with_too_many_cells_is_reported(tmp_path):
    content = b"record,podcast,name\npodcast,example-show,Example Show,extra\n"

    _, stderr = failed_import(tmp_path, content, "ledger.csv")

    assert stderr.strip() == "row 2: has 4 cells; the header has 3."


def test_an_empty_file_gets_a_clear_error(tmp_path):
    _, stderr = failed_import(tmp_path, b"\n", "ledger.csv")

    assert stderr.strip() == "The file is empty."


def test_a_json_document_that_is_not_an_object_gets_a_clear_error(tmp_path):
    _, stderr = failed_import(tmp_path, b'["podcasts"]')

    assert stderr.strip().startswith("The JSON must be an object")


def test_a_missing_file_gets_a_clear_error(tmp_path):
    from django.core.management import CommandError, call_command

    with pytest.raises(CommandError, match=r"Cannot read .*absent\.json: No such file"):
        call_command("import_ledger", str(tmp_path / "absent.json"))


def test_the_readme_examples_import(tmp_path):
    readme = (EXAMPLES.parents[1] / "README.md").read_text()
    section = readme.split("## Importing and exporting the ledger", 1)[1].split("\n## ", 1)[0]
    json_example = re.search(r"```json\n(.*?)```", section, re.S).group(1)
    csv_example = re.search(r"```csv\n(.*?)```", section, re.S).group(1)

    run_import(tmp_path, json_example.encode(), "readme.json")
    out, _ = run_import(tmp_path, csv_example.encode(), "readme.csv")

    assert "Unchanged: 1 podcast, 1 speaker, 1 episode, 2 claims." in out
    assert [(c.number, c.voice) for c in Claim.objects.order_by("number")] == [
        (1, "Ada Example"),
        (2, "Caller 1"),
    ]


# Large files ----------------------------------------------------------------------

LARGE = 5000


def large_document(claims):
    doc = document(claims=0)
    doc["episodes"][0]["claims"] = [
        {
            "number": n,
            "type": "observation",
            "excerpt": f"Fictional observation number {n}, said on Example Show.",
            "speaker": "ada-example" if n % 3 else None,
            "timestamp": n,
            "status": "published",
        }
        for n in range(1, claims + 1)
    ]
    return doc


def test_a_file_of_five_thousand_claims_imports_in_bounded_queries(tmp_path):
    content = as_csv(large_document(LARGE))

    with CaptureQueriesContext(connection) as queries:
        out, _ = run_import(tmp_path, content, "large.csv")

    assert f"Created: 1 podcast, 2 speakers, 1 episode, {LARGE} claims." in out
    assert Claim.objects.count() == LARGE
    # Bulk writes, never a query per row. SQLite takes at most 999 parameters in a
    # query, so it inserts 29 claims of 34 columns at a time; PostgreSQL, five hundred.
    assert len(queries) < LARGE / 15


def test_reimporting_a_large_file_changes_nothing_in_bounded_queries(tmp_path):
    content = as_json(large_document(LARGE))
    run_import(tmp_path, content)

    with CaptureQueriesContext(connection) as queries:
        out, _ = run_import(tmp_path, content)

    assert f"Unchanged: 1 podcast, 2 speakers, 1 episode, {LARGE} claims." in out
    # Reading what is there, in batches; nothing written.
    assert len(queries) < LARGE / 25


def test_importing_a_large_file_keeps_memory_bounded(tmp_path):
    content = as_json(large_document(LARGE))

    tracemalloc.start()
    try:
        run_import(tmp_path, content)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    print(
        f"\nPeak memory importing {LARGE} claims ({len(content) // 1024} KiB): {peak // 2**20} MiB"
    )
    assert peak < 150 * 2**20


def test_a_large_import_shows_its_progress(tmp_path):
    _, stderr = run_import(tmp_path, as_json(large_document(1500)))

    assert "Checking: 1504/1504 (100%)" in stderr
    assert "Writing claims: 1500/1500 (100%)" in stderr


def test_a_small_import_shows_no_progress(tmp_path):
    _, stderr = run_import(tmp_path, as_json(document()))

    assert stderr == ""


def test_the_json_example_matches_the_csv_example_field_for_field():
    from_json = json.loads((EXAMPLES / "ledger-example.json").read_text())

    assert as_csv(from_json) == (EXAMPLES / "ledger-example.csv").read_bytes()
