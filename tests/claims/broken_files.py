"""Broken ledger files, each with the problem an editor must be told about it.

Built in code rather than kept as files: each is a sound document with one thing
broken, so what is broken is plain from its line here. The ledger the tests start
from holds document() as imported (tests/claims/ledger_files.py).
"""

import codecs
import copy

from tests.claims.ledger_files import as_csv, as_json, document

HEADER = "record,podcast,episode,number,speaker,type,excerpt\n"
CLAIM = "episodes[0].claims[0]"


def claim(**fields):
    """document() as JSON with the first claim's `fields` changed (None removes one)."""
    doc = document()
    row = doc["episodes"][0]["claims"][0]
    for name, value in fields.items():
        if value is None:
            row.pop(name)
        else:
            row[name] = value
    return as_json(doc)


def changed(change):
    doc = document()
    change(doc)
    return as_json(doc)


def csv_rows(*rows, header=HEADER):
    return (header + "".join(row + "\n" for row in rows)).encode()


def with_episode(**fields):
    return changed(lambda doc: doc["episodes"][0].update(fields))


def duplicated_claim(doc):
    doc["episodes"][0]["claims"].append(copy.deepcopy(doc["episodes"][0]["claims"][0]))


def duplicated_podcast(doc):
    doc["podcasts"].append({"slug": "example-show", "name": "Example Show again"})


def new_podcast_for_episode(doc):
    doc["episodes"][0]["podcast"] = "no-such-show"


NESTED = b'{"podcasts": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
TOO_LARGE = "is too large: at most 2,147,483,647."
RETRACTION_NEEDS_REASON = (
    "a retracted claim needs a retraction reason, and only a retracted claim takes one."
)

