"""The ledger as a file: import and export, in JSON or CSV.

One format, two spellings (README: "Importing and exporting the ledger"). A
file holds records of four kinds — podcasts, speakers, episodes and their
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

import csv
import io
import json
import re
from collections import Counter
from dataclasses import dataclass, field

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.core.validators import URLValidator
from django.db import models, transaction
from django.utils import timezone

from claims.history import (
    DERIVED_FIELDS,
    PERMALINK_FIELDS,
    RELATIONS,
    TRACKED_FIELDS,
    ClaimChange,
    tracked_state,
)
from claims.models import Attribution, Claim, ClaimRevision, ClaimStatus
from episodes.models import Episode, Podcast, Speaker

FORMAT = "evidence-ledger"
VERSION = 1
KINDS = ("podcast", "speaker", "episode", "claim")
PLURALS = {"podcast": "podcasts", "speaker": "speakers", "episode": "episodes", "claim": "claims"}

# Every field of each kind, in the order files write them, and the model field
# that says what a valid value is (None: checked here).
FIELDS = {
    "podcast": {
        "slug": Podcast._meta.get_field("slug"),
        "name": Podcast._meta.get_field("name"),
        "description": Podcast._meta.get_field("description"),
        "website_url": Podcast._meta.get_field("website_url"),
        "feed_url": Podcast._meta.get_field("feed_url"),
    },
    "speaker": {
        "slug": Speaker._meta.get_field("slug"),
        "name": Speaker._meta.get_field("name"),
        "description": Speaker._meta.get_field("description"),
        "links": None,
    },
    "episode": {
        "podcast": Podcast._meta.get_field("slug"),
        "slug": Episode._meta.get_field("slug"),
        "title": Episode._meta.get_field("title"),
        "air_date": Episode._meta.get_field("air_date"),
        "original_url": Episode._meta.get_field("original_url"),
        "audio_url": Episode._meta.get_field("audio_url"),
        "summary": Episode._meta.get_field("summary"),
        "transcript": Episode._meta.get_field("transcript"),
        "status": Episode._meta.get_field("status"),
    },
    "claim": {
        "podcast": Podcast._meta.get_field("slug"),
        "episode": Episode._meta.get_field("slug"),
        "number": Claim._meta.get_field("number"),
        "type": Claim._meta.get_field("type"),
        "excerpt": Claim._meta.get_field("excerpt"),
        "summary": Claim._meta.get_field("summary"),
        "speaker": None,
        "unresolved_label": Claim._meta.get_field("unresolved_label"),
        "timestamp": None,
        "status": Claim._meta.get_field("status"),
        "retraction_reason": Claim._meta.get_field("retraction_reason"),
        "correction_note": None,
    },
}
# Fields a record of each kind must have (a claim's speaker may be empty, for an
# unresolved voice, but must be said).
REQUIRED = {
    "podcast": ("slug", "name"),
    "speaker": ("slug", "name"),
    "episode": ("podcast", "slug", "title", "air_date", "original_url"),
    "claim": ("podcast", "episode", "number", "type", "excerpt", "speaker"),
}
MAY_BE_BLANK = {"speaker"}
# Written by import only: export writes published claims, which have neither.
IMPORT_ONLY = {"retraction_reason", "correction_note"}
# The CSV's columns: identity first, then what claims use (most rows are claims).
# A CSV row names itself in the column of its kind: a podcast row's slug is in
# "podcast", an episode row's in "episode" (beside its podcast's), a speaker
# row's in "speaker". So every row that belongs to an episode carries the same
# "podcast" and "episode" cells, and a claim's "speaker" is a speaker row's slug.
CSV_COLUMNS = (
    "record",
    "podcast",
    "episode",
    "number",
    "speaker",
    "type",
    "excerpt",
    "unresolved_label",
    "timestamp",
    "summary",
    "status",
    "retraction_reason",
    "correction_note",
    "name",
    "title",
    "air_date",
    "original_url",
    "audio_url",
    "description",
    "website_url",
    "feed_url",
    "links",
    "transcript",
)


def csv_column(kind, name):
    """The CSV column that holds field `name` of a `kind` record."""
    return kind if name == "slug" else name


# What an import may change on a claim that exists: not its permalink, by which it is found.
CLAIM_UPDATE_FIELDS = (
    *(name for name in TRACKED_FIELDS if name not in PERMALINK_FIELDS),
    *DERIVED_FIELDS,
    "updated_at",
)
# The claim fields an import sets straight from a claim's state (history.tracked_state).
CLAIM_FIELDS_FROM_STATE = tuple(name for name in TRACKED_FIELDS if name not in RELATIONS)
BATCH_SIZE = 500
_CLOCK = re.compile(r"^(?:(\d+):)?([0-5]?\d):([0-5]\d)$")
_is_url = URLValidator(schemes=("http", "https"))


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a file: where (a CSV row, a JSON path), which field, what."""

    where: str
    field: str
    message: str

    def __str__(self):
        place = ", ".join(part for part in (self.where, self.field) if part)
        return f"{place}: {self.message}" if place else self.message


