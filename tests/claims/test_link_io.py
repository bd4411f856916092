"""Linked claims in the ledger file: import, export and the exact round trip."""

import json

import pytest
from django.db import transaction

from claims.models import Claim, ClaimLink
from episodes.models import Status
from tests.claims.ledger_files import (
    as_csv,
    as_json,
    csv_with_rows,
    document,
    failed_import,
    run_export,
    run_import,
)
from tests.factories import make_claim, make_episode, make_link, make_podcast

pytestmark = pytest.mark.django_db


def linked_document():
    """The test document, its caller's claim 02 contradicting Ben's claim 01."""
    doc = document()
    doc["episodes"][0]["claims"][1]["linked_claims"] = [
        {"relation": "contradicts", "claim": "example-show/pilot/1", "note": "Not so."}
    ]
    return doc


def links():
    return [
        (link.from_claim.number, link.relation, link.to_claim.number, link.note)
        for link in ClaimLink.objects.select_related("from_claim", "to_claim")
    ]


@pytest.mark.parametrize("spelling", [as_json, as_csv])
def test_a_file_links_a_claim_to_another_in_the_same_file(tmp_path, spelling):
    out, _ = run_import(tmp_path, spelling(linked_document()), f"ledger.{spelling.__name__[3:]}")

    assert "1 link." in out
    assert links() == [(2, "contradicts", 1, "Not so.")]


def test_an_imported_contradiction_puts_both_claims_in_the_browsers_filter(tmp_path, client):
    run_import(tmp_path, as_json(linked_document()))

    response = client.get("/api/v1/claims/", {"contradictions": "only", "order": "oldest"})
    assert [claim["number"] for claim in response.json()["results"]] == [1, 2]


def test_a_contradiction_imported_between_claims_already_in_the_ledger_flags_both(tmp_path, client):
    run_import(tmp_path, as_json(document()))
    run_import(tmp_path, as_json(linked_document()))

    response = client.get("/api/v1/claims/", {"contradictions": "only", "order": "oldest"})
    assert [claim["number"] for claim in response.json()["results"]] == [1, 2]


def test_a_csv_cell_holds_one_link_a_line(tmp_path):
    episode = make_episode(podcast=make_podcast(slug="example-show"), slug="pilot")
    make_claim(episode, number=1)
    make_claim(episode, number=2)
    content = csv_with_rows(
        (
            "claim",
            "example-show",
            "pilot",
            "3",
            "",
            "belief",
            "Third.",
            "supports example-show/pilot/1\nrefines example-show/pilot/2 Says it more exactly.",
        ),
        header=(
            "record",
            "podcast",
            "episode",
            "number",
            "speaker",
            "type",
            "excerpt",
            "linked_claims",
        ),
    )

    run_import(tmp_path, content, "ledger.csv")

    assert sorted(links()) == [(3, "refines", 2, "Says it more exactly."), (3, "supports", 1, "")]


def test_a_link_to_a_claim_already_in_the_ledger_needs_no_record_of_it_in_the_file(tmp_path):
    other = make_episode(podcast=make_podcast(slug="sample-hour"), slug="first")
    make_claim(other, number=4)
    doc = document()
    doc["episodes"][0]["claims"][0]["linked_claims"] = [
        {"relation": "repeats", "claim": "sample-hour/first/4"}
    ]

    run_import(tmp_path, as_json(doc))

    assert links() == [(1, "repeats", 4, "")]


@pytest.mark.parametrize(
    ("linked", "message"),
    [
        (
            {"relation": "contradicts", "claim": "example-show/pilot/9"},
            "no claim “example-show/pilot/9” in this file or in the ledger to link to.",
        ),
        (
            {"relation": "contradicts", "claim": "example-show/pilot/2"},
            "a claim cannot be linked to itself (contradicts example-show/pilot/2).",
        ),
        (
            {"relation": "agrees", "claim": "example-show/pilot/1"},
            "“agrees” is not one of supports, contradicts, refines, repeats, responds_to.",
        ),
        (
            {"relation": "supports", "claim": "pilot 1"},
            "“pilot 1” does not name a claim: write podcast/episode/number, "
            "e.g. example-show/pilot/3.",
        ),
        (
            {"relation": "supports", "claim": "example-show/pilot/1", "weight": 3},
            "unknown key in a link: weight.",
        ),
    ],
    ids=["unknown-claim", "self-link", "unknown-relation", "malformed-claim", "unknown-key"],
)
def test_a_broken_link_is_reported_at_its_claim_and_nothing_is_written(tmp_path, linked, message):
    doc = document()
    doc["episodes"][0]["claims"][1]["linked_claims"] = [linked]

    _, stderr = failed_import(tmp_path, as_json(doc))

    assert stderr.strip() == f"episodes[0].claims[1], linked_claims: {message}"
    assert not Claim.objects.exists()


