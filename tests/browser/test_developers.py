"""A developer's journey: the docs page, the interactive reference, a download link."""

import csv

from playwright.sync_api import expect


def test_the_interactive_reference_runs_from_our_own_files_under_the_csp(page, server, demo):
    # The page fixture fails the test on any CSP violation or console error.
    page.goto(f"{server.url}/developers/")
    page.get_by_role("link", name="interactive reference").click()

    expect(page.get_by_text("Evidence Ledger API").first).to_be_visible()
    expect(page.get_by_text("/api/v1/claims/", exact=True).first).to_be_visible()


def test_the_claims_browser_offers_its_view_as_csv(page, server, demo):
    page.goto(f"{server.url}/claims/?type=prediction")

    with page.expect_download() as download:
        page.get_by_role("link", name="CSV", exact=True).click()

    assert download.value.suggested_filename == "evidence-ledger-claims.csv"
    with open(download.value.path(), encoding="utf-8", newline="") as file:
        rows = list(csv.DictReader(file))
    assert rows and {row["type"] for row in rows} == {"prediction"}
