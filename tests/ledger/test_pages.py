"""Site-wide pages: home, method, how the evidence works, search, and the 404 page."""

import datetime
import re
from html import unescape

import pytest

from claims.choices import TYPE_MEANINGS, Attribution
from episodes.models import Status
from tests.factories import make_claim, make_episode, make_podcast, make_speaker

pytestmark = pytest.mark.django_db


def visible_text(response):
    """The page's main content as a reader sees it: tags dropped, whitespace collapsed."""
    html = response.content.decode()
    main = html[html.index("<main") : html.index("</main>")]
    return " ".join(unescape(re.sub(r"<[^>]*>", " ", main)).split())


def test_home_page_totals_count_only_public_records(client):
    example_show = make_podcast(name="Example Show")
    episode = make_episode(example_show)
    ada = make_speaker(name="Ada Example")
    make_claim(episode, speaker=ada)
    make_claim(episode, speaker=ada)
    make_claim(episode, speaker=make_speaker(name="Ben Sample"))
    make_claim(episode, attribution=Attribution.UNRESOLVED)
    make_claim(episode, speaker=make_speaker(name="Cy Draft"), status=Status.DRAFT)
    make_claim(make_episode(example_show, status=Status.DRAFT), speaker=ada)
    make_episode(make_podcast(name="Sample Hour"), status=Status.DRAFT)

    text = visible_text(client.get("/"))

    assert "4 published claims 1 episode 2 attributable people 1 podcast" in text


def test_home_page_lists_the_six_most_recent_episodes(client):
    podcast = make_podcast()
    for day in range(1, 8):
        make_episode(podcast, title=f"Aired on day {day}", air_date=datetime.date(2026, 3, day))

    text = visible_text(client.get("/"))

    shown = re.findall(r"Aired on day (\d)", text)
    assert shown == ["7", "6", "5", "4", "3", "2"]


def test_home_page_search_box_finds_published_claims(client):
    make_claim(excerpt="The zeppelin will come back as a freight carrier.")
    html = client.get("/").content.decode()
    form = re.search(r'<form\b[^>]*\brole="search"[^>]*>.*?</form>', html, re.S).group()
    action = re.search(r'\baction="([^"]*)"', form).group(1)

    assert re.search(r'<input\b[^>]*\bname="q"', form)
    assert "1 published claim" in visible_text(client.get(action, {"q": "zeppelin"}, follow=True))


def test_method_page_explains_every_claim_type(client):
    text = visible_text(client.get("/method/"))

    assert len(TYPE_MEANINGS) == 9
    for claim_type, meaning in TYPE_MEANINGS.items():
        assert f"{claim_type} {meaning}" in text


def test_method_page_explains_that_numbers_never_change(client):
    text = visible_text(client.get("/method/"))

    assert "Numbers never change" in text
    assert "A claim that is not published leaves a gap in the numbering" in text


def test_how_the_evidence_works_page_explains_exact_excerpts_and_attribution(client):
    response = client.get("/how-the-evidence-works/")
    text = visible_text(response)

    assert response.status_code == 200
    assert "Every claim comes with a receipt" in text
    assert "Excerpts are exact" in text
    assert "unresolved voice" in text


def test_unknown_address_answers_404_in_the_site_style(client):
    response = client.get("/no-such-page/")
    html = response.content.decode()

    assert response.status_code == 404
    assert "There is no public page here" in visible_text(response)
    assert '<nav class="site-nav"' in html


def test_search_finds_a_word_from_a_published_excerpt(client):
    claim = make_claim(excerpt="The zeppelin will come back as a freight carrier.")

    response = client.get("/search/", {"q": "zeppelin"}, follow=True)
    text = visible_text(response)

    assert "Claims matching “zeppelin”" in text
    assert "1 published claim ·" in text
    assert "“The zeppelin will come back as a freight carrier.”" in text
    assert claim.episode.title in text


def test_search_does_not_find_words_from_draft_claims(client):
    make_claim(excerpt="A quokka said this in a draft.", status=Status.DRAFT)
    make_claim(make_episode(status=Status.DRAFT), excerpt="A quokka in a draft episode.")

    text = visible_text(client.get("/search/", {"q": "quokka"}, follow=True))

    assert "0 published claims ·" in text
    assert "quokka in a draft" not in text
    assert "quokka said this" not in text
