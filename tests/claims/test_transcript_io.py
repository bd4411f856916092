"""Ledger files carry whether an episode's transcript is public (transcript_public)."""

import json

import pytest
from django.db import transaction

from claims.models import Claim
from episodes.models import Episode, Transcript
from tests.claims.ledger_files import (
    TRANSCRIPT,
    as_csv,
    as_json,
    document,
    failed_import,
    run_export,
    run_import,
)
from tests.factories import make_claim, make_episode, make_podcast

pytestmark = pytest.mark.django_db


def with_public_transcript(value):
    doc = document()
    doc["episodes"][0]["transcript_public"] = value
    return doc


def stored():
    """(text, is_public) of the pilot's transcript."""
    transcript = Transcript.objects.get(episode__slug="pilot")
    return transcript.text, transcript.is_public


def test_a_transcript_is_not_public_unless_the_file_says_so(tmp_path):
    run_import(tmp_path, as_json(document()))

    assert stored() == (TRANSCRIPT, False)


@pytest.mark.parametrize(
    "value, made_public",
    [(True, True), (False, False), ("true", True), ("FALSE", False), ("", False), (None, False)],
)
def test_transcript_public_takes_true_or_false(tmp_path, value, made_public):
    run_import(tmp_path, as_json(with_public_transcript(value)))

    assert stored() == (TRANSCRIPT, made_public)


def test_transcript_public_in_a_csv_file(tmp_path):
    run_import(tmp_path, as_csv(with_public_transcript(True)), "ledger.csv")

    assert stored() == (TRANSCRIPT, True)


@pytest.mark.parametrize(
    "value, message",
    [
        ("yes", 'must be true or false, not "yes".'),
        (1, "must be true or false, not 1."),
        ([True], "must be a single value, not a list or an object."),
    ],
)
def test_any_other_value_is_refused_by_name(tmp_path, value, message):
    _, stderr = failed_import(tmp_path, as_json(with_public_transcript(value)))

    assert Episode.objects.count() == 0
    assert stderr.splitlines() == [f"  episodes[0], transcript_public: {message}"]


def test_making_a_transcript_public_keeps_its_text(tmp_path):
    run_import(tmp_path, as_json(document()))

    out, _ = run_import(tmp_path, as_json(with_public_transcript(True)))

    assert stored() == (TRANSCRIPT, True)
    assert "episode example-show/pilot: transcript_public" in out


def test_a_public_transcript_is_exported_as_public():
    pilot = make_episode(
        make_podcast(slug="example-show"),
        slug="pilot",
        air_date="2026-03-01",
        transcript="Ada: hi.",
    )
    pilot.save_transcript(is_public=True)
    make_claim(pilot, excerpt="hi.")
    make_episode(pilot.podcast, slug="second", air_date="2027-01-01")

    episodes = json.loads(run_export())["episodes"]

    assert [(e["slug"], e["transcript"], e["transcript_public"]) for e in episodes] == [
        ("pilot", "Ada: hi.", True),
        ("second", "", False),
    ]


@pytest.mark.parametrize("file_format", ["json", "csv"])
def test_transcript_public_round_trips_exactly(tmp_path, file_format):
    with transaction.atomic():
        run_import(tmp_path, as_json(with_public_transcript(True)))
        exported = run_export("--format", file_format)
        transaction.set_rollback(True)
    assert Claim.objects.count() == 0

    run_import(tmp_path, exported.encode(), f"ledger.{file_format}")

    assert stored() == (TRANSCRIPT, True)
    assert run_export("--format", file_format) == exported