class LedgerFileError(Exception):
    """The file can't be read at all (not UTF-8, not JSON, no header): nothing to check."""

    def __init__(self, problem):
        super().__init__(str(problem))
        self.problem = problem


@dataclass
class Record:
    kind: str
    where: str
    raw: dict  # field name → value as the file gives it; absent fields are left out
    in_csv: bool = False

    def label(self, name):
        """The field as the file calls it, for a problem report."""
        return csv_column(self.kind, name) if self.in_csv else name


@dataclass
class Report:
    """What an import found and did (or, for a dry run or with problems, would do)."""

    problems: list = field(default_factory=list)
    created: Counter = field(default_factory=Counter)
    updated: Counter = field(default_factory=Counter)
    unchanged: Counter = field(default_factory=Counter)
    # "claim example-show/pilot 07: excerpt, type" for each record that changes.
    changes: list = field(default_factory=list)
    dry_run: bool = False
    written: bool = False

    @property
    def ok(self):
        return not self.problems

    def counts(self, counter):
        parts = [f"{counter[kind]} {noun(kind, counter[kind])}" for kind in KINDS if counter[kind]]
        return ", ".join(parts) or "nothing"

    def summary(self):
        if self.problems:
            count = len(self.problems)
            return f"{count} problem{'s' if count != 1 else ''} found; nothing was written."
        verb = "would be" if not self.written else "were"
        return (
            f"Created: {self.counts(self.created)}. Updated: {self.counts(self.updated)}. "
            f"Unchanged: {self.counts(self.unchanged)}."
            + (f" Nothing {verb} written: this was a dry run." if self.dry_run else "")
        )


def noun(kind, count):
    return kind if count == 1 else PLURALS[kind]


# Reading ---------------------------------------------------------------------------


def guess_format(name, text):
    """ "json" or "csv": from the file's name, else from its first character."""
    lowered = name.lower()
    if lowered.endswith(".json"):
        return "json"
    if lowered.endswith(".csv"):
        return "csv"
    return "json" if text.lstrip().startswith(("{", "[")) else "csv"


def decode(content):
    """The file's text. Raises LedgerFileError unless it is UTF-8 (a BOM is fine)."""
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = content[: error.start].count(b"\n") + 1
        raise LedgerFileError(
            Problem(
                f"line {line}",
                "",
                f"the file is not UTF-8 text (byte 0x{content[error.start]:02x} cannot be read). "
                "Save it as UTF-8 — in a spreadsheet, “CSV UTF-8” — and import it again.",
            )
        ) from None
    if not text.strip():
        raise LedgerFileError(Problem("", "", "The file is empty."))
    return text


def read_records(text, file_format):
    """The records in `text`, and the problems with the file's shape."""
    if file_format == "json":
        return read_json(text)
    return read_csv(text)


