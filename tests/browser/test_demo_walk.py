"""A reader walks the demo ledger by its links alone: from a claim to its place in the
transcript, to the claim it contradicts, to how its speaker's positions moved, to a
topic, to a book the ledger's claims name, and on to the corrections log, the claims
it lists and the About page. axe-core checks every page on the way."""

import re

from playwright.sync_api import expect

from tests.browser.checks import axe_violations

EPISODE = "/episodes/example-show/testing-in-production/"
ROADMAP = "“Why Our Roadmap Has No Dates”"


def test_a_reader_walks_the_demo_from_a_claim_to_a_book_by_links_alone(page, server, demo):
    violations = {}

    def heading_then_axe(title):
        """The page the reader is on has `title` as its heading; remember what axe finds."""
        expect(page.get_by_role("heading", level=1)).to_have_text(title)
        violations[page.url.removeprefix(server.url)] = axe_violations(page)

    page.goto(f"{server.url}{EPISODE}claims/6/")
    heading_then_axe("Claim 06 of “Testing in Production, Carefully”")
    context = page.get_by_role("region", name="In the transcript")
    expect(context.locator("mark")).to_have_text(
        "Flaky end-to-end tests never really go away; the honest goal is knowing which "
        "failures to ignore."
    )
    expect(context.locator("mark")).to_be_visible()

    context.get_by_role("link", name="Read it in the whole transcript").click()
    expect(page).to_have_url(f"{server.url}{EPISODE}transcript/#claim-06")
    heading_then_axe("Transcript of “Testing in Production, Carefully”")
    expect(page.locator("#claim-06")).to_be_in_viewport()
    expect(page.locator(".transcript mark", has_text="Flaky end-to-end tests")).to_be_visible()

    # The claim's link in the transcript leads back to it, and on to what it contradicts.
    page.locator("#claim-06").click()
    links = page.get_by_role("region", name="Linked claims")
    expect(links).to_contain_text(
        "Contradicts: Ben Sample, “Calling It: Our Predictions for the Year”, claim 02"
    )
    links.get_by_role("link", name=re.compile("claim 02$")).click()
    heading_then_axe("Claim 02 of “Calling It: Our Predictions for the Year”")
    expect(page.get_by_role("region", name="Linked claims")).to_contain_text(
        "Contradicted by: Ben Sample, “Testing in Production, Carefully”, claim 06"
    )

    page.locator("article.claim").get_by_role("link", name="Ben Sample").click()
    heading_then_axe("Ben Sample")
    moved = page.get_by_role("region", name="How their positions moved")
    expect(moved.locator("li")).to_have_count(2)
    expect(moved.locator("li").first).to_contain_text("Later, refines the earlier claim")
    expect(moved.locator("li").last).to_contain_text("Later, contradicts the earlier claim")

    # The later claim of the first move is on a topic.
    moved.locator("li").first.get_by_role("link", name=re.compile("claim 01$")).click()
    heading_then_axe("Claim 01 of “Testing in Production, Carefully”")
    page.locator(".claim-subjects").get_by_role("link", name="Testing").click()
    heading_then_axe("Testing")
    on_topic = page.get_by_role("region", name="Claims on this topic")
    expect(on_topic.locator("article.claim")).to_have_count(9)

    # A claim on the topic names a book, which has a page of its own.
    book_claim = on_topic.locator("article.claim", has_text="I keep The Careful Deploy")
    book_claim.get_by_role("link", name="02", exact=True).click()
    heading_then_axe("Claim 02 of “Books on the Desk”")
    page.locator(".named-references").get_by_role("link", name="The Careful Deploy").click()
    heading_then_axe("The Careful Deploy")
    expect(page.locator(".page-head .facts")).to_have_text(
        "3 published claims name it · Recommended by 2 people · mentioned by 1"
    )

    page.get_by_role("contentinfo").get_by_role("link", name="Corrections").click()
    heading_then_axe("Corrections and retractions")
    log = page.locator(".correction-log li")
    expect(log).to_have_count(2)
    expect(log.first).to_contain_text(f"Retraction · Claim 05 of {ROADMAP}")
    expect(log.last).to_contain_text(f"Correction · Claim 04 of {ROADMAP}")

    log.first.get_by_role("link", name=f"Claim 05 of {ROADMAP}").click()
    heading_then_axe(f"Claim 05 of {ROADMAP}")
    expect(page.get_by_text("This claim is no longer part of the public record.")).to_be_visible()
    expect(page.get_by_text("A list of what happened is harder to argue with")).to_have_count(0)

    page.get_by_role("contentinfo").get_by_role("link", name="Corrections").click()
    log.last.get_by_role("link", name=f"Claim 04 of {ROADMAP}").click()
    heading_then_axe(f"Claim 04 of {ROADMAP}")
    expect(page.locator("article.claim .correction")).to_contain_text(
        "(excerpt): The excerpt added “along”, which Ada Example does not say"
    )
    expect(page.locator("article.claim .excerpt")).to_have_text(
        "“The people doing the work find out what it costs as they go.”"
    )

    page.get_by_role("contentinfo").get_by_role("link", name="About").click()
    heading_then_axe("About the Evidence Ledger")

    assert len(violations) == 12
    assert {url: found for url, found in violations.items() if found} == {}
