"""The main navigation says which section the reader is in, on detail pages too."""

import re

import pytest

from claims.embeds import embed_url
from ledger import navigation
from tests.factories import make_claim, make_episode

pytestmark = pytest.mark.django_db


def current_sections(response):
    """{label: aria-current value} of the main navigation's marked links."""
    html = response.content.decode()
    nav = html[html.index('<nav class="site-nav"') : html.index("</nav>")]
    return dict(
        (label, value)
        for value, label in re.findall(r'<a href="[^"]*" aria-current="(\w+)">([^<]+)</a>', nav)
    )


@pytest.fixture
def claim():
    return make_claim(make_episode(transcript="Ada: words.", transcript_public=True))


@pytest.mark.parametrize(
    ("page", "section"),
    [
        (lambda claim: "/episodes/", "Episodes"),
        (lambda claim: "/speakers/", "Speakers"),
        (lambda claim: "/podcasts/", "Podcasts"),
        (lambda claim: "/claims/", "Search evidence"),
        (lambda claim: "/method/", "Method"),
    ],
    ids=["episodes", "speakers", "podcasts", "claims", "method"],
)
def test_a_section_page_is_marked_as_the_current_page(client, claim, page, section):
    assert current_sections(client.get(page(claim))) == {section: "page"}


@pytest.mark.parametrize(
    ("page", "section"),
    [
        (lambda claim: claim.episode.get_absolute_url(), "Episodes"),
        (lambda claim: claim.get_absolute_url(), "Episodes"),
        (lambda claim: claim.episode.get_transcript_url(), "Episodes"),
        (lambda claim: claim.speaker.get_absolute_url(), "Speakers"),
        (lambda claim: claim.episode.podcast.get_absolute_url(), "Podcasts"),
    ],
    ids=["episode", "claim permalink", "transcript", "speaker", "podcast"],
)
def test_a_detail_page_marks_the_section_it_belongs_to(client, claim, page, section):
    # "true", not "page": the link leads to the section, not to the page the reader is on.
    assert current_sections(client.get(page(claim))) == {section: "true"}


def test_the_home_page_marks_no_section(client, claim):
    assert current_sections(client.get("/")) == {}


@pytest.mark.parametrize(("shown", "worked_out"), [(False, 0), (True, 1)])
def test_the_sections_are_worked_out_only_for_a_page_that_shows_them(
    client, claim, monkeypatch, shown, worked_out
):
    # A claim's embed renders a template with the request, and shows no navigation.
    calls = []
    monkeypatch.setattr(navigation, "sections", lambda request: calls.append(request) or [])
    path = "/episodes/" if shown else embed_url(claim)

    assert client.get(path).status_code == 200
    assert len(calls) == worked_out