def test_a_broken_link_in_a_csv_is_reported_at_its_row(tmp_path):
    episode = make_episode(podcast=make_podcast(slug="example-show"), slug="pilot")
    make_claim(episode, number=1)
    content = csv_with_rows(
        (
            "claim",
            "example-show",
            "pilot",
            "2",
            "",
            "belief",
            "Words.",
            "supports example-show/pilot/2",
        ),
        header=(
            "record",
            "podcast",
            "episode",
            "number",
            "speaker",
            "type",
            "excerpt",
            "linked_claims",
        ),
    )

    _, stderr = failed_import(tmp_path, content, "ledger.csv")

    assert stderr.strip() == (
        "row 2, linked_claims: a claim cannot be linked to itself (supports example-show/pilot/2)."
    )


def test_the_same_link_given_from_both_claims_is_reported_at_the_second(tmp_path):
    doc = linked_document()
    doc["episodes"][0]["claims"][0]["linked_claims"] = [
        {"relation": "contradicts", "claim": "example-show/pilot/2"}
    ]

    _, stderr = failed_import(tmp_path, as_json(doc))

    assert stderr.strip() == (
        "episodes[0].claims[1], linked_claims: example-show/pilot/1 already contradicts this "
        "claim at episodes[0].claims[0]: a link is made once, from either claim."
    )


def test_a_link_the_ledger_has_the_other_way_is_reported(tmp_path):
    run_import(tmp_path, as_json(document()))
    first, second = Claim.objects.order_by("number")[:2]
    make_link(first, second, "contradicts")

    _, stderr = failed_import(tmp_path, as_json(linked_document()))

    assert stderr.strip() == (
        "episodes[0].claims[1], linked_claims: in the ledger, example-show/pilot/1 already "
        "contradicts this claim: a link is made once."
    )


def test_the_same_link_twice_in_one_claim_is_reported(tmp_path):
    doc = linked_document()
    doc["episodes"][0]["claims"][1]["linked_claims"] *= 2

    _, stderr = failed_import(tmp_path, as_json(doc))

    assert stderr.strip() == (
        "episodes[0].claims[1], linked_claims: names “example-show/pilot/1” twice as contradicts."
    )


def test_importing_again_changes_a_links_note_and_keeps_links_the_file_leaves_out(tmp_path):
    run_import(tmp_path, as_json(linked_document()))
    first, second, third = Claim.objects.order_by("number")
    make_link(third, first, "supports")
    doc = linked_document()
    doc["episodes"][0]["claims"][1]["linked_claims"][0]["note"] = "Plainly not so."

    out, _ = run_import(tmp_path, as_json(doc))

    assert "Updated: 1 link." in out
    assert "link example-show/pilot/2 contradicts example-show/pilot/1: note" in out
    assert sorted(links()) == [(2, "contradicts", 1, "Plainly not so."), (3, "supports", 1, "")]


def test_export_writes_a_claims_public_links_in_the_order_of_the_claims_they_name(db):
    episode = make_episode(podcast=make_podcast(slug="example-show"), slug="pilot")
    first, second, third = (make_claim(episode, number=n) for n in (1, 2, 3))
    draft = make_claim(episode, number=4, status=Status.DRAFT)
    make_link(third, second, "refines", note="More exact.")
    make_link(third, first, "supports")
    make_link(third, first, "contradicts")
    make_link(third, draft, "repeats")

    claims = json.loads(run_export())["episodes"][0]["claims"]

    assert claims[2]["linked_claims"] == [
        {"relation": "supports", "claim": "example-show/pilot/1", "note": ""},
        {"relation": "contradicts", "claim": "example-show/pilot/1", "note": ""},
        {"relation": "refines", "claim": "example-show/pilot/2", "note": "More exact."},
    ]
    assert "linked_claims" not in claims[0]


def test_export_of_one_episode_leaves_out_links_to_claims_outside_it(db):
    show = make_podcast(slug="example-show")
    here = make_claim(make_episode(podcast=show, slug="pilot"))
    make_link(here, make_claim(make_episode(podcast=show, slug="second")), "supports")

    document = json.loads(run_export("--episode", "example-show/pilot"))

    assert "linked_claims" not in document["episodes"][0]["claims"][0]


@pytest.mark.parametrize("file_format", ["json", "csv"])
def test_links_round_trip_exactly_through_an_empty_ledger(tmp_path, file_format):
    with transaction.atomic():
        show = make_podcast(slug="example-show")
        pilot = make_episode(podcast=show, slug="pilot")
        second = make_episode(podcast=show, slug="second")
        a, b = make_claim(pilot, number=1), make_claim(pilot, number=2)
        c = make_claim(second, number=1)
        make_link(b, a, "contradicts", note="Line one, with a comma, “quotes” and = sign.")
        make_link(c, a, "responds_to")
        make_link(c, b, "refines", note="-starts like a formula")
        exported = run_export("--format", file_format)
        before = links()
        transaction.set_rollback(True)

    run_import(tmp_path, exported.encode(), f"ledger.{file_format}")

    assert sorted(links()) == sorted(before)
    assert run_export("--format", file_format) == exported
