"""Capturing claims from a timed transcript in the admin: by mouse, by keyboard, and axe."""

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.urls import reverse
from playwright.sync_api import expect

from claims.models import Claim
from tests.browser.checks import FAILING_IMPACTS, save_screenshot
from tests.browser.test_editor_journey import choose_autocomplete
from tests.factories import make_claim, make_episode, make_speaker

TEXT = (
    "Ada: Welcome back to the Example Show.\n"
    "Ada: We moved everything to GRPO last spring.\n"
    "Ben: It was cheaper than we expected, and faster.\n"
    "Ada: Next week we try it on the ledger itself."
)
CUES = [[0, 0], [62, 39], [75, 85], [3723, 135]]


@pytest.fixture
def timed_episode(transactional_db):
    make_speaker(name="Ada Example", slug="ada-example")
    episode = make_episode(title="A Timed Example", audio_url="https://example.com/timed.mp3")
    episode.save_transcript(TEXT, CUES)
    ben = make_speaker(name="Ben Sample", slug="ben-sample")
    make_claim(episode, ben, number=1, excerpt="Welcome back to the Example Show.")
    return episode


def sign_in(page, server, editor):
    page.goto(server.url + reverse("admin:index"))
    page.get_by_label("Username").fill(editor.username)
    page.get_by_label("Password").fill("a-long-test-password")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Curate the ledger")).to_be_visible()


def select_by_mouse(page, words):
    """Drag the mouse across `words` in the transcript panel."""
    box = page.evaluate(
        """(words) => {
          const panel = document.querySelector(".transcript-text");
          const walker = document.createTreeWalker(panel, NodeFilter.SHOW_TEXT);
          while (walker.nextNode()) {
            const at = walker.currentNode.data.indexOf(words);
            if (at < 0) continue;
            const range = document.createRange();
            range.setStart(walker.currentNode, at);
            range.setEnd(walker.currentNode, at + 1);
            const first = range.getBoundingClientRect();
            range.setStart(walker.currentNode, at + words.length - 1);
            range.setEnd(walker.currentNode, at + words.length);
            const last = range.getBoundingClientRect();
            return {x1: first.left + 1, y: first.top + first.height / 2, x2: last.right - 1};
          }
          return null;
        }""",
        words,
    )
    page.mouse.move(box["x1"], box["y"])
    page.mouse.down()
    page.mouse.move(box["x2"], box["y"], steps=5)
    page.mouse.up()


def test_an_editor_captures_a_claim_by_selecting_it_in_the_transcript(
    page, server, editor, timed_episode
):
    sign_in(page, server, editor)
    page.goto(server.url + reverse("admin:episodes_episode_change", args=[timed_episode.pk]))
    panel = page.locator(".transcript-panel")
    expect(panel.locator(".transcript-text p").nth(2)).to_contain_text("1:15 Ben: It was cheaper")
    expect(panel.locator("mark")).to_have_text(["Welcome back to the Example Show."])
    expect(panel.locator(".claim-tag")).to_have_text(["01"])

    select_by_mouse(page, "It was cheaper than we expected")
    save_screenshot(page, "capture-panel")
    page.get_by_role("button", name="New claim from selection").click()

    expect(page.get_by_label("Excerpt")).to_have_value("It was cheaper than we expected")
    expect(page.get_by_label("Timestamp")).to_have_value("75")
    expect(page.get_by_label("Number")).to_have_value("2")
    page.get_by_label("Type").select_option("observation")
    choose_autocomplete(page, "id_speaker", "Ada Example")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".messagelist")).to_contain_text("was added successfully")

    claim = Claim.objects.get(episode=timed_episode, number=2)
    assert (claim.excerpt, claim.timestamp, claim.type, claim.speaker.name) == (
        "It was cheaper than we expected",
        75,
        "observation",
        "Ada Example",
    )


def test_an_editor_captures_a_claim_by_keyboard_alone(page, server, editor, timed_episode):
    sign_in(page, server, editor)
    page.goto(server.url + reverse("admin:episodes_episode_change", args=[timed_episode.pk]))

    press_tab_until(page, page.get_by_label("Excerpt to capture"))
    page.keyboard.type("Next week we try it on the ledger itself.")
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Find in transcript")).to_be_focused()
    page.keyboard.press("Enter")

    expect(page.get_by_label("Timestamp")).to_have_value("3723")
    press_tab_until(page, page.get_by_label("Type"))
    page.keyboard.press("ArrowDown")  # the first type after the blank choice
    press_tab_until(page, page.get_by_label("Attribution"))
    page.keyboard.press("ArrowDown")  # from an identified speaker to an unresolved voice
    press_tab_until(page, page.get_by_role("button", name="Save", exact=True))
    page.keyboard.press("Enter")
    expect(page.locator(".messagelist")).to_contain_text("was added successfully")

    claim = Claim.objects.get(episode=timed_episode, number=2)
    assert (claim.excerpt, claim.timestamp, claim.attribution) == (
        "Next week we try it on the ledger itself.",
        3723,
        "unresolved",
    )


def test_a_missing_excerpt_is_said_to_be_missing_by_keyboard(page, server, editor, timed_episode):
    sign_in(page, server, editor)
    page.goto(server.url + reverse("admin:episodes_episode_change", args=[timed_episode.pk]))

    press_tab_until(page, page.get_by_label("Excerpt to capture"))
    page.keyboard.type("We moved everything to GRP0 last spring.")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")

    expect(page.get_by_role("status")).to_contain_text("is not in the transcript")
    expect(page.locator(".nearest-passage li")).to_have_text(
        ["The transcript says GRPO, the excerpt says GRP0."]
    )
    assert not Claim.objects.filter(number=2).exists()


def test_the_capture_panel_and_the_find_page_pass_axe(page, server, editor, timed_episode):
    sign_in(page, server, editor)
    page.goto(server.url + reverse("admin:episodes_episode_change", args=[timed_episode.pk]))
    assert serious_violations(page, ".transcript-panel") == []

    page.get_by_label("Excerpt to capture").fill("Words nobody said on the show.")
    page.get_by_role("button", name="Find in transcript").click()
    assert serious_violations(page, "#content") == []


def serious_violations(page, selector):
    """axe's serious and critical findings inside `selector`: the parts our templates draw."""
    # Without axe's stylesheet preload, which builds inline styles the admin's
    # Content-Security-Policy refuses on pages with autocomplete fields.
    options = {"resultTypes": ["violations"], "preload": False}
    results = Axe().run(page, context=selector, options=options)
    return [
        f"{v['id']} ({v['impact']}): {v['help']}"
        for v in results.response["violations"]
        if v["impact"] in FAILING_IMPACTS
    ]


def press_tab_until(page, target, limit=200):
    for _ in range(limit):
        page.keyboard.press("Tab")
        if target.evaluate("el => el === document.activeElement"):
            return
    raise AssertionError(f"{target} was not reached in {limit} presses of Tab")
