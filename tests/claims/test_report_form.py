""" "Report a problem" on a claim: stored for the editors, guarded against abuse, never a 500."""

import re

import pytest
from django.core.cache import cache
from django.test import Client

from claims.models import ClaimStatus, Report, ReportKind, ReportStatus
from claims.report_pages import REPORT_LIMIT
from claims.reports import MESSAGE_MAX_LENGTH
from episodes.models import Status
from ledger.settings import redis_cache
from tests.factories import make_claim, make_episode
from tests.ledger.stack import free_port

pytestmark = pytest.mark.django_db

GOOD = {"kind": ReportKind.WRONG_SPEAKER, "message": "That was the other host.", "email": ""}


@pytest.fixture(autouse=True)
def fresh_limit():
    """Each test counts from zero, with the limit's cache not resting after another's outage."""
    cache.clear()
    REPORT_LIMIT.cache.resting_until = 0.0
    yield
    REPORT_LIMIT.cache.resting_until = 0.0


@pytest.fixture
def claim():
    return make_claim(make_episode(title="Example Episode"), number=7)


def report_url(claim):
    return f"{claim.get_absolute_url()}report/"


def sent_url(claim):
    return f"{claim.get_absolute_url()}report/sent/"


def test_the_permalink_links_to_its_report_form(client, claim):
    html = client.get(claim.get_absolute_url()).content.decode()

    assert f'<a href="{report_url(claim)}">Report a problem with this claim</a>' in html


def test_a_retracted_claim_offers_no_report_form(client, claim):
    claim.retract("Misattributed.")

    assert "Report a problem" not in client.get(claim.get_absolute_url()).content.decode()
    assert client.get(report_url(claim)).status_code == 404


def test_the_form_page_shows_the_claim_and_every_kind_of_problem(client, claim):
    response = client.get(report_url(claim))

    html = response.content.decode()
    assert response.status_code == 200
    assert "<h1>Report a problem with claim 07</h1>" in html
    assert claim.excerpt in html
    for label in ReportKind.labels:
        assert f">{label}</label>" in html


def test_the_form_page_is_never_stored_by_any_cache(client, claim):
    response = client.get(report_url(claim))

    assert "no-store" in response["Cache-Control"]
    assert "private" in response["Cache-Control"]
    assert "ETag" not in response


def test_the_form_page_reads_only_its_claim(client, claim, django_assert_num_queries):
    # 1. the published claim at the permalink with its episode, podcast and speaker
    with django_assert_num_queries(1):
        client.get(report_url(claim))


def test_a_report_is_stored_and_the_reader_is_thanked(client, claim):
    response = client.post(report_url(claim), {**GOOD, "email": "reader@example.net"})

    assert response.status_code == 302
    assert response["Location"] == sent_url(claim)
    report = Report.objects.get()
    assert (report.claim, report.kind, report.email) == (
        claim,
        ReportKind.WRONG_SPEAKER,
        "reader@example.net",
    )
    assert report.message == "That was the other host."
    assert (report.status, report.closed_at) == (ReportStatus.OPEN, None)
    thanks = client.get(response["Location"]).content.decode()
    assert "Thank you: your report was sent" in thanks


def test_the_thank_you_page_sets_no_cookie_and_is_cached_like_any_page(client, claim):
    response = client.get(sent_url(claim))

    assert response.status_code == 200
    assert not response.cookies
    assert response["Cache-Control"] == "public, no-cache"


def test_a_filled_honeypot_looks_like_success_but_stores_nothing(client, claim):
    response = client.post(report_url(claim), {**GOOD, "website": "https://spam.example"})

    assert response.status_code == 302
    assert response["Location"] == sent_url(claim)
    assert not Report.objects.exists()


def test_the_honeypot_is_hidden_from_people_by_the_style_sheet(client, claim):
    html = client.get(report_url(claim)).content.decode()

    assert '<div class="report-trap">' in html
    assert 'name="website"' in html
    assert "/static/claims/report.css" in html


def errors_of(response):
    """{field id: error text} of the messages tied to fields."""
    html = response.content.decode()
    return dict(
        re.findall(
            r'<p class="field-error" id="(\w+)_error"><strong>Error:</strong> ([^<]+)</p>', html
        )
    )


def test_an_empty_message_is_refused_with_a_message_tied_to_the_field(client, claim):
    response = client.post(report_url(claim), {**GOOD, "message": "   "})

    html = response.content.decode()
    assert response.status_code == 200
    assert errors_of(response) == {"id_message": "Say what is wrong: a sentence or two is enough."}
    assert 'aria-describedby="id_message_helptext id_message_error"' in html
    assert 'aria-invalid="true"' in html
    assert "<title>Error: Report a problem with claim 07" in html
    assert not Report.objects.exists()


def test_a_message_past_the_limit_is_refused_and_kept_for_editing(client, claim):
    too_long = "x" * (MESSAGE_MAX_LENGTH + 1)

    response = client.post(report_url(claim), {**GOOD, "message": too_long})

    assert errors_of(response) == {
        "id_message": "Keep it to 2,000 characters: this is 2,001. The editors will write "
        "back for more if you leave an email address."
    }
    assert too_long in response.content.decode()
    assert not Report.objects.exists()


