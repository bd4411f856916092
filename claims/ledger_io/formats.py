"""The ledger file's records and fields, and what is wrong with a file (README: "Importing and
exporting the ledger").

One format, two spellings: a file holds records of six kinds — podcasts, speakers,
topics, references, episodes and their numbered claims — under the same field names
in JSON and in CSV.
"""

from dataclasses import dataclass

from claims.models import Claim, Reference, Topic
from episodes.models import Episode, Podcast, Speaker, Transcript

FORMAT = "evidence-ledger"
VERSION = 1
KINDS = ("podcast", "speaker", "topic", "reference", "episode", "claim")
PLURALS = {
    "podcast": "podcasts",
    "speaker": "speakers",
    "topic": "topics",
    "reference": "references",
    "episode": "episodes",
    "claim": "claims",
    # Not a record of its own: a claim's linked_claims, counted apart in an import's report.
    "link": "links",
}

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
    "topic": {
        "slug": Topic._meta.get_field("slug"),
        "name": Topic._meta.get_field("name"),
        "description": Topic._meta.get_field("description"),
    },
    "reference": {
        "slug": Reference._meta.get_field("slug"),
        "kind": Reference._meta.get_field("kind"),
        "title": Reference._meta.get_field("title"),
        "creator": Reference._meta.get_field("creator"),
        "url": Reference._meta.get_field("url"),
    },
    "episode": {
        "podcast": Podcast._meta.get_field("slug"),
        "slug": Episode._meta.get_field("slug"),
        "title": Episode._meta.get_field("title"),
        "air_date": Episode._meta.get_field("air_date"),
        "original_url": Episode._meta.get_field("original_url"),
        "audio_url": Episode._meta.get_field("audio_url"),
        "summary": Episode._meta.get_field("summary"),
        "transcript": Transcript._meta.get_field("text"),
        # A timed transcript's cues, [[start_seconds, offset], …] (episodes.Transcript.cues);
        # in a CSV cell, one "seconds offset" per line. They belong to the transcript: a
        # new transcript without them has no times.
        "transcript_cues": None,
        # true or false (in CSV too); false unless given.
        "transcript_public": Transcript._meta.get_field("is_public"),
        "status": Episode._meta.get_field("status"),
        # [{"speaker": slug, "role": role}]; in a CSV cell, one "slug role" per line.
        "appearances": None,
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
        # true when the timestamp is the transcript's, refreshed with new timings
        # (claims/timing.py); written only then. Left out, it is decided as in the admin.
        "timestamp_from_transcript": None,
        "status": Claim._meta.get_field("status"),
        "retraction_reason": Claim._meta.get_field("retraction_reason"),
        "correction_note": None,
        # A prediction's: "2027", "2027-03" or "2027-03-15" (claims.predictions.parse_horizon).
        "horizon": None,
        "resolution": Claim._meta.get_field("resolution"),
        "resolved_on": Claim._meta.get_field("resolved_on"),
        "resolution_note": Claim._meta.get_field("resolution_note"),
        # [{"url", "title"}]; in a CSV cell, one "address title" per line.
        "sources": None,
        # [{"relation", "claim": "podcast/episode/number", "note"}] (claims/ledger_io/links.py);
        # in a CSV cell, one "relation podcast/episode/number note" per line.
        "linked_claims": None,
        # Topic slugs; in a CSV cell, one per line.
        "topics": None,
        # [{"role", "slug"}] of the references it names; in a CSV cell, one "role slug" per line.
        "references": None,
    },
}
# Fields a record of each kind must have (a claim's speaker may be empty, for an
# unresolved voice, but must be said).
REQUIRED = {
    "podcast": ("slug", "name"),
    "speaker": ("slug", "name"),
    "topic": ("slug", "name"),
    "reference": ("slug", "kind", "title"),
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
    "timestamp_from_transcript",
    "summary",
    "status",
    "retraction_reason",
    "correction_note",
    "horizon",
    "resolution",
    "resolved_on",
    "resolution_note",
    "sources",
    "linked_claims",
    "name",
    "title",
    "air_date",
    "original_url",
    "audio_url",
    "description",
    "website_url",
    "feed_url",
    "links",
    "appearances",
    "transcript",
    "transcript_cues",
    "transcript_public",
    # Topics and references: their rows name themselves in "topic" and "reference";
    # a claim's row lists its own in "topics" and "references".
    "topic",
    "reference",
    "kind",
    "creator",
    "url",
    "topics",
    "references",
)
# The episode fields its transcript holds (a record of its own): the file's name → the model's.
TRANSCRIPT_FIELDS = {
    "transcript": "text",
    "transcript_cues": "cues",
    "transcript_public": "is_public",
}


def transcript_value(episode: Episode, name: str) -> str | bool:
    """An episode's transcript field (TRANSCRIPT_FIELDS) as a file holds it: "" and false
    without a transcript. The episode was read with its transcript (select_related)."""
    transcript = getattr(episode, "transcript", None)
    if transcript is None:
        return Transcript._meta.get_field(TRANSCRIPT_FIELDS[name]).get_default()
    return getattr(transcript, TRANSCRIPT_FIELDS[name])


def stored_value(record, name: str):
    """A record's field `name` as the ledger holds it; an episode's transcript is a
    record of its own, read through the episode."""
    if name in TRANSCRIPT_FIELDS:
        return transcript_value(record, name)
    return getattr(record, name)


# A spreadsheet runs a cell that starts with one of these as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
CSV_ESCAPE = "'"


def escape_cell(value: object) -> object:
    """A CSV cell as export writes it: text a spreadsheet would run as a formula, or
    that starts with the escape itself, gets a leading ' that import takes off."""
    if isinstance(value, str) and value.startswith((*FORMULA_STARTS, CSV_ESCAPE)):
        return CSV_ESCAPE + value
    return value


def unescape_cell(cell: str) -> str:
    """A CSV cell as import reads it: without the leading ' that escape_cell() adds."""
    return cell.removeprefix(CSV_ESCAPE)


def csv_column(kind: str, name: str) -> str:
    """The CSV column that holds field `name` of a `kind` record."""
    return kind if name == "slug" else name


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


def join(names) -> str:
    return ", ".join(names)


def guess_format(name: str, text: str) -> str:
    """ "json" or "csv": from the file's name, else from its first character."""
    lowered = name.lower()
    if lowered.endswith(".json"):
        return "json"
    if lowered.endswith(".csv"):
        return "csv"
    return "json" if text.lstrip().startswith(("{", "[")) else "csv"


def decode(content: bytes) -> str:
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
