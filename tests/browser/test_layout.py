"""Where things land on the screen: on a 375 px phone and a 1280 px desktop.

Measured in the browser, since only layout decides whether a reader sees the
first result, the filters or the panels beside the ledger.
"""

import pytest
from playwright.sync_api import expect

from tests.browser.checks import save_screenshot

REFERENCE = "/episodes/the-cognitive-revolution/the-rl-fine-tuning-playbook/"
RECORD_PAGES = {
    "episode": REFERENCE,
    "speaker": "/speakers/kyle-corbitt/",
    "claim permalink": REFERENCE + "claims/4/",
}


def box(locator):
    found = locator.bounding_box()
    assert found, f"{locator} is not shown"
    return found


def right(b):
    return b["x"] + b["width"]


def bottom(b):
    return b["y"] + b["height"]


def content_box(page):
    """The main column's content box: <main> without its side padding."""
    return page.evaluate(
        """() => {
          const main = document.querySelector("main");
          const r = main.getBoundingClientRect(), s = getComputedStyle(main);
          const left = r.left + parseFloat(s.paddingLeft);
          return {x: left, width: r.right - parseFloat(s.paddingRight) - left};
        }"""
    )


# The claims browser (item 5 of issue 19) ----------------------------------------


@pytest.mark.parametrize("query", ["", "?type=prediction&order=oldest"], ids=["all", "filtered"])
def test_a_phone_shows_the_first_result_on_its_first_screen(phone, server, demo, query):
    phone.goto(f"{server.url}/claims/{query}")

    first = box(phone.locator("article.claim").first)
    filters = box(phone.get_by_role("heading", name="Filter claims"))

    # The result's number and type and the start of its excerpt, not just its top edge.
    assert first["y"] + 120 < phone.viewport_size["height"]
    assert filters["y"] > bottom(first)


def test_a_phone_reaches_the_filters_in_one_tap(phone, server, demo):
    phone.goto(f"{server.url}/claims/")
    filters = phone.get_by_role("heading", name="Filter claims")
    expect(filters).not_to_be_in_viewport()
    save_screenshot(phone, "claims-phone")

    phone.get_by_role("link", name="Filter and order these claims", exact=True).click()

    expect(filters).to_be_in_viewport()
    # The first type filter, whatever its count in the demo.
    expect(phone.get_by_role("checkbox").first).to_be_in_viewport()


def test_a_desktop_shows_the_filters_beside_the_results(page, server, demo):
    page.goto(f"{server.url}/claims/")

    results = box(page.locator("section.results"))
    filters = box(page.locator("aside.facets"))
    column = content_box(page)

    assert filters["x"] > right(results)
    assert abs(filters["y"] - results["y"]) < 20
    assert abs(right(filters) - (column["x"] + column["width"])) < 2
    # Beside the results the jump link would only repeat what the eye sees.
    expect(
        page.get_by_role("link", name="Filter and order these claims", exact=True)
    ).not_to_be_in_viewport()


def test_a_keyboard_still_jumps_from_the_results_to_the_filters_on_a_desktop(page, server, demo):
    page.goto(f"{server.url}/claims/")
    jump = page.get_by_role("link", name="Filter and order these claims", exact=True)

    jump.focus()

    expect(jump).to_be_in_viewport()
    assert box(jump)["width"] > 100  # shown when focused, not a 1 px box


# Record pages at 1280 px (item 8) -----------------------------------------------


@pytest.mark.parametrize("path", RECORD_PAGES.values(), ids=RECORD_PAGES.keys())
def test_a_desktop_fills_the_right_third_beside_the_reading_column(page, server, demo, path):
    page.goto(server.url + path)
    column = content_box(page)
    third = column["width"] / 3
    side = box(page.locator(".record-side"))
    reading = box(page.locator(".record > :not(.record-side)"))

    assert side["x"] > right(reading)
    # Most of the right third, up to the column's edge.
    assert side["width"] > 0.75 * third
    assert abs(right(side) - (column["x"] + column["width"])) < 2
    # Beside the top of the reading column, on the first screen.
    assert abs(side["y"] - reading["y"]) < 20
    assert side["y"] < page.viewport_size["height"]


@pytest.mark.parametrize("path", RECORD_PAGES.values(), ids=RECORD_PAGES.keys())
def test_a_phone_stacks_the_panels_above_the_reading_column(phone, server, demo, path):
    phone.goto(server.url + path)
    side = box(phone.locator(".record-side"))
    reading = box(phone.locator(".record > :not(.record-side)"))

    assert abs(side["x"] - reading["x"]) < 2
    assert abs(side["width"] - reading["width"]) < 2
    # The episode's panels come first, as in the reference; a claim's citation follows it.
    if path == RECORD_PAGES["claim permalink"]:
        assert side["y"] > bottom(reading)
    else:
        assert bottom(side) < reading["y"]


# Where am I (item 9) -----------------------------------------------------------

SECTION_OF = {
    REFERENCE: "Episodes",
    REFERENCE + "claims/4/": "Episodes",
    "/speakers/kyle-corbitt/": "Speakers",
    "/podcasts/the-cognitive-revolution/": "Podcasts",
    "/claims/?q=reward": "Search evidence",
}


@pytest.mark.parametrize("device", ["page", "phone"], ids=["1280px", "375px"])
def test_the_navigation_marks_the_section_of_a_detail_page(request, server, demo, device):
    browser_page = request.getfixturevalue(device)
    marked = {}
    for path in SECTION_OF:
        browser_page.goto(server.url + path)
        nav = browser_page.get_by_role("navigation", name="Main")
        current = nav.locator("a[aria-current]")
        expect(current).to_have_count(1)
        underline = current.evaluate("a => getComputedStyle(a).borderBottomStyle")
        others = nav.locator("a:not([aria-current])").evaluate_all(
            "links => links.map(a => getComputedStyle(a).borderBottomStyle)"
        )
        # Marked for the eye as well as for assistive technology.
        assert underline == "solid" and set(others) == {"none"}, path
        expect(current).to_be_in_viewport()
        marked[path] = current.inner_text()

    assert marked == SECTION_OF