# (id, file name, content, (where, field, message) of the first problem reported)
BROKEN_FILES = [
    # Files that can't be read at all.
    ("empty", "l.json", b"", ("", "", "The file is empty.")),
    ("blank", "l.csv", b" \n\n", ("", "", "The file is empty.")),
    (
        "latin-1",
        "l.json",
        '{"podcasts": [{"slug": "café"}]}'.encode("latin-1"),
        (
            "line 1",
            "",
            "the file is not UTF-8 text (byte 0xe9 cannot be read). Save it as "
            "UTF-8 — in a spreadsheet, “CSV UTF-8” — and import it again.",
        ),
    ),
    (
        "utf-16",
        "l.csv",
        codecs.BOM_UTF16_LE + HEADER.encode("utf-16-le"),
        (
            "line 1",
            "",
            "the file is not UTF-8 text (byte 0xff cannot be read). Save it as "
            "UTF-8 — in a spreadsheet, “CSV UTF-8” — and import it again.",
        ),
    ),
    (
        "json-syntax",
        "l.json",
        b'{"podcasts": [}',
        ("line 1, column 15", "", "this is not valid JSON (Expecting value)."),
    ),
    (
        "json-trailing-comma",
        "l.json",
        b'{"podcasts": [],}',
        (
            "line 1, column 17",
            "",
            "this is not valid JSON (Expecting property name enclosed in double quotes).",
        ),
    ),
    (
        "json-list",
        "l.json",
        b"[1, 2]",
        ("", "", 'The JSON must be an object: {"podcasts": […], "episodes": […], …}.'),
    ),
    (
        "json-nested",
        "l.json",
        NESTED,
        ("", "", "the JSON is nested too deeply to be a ledger file."),
    ),
    (
        "csv-no-record-column",
        "l.csv",
        b"podcast,episode\nexample-show,pilot\n",
        (
            "row 1",
            "",
            "the header row must name the columns; the column “record” (podcast, "
            "speaker, topic, reference, episode, claim) is missing. Columns: record, podcast, "
            "episode, number, speaker, type, excerpt, unresolved_label, timestamp, "
            "timestamp_from_transcript, summary, status, retraction_reason, correction_note, "
            "horizon, resolution, resolved_on, resolution_note, sources, linked_claims, name, "
            "title, air_date, original_url, audio_url, description, website_url, feed_url, links, "
            "appearances, transcript, transcript_cues, transcript_public, topic, reference, kind, "
            "creator, url, topics, references.",
        ),
    ),
    (
        "csv-columns-twice",
        "l.csv",
        b"record,podcast,podcast\n",
        ("row 1", "", "columns named twice: podcast."),
    ),
    (
        "csv-missing-columns",
        "l.csv",
        b"record,podcast,episode,number\nclaim,example-show,pilot,1\n",
        ("row 1", "", "missing columns: type, excerpt, speaker (for claim rows)."),
    ),
    # The file's shape.
    (
        "json-unknown-key",
        "l.json",
        b'{"podcast": []}',
        (
            "podcast",
            "",
            "unknown key (expected episodes, format, podcasts, references, speakers, topics, "
            "version).",
        ),
    ),
    (
        "json-version",
        "l.json",
        changed(lambda doc: doc.update(version=2)),
        ("format", "", 'this reads "format": "evidence-ledger", "version": 1 only.'),
    ),
    ("json-not-a-list", "l.json", b'{"podcasts": {}}', ("podcasts", "", "must be a list.")),
    ("json-entry", "l.json", b'{"episodes": [1]}', ("episodes[0]", "", "must be an object.")),
    (
        "json-unknown-field",
        "l.json",
        claim(speakr="ada-example"),
        (
            CLAIM,
            "speakr",
            "unknown field (expected correction_note, excerpt, horizon, linked_claims, number, "
            "references, resolution, resolution_note, resolved_on, retraction_reason, sources, "
            "speaker, status, summary, timestamp, timestamp_from_transcript, topics, type, "
            "unresolved_label).",
        ),
    ),
    (
        "csv-cell-count",
        "l.csv",
        csv_rows("claim,example-show,pilot,1,ada-example,belief"),
        ("row 2", "", "has 6 cells; the header has 7."),
    ),
    (
        "csv-unclosed-quote",
        "l.csv",
        csv_rows('claim,example-show,pilot,1,ada-example,belief,"Words never closed'),
        ("row 2", "", "the CSV is malformed (unexpected end of data)."),
    ),
    (
        "csv-text-after-quote",
        "l.csv",
        csv_rows('claim,example-show,pilot,1,ada-example,belief,"Words" and more'),
        ("row 2", "", "the CSV is malformed (',' expected after '\"')."),
    ),
    (
        "csv-kind",
        "l.csv",
        csv_rows("clam,example-show,pilot,1,ada-example,belief,Words."),
        (
            "row 2",
            "record",
            "“clam” is not one of podcast, speaker, topic, reference, episode, claim.",
        ),
    ),
    # Wrong types and values out of range, as PostgreSQL would refuse them.
    (
        "number-float",
        "l.json",
        claim(number=1.5),
        (CLAIM, "number", "must be a whole number, not 1.5."),
    ),
    (
        "number-bool",
        "l.json",
        claim(number=True),
        (CLAIM, "number", "must be a whole number, not true."),
    ),
    (
        "number-object",
        "l.json",
        claim(number={"n": 1}),
        (CLAIM, "number", "must be a single value, not a list or an object."),
    ),
    ("number-2-31", "l.json", claim(number=2**31), (CLAIM, "number", TOO_LARGE)),
    ("number-zero", "l.json", claim(number=0), (CLAIM, "number", "claim numbers start at 1.")),
    ("number-negative", "l.json", claim(number=-1), (CLAIM, "number", "claim numbers start at 1.")),
    (
        "number-text",
        "l.csv",
        csv_rows("claim,example-show,pilot,one,ada-example,belief,Words."),
        ("row 2", "number", "“one” value must be an integer."),
    ),
    (
        "number-huge-digits",
        "l.csv",
        csv_rows(f"claim,example-show,pilot,{'9' * 5000},ada-example,belief,Words."),
        ("row 2", "number", TOO_LARGE),
    ),
    ("timestamp-2-31", "l.json", claim(timestamp=2**31), (CLAIM, "timestamp", TOO_LARGE)),
    (
        "timestamp-hours",
        "l.json",
        claim(timestamp="999999999:00:00"),
        (CLAIM, "timestamp", TOO_LARGE),
    ),
    (
        "timestamp-clock",
        "l.json",
        claim(timestamp="12:99"),
        (CLAIM, "timestamp", "“12:99” is not a number of seconds, or a time like 12:34."),
    ),
    (
        "timestamp-negative",
        "l.json",
        claim(timestamp=-5),
        (CLAIM, "timestamp", "cannot be negative."),
    ),
    (
        "air-date-number",
        "l.json",
        with_episode(air_date=20260512),
        ("episodes[0]", "air_date", "must be a date written as text, “YYYY-MM-DD”, not 20260512."),
    ),
    (
        "air-date-month-13",
        "l.json",
        with_episode(air_date="2026-13-01"),
        (
            "episodes[0]",
            "air_date",
            "“2026-13-01” value has the correct format (YYYY-MM-DD) but it is an invalid date.",
        ),
    ),
    (
        "type",
        "l.json",
        claim(type="guess"),
        (
            CLAIM,
            "type",
            "“guess” is not one of "
            "evaluation, belief, prediction, recommendation, uncertainty, observation, preference, "
            "commitment, disagreement.",
        ),
    ),
    (
        "status",
        "l.json",
        claim(status="hidden"),
        (CLAIM, "status", "“hidden” is not one of draft, published, retracted."),
    ),
    (
        "excerpt-blank",
        "l.json",
        claim(excerpt=" \n"),
        (CLAIM, "excerpt", "required: it cannot be blank."),
    ),
    (
        "excerpt-nul",
        "l.json",
        claim(excerpt="Words\x00."),
        (CLAIM, "excerpt", "contains a NUL character, which cannot be stored."),
    ),
    (
        "csv-nul",
        "l.csv",
        csv_rows("claim,example-show,pilot,1,ada-example,belief,Wor\x00ds."),
        ("row 2", "excerpt", "contains a NUL character, which cannot be stored."),
    ),
    ("excerpt-number", "l.json", claim(excerpt=42), (CLAIM, "excerpt", "must be text, not 42.")),
    (
        "missing-type",
        "l.json",
        claim(type=None),
        (CLAIM, "type", "missing: this field is required."),
    ),
    (
        "title-too-long",
        "l.json",
        with_episode(title="T" * 301),
        ("episodes[0]", "title", "Ensure this value has at most 300 characters (it has 301)."),
    ),
    (
        "summary-huge",
        "l.json",
        claim(summary="S" * 1_000_000),
        (CLAIM, "summary", "Ensure this value has at most 300 characters (it has 1000000)."),
    ),
    (
        "slug",
        "l.json",
        with_episode(slug="not a slug!"),
        (
            "episodes[0]",
            "slug",
            "Enter a valid “slug” consisting of letters, numbers, underscores or hyphens.",
        ),
    ),
    (
        "url",
        "l.json",
        with_episode(original_url="javascript:alert(1)"),
        ("episodes[0]", "original_url", "Enter a valid URL."),
    ),
    (
        "links",
        "l.json",
        changed(lambda doc: doc["speakers"][0].update(links=["not a web address"])),
        ("speakers[0]", "links", "“not a web address” is not a web address."),
    ),
    # Records that clash with each other or with the ledger.
    (
        "duplicate-claim",
        "l.json",
        changed(duplicated_claim),
        (
            "episodes[0].claims[3]",
            "number",
            "this claim is already in the file at episodes[0].claims[0].",
        ),
    ),
    (
        "duplicate-podcast",
        "l.json",
        changed(duplicated_podcast),
        ("podcasts[1]", "slug", "this podcast is already in the file at podcasts[0]."),
    ),
    (
        "unknown-speaker",
        "l.json",
        claim(speaker="nobody"),
        (CLAIM, "speaker", "no speaker “nobody” in this file or in the ledger."),
    ),
    (
        "unknown-podcast",
        "l.json",
        changed(new_podcast_for_episode),
        ("episodes[0]", "podcast", "no podcast “no-such-show” in this file or in the ledger."),
    ),
    (
        "label-with-speaker",
        "l.json",
        claim(unresolved_label="Caller 9"),
        (CLAIM, "unresolved_label", "only an unresolved voice (no speaker) takes a label."),
    ),
    (
        "retracted-without-reason",
        "l.json",
        claim(status="retracted"),
        (CLAIM, "status", RETRACTION_NEEDS_REASON),
    ),
    (
        "silent-correction",
        "l.json",
        claim(excerpt="Quietly changed words."),
        (
            CLAIM,
            "correction_note",
            "Claim 01 is published: a change to its excerpt is a "
            "correction. Say what was wrong in a correction note; readers will see it with the "
            "claim.",
        ),
    ),
    (
        "published-to-draft",
        "l.json",
        claim(status="draft"),
        (
            CLAIM,
            "status",
            "Claim 01 is published: it leaves the public record only by "
            "retraction, which keeps its number and permalink. Retract it instead of making it "
            "a draft.",
        ),
    ),
    (
        "csv-bom-and-bad-type",
        "l.csv",
        codecs.BOM_UTF8 + as_csv(document(claims=1)).replace(b",belief,", b",beleif,"),
        (
            "row 6",
            "type",
            "“beleif” is not one of evaluation, belief, prediction, "
            "recommendation, uncertainty, observation, preference, commitment, disagreement.",
        ),
    ),
]

assert len(BROKEN_FILES) >= 40
assert len({case[0] for case in BROKEN_FILES}) == len(BROKEN_FILES)
