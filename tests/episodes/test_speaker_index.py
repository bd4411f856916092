"""The speakers index: who is in the public record, found by name, with episodes and roles."""

import pytest

from claims.speaker_index import NameQuery
from episodes.models import Role, Status
from tests.episodes.test_episode_page import visible_text
from tests.factories import make_appearance, make_claim, make_episode, make_speaker

pytestmark = pytest.mark.django_db


def rows(response):
    """Each speaker's row as a reader reads it."""
    text = visible_text(response)
    listing = text.split("each counted once.", 1)[1]
    return [row.strip() for row in listing.split("·")]


def two_hosts_and_a_guest():
    ada = make_speaker(name="Ada Example", slug="ada-example")
    ben = make_speaker(name="Ben Sample", slug="ben-sample")
    cleo = make_speaker(name="Cleo Placeholder", slug="cleo-placeholder")
    first, second = make_episode(), make_episode()
    make_claim(first, ada)
    make_claim(first, ada)
    make_appearance(first, ada, Role.HOST)
    make_appearance(second, ada, Role.HOST)
    make_claim(second, ben)
    make_appearance(second, ben, Role.GUEST)
    make_appearance(first, cleo, Role.GUEST)
    return ada, ben, cleo


def test_each_speaker_shows_claims_published_episodes_and_roles_most_claims_first(client):
    two_hosts_and_a_guest()

    text = visible_text(client.get("/speakers/"))

    assert (
        "Ada Example host 2 claims · 2 episodes "
        "Ben Sample guest 1 claim · 1 episode "
        "Cleo Placeholder guest 0 claims · 1 episode"
    ) in text


def test_an_episode_with_claims_and_an_appearance_counts_once(client):
    ada = make_speaker(name="Ada Example")
    episode = make_episode()
    make_claim(episode, ada)
    make_appearance(episode, ada, Role.HOST)
    make_appearance(make_episode(), ada, Role.GUEST)

    text = visible_text(client.get("/speakers/"))

    assert "Ada Example host, guest 1 claim · 2 episodes" in text


def test_draft_episodes_never_count_in_the_index(client):
    ada = make_speaker(name="Ada Example")
    make_claim(speaker=ada)
    draft = make_episode(status=Status.DRAFT)
    make_claim(draft, ada)
    make_appearance(draft, ada, Role.HOST)
    make_appearance(make_episode(status=Status.DRAFT), make_speaker(name="Di Nobody"))

    text = visible_text(client.get("/speakers/"))

    assert "Ada Example 1 claim · 1 episode" in text
    assert "host" not in text.split("each counted once.")[1]
    assert "Di Nobody" not in text


def test_the_search_finds_speakers_whose_name_holds_every_word(client):
    two_hosts_and_a_guest()

    text = visible_text(client.get("/speakers/", {"q": "  sample  BEN "}))

    assert "1 identified person whose name matches “sample BEN”" in text
    assert "Ben Sample" in text
    assert "Ada Example" not in text


def test_a_word_typed_again_in_any_case_is_looked_for_once(client):
    two_hosts_and_a_guest()

    query = NameQuery.parse("sample Sample SAMPLE ben")
    text = visible_text(client.get("/speakers/", {"q": query.text}))

    assert [word.casefold() for word in query.words] == ["sample", "ben"]
    assert "Ben Sample" in text and "Ada Example" not in text


def test_the_search_finds_someone_who_only_appeared(client):
    two_hosts_and_a_guest()

    text = visible_text(client.get("/speakers/", {"q": "placeholder"}))

    assert "Cleo Placeholder guest 0 claims · 1 episode" in text


def test_a_search_that_finds_no_one_says_so(client):
    two_hosts_and_a_guest()

    text = visible_text(client.get("/speakers/", {"q": "Nobody"}))

    assert "No one in the public record has a name matching “Nobody”." in text


def test_a_search_of_punctuation_only_says_there_is_nothing_to_look_for(client):
    two_hosts_and_a_guest()

    response = client.get("/speakers/", {"q": "%%% !!"})

    assert response.status_code == 200
    assert "“%%% !!” has no letters or digits to look for in a name." in visible_text(response)


def test_a_huge_search_is_cut_short_and_says_so(client):
    two_hosts_and_a_guest()

    response = client.get("/speakers/", {"q": "Ada " + "x" * 100_000})

    assert response.status_code == 200
    assert "only its first 100 characters were used" in visible_text(response)


@pytest.mark.parametrize("q", ["<script>alert(1)</script>", "Ada\x00Example", "' OR 1=1 --"])
def test_hostile_searches_are_answered_and_escaped(client, q):
    two_hosts_and_a_guest()

    response = client.get("/speakers/", {"q": q})

    assert response.status_code == 200
    assert "<script>alert" not in response.content.decode()


def test_the_search_box_keeps_what_was_searched_and_works_without_javascript(client):
    html = client.get("/speakers/", {"q": "Ada"}).content.decode()

    assert '<form class="search-form" role="search" method="get" action="/speakers/">' in html
    assert 'name="q" value="Ada"' in html
