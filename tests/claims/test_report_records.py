"""Report records: the open ones for the editors' queue, and the rules the database keeps."""

import pytest
from django.db import IntegrityError, transaction

from claims.models import Report, ReportStatus
from claims.reports import MESSAGE_MAX_LENGTH
from tests.factories import make_report

pytestmark = pytest.mark.django_db


def test_open_lists_only_the_reports_no_editor_has_closed():
    waiting = make_report()
    make_report(status=ReportStatus.CLOSED)

    assert list(Report.objects.open()) == [waiting]


def test_closing_stamps_the_time_and_reopening_clears_it():
    report = make_report()

    report.status = ReportStatus.CLOSED
    report.save()
    assert report.closed_at is not None
    report.status = ReportStatus.OPEN
    report.save()
    assert report.closed_at is None


def test_closing_in_bulk_closes_only_open_reports_and_keeps_the_note():
    open_report = make_report()
    closed = make_report(status=ReportStatus.CLOSED, editor_note="Already handled.")

    assert Report.objects.all().close(note="Corrected the excerpt.") == 1

    open_report.refresh_from_db()
    closed.refresh_from_db()
    assert (open_report.status, open_report.editor_note) == (
        ReportStatus.CLOSED,
        "Corrected the excerpt.",
    )
    assert closed.editor_note == "Already handled."


@pytest.mark.parametrize(
    "fields",
    [
        {"status": ReportStatus.CLOSED},
        {"message": "  \n "},
        {"message": "x" * (MESSAGE_MAX_LENGTH + 1)},
        {"kind": "rude"},
        {"status": "gone"},
    ],
    ids=["closed-without-time", "blank-message", "long-message", "unknown-kind", "unknown-status"],
)
def test_the_database_refuses_a_report_that_breaks_its_rules(fields):
    report = make_report()

    with pytest.raises(IntegrityError), transaction.atomic():
        Report.objects.filter(pk=report.pk).update(**fields)
