"""Checking one record: each value as the file gives it, converted to what the ledger stores."""

import json
import logging
import re

from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import models

from claims.ledger_io.appearances import clean_appearances
from claims.ledger_io.formats import FIELDS, MAY_BE_BLANK, REQUIRED, Problem, Record, join
from claims.ledger_io.links import clean_linked_claims
from claims.ledger_io.subjects import clean_references, clean_topics
from claims.predictions import clean_sources, parse_horizon
from episodes.models import Speaker

# Hours of up to nine digits, so that too many hours is reported as too large: a
# string of thousands of digits is more than int() will read.
_CLOCK = re.compile(r"^(?:([0-9]{1,9}):)?([0-5]?[0-9]):([0-5][0-9])$")
_DIGITS = re.compile(r"^[0-9]+$")
# The largest value of a PositiveIntegerField on PostgreSQL (an integer column).
# SQLite would store more, but a ledger moves between the two, so both refuse it.
MAX_INTEGER = 2_147_483_647
logger = logging.getLogger(__name__)
_is_url = URLValidator(schemes=("http", "https"))
# Fields whose value is a list (in JSON) or one item per line (in a CSV cell).
LIST_FIELDS = ("links", "sources", "topics", "references", "transcript_cues", "appearances")


def clean_record(record: Record, problems: list[Problem]) -> dict | None:
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
        except Exception as error:  # a value no rule foresaw: reported, never a traceback
            logger.exception("Unexpected error checking %s %s", record.where, name)
            message = f"this value could not be checked ({type(error).__name__})."
            problems.append(Problem(record.where, record.label(name), message))
            ok = False
            continue
        blank = value is None or (isinstance(value, str) and not value.strip())
        if blank and name in REQUIRED[record.kind] and name not in MAY_BE_BLANK:
            problems.append(
                Problem(record.where, record.label(name), "required: it cannot be blank.")
            )
            ok = False
        elif blank and name in ("status", "resolution", "timestamp_from_transcript"):
            continue  # left as it is (a new claim starts as a draft, a prediction open)
        values[name] = value
    return values if ok else None


def clean_value(kind: str, name: str, raw: object) -> object:
    """The value to store for field `name`, as PostgreSQL would store it, or a ValidationError.

    Types are checked here, not left to the model field: a field's clean() turns
    1.5 and true into 1, and fails on a number where it expects a date.
    """
    if name == "linked_claims":
        return clean_linked_claims(raw)
    if isinstance(raw, dict) or (isinstance(raw, list) and name not in LIST_FIELDS):
        raise ValidationError("must be a single value, not a list or an object.")
    if raw is None:
        raw = ""
    if isinstance(raw, str) and "\x00" in raw:
        raise ValidationError("contains a NUL character, which cannot be stored.")
    model_field = FIELDS[kind][name]
    if name in OWN_READERS:
        return OWN_READERS[name](raw)
    if not isinstance(raw, str):
        if isinstance(model_field, models.DateField):
            raise ValidationError(
                f"must be a date written as text, “YYYY-MM-DD”, not {shown(raw)}."
            )
        raise ValidationError(f"must be text, not {shown(raw)}.")
    if name in ("speaker", "correction_note"):
        return clean_slug(raw) if name == "speaker" else raw
    if not isinstance(model_field, models.TextField):
        raw = raw.strip()  # excerpts, transcripts and other long text stay exactly as given
    if model_field.choices and raw != "":
        valid = [value for value, _ in model_field.choices]
        if raw not in valid:
            raise ValidationError(f"“{raw}” is not one of {join(valid)}.")
    if raw == "" and model_field.null:
        return None
    if raw == "" and not model_field.blank:
        return ""
    return model_field.clean(raw, None)


def clean_horizon(raw: object):
    if not isinstance(raw, str):
        raise ValidationError(f"must be a horizon written as text, “2027-03”, not {shown(raw)}.")
    return parse_horizon(raw)


def whole_number(raw: object, what: str) -> int:
    """A whole number from an integer or a string of digits (not a bool, not a float),
    no larger than PostgreSQL's integer column holds. `what` describes it in messages."""
    if isinstance(raw, bool) or not isinstance(raw, int | str):
        raise ValidationError(f"must be {what}, not {shown(raw)}.")
    if isinstance(raw, str):
        text = raw.strip()
        if not _DIGITS.match(text):
            raise ValidationError(f"“{text}” value must be an integer.")
        raw = int(text) if len(text) <= len(str(MAX_INTEGER)) else MAX_INTEGER + 1
    if raw > MAX_INTEGER:
        raise ValidationError(f"is too large: at most {MAX_INTEGER:,}.")
    return raw


