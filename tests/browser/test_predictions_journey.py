"""A reader follows a prediction from /predictions/ to its claim and its speaker's track record."""

from playwright.sync_api import expect

from tests.browser.checks import axe_violations, horizontal_overflow, skipped_heading_levels

OVERDUE = "By June next year our team will have retired the last of its flaky end-to-end tests."


def checked(page):
    return axe_violations(page) + skipped_heading_levels(page)


def test_reader_follows_an_overdue_prediction_to_its_claim_and_the_speakers_track_record(
    page, server, demo
):
    found = {}
    page.goto(server.url)
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Predictions").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Predictions and their outcomes")
    found["predictions"] = checked(page)

    overdue = page.locator("section#overdue")
    card = overdue.locator("article.claim", has_text=OVERDUE)
    expect(card.locator(".outcome")).to_contain_text("overdue")
    card.locator("a.claim-number").click()

    expect(page).to_have_url(f"{server.url}/episodes/example-show/calling-it/claims/2/")
    expect(page.locator(".prediction")).to_contain_text("by June 2026")
    found["claim"] = checked(page)

    page.locator("article.claim").get_by_role("link", name="Ben Sample").click()
    expect(page).to_have_url(f"{server.url}/speakers/ben-sample/")
    record = page.get_by_role("region", name="Track record of predictions")
    expect(record).to_contain_text("1 came true")
    expect(record).to_contain_text("this is a record, not a score")
    record.get_by_role("link", name="Sample Labs will ship nightly test runs", exact=False).click()
    expect(page.locator(".resolution")).to_contain_text("Sample Labs changelog, March 2026")
    found["resolved claim"] = checked(page)

    assert {name: issues for name, issues in found.items() if issues} == {}


def test_the_predictions_page_fits_a_phone_and_passes_axe(phone, server, demo):
    phone.goto(server.url + "/predictions/")

    assert axe_violations(phone) + horizontal_overflow(phone) == []
