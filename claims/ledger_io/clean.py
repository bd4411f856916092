"""Checking one record: each value as the file gives it, converted to what the ledger stores."""

import re

from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import models

from claims.ledger_io.formats import FIELDS, MAY_BE_BLANK, REQUIRED, Problem, join
from episodes.models import Speaker

_CLOCK = re.compile(r"^(?:(\d+):)?([0-5]?\d):([0-5]\d)$")
_is_url = URLValidator(schemes=("http", "https"))


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
