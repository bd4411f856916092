"""Editors read, filter and close readers' reports in the admin."""

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME

from claims.models import Report, ReportKind, ReportStatus
from tests.factories import make_claim, make_episode, make_report

pytestmark = pytest.mark.django_db

REPORTS = "/admin/claims/report/"


def test_an_editor_sees_the_reports_with_their_claim(editor_client):
    claim = make_claim(make_episode(title="Example Episode"), number=4)
    make_report(claim, kind=ReportKind.WRONG_SPEAKER, message="That was Ben Sample.")

    html = editor_client.get(REPORTS).content.decode()

    assert "Claim 04 of “Example Episode”" in html
    assert "That was Ben Sample." in html
    assert "Someone else said it" in html


def test_the_reports_list_filters_by_status(editor_client):
    make_report(message="Still waiting.")
    make_report(message="Dealt with.", status=ReportStatus.CLOSED)

    html = editor_client.get(REPORTS, {"status__exact": "open"}).content.decode()

    assert "Still waiting." in html
    assert "Dealt with." not in html


def test_the_close_action_closes_the_selected_reports(editor_client):
    chosen, other = make_report(), make_report()

    response = editor_client.post(
        REPORTS, {"action": "close", ACTION_CHECKBOX_NAME: [chosen.pk]}, follow=True
    )

    assert "Closed 1 report(s)." in response.content.decode()
    chosen.refresh_from_db()
    other.refresh_from_db()
    assert chosen.status == ReportStatus.CLOSED
    assert chosen.closed_at is not None
    assert other.status == ReportStatus.OPEN


def test_an_editor_closes_a_report_with_a_note_on_its_page(editor_client):
    report = make_report()

    editor_client.post(
        f"{REPORTS}{report.pk}/change/",
        {"status": ReportStatus.CLOSED, "editor_note": "Excerpt corrected."},
    )

    report.refresh_from_db()
    assert (report.status, report.editor_note) == (ReportStatus.CLOSED, "Excerpt corrected.")
    assert report.closed_at is not None


def test_readers_words_are_not_editable_in_the_admin(editor_client):
    report = make_report(message="The reader's own words.")

    editor_client.post(
        f"{REPORTS}{report.pk}/change/",
        {"status": ReportStatus.OPEN, "message": "Rewritten by an editor.", "editor_note": ""},
    )

    report.refresh_from_db()
    assert report.message == "The reader's own words."


def test_editors_cannot_add_reports_themselves(editor_client):
    assert editor_client.get(f"{REPORTS}add/").status_code == 403


def test_a_claims_page_shows_its_open_reports_only(editor_client):
    claim = make_claim()
    make_report(claim, message="Open and waiting.")
    make_report(claim, message="Already closed.", status=ReportStatus.CLOSED)
    make_report(message="About another claim.")

    html = editor_client.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()

    assert "Open reports from readers" in html
    assert "Open and waiting." in html
    assert "Already closed." not in html
    assert "About another claim." not in html
    assert Report.objects.count() == 3
