"""Import and export carry a prediction's horizon, outcome and sources, exactly."""

import datetime
import json

import pytest
from django.db import transaction

from claims.choices import HorizonPrecision, Resolution
from claims.models import Claim, ClaimRevision, RevisionKind
from claims.predictions import PredictionSource
from tests.claims.ledger_files import as_json, document, failed_import, run_export, run_import
from tests.factories import make_claim, make_episode, make_podcast, make_prediction, make_speaker
from tests.factories import resolve as resolve_claim

pytestmark = pytest.mark.django_db

SOURCES = [
    {"url": "https://example.com/report/", "title": "Example Report, 2026"},
    {"url": "https://example.org/follow-up", "title": "A follow-up, with a comma, and more"},
]


def build_predictions():
    episode = make_episode(make_podcast(slug="example-show"), slug="pilot")
    ada = make_speaker(slug="ada-example")
    make_prediction(episode, ada, number=1)
    make_prediction(episode, ada, number=2, horizon=datetime.date(2027, 12, 31), precision="year")
    make_prediction(episode, ada, number=3, horizon=datetime.date(2026, 6, 30), precision="month")
    resolve_claim(
        make_prediction(episode, ada, number=4, horizon=datetime.date(2026, 3, 5)),
        Resolution.CAME_TRUE,
        note="Announced on the day.\nSecond line.",
        sources=SOURCES,
    )
    resolve_claim(make_prediction(episode, ada, number=5), Resolution.CANNOT_BE_RESOLVED)
    make_claim(episode, ada, number=6)


def prediction_contents():
    return {
        "claims": list(
            Claim.objects.order_by("number").values_list(
                "number",
                "horizon",
                "horizon_precision",
                "resolution",
                "resolved_on",
                "resolution_note",
                "resolution_sources",
            )
        ),
        "sources": list(
            PredictionSource.objects.order_by("claim__number", "position").values_list(
                "claim__number", "position", "url", "title"
            )
        ),
    }


@pytest.mark.parametrize("file_format", ["json", "csv"])
def test_predictions_round_trip_exactly(tmp_path, file_format):
    with transaction.atomic():
        build_predictions()
        exported = run_export("--format", file_format)
        contents = prediction_contents()
        transaction.set_rollback(True)
    assert Claim.objects.count() == 0

    run_import(tmp_path, exported.encode(), f"ledger.{file_format}")

    assert prediction_contents() == contents
    assert run_export("--format", file_format) == exported


def test_an_exported_prediction_names_its_horizon_as_the_speaker_did():
    build_predictions()

    claims = json.loads(run_export())["episodes"][0]["claims"]

    horizons = [claim.get("horizon") for claim in claims]
    assert horizons == [None, "2027", "2026-06", "2026-03-05", None, None]
    assert claims[3]["sources"] == SOURCES
    assert "horizon" not in claims[5]  # not a prediction


def one_claim(**fields):
    """A ledger file of one published prediction by an unresolved voice, with `fields`."""
    claim = {
        "number": 1,
        "type": "prediction",
        "excerpt": "It will rain.",
        "speaker": None,
        "status": "published",
    }
    doc = document(claims=0)
    doc["episodes"][0]["claims"] = [{**claim, **fields}]
    return as_json(doc)


def import_prediction(tmp_path, **fields):
    return run_import(tmp_path, one_claim(**fields))


def test_an_imported_outcome_without_a_source_is_a_problem_and_nothing_is_written(tmp_path):
    _, problems = failed_import(
        tmp_path,
        one_claim(resolution="came_true", resolved_on="2026-05-01", resolution_note="It rained."),
    )

    assert "episodes[0].claims[0], sources: An outcome needs at least one source" in problems
    assert not Claim.objects.exists()


def test_an_imported_horizon_on_a_belief_is_a_problem(tmp_path):
    _, problems = failed_import(tmp_path, one_claim(type="belief", horizon="2027"))

    assert "Only a prediction has a horizon or an outcome" in problems


def test_an_import_that_resolves_a_published_prediction_is_kept_in_its_history(tmp_path):
    import_prediction(tmp_path, horizon="2026-04")

    import_prediction(
        tmp_path,
        resolution="did_not_come_true",
        resolved_on="2026-05-02",
        resolution_note="It stayed dry.",
        sources=[SOURCES[0]],
    )

    claim = Claim.objects.get()
    assert (claim.horizon, claim.horizon_precision) == (
        datetime.date(2026, 4, 30),
        HorizonPrecision.MONTH,
    )
    revision = ClaimRevision.objects.filter(claim=claim).first()
    assert (revision.kind, revision.note) == (RevisionKind.RESOLVED, "It stayed dry.")
    assert [entry["label"] for entry in claim.public_resolutions] == ["Did not come true"]
    assert list(claim.source_records.values_list("url", flat=True)) == [SOURCES[0]["url"]]