def read_json(text):
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
    if not isinstance(document, dict):
        raise LedgerFileError(
            Problem("", "", 'The JSON must be an object: {"podcasts": […], "episodes": […], …}.')
        )
    records, problems = [], []
    known = {"format", "version", "podcasts", "speakers", "episodes"}
    for key in document:
        if key not in known:
            problems.append(Problem(key, "", f"unknown key (expected {join(sorted(known))})."))
    if document.get("format", FORMAT) != FORMAT or document.get("version", VERSION) != VERSION:
        problems.append(
            Problem("format", "", f'this reads "format": "{FORMAT}", "version": {VERSION} only.')
        )
    for kind in ("podcast", "speaker", "episode"):
        allowed = set(FIELDS[kind]) | ({"claims"} if kind == "episode" else set())
        for where, entry in json_entries(document, PLURALS[kind], problems):
            raw = json_fields(entry, where, allowed, problems)
            claims = raw.pop("claims", [])
            records.append(Record(kind, where, raw))
            if kind != "episode" or not (raw.get("podcast") and raw.get("slug")):
                continue  # an episode that doesn't say which it is: reported once, there
            claim_fields = set(FIELDS["claim"]) - {"podcast", "episode"}
            for claim_where, claim in json_entries({"claims": claims}, "claims", problems, where):
                claim_raw = json_fields(claim, claim_where, claim_fields, problems)
                # A claim sits inside its episode, which says which one it is.
                claim_raw["podcast"] = raw.get("podcast")
                claim_raw["episode"] = raw.get("slug")
                records.append(Record("claim", claim_where, claim_raw))
    return records, problems


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


def read_csv(text):
    rows = csv.reader(io.StringIO(text, newline=""))
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
            message += "; the column “record” (podcast, speaker, episode or claim) is missing"
        if unknown:
            message += f"; unknown columns: {join(unknown)}"
        raise LedgerFileError(Problem("row 1", "", f"{message}. Columns: {join(CSV_COLUMNS)}."))
    duplicated = sorted({name for name in header if header.count(name) > 1})
    if duplicated:
        raise LedgerFileError(Problem("row 1", "", f"columns named twice: {join(duplicated)}."))

    records, problems = [], []
    seen_kinds = set()
    row_number = 1
    try:
        for cells in rows:
            row_number += 1
            where = f"row {row_number}"
            if not any(cell.strip() for cell in cells):
                continue  # spreadsheets leave blank rows at the end
            if len(cells) != len(header):
                problems.append(
                    Problem(where, "", f"has {len(cells)} cells; the header has {len(header)}.")
                )
                continue
            values = dict(zip(header, cells, strict=True))
            kind = values.pop("record").strip().lower()
            if kind not in KINDS:
                problems.append(Problem(where, "record", f"“{kind}” is not one of {join(KINDS)}."))
                continue
            seen_kinds.add(kind)
            raw = {
                name: values[csv_column(kind, name)]
                for name in FIELDS[kind]
                if csv_column(kind, name) in values
            }
            records.append(Record(kind, where, raw, in_csv=True))
    except csv.Error as error:
        raise LedgerFileError(
            Problem(f"row {row_number}", "", f"the CSV is malformed ({error}).")
        ) from None
    missing = [
        f"{join(names)} (for {kind} rows)"
        for kind in KINDS
        if kind in seen_kinds
        and (
            names := [
                csv_column(kind, n) for n in REQUIRED[kind] if csv_column(kind, n) not in header
            ]
        )
    ]
    if missing:
        raise LedgerFileError(Problem("row 1", "", f"missing columns: {'; '.join(missing)}."))
    return records, problems


def join(names):
    return ", ".join(names)


# Checking one record ---------------------------------------------------------------


