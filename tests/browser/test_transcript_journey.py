"""A reader opens a claim, reads the transcript around it, and follows it into the whole transcript."""

import re

from playwright.sync_api import expect

from tests.browser.checks import axe_violations, horizontal_overflow, skipped_heading_levels

EPISODE = "/episodes/example-show/testing-in-production/"


def test_a_reader_follows_a_claim_into_its_transcript(page, server, demo):
    page.goto(f"{server.url}{EPISODE}claims/2/")

    context = page.get_by_role("region", name="In the transcript")
    expect(context.locator("mark")).to_have_text(
        "If you do one thing, write a single smoke test that hits the real deployment after "
        "every release, and make it loud when it fails."
    )
    expect(context).to_contain_text("Actually, let me answer my own question first.")
    context.get_by_role("link", name="Read it in the whole transcript").click()

    expect(page).to_have_url(f"{server.url}{EPISODE}transcript/#claim-02")
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Transcript of “Testing in Production, Carefully”"
    )
    anchor = page.locator("#claim-02")
    expect(anchor).to_be_in_viewport()
    expect(anchor).to_have_accessible_name("Claim 02")
    # The claim's link in the transcript leads back to it.
    anchor.click()
    expect(page).to_have_url(f"{server.url}{EPISODE}claims/2/")


def test_a_claim_not_found_in_the_transcript_says_so(page, server, demo):
    page.goto(f"{server.url}{EPISODE}claims/5/")

    expect(page.get_by_role("region", name="In the transcript")).to_have_count(0)
    expect(
        page.get_by_text("The excerpt was not found word for word in the transcript")
    ).to_be_visible()


def test_the_transcript_page_passes_axe_and_fits_a_phone(phone, server, demo):
    phone.goto(f"{server.url}{EPISODE}transcript/")

    expect(phone.locator(".transcript mark")).to_have_count(4)
    assert axe_violations(phone) == []
    assert skipped_heading_levels(phone) == []
    assert horizontal_overflow(phone) == []


def test_an_unpublished_record_says_so(page, server, demo, problems):
    url = f"{server.url}{EPISODE}claims/4/"
    problems.expect_not_found(url)

    assert page.goto(url).status == 404
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Record 04 of this episode is not published in this ledger"
    )
    assert axe_violations(page) == []
    expect(page.locator(".ledger-gaps")).to_have_count(0)
    page.get_by_role("link", name=re.compile("^← Testing in Production")).click()
    expect(page.locator(".ledger-gaps")).to_have_text("Record 04 is not published.")
