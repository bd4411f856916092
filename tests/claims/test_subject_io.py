"""Topics and named references in ledger files: imported, exported, round-tripped exactly."""

import json

import pytest
from django.db import transaction

from claims.models import Claim, ClaimReference, Reference, Topic
from tests.claims.ledger_files import (
    as_csv,
    as_json,
    document,
    failed_import,
    run_export,
    run_import,
)

pytestmark = pytest.mark.django_db

BOOK = {
    "slug": "the-careful-deploy",
    "kind": "book",
    "title": "The Careful Deploy",
    "creator": "Ada Example",
    "url": "https://example.com/books/the-careful-deploy/",
}


def with_subjects(claims=3):
    doc = document(claims)
    doc["topics"] = [
        {"slug": "sourcing", "name": "Sourcing", "description": "Where quotes come from."}
    ]
    doc["references"] = [dict(BOOK), {**BOOK, "slug": "pytest", "kind": "tool", "title": "pytest"}]
    first = doc["episodes"][0]["claims"][0]
    first["topics"] = ["sourcing"]
    first["references"] = [
        {"role": "recommends", "slug": "the-careful-deploy"},
        {"role": "uses", "slug": "pytest"},
        {"role": "mentions", "slug": "the-careful-deploy"},
    ]
    return doc


def links():
    """Every claim's topics and references, as a reader would compare them."""
    return {
        "topics": sorted(Claim.topics.through.objects.values_list("claim__number", "topic__slug")),
        "references": sorted(
            ClaimReference.objects.values_list("claim__number", "role", "reference__slug")
        ),
        "records": (
            sorted(Topic.objects.values_list("slug", "name", "description")),
            sorted(Reference.objects.values_list("slug", "kind", "title", "creator", "url")),
        ),
    }


@pytest.mark.parametrize("spell", [as_json, as_csv], ids=["json", "csv"])
def test_import_creates_topics_references_and_their_links(tmp_path, spell):
    out, _ = run_import(tmp_path, spell(with_subjects()), f"l.{spell.__name__[3:]}")

    assert "Created: 1 podcast, 2 speakers, 1 topic, 2 references, 1 episode, 3 claims." in out
    assert links()["topics"] == [(1, "sourcing")]
    assert links()["references"] == [
        (1, "mentions", "the-careful-deploy"),
        (1, "recommends", "the-careful-deploy"),
        (1, "uses", "pytest"),
    ]


@pytest.mark.parametrize("file_format", ["json", "csv"])
def test_export_then_import_into_an_empty_ledger_round_trips_exactly(tmp_path, file_format):
    with transaction.atomic():
        run_import(tmp_path, as_json(with_subjects()), "l.json")
        exported, before = run_export("--format", file_format), links()
        transaction.set_rollback(True)

    run_import(tmp_path, exported.encode(), f"ledger.{file_format}")

    assert links() == before
    assert run_export("--format", file_format) == exported


def test_export_lists_a_claims_links_in_role_order(tmp_path):
    run_import(tmp_path, as_json(with_subjects()), "l.json")

    exported = json.loads(run_export())

    first = exported["episodes"][0]["claims"][0]
    assert first["topics"] == ["sourcing"]
    assert [(r["role"], r["slug"]) for r in first["references"]] == [
        ("recommends", "the-careful-deploy"),
        ("uses", "pytest"),
        ("mentions", "the-careful-deploy"),
    ]
    assert [r["slug"] for r in exported["references"]] == ["pytest", "the-careful-deploy"]
    # A claim without links has no keys for them, as before topics existed.
    assert "topics" not in exported["episodes"][0]["claims"][1]


def test_export_leaves_out_topics_and_references_of_drafts_only(tmp_path):
    doc = with_subjects()
    doc["topics"].append({"slug": "drafty", "name": "Drafty"})
    doc["episodes"][0]["claims"][2]["topics"] = ["drafty"]
    run_import(tmp_path, as_json(doc), "l.json")

    exported = json.loads(run_export())

    assert [t["slug"] for t in exported["topics"]] == ["sourcing"]


def test_a_changed_list_of_links_updates_the_claim_exactly(tmp_path):
    run_import(tmp_path, as_json(with_subjects()), "l.json")
    doc = with_subjects()
    doc["episodes"][0]["claims"][0]["references"] = [{"role": "criticises", "slug": "pytest"}]
    doc["episodes"][0]["claims"][0]["topics"] = []

    out, _ = run_import(tmp_path, as_json(doc), "l.json")

    assert "Updated: 1 claim." in out
    assert "claim example-show/pilot 01: topics, references" in out
    assert links()["topics"] == []
    assert links()["references"] == [(1, "criticises", "pytest")]


def test_a_claim_that_leaves_its_links_out_keeps_them(tmp_path):
    run_import(tmp_path, as_json(with_subjects()), "l.json")
    doc = document()

    out, _ = run_import(tmp_path, as_json(doc), "l.json")

    assert "Updated: nothing." in out
    assert links()["topics"] == [(1, "sourcing")]


def test_importing_the_same_file_again_changes_nothing(tmp_path):
    run_import(tmp_path, as_json(with_subjects()), "l.json")

    out, _ = run_import(tmp_path, as_json(with_subjects()), "l.json")

    assert "Created: nothing. Updated: nothing." in out


def bad(doc, change):
    change(doc)
    return doc


CLAIM = "episodes[0].claims[0]"


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (
            lambda d: d["episodes"][0]["claims"][0].update(topics=["nowhere"]),
            f"{CLAIM}, topics: no topic “nowhere” in this file or in the ledger.",
        ),
        (
            lambda d: d["episodes"][0]["claims"][0].update(
                references=[{"role": "adores", "slug": "pytest"}]
            ),
            f"{CLAIM}, references: “adores” is not a role: one of recommends, uses, "
            "criticises, mentions.",
        ),
        (
            lambda d: d["episodes"][0]["claims"][0].update(references=["pytest"]),
            f'{CLAIM}, references: each reference must be an object: {{"role": …, "slug": …}}.',
        ),
        (
            lambda d: d["episodes"][0]["claims"][0].update(topics=["sourcing", "sourcing"]),
            f"{CLAIM}, topics: “sourcing” is listed twice.",
        ),
        (
            lambda d: d["episodes"][0]["claims"][0].update(topics=["not a slug!"]),
            f"{CLAIM}, topics: “not a slug!” is not a topic's slug (letters, numbers, - and _ "
            "only).",
        ),
        (
            lambda d: d["references"][0].update(url="javascript:alert(1)"),
            "references[0], url: Enter a valid URL.",
        ),
        (
            lambda d: d["references"][0].update(kind="film"),
            "references[0], kind: “film” is not one of book, paper, tool, company, website, other.",
        ),
        (
            lambda d: d["topics"][0].pop("name"),
            "topics[0], name: missing: this field is required.",
        ),
    ],
)
def test_bad_topics_and_references_get_clear_errors(tmp_path, change, problem):
    error, stderr = failed_import(tmp_path, as_json(bad(with_subjects(), change)), "l.json")

    assert "nothing was written." in error
    assert f"  {problem}" in stderr.splitlines()
    assert not Topic.objects.exists() and not ClaimReference.objects.exists()


def test_a_csv_reference_cell_needs_a_role_and_a_slug(tmp_path):
    content = as_csv(with_subjects()).replace(
        b"recommends the-careful-deploy", b"recommends-the-careful-deploy"
    )

    _, stderr = failed_import(tmp_path, content, "l.csv")

    assert (
        "row 9, references: “recommends-the-careful-deploy” is not a role and a slug, like "
        "“recommends the-careful-deploy”." in stderr
    )