def clean_record(record, problems):
    """The record's values, checked and converted; None if any field is wrong."""
    values, ok = {}, True
    for name in REQUIRED[record.kind]:
        if name not in record.raw:
            problems.append(
                Problem(record.where, record.label(name), "missing: this field is required.")
            )
            ok = False
    for name, raw in record.raw.items():
        try:
            value = clean_value(record.kind, name, raw)
        except ValidationError as error:
            problems.append(Problem(record.where, record.label(name), " ".join(error.messages)))
            ok = False
            continue
        blank = value is None or (isinstance(value, str) and not value.strip())
        if blank and name in REQUIRED[record.kind] and name not in MAY_BE_BLANK:
            problems.append(
                Problem(record.where, record.label(name), "required: it cannot be blank.")
            )
            ok = False
        elif blank and name == "status":
            continue  # a blank status leaves it as it is (a new record starts as a draft)
        values[name] = value
    return values if ok else None


def clean_value(kind, name, raw):
    if isinstance(raw, dict) or (isinstance(raw, list) and name != "links"):
        raise ValidationError("must be a single value, not a list or an object.")
    if raw is None:
        raw = ""
    if isinstance(raw, str) and "\x00" in raw:
        raise ValidationError("contains a NUL character, which cannot be stored.")
    model_field = FIELDS[kind][name]
    if name == "links":
        return clean_links(raw)
    if name == "timestamp":
        return clean_timestamp(raw)
    if name in ("speaker", "correction_note"):
        return clean_slug(raw) if name == "speaker" else str(raw)
    if not isinstance(model_field, models.TextField) and isinstance(raw, str):
        raw = raw.strip()  # excerpts, transcripts and other long text stay exactly as given
    if model_field.choices and raw != "":
        valid = [value for value, _ in model_field.choices]
        if raw not in valid:
            raise ValidationError(f"“{raw}” is not one of {join(valid)}.")
    if raw == "" and not model_field.blank:
        return ""
    value = model_field.clean(raw, None)
    if name == "number" and value < 1:
        raise ValidationError("claim numbers start at 1.")
    return value


def clean_slug(raw):
    value = str(raw).strip()
    if value:
        Speaker._meta.get_field("slug").run_validators(value)
    return value


def clean_links(raw):
    links = raw if isinstance(raw, list) else str(raw).splitlines()
    links = [str(link).strip() for link in links if str(link).strip()]
    for link in links:
        try:
            _is_url(link)
        except ValidationError:
            raise ValidationError(f"“{link}” is not a web address.") from None
    return "\n".join(links)


def clean_timestamp(raw):
    """Seconds into the episode: 754, "754", "12:34" or "1:02:03"; blank for none."""
    if raw in ("", None):
        return None
    if isinstance(raw, bool):
        raise ValidationError("must be a number of seconds, or a time like 12:34.")
    if isinstance(raw, int):
        seconds = raw
    else:
        text = str(raw).strip()
        clock = _CLOCK.match(text)
        if clock:
            hours, minutes, secs = (int(part or 0) for part in clock.groups())
            seconds = hours * 3600 + minutes * 60 + secs
        elif text.isdigit():
            seconds = int(text)
        else:
            raise ValidationError(f"“{text}” is not a number of seconds, or a time like 12:34.")
    if seconds < 0:
        raise ValidationError("cannot be negative.")
    return seconds


# Importing -------------------------------------------------------------------------


def import_ledger(
    content, name, *, file_format=None, dry_run=False, changed_by=None, progress=None
):
    """Check the file and, if it is sound and this is not a dry run, write it.

    Returns a Report; never raises for anything wrong with the file. `progress`,
    if given, is called as progress(stage, done, total).
    """
    try:
        text = decode(content)
        records, problems = read_records(text, file_format or guess_format(name, text))
    except LedgerFileError as error:
        return Report(problems=[error.problem], dry_run=dry_run)
    importer = Importer(
        records, problems, via=f"import of {name}", changed_by=changed_by, progress=progress
    )
    with transaction.atomic():
        report = importer.check(dry_run=dry_run)
        if report.ok and not dry_run:
            importer.write()
            report.written = True
    return report


