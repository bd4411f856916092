"""A reader's journeys through the demo ledger, by mouse, on a phone and by keyboard alone."""

import re

from playwright.sync_api import expect

from tests.browser.checks import focus_is_visible, horizontal_overflow, save_screenshot, tab_to

EPISODE_TITLE = (
    "The RL Fine-Tuning Playbook: CoreWeave's Kyle Corbitt on GRPO, Rubrics, Environments, "
    "Reward Hacking"
)
EPISODE_PATH = "/episodes/the-cognitive-revolution/the-rl-fine-tuning-playbook/"


def claim_mix_row(page, claim_type):
    mix = page.get_by_role("list", name="Published claims by type")
    return mix.get_by_role("link", name=re.compile(rf"^{claim_type}\b"))


def first_card_link(page, label):
    """A link in the first claim card's "Speaker:" or "Episode:" line."""
    card = page.locator("article.claim").first
    return card.locator("div", has=page.locator(f"dt:text-is('{label}')")).get_by_role("link")


def expect_home(page):
    expect(page).to_have_title("Evidence Ledger")
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "What people actually said on podcasts, with receipts."
    )


def expect_episode_list(page, server):
    expect(page).to_have_url(f"{server.url}/episodes/")
    expect(page.get_by_role("heading", level=1)).to_have_text("All source episodes")


def expect_episode(page, server):
    expect(page).to_have_url(server.url + EPISODE_PATH)
    expect(page.get_by_role("heading", level=1)).to_have_text(EPISODE_TITLE)
    facts = page.locator(".page-head .facts")
    expect(facts).to_contain_text("19 published claims")
    expect(facts).to_contain_text("2 attributable people")


def expect_predictions_of_the_episode(page, server):
    expect(page).to_have_url(
        re.compile(re.escape(f"{server.url}/claims/?episode=") + r"\d+&type=prediction$")
    )
    expect(page.locator(".ledger-count")).to_contain_text(
        f"3 published claims from “{EPISODE_TITLE}”"
    )
    expect(page.locator("article.claim .claim-type")).to_have_text(["prediction"] * 3)
    expect(page.get_by_role("checkbox", name=re.compile("^prediction"))).to_be_checked()


def expect_speaker(page, server, slug, name):
    expect(page).to_have_url(f"{server.url}/speakers/{slug}/")
    expect(page.get_by_role("heading", level=1)).to_have_text(name)


def test_reader_follows_the_claim_mix_from_home_to_a_speaker_and_back(page, server, demo):
    page.goto(server.url)
    expect_home(page)
    save_screenshot(page, "home")

    page.get_by_role("link", name="All source episodes →").click()
    expect_episode_list(page, server)

    page.get_by_role("link", name=EPISODE_TITLE).click()
    expect_episode(page, server)
    save_screenshot(page, "episode")

    claim_mix_row(page, "prediction").click()
    expect_predictions_of_the_episode(page, server)

    first_card_link(page, "Speaker").click()
    expect_speaker(page, server, "kyle-corbitt", "Kyle Corbitt")

    page.go_back()
    expect_predictions_of_the_episode(page, server)


def test_the_same_journey_fits_a_phone_screen(phone, server, demo):
    def fits():
        assert horizontal_overflow(phone) == [], phone.url

    phone.goto(server.url)
    expect_home(phone)
    fits()

    phone.get_by_role("link", name="All source episodes →").click()
    expect_episode_list(phone, server)
    fits()

    phone.get_by_role("link", name=EPISODE_TITLE).click()
    expect_episode(phone, server)
    fits()
    save_screenshot(phone, "episode-phone")

    claim_mix_row(phone, "prediction").click()
    expect_predictions_of_the_episode(phone, server)
    fits()

    first_card_link(phone, "Speaker").click()
    expect_speaker(phone, server, "kyle-corbitt", "Kyle Corbitt")
    fits()

    phone.go_back()
    expect_predictions_of_the_episode(phone, server)


def expect_landed_on_claim_04(page, server):
    expect(page).to_have_url(f"{server.url}{EPISODE_PATH}#claim-04")
    claim = page.locator("article#claim-04")
    expect(claim).to_be_in_viewport()
    expect(claim.locator(".excerpt")).to_contain_text("It's called the credit assignment problem")
    assert claim.evaluate("el => el.matches(':target')")
    assert claim.evaluate("el => getComputedStyle(el).backgroundColor") != "rgba(0, 0, 0, 0)"


def expect_credit_assignment_results(page, server):
    expect(page).to_have_url(f"{server.url}/claims/?q=%22credit+assignment%22")
    expect(page.get_by_role("heading", level=1)).to_have_text("Claims matching “credit assignment”")
    expect(page.locator(".ledger-count")).to_contain_text("1 published claim")
    # The phrase is marked (PostgreSQL also marks other forms of its words, later on).
    marked = " ".join(page.locator("article.claim .excerpt mark").all_inner_texts())
    assert marked.lower().split()[:2] == ["credit", "assignment"]


def test_reader_searches_a_phrase_and_lands_on_its_excerpt_in_the_episode(page, server, demo):
    page.goto(server.url)
    page.get_by_role("searchbox", name="Search the evidence").fill('"credit assignment"')
    page.get_by_role("button", name="Search").click()
    expect_credit_assignment_results(page, server)

    first_card_link(page, "Episode").click()
    expect_landed_on_claim_04(page, server)


def test_search_address_opens_the_claims_browser_with_the_query(page, server, demo):
    page.goto(f"{server.url}/search/?q=%22credit+assignment%22")
    expect_credit_assignment_results(page, server)


def test_reader_makes_both_journeys_by_keyboard_alone(page, server, demo):
    page.goto(server.url)

    page.keyboard.press("Tab")
    skip_link = page.get_by_role("link", name="Skip to content")
    expect(skip_link).to_be_focused()
    expect(skip_link).to_be_in_viewport()
    assert focus_is_visible(page)
    page.keyboard.press("Enter")
    expect(page.locator("main")).to_be_focused()

    tab_to(page, page.get_by_role("link", name="All source episodes →"))
    page.keyboard.press("Enter")
    expect_episode_list(page, server)

    tab_to(page, page.get_by_role("link", name=EPISODE_TITLE))
    page.keyboard.press("Enter")
    expect_episode(page, server)

    tab_to(page, claim_mix_row(page, "prediction"))
    page.keyboard.press("Enter")
    expect_predictions_of_the_episode(page, server)

    tab_to(page, first_card_link(page, "Speaker"))
    page.keyboard.press("Enter")
    expect_speaker(page, server, "kyle-corbitt", "Kyle Corbitt")

    page.go_back()
    expect_predictions_of_the_episode(page, server)

    # Search, from the home page's form.
    page.goto(server.url)
    tab_to(page, page.get_by_role("searchbox", name="Search the evidence"))
    page.keyboard.type('"credit assignment"')
    page.keyboard.press("Enter")
    expect_credit_assignment_results(page, server)

    tab_to(page, first_card_link(page, "Episode"))
    page.keyboard.press("Enter")
    expect_landed_on_claim_04(page, server)
