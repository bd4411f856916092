"""A reader reports a problem with a claim in Chromium, and the trust pages pass axe."""

from playwright.sync_api import expect

from claims.models import Claim, Report, ReportKind
from tests.browser.checks import axe_violations, skipped_heading_levels

CLAIM = "/episodes/example-show/testing-in-production/claims/3/"


def test_a_reader_reports_a_problem_from_the_claims_page(page, server, demo):
    page.goto(server.url + CLAIM)
    page.get_by_role("link", name="Report a problem with this claim").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Report a problem with claim 03")

    page.get_by_role("radio", name="Someone else said it").check()
    page.get_by_label("Tell the editors what is wrong").fill("The caller said this, not the host.")
    page.get_by_role("button", name="Send the report").click()

    expect(page).to_have_url(server.url + CLAIM + "report/sent/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Thank you: your report was sent")
    report = Report.objects.get()
    assert (report.kind, report.message) == (
        ReportKind.WRONG_SPEAKER,
        "The caller said this, not the host.",
    )
    assert report.claim.get_absolute_url() == CLAIM


def test_a_report_without_a_message_comes_back_with_the_message_tied_to_its_field(
    page, server, demo
):
    page.goto(server.url + CLAIM + "report/")
    page.get_by_role("radio", name="Something else").check()
    page.get_by_role("button", name="Send the report").click()

    message = page.get_by_label("Tell the editors what is wrong")
    expect(message).to_have_attribute("aria-invalid", "true")
    expect(message).to_have_accessible_description(
        "What you heard, or where to check it. Up to 2,000 characters. "
        "Error: Say what is wrong: a sentence or two is enough."
    )
    # The reader's choice survives the round trip.
    expect(page.get_by_role("radio", name="Something else")).to_be_checked()
    assert axe_violations(page) == []
    assert not Report.objects.exists()


def test_the_trust_pages_pass_axe_and_keep_their_headings_in_order(page, server, demo):
    claim = Claim.objects.published().filter(episode__slug="testing-in-production").first()
    claim.excerpt = f"{claim.excerpt} (as corrected)"
    claim.save(correction_note="A word was misheard.")
    found = {}
    for path in ("/about/", "/corrections/", CLAIM + "report/", CLAIM + "report/sent/"):
        response = page.goto(server.url + path)
        assert response.status == 200, path
        found[path] = axe_violations(page) + skipped_heading_levels(page)

    assert {path: issues for path, issues in found.items() if issues} == {}
    page.goto(server.url + "/corrections/")
    # This correction, and the demo's own correction and retraction.
    expect(page.locator(".correction-log li")).to_have_count(3)
    expect(page.locator(".correction-log li").first).to_contain_text("A word was misheard.")