class Importer:
    def __init__(self, records, problems, *, via, changed_by, progress):
        self.records = records
        self.report = Report(problems=list(problems))
        self.via = via
        self.changed_by = changed_by
        self.progress = progress or (lambda stage, done, total: None)
        # Cleaned values by key: podcast slug, speaker slug, (podcast, episode), (podcast, episode, number).
        self.incoming = {kind: {} for kind in KINDS}
        self.where = {kind: {} for kind in KINDS}
        self.rejected = set()
        # The plan: values to create records from, and the records to update with what changes.
        self.to_create = {kind: [] for kind in KINDS}
        self.to_update = {kind: [] for kind in KINDS}

    @property
    def problems(self):
        return self.report.problems

    def check(self, *, dry_run):
        self.report.dry_run = dry_run
        total = len(self.records)
        for done, record in enumerate(self.records, start=1):
            values = clean_record(record, self.problems)
            if values is not None:
                self.admit(record, values)
            else:
                # Already reported; records that refer to it need not say so again.
                self.rejected.add((record.kind, record_key(record.kind, record.raw)))
            if done % BATCH_SIZE == 0 or done == total:
                self.progress("Checking", done, total)
        self.load_ledger()
        self.plan_podcasts()
        self.plan_speakers()
        self.plan_episodes()
        self.plan_claims()
        # In the order of the file; problems with the file as a whole first.
        position = {record.where: index for index, record in enumerate(self.records)}
        self.problems.sort(key=lambda problem: position.get(problem.where, -1))
        if self.problems:
            for counter in (self.report.created, self.report.updated, self.report.unchanged):
                counter.clear()
            self.report.changes.clear()
        return self.report

    def admit(self, record, values):
        """Keep a checked record under its key, unless the file already gave that key."""
        kind = record.kind
        key = record_key(kind, values)
        if key in self.incoming[kind]:
            identity = "number" if kind == "claim" else "slug"
            self.problems.append(
                Problem(
                    record.where,
                    record.label(identity),
                    f"this {kind} is already in the file at {self.where[kind][key]}.",
                )
            )
            return
        self.incoming[kind][key] = values
        self.where[kind][key] = record.where

    def load_ledger(self):
        """What the ledger already holds of what the file names: a few queries in all."""
        podcast_slugs = {
            *self.incoming["podcast"],
            *(key[0] for key in self.incoming["episode"]),
            *(key[0] for key in self.incoming["claim"]),
        }
        self.podcasts = {p.slug: p for p in Podcast.objects.filter(slug__in=podcast_slugs)}
        speaker_slugs = {
            *self.incoming["speaker"],
            *(v["speaker"] for v in self.incoming["claim"].values() if v.get("speaker")),
        }
        self.speakers = {s.slug: s for s in Speaker.objects.filter(slug__in=speaker_slugs)}
        episode_keys = {*self.incoming["episode"], *(key[:2] for key in self.incoming["claim"])}
        self.episodes = {
            (e.podcast.slug, e.slug): e
            for e in Episode.objects.filter(
                podcast__slug__in={key[0] for key in episode_keys},
                slug__in={key[1] for key in episode_keys},
            ).select_related("podcast")
        }
        claim_episodes = {
            self.episodes[key[:2]].pk for key in self.incoming["claim"] if key[:2] in self.episodes
        }
        by_id = {episode.pk: episode for episode in self.episodes.values()}
        self.claims = {}
        for claim in Claim.objects.filter(episode_id__in=claim_episodes).select_related("speaker"):
            claim.episode = by_id[claim.episode_id]  # shared, so no claim fetches it again
            self.claims[(claim.episode_id, claim.number)] = claim

    def plan_simple(self, kind, existing):
        """Podcasts, speakers and episodes: create the new, update the changed."""
        for key, values in self.incoming[kind].items():
            current = existing.get(key)
            if current is None:
                self.to_create[kind].append(values)
                self.report.created[kind] += 1
                continue
            changed = [
                name
                for name, value in values.items()
                if name not in ("slug", "podcast") and getattr(current, name) != value
            ]
            if changed:
                self.to_update[kind].append((current, values, changed))
                self.report.updated[kind] += 1
                self.report.changes.append(f"{kind} {describe_key(key)}: {join(changed)}")
            else:
                self.report.unchanged[kind] += 1

    def plan_podcasts(self):
        self.plan_simple("podcast", self.podcasts)

    def plan_speakers(self):
        self.plan_simple("speaker", self.speakers)

    def plan_episodes(self):
        for key in self.incoming["episode"]:
            if key[0] not in self.podcasts and key[0] not in self.incoming["podcast"]:
                self.problems.append(
                    Problem(
                        self.where["episode"][key],
                        "podcast",
                        f"no podcast “{key[0]}” in this file or in the ledger.",
                    )
                )
        self.plan_simple("episode", self.episodes)

    def plan_claims(self):
        for key, values in self.incoming["claim"].items():
            where = self.where["claim"][key]
            episode_key = key[:2]
            episode = self.episodes.get(episode_key)
            speaker_slug = values.get("speaker")
            unknown = []
            if episode is None and episode_key not in self.incoming["episode"]:
                unknown.append(("episode", episode_key))
            if speaker_slug and not (
                speaker_slug in self.speakers or speaker_slug in self.incoming["speaker"]
            ):
                unknown.append(("speaker", speaker_slug))
            for kind, ref in unknown:
                # A record the file gives but got wrong has been reported where it is.
                if (kind, ref) not in self.rejected:
                    message = f"no {kind} “{describe_key(ref)}” in this file or in the ledger."
                    self.problems.append(Problem(where, kind, message))
            if unknown:
                continue
            current = self.claims.get((episode.pk, key[2])) if episode else None
            after = self.claim_state(values, current, episode_key)
            if after["speaker"] is not None and after["unresolved_label"]:
                self.problems.append(
                    Problem(
                        where,
                        "unresolved_label",
                        "only an unresolved voice (no speaker) takes a label.",
                    )
                )
            if (after["status"] == ClaimStatus.RETRACTED) != bool(
                after["retraction_reason"].strip()
            ):
                field_name = "retraction_reason" if after["retraction_reason"] else "status"
                self.problems.append(
                    Problem(
                        where,
                        field_name,
                        "a retracted claim needs a retraction reason, and only a retracted "
                        "claim takes one.",
                    )
                )
            before = tracked_state(current) if current else None
            change = ClaimChange(
                before, after, values.get("correction_note", ""), label=f"{key[2]:02d}"
            )
            for field_name, message in change.problems().items():
                self.problems.append(
                    Problem(where, "" if field_name == NON_FIELD_ERRORS else field_name, message)
                )
            if current is None:
                self.to_create["claim"].append((values, change))
                self.report.created["claim"] += 1
                continue
            if change.changes:
                self.to_update["claim"].append((current, values, change))
                self.report.updated["claim"] += 1
                self.report.changes.append(f"claim {describe_key(key)}: {join(change.changes)}")
            else:
                self.report.unchanged["claim"] += 1

    def claim_state(self, values, current, episode_key):
        """The claim as it will be (history.tracked_state), from the file and what it leaves out."""

        def value(name, default):
            if name in values:
                return values[name]
            return getattr(current, name) if current else default

        speaker_slug = values["speaker"]
        if speaker_slug:
            speaker = self.speakers.get(speaker_slug)
            speaker_name = (self.incoming["speaker"].get(speaker_slug) or {}).get("name") or (
                speaker.name
            )
            # A speaker the file creates has no id yet; its slug stands in for comparing.
            speaker_id = speaker.pk if speaker else ("new speaker", speaker_slug)
            label = ""
        else:
            speaker_id = speaker_name = None
            kept = current.unresolved_label if current and not current.is_identified else ""
            label = values.get("unresolved_label", kept)
        if speaker_slug and "unresolved_label" in values:
            label = values["unresolved_label"]
        episode = self.episodes.get(episode_key)
        title = (self.incoming["episode"].get(episode_key) or {}).get("title") or episode.title
        status = value("status", ClaimStatus.DRAFT)
        # A reason belongs to a retraction: kept only while the claim stays retracted.
        reason = values.get(
            "retraction_reason",
            current.retraction_reason if current and status == ClaimStatus.RETRACTED else "",
        )
        return {
            "episode": episode.pk if episode else ("new episode", episode_key),
            "number": values["number"],
            "type": values["type"],
            "excerpt": values["excerpt"],
            "summary": value("summary", ""),
            "attribution": Attribution.IDENTIFIED if speaker_slug else Attribution.UNRESOLVED,
            "speaker": speaker_id,
            "unresolved_label": label,
            "timestamp": value("timestamp", None),
            "status": status,
            "retraction_reason": reason,
            "names": {"episode": title, "speaker": speaker_name},
        }

    # Writing ---------------------------------------------------------------------------

    def write(self):
        self.write_simple("podcast", Podcast, {})
        self.write_simple("speaker", Speaker, {})
        self.write_simple(
            "episode", Episode, {"podcast": lambda values: self.podcasts[values["podcast"]]}
        )
        now = timezone.now()
        created = [
            self.new_claim(values, change, now) for values, change in self.to_create["claim"]
        ]
        updated = [self.change_claim(*entry, now) for entry in self.to_update["claim"]]
        total = len(created) + len(updated)
        for start in range(0, len(created), BATCH_SIZE):
            Claim.objects.bulk_create(created[start : start + BATCH_SIZE])
            self.progress("Writing claims", min(start + BATCH_SIZE, len(created)), total)
        for start in range(0, len(updated), BATCH_SIZE):
            batch = updated[start : start + BATCH_SIZE]
            Claim.objects.bulk_update(batch, CLAIM_UPDATE_FIELDS)
            self.progress("Writing claims", len(created) + start + len(batch), total)
        changes = [change for _, change in self.to_create["claim"]]
        changes += [change for _, _, change in self.to_update["claim"]]
        revisions = [
            change.revision(claim, changed_by=self.changed_by, via=self.via)
            for claim, change in zip(created + updated, changes, strict=True)
        ]
        ClaimRevision.objects.bulk_create(revisions, batch_size=BATCH_SIZE)

    def write_simple(self, kind, model, relations):
        """Create new podcasts, speakers or episodes in bulk; save changed ones one by one
        (a renamed speaker or retitled episode updates its claims' search text)."""
        objects = []
        for values in self.to_create[kind]:
            fields = {name: value for name, value in values.items() if name not in relations}
            fields.update({name: get(values) for name, get in relations.items()})
            objects.append(model(**fields))
        model.objects.bulk_create(objects, batch_size=BATCH_SIZE)
        known = {"podcast": self.podcasts, "speaker": self.speakers, "episode": self.episodes}[kind]
        for obj in objects:
            known[(obj.podcast.slug, obj.slug) if kind == "episode" else obj.slug] = obj
        for obj, values, changed in self.to_update[kind]:
            for name in changed:
                setattr(obj, name, values[name])
            obj.save()

    def new_claim(self, values, change, now):
        claim = Claim(
            episode=self.episodes[(values["podcast"], values["episode"])],
            speaker=self.speakers[values["speaker"]] if values["speaker"] else None,
            **{name: change.after[name] for name in CLAIM_FIELDS_FROM_STATE},
        )
        change.apply(claim, now)
        claim.refresh_derived_fields()
        return claim

    def change_claim(self, claim, values, change, now):
        claim.speaker = self.speakers[values["speaker"]] if values["speaker"] else None
        for name in CLAIM_FIELDS_FROM_STATE:
            setattr(claim, name, change.after[name])
        change.apply(claim, now)
        claim.updated_at = now
        claim.refresh_derived_fields()
        return claim


