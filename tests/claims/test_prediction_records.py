"""Predictions kept to account: what the database refuses, and what the write path records."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from claims.choices import HorizonPrecision, Resolution
from claims.models import Claim, ClaimRevision, ClaimStatus, ClaimType, RevisionKind
from claims.predictions import PredictionSource, parse_horizon
from episodes.models import Status
from tests.factories import SOURCE, make_claim, make_episode, make_prediction, make_speaker, resolve

pytestmark = pytest.mark.django_db

RESOLVED = {
    "resolution": Resolution.CAME_TRUE,
    "resolved_on": datetime.date(2026, 6, 1),
    "resolution_note": "Reported widely.",
    "resolution_sources": [SOURCE],
}


def assert_refused(**fields):
    """The database refuses the row: bulk_create skips save() and the write path."""
    defaults = {
        "episode": make_episode(),
        "speaker": make_speaker(),
        "number": 1,
        "type": ClaimType.PREDICTION,
        "excerpt": "Within two years every example will be fictional.",
    }
    with pytest.raises(IntegrityError), transaction.atomic():
        Claim.objects.bulk_create([Claim(**{**defaults, **fields})])


def test_the_database_refuses_a_horizon_on_a_claim_that_is_not_a_prediction():
    assert_refused(
        type=ClaimType.BELIEF,
        horizon=datetime.date(2027, 12, 31),
        horizon_precision=HorizonPrecision.YEAR,
    )


def test_the_database_refuses_an_outcome_on_a_claim_that_is_not_a_prediction():
    assert_refused(type=ClaimType.BELIEF, **RESOLVED)


def test_the_database_refuses_a_horizon_without_its_precision():
    assert_refused(horizon=datetime.date(2027, 12, 31), horizon_precision="")


def test_the_database_refuses_a_precision_without_a_horizon():
    assert_refused(horizon=None, horizon_precision=HorizonPrecision.MONTH)


def test_the_database_refuses_an_unknown_outcome():
    assert_refused(**{**RESOLVED, "resolution": "proven"})


@pytest.mark.parametrize(
    "missing",
    [{"resolved_on": None}, {"resolution_note": "  "}, {"resolution_sources": []}],
    ids=["date", "note", "source"],
)
def test_the_database_refuses_an_outcome_without_its_date_note_or_source(missing):
    assert_refused(**{**RESOLVED, **missing})


def test_the_database_refuses_a_note_on_an_open_prediction():
    assert_refused(resolution_note="Not yet.")


def test_the_database_refuses_a_source_that_is_not_a_web_address():
    claim = make_prediction()
    with pytest.raises(IntegrityError), transaction.atomic():
        PredictionSource.objects.create(claim=claim, url="javascript:alert(1)", title="Bad")


def test_the_database_refuses_a_source_without_a_title():
    claim = make_prediction()
    with pytest.raises(IntegrityError), transaction.atomic():
        PredictionSource.objects.create(claim=claim, url="https://example.com/", title=" ")


def test_a_resolved_prediction_is_accepted_with_its_date_note_and_source():
    claim = resolve(make_prediction(), Resolution.CAME_TRUE)

    stored = Claim.objects.get(pk=claim.pk)
    assert (stored.resolution, stored.resolution_sources) == (Resolution.CAME_TRUE, [SOURCE])
    assert list(stored.source_records.values("url", "title")) == [SOURCE]


def test_the_write_path_refuses_an_outcome_without_a_source():
    claim = make_prediction()

    with pytest.raises(ValidationError) as refused:
        resolve(claim, Resolution.DID_NOT_COME_TRUE, sources=[])

    assert refused.value.message_dict == {
        "resolution_sources": ["An outcome needs at least one source (its address and title)."]
    }


def test_the_write_path_refuses_a_source_that_is_not_a_web_address():
    with pytest.raises(ValidationError):
        resolve(make_prediction(), Resolution.PARTLY, sources=[{"url": "ftp://x", "title": "X"}])


def test_the_write_path_refuses_a_horizon_on_a_belief():
    claim = make_claim(type=ClaimType.BELIEF)
    claim.horizon, claim.horizon_precision = datetime.date(2027, 1, 31), HorizonPrecision.MONTH

    with pytest.raises(ValidationError) as refused:
        claim.save()

    assert list(refused.value.message_dict) == ["type"]


def test_resolving_a_published_prediction_is_a_revision_with_who_and_why(editor):
    claim = make_prediction()

    resolve(claim, Resolution.CAME_TRUE, note="It shipped in May.", changed_by=editor, via="admin")

    revision = ClaimRevision.objects.filter(claim=claim).first()
    assert (revision.kind, revision.changed_by, revision.note) == (
        RevisionKind.RESOLVED,
        editor,
        "It shipped in May.",
    )
    assert revision.changes["resolution"] == ["open", "came_true"]


def test_each_change_of_outcome_on_a_published_claim_is_kept_for_readers():
    claim = resolve(make_prediction(), Resolution.CAME_TRUE, note="First reading.")
    resolve(claim, Resolution.PARTLY, note="Only half of it, on a closer reading.")

    shown = [(entry["label"], entry["note"]) for entry in claim.public_resolutions]
    assert shown == [
        ("Came true", "First reading."),
        ("Partly came true", "Only half of it, on a closer reading."),
    ]


def test_resolving_a_draft_leaves_no_public_history():
    claim = resolve(make_prediction(status=Status.DRAFT), Resolution.CAME_TRUE)

    assert claim.public_resolutions == []


def test_reopening_a_published_prediction_needs_a_reason():
    claim = resolve(make_prediction(), Resolution.CAME_TRUE)

    with pytest.raises(ValidationError) as refused:
        claim.resolve(Resolution.OPEN)

    assert list(refused.value.message_dict) == ["correction_note"]


def test_reopening_clears_the_outcome_and_its_sources():
    claim = resolve(make_prediction(), Resolution.CAME_TRUE)

    claim.resolve(Resolution.OPEN, why="The report we cited was withdrawn.")

    assert claim.public_resolutions[-1]["note"] == "The report we cited was withdrawn."
    assert not PredictionSource.objects.filter(claim=claim).exists()


def test_a_retracted_prediction_keeps_its_outcome():
    claim = resolve(make_prediction(), Resolution.CAME_TRUE)
    claim.retract("Misattributed.")

    with pytest.raises(ValidationError):
        resolve(claim, Resolution.DID_NOT_COME_TRUE)
    assert Claim.objects.get(pk=claim.pk).status == ClaimStatus.RETRACTED


@pytest.mark.parametrize(
    ("text", "horizon", "precision"),
    [
        ("2027", datetime.date(2027, 12, 31), "year"),
        ("2028-02", datetime.date(2028, 2, 29), "month"),
        ("2027-03-15", datetime.date(2027, 3, 15), "day"),
        ("", None, ""),
    ],
)
def test_a_horizon_is_the_last_day_of_the_period_named(text, horizon, precision):
    assert parse_horizon(text) == (horizon, precision)


@pytest.mark.parametrize("text", ["next year", "2027-13", "2027--01", "27"])
def test_a_horizon_that_is_not_a_period_is_refused(text):
    with pytest.raises(ValidationError):
        parse_horizon(text)
