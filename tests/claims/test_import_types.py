"""Every imported value is checked for type and range as PostgreSQL would store it,
on either database, and whatever is wrong is reported, never raised."""

import json

import pytest

from claims.ledger_io import clean, plan
from tests.claims.ledger_files import as_csv, as_json, document, failed_import, run_import
from tests.ledger.dumps import database_dump

pytestmark = pytest.mark.django_db

CLAIM = "episodes[0].claims[0]"


def with_claim(**fields):
    doc = document()
    doc["episodes"][0]["claims"][0].update(fields)
    return doc


def with_episode(**fields):
    doc = document()
    doc["episodes"][0].update(fields)
    return doc


def refused(tmp_path, content, name="ledger.json"):
    """The problems reported for a file that must not import; asserts nothing was written."""
    before = database_dump()
    _, stderr = failed_import(tmp_path, content, name)
    assert database_dump() == before
    return "\n".join(line.strip() for line in stderr.splitlines())


@pytest.mark.parametrize(
    ("doc", "problem"),
    [
        (with_claim(number=1.5), f"{CLAIM}, number: must be a whole number, not 1.5."),
        (with_claim(number=True), f"{CLAIM}, number: must be a whole number, not true."),
        (with_claim(number=2**31), f"{CLAIM}, number: is too large: at most 2,147,483,647."),
        (with_claim(number="2147483648"), f"{CLAIM}, number: is too large: at most 2,147,483,647."),
        (
            with_claim(timestamp=2**31),
            f"{CLAIM}, timestamp: is too large: at most 2,147,483,647.",
        ),
        (
            with_claim(timestamp="999999999:00:00"),
            f"{CLAIM}, timestamp: is too large: at most 2,147,483,647.",
        ),
        (
            with_claim(timestamp=12.5),
            f"{CLAIM}, timestamp: must be a number of seconds, or a time like 12:34, not 12.5.",
        ),
        (
            with_episode(air_date=123),
            "episodes[0], air_date: must be a date written as text, “YYYY-MM-DD”, not 123.",
        ),
        (with_episode(title=7), "episodes[0], title: must be text, not 7."),
        (with_claim(excerpt=False), f"{CLAIM}, excerpt: must be text, not false."),
        (with_claim(correction_note=3), f"{CLAIM}, correction_note: must be text, not 3."),
    ],
)
def test_a_value_of_the_wrong_type_or_out_of_range_is_reported(tmp_path, doc, problem):
    assert refused(tmp_path, as_json(doc)) == problem


def test_the_largest_number_postgresql_stores_is_imported(tmp_path):
    run_import(tmp_path, as_json(with_claim(number=2_147_483_647, timestamp=2_147_483_647)))


def test_a_json_file_nested_a_hundred_thousand_deep_is_reported(tmp_path):
    content = b'{"podcasts": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"

    assert refused(tmp_path, content) == "the JSON is nested too deeply to be a ledger file."


def test_speaker_links_must_be_text(tmp_path):
    doc = document()
    doc["speakers"][0]["links"] = [1, 2]

    assert refused(tmp_path, as_json(doc)) == (
        "speakers[0], links: must be web addresses: a list of text, or one per line."
    )


def test_an_unforeseen_error_checking_a_value_is_reported_with_its_place(tmp_path, monkeypatch):
    def fail(kind, name, raw):
        raise RuntimeError("no rule foresaw this")

    monkeypatch.setattr(clean, "clean_value", fail)

    problems = refused(tmp_path, as_csv(document(claims=1)), "ledger.csv").splitlines()

    assert problems[0] == "row 2, podcast: this value could not be checked (RuntimeError)."


def test_an_unforeseen_error_planning_the_import_is_reported(tmp_path, monkeypatch):
    def fail(self):
        raise RuntimeError("no rule foresaw this")

    monkeypatch.setattr(plan.Plan, "load_ledger", fail)

    assert refused(tmp_path, as_json(document())) == (
        "the file could not be imported (RuntimeError); nothing was written. "
        "Please report this with the file."
    )


def test_a_json_document_with_numbers_where_text_belongs_names_each(tmp_path):
    doc = document()
    doc["podcasts"][0]["name"] = 1
    doc["speakers"][1]["slug"] = ["ben"]

    problems = refused(tmp_path, json.dumps(doc).encode()).splitlines()

    assert problems[:2] == [
        "podcasts[0], name: must be text, not 1.",
        "speakers[1], slug: must be a single value, not a list or an object.",
    ]