def test_a_bad_email_address_is_refused_with_a_message(client, claim):
    response = client.post(report_url(claim), {**GOOD, "email": "not an address"})

    assert errors_of(response) == {
        "id_email": "That is not an email address. Check it, or leave it empty: it is optional."
    }
    assert not Report.objects.exists()


def test_a_missing_kind_is_refused_with_a_message_tied_to_its_group(client, claim):
    response = client.post(report_url(claim), {**GOOD, "kind": ""})

    html = response.content.decode()
    assert errors_of(response) == {"id_kind": "Choose what kind of problem it is."}
    assert (
        '<fieldset class="form-field form-field-invalid" aria-describedby="id_kind_error">' in html
    )


def test_an_unknown_kind_or_hostile_text_is_answered_with_the_form(client, claim):
    response = client.post(
        report_url(claim), {"kind": "<script>x</script>", "message": "<b>bold</b>\x00"}
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert "<script>x</script>" not in html
    assert "&lt;script&gt;x&lt;/script&gt;" in html
    assert "id_kind" in errors_of(response)


def test_reports_past_the_hourly_limit_are_refused_with_a_message(client, claim, settings):
    settings.REPORTS_PER_HOUR = 2
    for _ in range(2):
        assert client.post(report_url(claim), GOOD).status_code == 302

    response = client.post(report_url(claim), GOOD)

    assert response.status_code == 429
    assert "Too many reports have come from your address in the last hour." in (
        response.content.decode()
    )
    assert Report.objects.count() == 2


def test_the_limit_counts_each_address_on_its_own(client, claim, settings):
    settings.REPORTS_PER_HOUR = 1
    assert client.post(report_url(claim), GOOD, REMOTE_ADDR="192.0.2.1").status_code == 302

    assert client.post(report_url(claim), GOOD, REMOTE_ADDR="192.0.2.2").status_code == 302
    assert client.post(report_url(claim), GOOD, REMOTE_ADDR="192.0.2.1").status_code == 429


def test_behind_a_proxy_the_limit_counts_the_forwarded_address(client, claim, settings):
    settings.REPORTS_PER_HOUR = 1
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    proxy = {"REMOTE_ADDR": "127.0.0.1"}
    first = client.post(report_url(claim), GOOD, HTTP_X_FORWARDED_FOR="198.51.100.1", **proxy)
    other = client.post(report_url(claim), GOOD, HTTP_X_FORWARDED_FOR="198.51.100.2", **proxy)

    assert (first.status_code, other.status_code) == (302, 302)
    again = client.post(report_url(claim), GOOD, HTTP_X_FORWARDED_FOR="198.51.100.1", **proxy)
    assert again.status_code == 429


def test_with_the_cache_down_reports_are_still_accepted(client, claim, settings):
    settings.REPORTS_PER_HOUR = 1
    settings.CACHES = {"default": redis_cache(f"redis://127.0.0.1:{free_port()}/0")}

    for _ in range(2):
        assert client.post(report_url(claim), GOOD).status_code == 302

    assert Report.objects.count() == 2


def test_a_post_without_the_csrf_token_is_refused_with_a_page_that_says_why(claim):
    strict = Client(enforce_csrf_checks=True)

    response = strict.post(report_url(claim), GOOD)

    assert response.status_code == 403
    assert "The form could not be sent" in response.content.decode()
    assert not Report.objects.exists()


def test_a_post_with_the_token_from_the_form_page_is_accepted(claim):
    strict = Client(enforce_csrf_checks=True)
    form = strict.get(report_url(claim))
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.content.decode())[1]

    response = strict.post(report_url(claim), {**GOOD, "csrfmiddlewaretoken": token})

    assert form.cookies
    assert response.status_code == 302
    assert Report.objects.count() == 1


@pytest.mark.parametrize("method", ["PUT", "PATCH", "DELETE", "TRACE"])
def test_the_form_page_takes_only_get_and_post(client, claim, method):
    response = client.generic(method, report_url(claim))

    assert response.status_code == 405
    assert response["Allow"] == "GET, HEAD, POST"


@pytest.mark.parametrize("url", [report_url, sent_url], ids=["form", "thanks"])
def test_a_draft_claim_has_no_report_pages(client, url):
    draft = make_claim(status=ClaimStatus.DRAFT)

    assert client.get(url(draft)).status_code == 404


def test_a_report_on_a_draft_claim_is_refused_and_not_stored(client):
    draft = make_claim(status=ClaimStatus.DRAFT)

    assert client.post(report_url(draft), GOOD).status_code == 404
    assert not Report.objects.exists()


def test_a_claim_of_a_draft_episode_cannot_be_reported(client):
    claim = make_claim(make_episode(status=Status.DRAFT))

    assert client.post(report_url(claim), GOOD).status_code == 404
    assert not Report.objects.exists()
