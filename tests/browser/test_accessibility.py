"""Every kind of public page, checked by axe-core and for the structure assistive technology reads."""

from playwright.sync_api import expect

from tests.browser.checks import axe_violations, horizontal_overflow, skipped_heading_levels

REFERENCE = "/episodes/the-cognitive-revolution/the-rl-fine-tuning-playbook/"
EXAMPLE = "/episodes/example-show/testing-in-production/"

PUBLIC_PAGES = {
    "home": "/",
    "episode list": "/episodes/",
    "episode list of a podcast": "/episodes/?podcast=example-show",
    "episode with an unresolved voice": EXAMPLE,
    "reference episode": REFERENCE,
    "speaker list": "/speakers/",
    "speaker list searched": "/speakers/?q=sample",
    "speaker": "/speakers/ada-example/",
    "speaker who only appeared": "/speakers/cleo-placeholder/",
    "podcast list": "/podcasts/",
    "podcast": "/podcasts/example-show/",
    "claims browser": "/claims/",
    "search with filters and a bad value": (
        "/claims/?q=tests&type=prediction&type=nonsense&attribution=identified"
        "&aired_from=2026-01-01&order=oldest"
    ),
    "search with no results": "/claims/?q=zebra",
    "claim permalink": EXAMPLE + "claims/3/",
    "claim permalink contradicted by another": EXAMPLE + "claims/1/",
    "speaker whose positions moved": "/speakers/ben-sample/",
    "every move of a speaker's positions": "/speakers/ben-sample/moves/",
    "claims in a contradiction": "/claims/?contradictions=only",
    "claim permalink with topics and references": "/episodes/example-show/books-on-the-desk/claims/2/",
    "topic list": "/topics/",
    "topic": "/topics/testing/",
    "reference list": "/references/?kind=book&role=bogus",
    "reference": "/references/the-careful-deploy/",
    "public transcript": EXAMPLE + "transcript/",
    "method": "/method/",
    "how the evidence works": "/how-the-evidence-works/",
    "about": "/about/",
    "corrections log": "/corrections/",
    "report a problem": EXAMPLE + "claims/3/report/",
}


def structure_problems(page):
    """What axe-core finds, plus skipped heading levels and missing landmarks or language."""
    problems = axe_violations(page) + skipped_heading_levels(page)
    landmarks = {
        "h1": "h1",
        "main": "main",
        "banner": "body > header",
        "contentinfo": "body > footer",
        "main navigation": "nav[aria-label='Main']",
    }
    for name, selector in landmarks.items():
        if page.locator(selector).count() != 1:
            problems.append(f"not exactly one {name}")
    if page.locator("html").get_attribute("lang") != "en":
        problems.append("no lang='en' on <html>")
    return problems


def test_every_kind_of_public_page_passes_axe_and_keeps_its_headings_in_order(
    page, server, demo, problems
):
    found = {}
    for name, path in PUBLIC_PAGES.items():
        response = page.goto(server.url + path)
        assert response.status == 200, path
        found[name] = structure_problems(page)

    not_found = f"{server.url}/episodes/no-such-show/no-such-episode/"
    problems.expect_not_found(not_found)
    assert page.goto(not_found).status == 404
    expect(page.get_by_role("heading", level=1)).to_have_text("There is no public page here")
    found["not found"] = structure_problems(page)

    assert {name: issues for name, issues in found.items() if issues} == {}


def test_public_pages_pass_axe_on_a_phone_and_fit_its_width(phone, server, demo):
    found = {}
    phone_pages = (
        REFERENCE,
        "/claims/?q=tests",
        "/speakers/ada-example/",
        "/speakers/ben-sample/",
        "/podcasts/",
        EXAMPLE + "claims/1/",
        EXAMPLE + "claims/3/report/",
    )
    for path in phone_pages:
        phone.goto(server.url + path)
        found[path] = axe_violations(phone) + horizontal_overflow(phone)

    assert {path: issues for path, issues in found.items() if issues} == {}


def test_skip_link_is_the_first_stop_and_shows_when_focused(page, server, demo):
    page.goto(server.url + REFERENCE)
    skip_link = page.get_by_role("link", name="Skip to content")
    expect(skip_link).not_to_be_in_viewport()

    page.keyboard.press("Tab")

    expect(skip_link).to_be_focused()
    expect(skip_link).to_be_in_viewport()
    page.keyboard.press("Enter")
    expect(page.locator("main")).to_be_focused()
    # The next Tab continues from the content, not from the top of the page.
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="← All source episodes")).to_be_focused()


def test_claim_mix_reads_as_a_list_of_linked_counts(page, server, demo):
    page.goto(server.url + EXAMPLE)

    mix = page.get_by_role("list", name="Published claims by type")
    expect(mix.get_by_role("link")).to_have_count(5)
    expect(mix.get_by_role("link").first).to_have_accessible_name("belief 1")
    # The bars are drawing only; the numbers are in the text.
    expect(mix.locator("svg").first).to_have_attribute("aria-hidden", "true")