def record_key(kind, values):
    """How a record is matched with the ledger: by slug, podcast and slug, or episode and number."""
    get = values.get
    clean = {name: str(get(name) or "").strip() for name in ("slug", "podcast", "episode")}
    if kind in ("podcast", "speaker"):
        return clean["slug"]
    if kind == "episode":
        return (clean["podcast"], clean["slug"])
    return (clean["podcast"], clean["episode"], get("number"))


def describe_key(key):
    if isinstance(key, tuple):
        *path, last = key
        return "/".join(path) + (f" {last:02d}" if isinstance(last, int) else f"/{last}")
    return key


# Exporting -------------------------------------------------------------------------


def export_document(*, podcast=None, episode=None):
    """The published ledger as a JSON-ready dict: all of it, one podcast's or one episode's.

    `podcast` is a slug, `episode` a (podcast slug, episode slug) pair. Two
    queries (the claims read in chunks), whatever the size of the ledger.
    """
    episodes = Episode.objects.published()
    if podcast:
        episodes = episodes.filter(podcast__slug=podcast)
    if episode:
        episodes = episodes.filter(podcast__slug=episode[0], slug=episode[1])
    claims = (
        Claim.objects.published()
        .filter(episode__in=episodes.values("pk"))
        .select_related("speaker")
        .order_by("episode_id", "number")
    )
    episodes = list(
        episodes.select_related("podcast").order_by("podcast__slug", "air_date", "slug")
    )
    claims_by_episode = {episode.pk: [] for episode in episodes}
    speakers = {}
    for claim in claims.iterator(chunk_size=2000):
        if claim.speaker_id:
            speakers[claim.speaker.slug] = claim.speaker
        claims_by_episode[claim.episode_id].append(
            {
                "number": claim.number,
                "type": claim.type,
                "excerpt": claim.excerpt,
                "summary": claim.summary,
                "speaker": claim.speaker.slug if claim.speaker_id else None,
                "unresolved_label": claim.unresolved_label,
                "timestamp": claim.timestamp,
                "status": claim.status,
            }
        )
    podcasts = {episode.podcast.slug: episode.podcast for episode in episodes}
    return {
        "format": FORMAT,
        "version": VERSION,
        "podcasts": [
            {
                "slug": p.slug,
                "name": p.name,
                "description": p.description,
                "website_url": p.website_url,
                "feed_url": p.feed_url,
            }
            for _, p in sorted(podcasts.items())
        ],
        "speakers": [
            {
                "slug": s.slug,
                "name": s.name,
                "description": s.description,
                "links": s.link_list,
            }
            for _, s in sorted(speakers.items())
        ],
        "episodes": [
            {
                "podcast": e.podcast.slug,
                "slug": e.slug,
                "title": e.title,
                "air_date": e.air_date.isoformat(),
                "original_url": e.original_url,
                "audio_url": e.audio_url,
                "summary": e.summary,
                "transcript": e.transcript,
                "status": e.status,
                "claims": claims_by_episode[e.pk],
            }
            for e in episodes
        ],
    }


def write_json(document, stream):
    json.dump(document, stream, ensure_ascii=False, indent=2)
    stream.write("\n")


def write_csv(document, stream):
    """The document as CSV rows: podcasts, speakers, then each episode followed by its claims."""
    columns = [name for name in CSV_COLUMNS if name not in IMPORT_ONLY]
    writer = csv.writer(stream)
    writer.writerow(columns)

    def row(kind, values):
        cells = {
            "record": kind,
            **{csv_column(kind, name): value for name, value in values.items()},
        }
        if isinstance(cells.get("links"), list):
            cells["links"] = "\n".join(cells["links"])
        return ["" if cells.get(name) is None else cells[name] for name in columns]

    for podcast in document["podcasts"]:
        writer.writerow(row("podcast", podcast))
    for speaker in document["speakers"]:
        writer.writerow(row("speaker", speaker))
    for episode in document["episodes"]:
        writer.writerow(row("episode", {k: v for k, v in episode.items() if k != "claims"}))
        for claim in episode["claims"]:
            writer.writerow(
                row("claim", {"podcast": episode["podcast"], "episode": episode["slug"], **claim})
            )
