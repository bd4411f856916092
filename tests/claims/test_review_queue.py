"""The admin home's review queue: what waits for an editor, each count the rows its link opens."""

import datetime
import re
from html import unescape

import pytest
from django.contrib.auth.models import Permission

from claims.choices import ClaimStatus, Resolution
from claims.models import Report
from claims.pagination import CappedPaginator
from tests.claims.test_admin import changelist_rows
from tests.factories import (
    make_claim,
    make_episode,
    make_ledger,
    make_prediction,
    make_report,
    resolve,
)

HOME = "/admin/"
PAST = datetime.date(2026, 1, 31)
FUTURE = datetime.date(2099, 12, 31)
TRANSCRIPT = "Welcome back. We said exactly these words today."


@pytest.fixture
def waiting(db):
    """Two drafts, three published claims not verified, two predictions due, and the rest done."""
    checked = make_episode(transcript=TRANSCRIPT)
    make_claim(checked, excerpt="We said exactly these words")  # verified
    make_claim(checked, excerpt="Words nobody said.")  # not found
    make_claim(checked, excerpt="Welcome back.", status=ClaimStatus.DRAFT)
    unchecked = make_episode()
    make_claim(unchecked)  # no transcript
    make_claim(unchecked, status=ClaimStatus.DRAFT)
    make_claim(unchecked).retract("Misattributed.")
    make_prediction(unchecked, horizon=PAST)  # due, and no transcript
    make_prediction(checked, horizon=PAST, excerpt="We said exactly these words today.")  # due
    resolve(make_prediction(checked, horizon=PAST, excerpt="Welcome back."), Resolution.CAME_TRUE)
    make_prediction(checked, horizon=FUTURE, excerpt="Welcome back. We said")
    make_prediction(checked, horizon=PAST, excerpt="We said", status=ClaimStatus.DRAFT)
    # Drafts: 3 (two claims, one prediction); published not verified: 3 (not found, no
    # transcript, the due prediction without one); predictions due: 2 published;
    # reader reports open: 1 (and one closed).
    make_report(make_claim(checked, excerpt="We said"))
    closed = make_report(make_claim(checked, excerpt="Welcome back. We"))
    Report.objects.filter(pk=closed.pk).close("Checked against the audio.")


def queue(response):
    """{label: (count as shown, link)} from the admin home."""
    html = response.content.decode()
    entries = re.findall(
        r'<a href="([^"]+)"><span class="review-label">([^<]+):</span> '
        r'<span class="review-count">([^<]+)</span></a>',
        html,
    )
    return {label: (count, unescape(href)) for href, label, count in entries}


def test_the_admin_home_counts_what_waits_for_review(editor_client, waiting):
    shown = queue(editor_client.get(HOME))

    assert {label: count for label, (count, _) in shown.items()} == {
        "Drafts waiting": "3",
        "Published, not verified": "3",
        "Predictions due": "2",
        "Reader reports open": "1",
    }


def test_each_count_is_the_number_of_rows_its_link_lists(editor_client, waiting):
    shown = queue(editor_client.get(HOME))

    listed = {}
    for label, (_, link) in shown.items():
        response = editor_client.get(link)
        assert response.status_code == 200, link
        # The link's filter is one the list knows: it shows as chosen, not as "All".
        assert response.context["cl"].has_active_filters, link
        listed[label] = str(len(changelist_rows(response)))

    assert listed == {label: count for label, (count, _) in shown.items()}


def test_the_unverified_link_lists_published_claims_not_found_or_without_a_transcript(
    editor_client, waiting
):
    _, link = queue(editor_client.get(HOME))["Published, not verified"]

    rows = changelist_rows(editor_client.get(link))

    assert all("Published" in row for row in rows)
    assert sorted(row.rsplit("Published ", 1)[1] for row in rows) == [
        "no transcript",
        "no transcript",
        "not found",
    ]


def test_the_due_link_lists_open_published_predictions_past_their_horizon(editor_client, waiting):
    _, link = queue(editor_client.get(HOME))["Predictions due"]

    rows = changelist_rows(editor_client.get(link))

    assert len(rows) == 2
    assert all(row.endswith("overdue") for row in rows)


def test_a_count_past_the_cap_says_so(editor_client, waiting, monkeypatch):
    monkeypatch.setattr(CappedPaginator, "cap", 2)

    shown = queue(editor_client.get(HOME))

    assert shown["Drafts waiting"][0] == "2+"
    assert shown["Predictions due"][0] == "2"


def test_a_staff_member_who_may_not_see_claims_gets_no_queue(client, django_user_model, waiting):
    clerk = django_user_model.objects.create_user("clerk", is_staff=True)
    clerk.user_permissions.add(Permission.objects.get(codename="view_episode"))
    client.force_login(clerk)

    response = client.get(HOME)

    assert response.status_code == 200
    assert "Review queue" not in response.content.decode()


@pytest.mark.parametrize("size", [(2, 3, 2), (8, 12, 5)], ids=["small", "large"])
def test_admin_home_query_count(editor_client, size, django_assert_num_queries):
    make_ledger(*size)
    # 1. the session
    # 2. the user
    # 3-4. the user's own and their groups' permissions, read once for the app list and
    #      the queue's permission checks
    # 5. drafts waiting, counted up to the cap
    # 6. published, not verified, counted up to the cap
    # 7. predictions due, counted up to the cap
    # 8. reader reports open, counted up to the cap
    # 9. the editor's recent actions
    with django_assert_num_queries(9):
        response = editor_client.get(HOME)
    assert response.status_code == 200


def test_the_verbatim_filter_offers_not_verified_with_its_count(editor_client, waiting):
    response = editor_client.get("/admin/claims/claim/", {"_facets": "True"})

    html = response.content.decode()
    # Whatever the status: the three published, a draft and the retracted claim.
    assert "Not verified (either) (5)" in html
    assert "?_facets=True&amp;verification__in=not_found%2Cno_transcript" in html


def test_choosing_one_verbatim_result_leaves_not_verified(editor_client, waiting):
    response = editor_client.get(
        "/admin/claims/claim/", {"verification__in": "not_found,no_transcript"}
    )

    html = response.content.decode()
    assert 'href="?verification__exact=found"' in html
    assert len(changelist_rows(response)) == 5
