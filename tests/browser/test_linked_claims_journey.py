"""A reader follows a contradiction in the demo ledger: from the claims browser to a claim,
to the claim that contradicts it, to how its speaker's positions moved."""

import re

from playwright.sync_api import expect


def test_reader_follows_a_contradiction_to_the_speakers_moved_positions(page, server, demo):
    page.goto(f"{server.url}/claims/")
    page.get_by_role("checkbox", name=re.compile("^Only claims in a contradiction")).check()
    page.get_by_role("button", name="Apply filters").click()
    expect(page).to_have_url(re.compile(r"contradictions=only"))
    expect(page.locator(".ledger-count")).to_contain_text("4 published claims")

    page.goto(f"{server.url}/episodes/example-show/calling-it/claims/2/")
    links = page.get_by_role("region", name="Linked claims")
    expect(links).to_contain_text("Contradicted by: Ben Sample, “Testing in Production, Carefully”")
    links.get_by_role("link", name=re.compile("claim 06")).click()

    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Claim 06 of “Testing in Production, Carefully”"
    )
    expect(page.get_by_role("region", name="Linked claims")).to_contain_text(
        "Contradicts: Ben Sample, “Calling It: Our Predictions for the Year”, claim 02"
    )
    page.locator("article.claim").get_by_role("link", name="Ben Sample").click()

    moved = page.get_by_role("region", name="How their positions moved")
    expect(moved.locator("li")).to_have_count(2)
    expect(moved.locator("li").first).to_contain_text("Later, refines the earlier claim")
    expect(moved.locator("li").last).to_contain_text("Later, contradicts the earlier claim")