def shown(raw: object) -> str:
    """A value as the JSON file spells it (true, 1.5), cut short."""
    return json.dumps(raw, ensure_ascii=False, default=str)[:40]


def clean_number(raw: object) -> int | None:
    if raw == "":
        return None
    number = whole_number(raw, "a whole number")
    if number < 1:
        raise ValidationError("claim numbers start at 1.")
    return number


def clean_slug(raw: str) -> str:
    value = str(raw).strip()
    if value:
        Speaker._meta.get_field("slug").run_validators(value)
    return value


def clean_links(raw: object) -> str:
    if not isinstance(raw, list | str) or not all(isinstance(link, str) for link in raw):
        raise ValidationError("must be web addresses: a list of text, or one per line.")
    links = raw if isinstance(raw, list) else raw.splitlines()
    links = [link.strip() for link in links if link.strip()]
    for link in links:
        try:
            _is_url(link)
        except ValidationError:
            raise ValidationError(f"“{link}” is not a web address.") from None
    return "\n".join(links)


def read_sources(raw):
    """Sources as a list of {"url", "title"}: JSON gives objects, a CSV cell "address title" lines."""
    if isinstance(raw, list):
        if not all(isinstance(source, dict) for source in raw):
            raise ValidationError('each source must be an object: {"url": …, "title": …}.')
        return raw
    lines = [line.strip() for line in str(raw).splitlines() if line.strip()]
    return [dict(zip(("url", "title"), line.split(None, 1), strict=False)) for line in lines]


def clean_flag(raw: object) -> bool:
    """true or false: a JSON boolean, or the word in a CSV cell; blank is false."""
    if isinstance(raw, bool):
        return raw
    word = raw.strip().lower() if isinstance(raw, str) else None
    if word in ("true", "false", ""):
        return word == "true"
    raise ValidationError(f"must be true or false, not {shown(raw)}.")


def clean_timestamp(raw: object) -> int | None:
    """Seconds into the episode: 754, "754", "12:34" or "1:02:03"; blank for none."""
    if raw in ("", None):
        return None
    what = "a number of seconds, or a time like 12:34"
    clock = _CLOCK.match(raw.strip()) if isinstance(raw, str) else None
    if clock:
        hours, minutes, secs = (int(part or 0) for part in clock.groups())
        seconds = whole_number(hours * 3600 + minutes * 60 + secs, what)
    elif isinstance(raw, str) and not _DIGITS.match(raw.strip()):
        raise ValidationError(f"“{raw.strip()}” is not {what}.")
    else:
        seconds = whole_number(raw, what)
    if seconds < 0:
        raise ValidationError("cannot be negative.")
    return seconds


def clean_optional_flag(raw: object) -> bool | None:
    """true or false (in a CSV cell, "true", "false" or blank for none)."""
    if isinstance(raw, bool):
        return raw
    text = raw.strip().lower() if isinstance(raw, str) else None
    if text in ("true", "false", ""):
        return {"true": True, "false": False}.get(text)
    raise ValidationError(f"must be true or false, not {shown(raw)}.")


def clean_cues(raw: object) -> list[list[int]]:
    """[[start_seconds, offset], …] from a JSON list of pairs, or CSV "seconds offset" lines,
    with offsets in order (they say where each cue starts in the transcript)."""
    what = "cues as [seconds, offset] pairs of whole numbers"
    if isinstance(raw, str):
        pairs = [line.split() for line in raw.splitlines() if line.strip()]
    elif isinstance(raw, list):
        pairs = raw
    else:
        raise ValidationError(f"must be {what}, not {shown(raw)}.")
    cues = []
    for pair in pairs:
        if not isinstance(pair, list) or len(pair) != 2:
            raise ValidationError(f"must be {what}, not {shown(pair)}.")
        cues.append([whole_number(value, what) for value in pair])
    if any(later[1] < earlier[1] for earlier, later in zip(cues, cues[1:], strict=False)):
        raise ValidationError("cue offsets must be in order: each cue starts after the one before.")
    return cues


# Fields read by a function of their own, once past the checks every field gets.
OWN_READERS = {
    "links": clean_links,
    "appearances": clean_appearances,
    "timestamp": clean_timestamp,
    "timestamp_from_transcript": clean_optional_flag,
    "transcript_public": clean_flag,
    "transcript_cues": clean_cues,
    "number": clean_number,
    "horizon": clean_horizon,
    "sources": lambda raw: clean_sources(read_sources(raw)),
    "topics": clean_topics,
    "references": clean_references,
}
