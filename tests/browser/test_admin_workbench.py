"""The editors' workbench at 1280 px: lists that fit, pages axe passes, and the README's pictures."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from claims.models import Claim
from episodes.models import Episode
from tests.browser.checks import axe_violations, horizontal_overflow, save_screenshot
from tests.factories import make_claim, make_speaker

EXAMPLE_EPISODE = "testing-in-production"
# Long enough to fill many lines, with a token no line can break on its own.
LONG_EXCERPT = (
    "Every claim in this ledger carries its receipt, and every receipt names where it was "
    "said, " * 12
) + "https://example.com/an/address/that/runs/on/and/on/without/a/single/space/" * 3
LONG_NAME = "Ada Example-Sample-Montgomery-Fitzwilliam of the Example Show Listeners' Panel"


@pytest.fixture
def long_claim(demo):
    """A draft with a very long excerpt and speaker's name, in the demo's Example Show episode."""
    episode = Episode.objects.get(slug=EXAMPLE_EPISODE)
    return make_claim(
        episode,
        make_speaker(name=LONG_NAME, slug="ada-example-long"),
        number=Claim.objects.filter(episode=episode).next_number(),
        excerpt=LONG_EXCERPT,
        status="draft",
    )


@pytest.fixture
def signed_in(page, server, editor):
    page.goto(server.url + reverse("admin:login"))
    page.get_by_label("Username").fill(editor.username)
    page.get_by_label("Password").fill("a-long-test-password")
    page.get_by_label("Password").press("Enter")
    expect(page.get_by_role("heading", name="Curate the ledger")).to_be_visible()
    return page


def page_width_problems(page):
    """Why the page scrolls sideways, or []: the document and every box inside it."""
    problems = horizontal_overflow(page)
    if not page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    ):
        problems.append("the document scrolls sideways")
    return problems


def test_the_claims_list_fits_1280_px_beside_its_filters(signed_in, server, long_claim):
    page = signed_in
    page.goto(server.url + reverse("admin:claims_claim_changelist"))

    expect(page.locator("#changelist-filter")).to_be_visible()
    assert page_width_problems(page) == []
    headers = page.locator("#result_list thead th")
    expect(headers).to_have_text(
        ["", "No.", "Type", "Excerpt", "Voice", "Episode", "Status", "Verbatim"],
        ignore_case=True,
    )
    widths = {th.inner_text().strip().lower(): th.bounding_box()["width"] for th in headers.all()}
    assert max(widths, key=widths.get) == "excerpt"
    # The long excerpt and the long episode title show in two lines at most.
    row = page.get_by_role("row").filter(has_text="Every claim in this ledger")
    for cell in (row.locator(".field-short_excerpt a"), row.locator(".field-episode_short span")):
        line = cell.evaluate("el => parseFloat(getComputedStyle(el).lineHeight)")
        assert cell.bounding_box()["height"] <= 2 * line + 1


def test_the_episode_page_with_its_claims_inline_fits_1280_px(signed_in, server, long_claim):
    page = signed_in
    page.goto(server.url + reverse("admin:episodes_episode_change", args=[long_claim.episode_id]))

    expect(page.locator("#claims-group")).to_be_visible()
    assert page_width_problems(page) == []


def test_our_admin_pages_have_no_serious_axe_violations(signed_in, server, long_claim):
    page = signed_in
    claim = Claim.objects.filter(status="published").first()
    pages = {
        "admin home with the review queue": reverse("admin:index"),
        "claims list": reverse("admin:claims_claim_changelist"),
        "claims not verified": reverse("admin:claims_claim_changelist")
        + "?status__exact=published&verification__in=not_found,no_transcript",
        "claim": reverse("admin:claims_claim_change", args=[claim.pk]),
        "new claim": reverse("admin:claims_claim_add"),
        "import": reverse("admin:claims_claim_import"),
        "retract": reverse("admin:claims_claim_retract", args=[claim.pk]),
        "predictions due": reverse("admin:claims_prediction_changelist")
        + "?status__exact=published&due=overdue",
        "new episode": reverse("admin:episodes_episode_add"),
        "episode with its claims": reverse(
            "admin:episodes_episode_change", args=[long_claim.episode_id]
        ),
    }
    found = {}
    for name, path in pages.items():
        assert page.goto(server.url + path).status == 200, path
        # Without axe's stylesheet preload, which builds inline styles the admin's
        # Content-Security-Policy refuses on the pages with autocomplete fields.
        found[name] = axe_violations(page, required=(), preload=False)

    assert {name: issues for name, issues in found.items() if issues} == {}


def test_screenshots_of_the_review_queue_and_the_claims_list(signed_in, server, demo):
    page = signed_in
    page.goto(server.url + reverse("admin:index"))
    expect(page.get_by_role("heading", name="Review queue")).to_be_visible()
    page.evaluate("document.activeElement.blur()")
    save_screenshot(page, "admin-home")

    page.get_by_role("link", name="Published, not verified").press("Enter")
    expect(page.locator("#changelist-filter li.selected")).to_contain_text(
        ["Published", "All", "All", "Not verified (either)", "All"]
    )
    page.goto(server.url + reverse("admin:claims_claim_changelist"))
    page.evaluate("document.activeElement.blur()")
    save_screenshot(page, "admin-claims")
