"""Reading a file into records: JSON or CSV, each record with where it is in the file."""

import csv
import io
import json

from claims.ledger_io.formats import (
    CSV_COLUMNS,
    FIELDS,
    FORMAT,
    KINDS,
    PLURALS,
    REQUIRED,
    VERSION,
    LedgerFileError,
    Problem,
    Record,
    csv_column,
    join,
    unescape_cell,
)

# The csv module's default, 128 KB a cell, is less than an hour of transcript. A
# cell larger than this is a malformed file (a quote never closed), not a transcript.
CSV_FIELD_LIMIT = 32 * 1024 * 1024


def read_records(text: str, file_format: str) -> tuple[list[Record], list[Problem]]:
    """The records in `text`, and the problems with the file's shape."""
    if file_format == "json":
        return read_json(text)
    return read_csv(text)


def read_json(text: str) -> tuple[list[Record], list[Problem]]:
    document = parse_json(text)
    problems = []
    known = {"format", "version", *(PLURALS[kind] for kind in KINDS)} - {"claims"}
    for key in document:
        if key not in known:
            problems.append(Problem(key, "", f"unknown key (expected {join(sorted(known))})."))
    if document.get("format", FORMAT) != FORMAT or document.get("version", VERSION) != VERSION:
        problems.append(
            Problem("format", "", f'this reads "format": "{FORMAT}", "version": {VERSION} only.')
        )
    records = []
    for kind in ("podcast", "speaker", "topic", "reference", "episode"):
        allowed = set(FIELDS[kind]) | ({"claims"} if kind == "episode" else set())
        for where, entry in json_entries(document, PLURALS[kind], problems):
            raw = json_fields(entry, where, allowed, problems)
            claims = raw.pop("claims", [])
            records.append(Record(kind, where, raw))
            if kind == "episode" and raw.get("podcast") and raw.get("slug"):
                # An episode that doesn't say which it is has been reported, once, there.
                records += json_claims(raw, where, claims, problems)
    return records, problems


def parse_json(text: str) -> dict:
    """The file as a JSON object; raises LedgerFileError for anything else."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise LedgerFileError(
            Problem(
                f"line {error.lineno}, column {error.colno}",
                "",
                f"this is not valid JSON ({error.msg}).",
            )
        ) from None
    except RecursionError:
        raise LedgerFileError(
            Problem("", "", "the JSON is nested too deeply to be a ledger file.")
        ) from None
    if not isinstance(document, dict):
        raise LedgerFileError(
            Problem("", "", 'The JSON must be an object: {"podcasts": […], "episodes": […], …}.')
        )
    return document


def json_claims(episode, where, claims, problems):
    """An episode's claim records, which take their podcast and episode from it."""
    allowed = set(FIELDS["claim"]) - {"podcast", "episode"}
    records = []
    for claim_where, claim in json_entries({"claims": claims}, "claims", problems, where):
        raw = json_fields(claim, claim_where, allowed, problems)
        raw["podcast"] = episode.get("podcast")
        raw["episode"] = episode.get("slug")
        records.append(Record("claim", claim_where, raw))
    return records


def json_entries(document, key, problems, parent=""):
    path = f"{parent}.{key}" if parent else key
    entries = document.get(key, [])
    if not isinstance(entries, list):
        problems.append(Problem(path, "", "must be a list."))
        return
    for index, entry in enumerate(entries):
        where = f"{path}[{index}]"
        if isinstance(entry, dict):
            yield where, entry
        else:
            problems.append(Problem(where, "", "must be an object."))


def json_fields(entry, where, allowed, problems):
    for key in entry:
        if key not in allowed:
            problems.append(
                Problem(where, key, f"unknown field (expected {join(sorted(allowed))}).")
            )
    return {key: value for key, value in entry.items() if key in allowed}


def read_csv(text: str) -> tuple[list[Record], list[Problem]]:
    csv.field_size_limit(CSV_FIELD_LIMIT)
    # Strict: a quote never closed would otherwise swallow the rest of the file.
    rows = csv.reader(io.StringIO(text, newline=""), strict=True)
    header = csv_header(rows)
    records, problems = [], []
    row_number = 1
    try:
        for row_number, cells in enumerate(rows, start=2):
            if any(cell.strip() for cell in cells):  # spreadsheets leave blank rows at the end
                csv_record(header, cells, f"row {row_number}", records, problems)
    except csv.Error as error:
        raise LedgerFileError(
            Problem(f"row {row_number + 1}", "", f"the CSV is malformed ({error}).")
        ) from None
    check_required_columns(header, {record.kind for record in records})
    return records, problems


def csv_header(rows):
    """The header row's column names; raises LedgerFileError unless they are the ledger's."""
    try:
        header = [name.strip() for name in next(rows)]
    except (StopIteration, csv.Error) as error:
        raise LedgerFileError(
            Problem("row 1", "", f"no header row could be read ({error}).")
        ) from None
    unknown = [name for name in header if name not in CSV_COLUMNS]
    if "record" not in header or unknown:
        message = "the header row must name the columns"
        if "record" not in header:
            message += f"; the column “record” ({join(KINDS)}) is missing"
        if unknown:
            message += f"; unknown columns: {join(unknown)}"
        raise LedgerFileError(Problem("row 1", "", f"{message}. Columns: {join(CSV_COLUMNS)}."))
    duplicated = sorted({name for name in header if header.count(name) > 1})
    if duplicated:
        raise LedgerFileError(Problem("row 1", "", f"columns named twice: {join(duplicated)}."))
    return header


def csv_record(header, cells, where, records, problems):
    """Add the row's record to `records`, or what is wrong with it to `problems`."""
    if len(cells) != len(header):
        problems.append(
            Problem(where, "", f"has {len(cells)} cells; the header has {len(header)}.")
        )
        return
    values = dict(zip(header, map(unescape_cell, cells), strict=True))
    kind = values.pop("record").strip().lower()
    if kind not in KINDS:
        problems.append(Problem(where, "record", f"“{kind}” is not one of {join(KINDS)}."))
        return
    raw = {
        name: values[csv_column(kind, name)]
        for name in FIELDS[kind]
        if csv_column(kind, name) in values
    }
    records.append(Record(kind, where, raw, in_csv=True))


def check_required_columns(header, kinds):
    """Raise LedgerFileError if rows of `kinds` need columns the header doesn't have."""
    missing = []
    for kind in KINDS:
        names = [csv_column(kind, n) for n in REQUIRED[kind] if csv_column(kind, n) not in header]
        if kind in kinds and names:
            missing.append(f"{join(names)} (for {kind} rows)")
    if missing:
        raise LedgerFileError(Problem("row 1", "", f"missing columns: {'; '.join(missing)}."))
