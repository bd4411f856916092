"""The editors' predictions in the admin: due first, resolved with sources, in bulk when they can't be."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from claims.choices import Resolution
from claims.models import Claim, ClaimRevision, RevisionKind
from tests.factories import SOURCE, make_claim, make_prediction, resolve

pytestmark = pytest.mark.django_db

CHANGELIST = reverse("admin:claims_prediction_changelist")


def days(n):
    return timezone.localdate() + datetime.timedelta(days=n)


def resolution_form(claim, sources=(), **fields):
    """The prediction's change form as a browser sends it, with `sources` in the inline."""
    data = {
        "horizon": claim.horizon.isoformat() if claim.horizon else "",
        "horizon_precision": claim.horizon_precision,
        "resolution": claim.resolution,
        "resolved_on": "",
        "resolution_note": "",
        "correction_note": "",
        "source_records-TOTAL_FORMS": len(sources) + 1,
        "source_records-INITIAL_FORMS": 0,
        **fields,
    }
    for index, source in enumerate(sources):
        data[f"source_records-{index}-url"] = source["url"]
        data[f"source_records-{index}-title"] = source["title"]
    return data


def test_the_list_shows_overdue_predictions_first_and_no_other_claims(editor_client):
    later = make_prediction(horizon=days(300), excerpt="Due next year.")
    overdue = make_prediction(horizon=days(-3), excerpt="Overdue by three days.")
    resolve(make_prediction(horizon=days(-90), excerpt="Long resolved."), Resolution.CAME_TRUE)
    make_claim(excerpt="A belief, not a prediction.")

    response = editor_client.get(CHANGELIST)

    shown = [claim.pk for claim in response.context["cl"].result_list]
    assert shown[:2] == [overdue.pk, later.pk]
    assert len(shown) == 3
    assert "<strong>overdue</strong>" in response.content.decode()


def test_an_editor_resolves_a_prediction_with_a_source(editor_client, editor):
    claim = make_prediction(horizon=days(-3))
    url = reverse("admin:claims_prediction_change", args=[claim.pk])

    response = editor_client.post(
        url,
        resolution_form(
            claim,
            sources=[SOURCE],
            resolution="came_true",
            resolved_on="2026-11-01",
            resolution_note="It was announced.",
        ),
    )

    assert response.status_code == 302, response.context["errors"]
    claim = Claim.objects.get(pk=claim.pk)
    assert (claim.resolution, claim.resolution_sources) == (Resolution.CAME_TRUE, [SOURCE])
    revision = ClaimRevision.objects.filter(claim=claim).first()
    assert (revision.kind, revision.changed_by, revision.via) == (
        RevisionKind.RESOLVED,
        editor,
        "admin",
    )


def test_an_outcome_without_a_source_is_refused_in_the_form(editor_client):
    claim = make_prediction()
    url = reverse("admin:claims_prediction_change", args=[claim.pk])

    response = editor_client.post(
        url,
        resolution_form(
            claim, resolution="did_not_come_true", resolved_on="2026-11-01", resolution_note="No."
        ),
    )

    assert response.status_code == 200
    assert "An outcome needs at least one source" in response.content.decode()
    assert Claim.objects.get(pk=claim.pk).resolution == Resolution.OPEN


def test_reopening_a_published_prediction_asks_why(editor_client):
    claim = resolve(make_prediction(), Resolution.CAME_TRUE)
    url = reverse("admin:claims_prediction_change", args=[claim.pk])

    response = editor_client.post(url, resolution_form(claim, resolution="open"))

    assert "say in a note why its outcome is withdrawn" in response.content.decode()
    assert Claim.objects.get(pk=claim.pk).resolution == Resolution.CAME_TRUE


def test_a_horizon_is_kept_as_the_last_day_of_the_month_named(editor_client):
    claim = make_prediction()
    url = reverse("admin:claims_prediction_change", args=[claim.pk])

    editor_client.post(url, resolution_form(claim, horizon="2027-02-10", horizon_precision="month"))

    assert Claim.objects.get(pk=claim.pk).horizon == datetime.date(2027, 2, 28)


def test_the_bulk_action_asks_for_a_shared_note_and_source(editor_client):
    claim = make_prediction()

    response = editor_client.post(
        CHANGELIST, {"action": "cannot_be_resolved", "_selected_action": [claim.pk]}
    )

    assert "Mark predictions as cannot be resolved" in response.content.decode()
    assert Claim.objects.get(pk=claim.pk).resolution == Resolution.OPEN


def test_the_bulk_action_resolves_each_open_prediction_in_its_history(editor_client, editor):
    first, second = make_prediction(), make_prediction()
    resolved = resolve(make_prediction(), Resolution.CAME_TRUE)

    editor_client.post(
        CHANGELIST,
        {
            "action": "cannot_be_resolved",
            "_selected_action": [first.pk, second.pk, resolved.pk],
            "note": "No public record exists to check these against.",
            "source_url": SOURCE["url"],
            "source_title": SOURCE["title"],
            "resolved_on": "2026-11-30",
        },
    )

    outcomes = dict(Claim.objects.values_list("pk", "resolution"))
    assert [outcomes[first.pk], outcomes[second.pk], outcomes[resolved.pk]] == [
        Resolution.CANNOT_BE_RESOLVED,
        Resolution.CANNOT_BE_RESOLVED,
        Resolution.CAME_TRUE,
    ]
    notes = ClaimRevision.objects.filter(
        claim__in=[first, second], kind=RevisionKind.RESOLVED, changed_by=editor
    ).values_list("note", flat=True)
    assert list(notes) == ["No public record exists to check these against."] * 2


def test_the_resolution_page_shows_the_claim_and_its_sources(editor_client):
    claim = resolve(make_prediction(excerpt="It will be done by spring."), Resolution.CAME_TRUE)

    response = editor_client.get(reverse("admin:claims_prediction_change", args=[claim.pk]))

    html = response.content.decode()
    assert "“It will be done by spring.”" in html
    assert f'value="{SOURCE["url"]}"' in html
    assert "Sources for the outcome" in html
