"""An editor's journey in the admin: from a new podcast to claims on the public page and back out."""

import re

from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.checks import save_screenshot

PODCAST = "Example Show Live"
EPISODE = "Notes From an Example Ledger"
PUBLIC_PATH = "/episodes/example-show-live/notes-from-an-example-ledger/"
CLAIMS = [
    # (type, excerpt, speaker or None for an unresolved voice)
    (
        "prediction",
        "I expect this ledger to hold a thousand example claims by spring.",
        "Ada Example",
    ),
    ("recommendation", "Read the excerpt first and the summary second, every time.", "Ben Sample"),
    ("disagreement", "I am not convinced a summary ever helps a reader at all.", None),
]


def choose_autocomplete(page, select_id, text):
    """Pick `text` in one of the admin's autocomplete (Select2) widgets."""
    page.locator(f"#{select_id} + .select2").click()
    page.locator(".select2-container--open .select2-search__field").fill(text)
    page.locator(".select2-results__option", has_text=text).click()
    expect(page.locator(f"#{select_id} + .select2")).to_contain_text(text)


def run_action(page, action, rows=None):
    """Tick the change list's rows whose links read `rows` (all rows if None), run `action`."""
    if rows is None:
        page.locator("#action-toggle").check()
    for row in rows or ():
        link = page.get_by_role("link", name=row, exact=True)
        page.get_by_role("row").filter(has=link).get_by_role("checkbox").check()
    page.get_by_label("Action:").select_option(label=action)
    page.get_by_role("button", name="Go").click()


def expect_public_episode(page, claims, people):
    facts = page.locator(".page-head .facts")
    expect(facts).to_contain_text(claims)
    expect(facts).to_contain_text(people)


def test_editor_adds_publishes_and_retracts_claims(page, server, demo, editor):
    admin = server.url + reverse("admin:index")
    episodes = server.url + reverse("admin:episodes_episode_changelist")
    claims = server.url + reverse("admin:claims_claim_changelist")

    # Sign in as an editor: staff in the Editors group, not a superuser.
    page.goto(admin)
    page.get_by_label("Username").fill(editor.username)
    page.get_by_label("Password").fill("a-long-test-password")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Curate the ledger")).to_be_visible()

    # A podcast; its slug is filled in from the name.
    page.get_by_role("row", name=re.compile("^Podcasts")).get_by_role("link", name="Add").click()
    page.get_by_label("Name").press_sequentially(PODCAST)
    expect(page.get_by_label("Slug")).to_have_value("example-show-live")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".messagelist")).to_contain_text(f"The podcast “{PODCAST}” was added")

    # An episode with three claims inline, the third an unresolved voice; all drafts.
    page.goto(admin)
    page.get_by_role("row", name=re.compile("^Episodes")).get_by_role("link", name="Add").click()
    choose_autocomplete(page, "id_podcast", PODCAST)
    page.get_by_label("Title").press_sequentially(EPISODE)
    page.get_by_label("Air date").fill("2026-05-20")
    page.get_by_label("Original episode URL").fill("https://example.com/example-show-live/notes/")
    add_row = page.get_by_role("button", name="Add another Claim")
    for n, (claim_type, excerpt, speaker) in enumerate(CLAIMS):
        if not page.locator(f"#id_claims-{n}-number").is_visible():
            add_row.click()
        page.locator(f"#id_claims-{n}-number").fill(str(n + 1))
        page.locator(f"#id_claims-{n}-type").select_option(claim_type)
        page.locator(f"#id_claims-{n}-excerpt").fill(excerpt)
        if speaker:
            choose_autocomplete(page, f"id_claims-{n}-speaker", speaker)
        else:
            page.locator(f"#id_claims-{n}-attribution").select_option(label="Unresolved voice")
            page.locator(f"#id_claims-{n}-unresolved_label").fill("Caller 2")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".messagelist")).to_contain_text(f"The episode “{EPISODE}” was added")

    # Drafts are invisible to readers.
    assert page.request.get(server.url + PUBLIC_PATH).status == 404

    # Publish the episode, then its claims, with the bulk actions.
    page.goto(episodes)
    run_action(page, "Publish selected episodes", [EPISODE])
    expect(page.locator(".messagelist")).to_contain_text("Published 1 episode")
    page.goto(claims)
    page.get_by_role("link", name=PODCAST).click()  # the podcast filter
    run_action(page, "Publish selected claims")
    expect(page.locator(".messagelist")).to_contain_text("Published 3 claim")
    page.evaluate("document.activeElement.blur(); window.scrollTo(0, 0)")
    save_screenshot(page, "admin")

    page.goto(server.url + PUBLIC_PATH)
    expect(page.get_by_role("heading", level=1)).to_have_text(EPISODE)
    expect_public_episode(page, "3 published claims", "2 attributable people")
    expect(page.locator("article.claim .claim-number")).to_have_text(["01", "02", "03"])
    expect(page.locator("#claim-03 .voice-unresolved")).to_have_text("Unresolved voice — Caller 2")
    expect(page.locator("#claim-03 .voice-unresolved em")).to_have_text("Caller 2")
    expect(
        page.locator("#claim-03 .claim-meta").get_by_role("link", name="Caller 2")
    ).to_have_count(0)

    # Retract one: it leaves the page and its number leaves a gap.
    page.goto(claims)
    page.get_by_role("link", name=PODCAST).click()
    run_action(page, "Retract selected claims…", [CLAIMS[1][1]])
    page.get_by_label("Reason").fill("Misattributed: the speaker was not on this episode.")
    page.get_by_role("button", name="Retract").click()
    expect(page.locator(".messagelist")).to_contain_text("Retracted 1 claim")

    page.goto(server.url + PUBLIC_PATH)
    expect_public_episode(page, "2 published claims", "1 attributable person")
    expect(page.locator("article.claim .claim-number")).to_have_text(["01", "03"])
    expect(page.get_by_text("Read the excerpt first")).to_have_count(0)
