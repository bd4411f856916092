"""Listings carry only what a card shows: never an episode's transcript."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from claims.models import Topic
from tests.factories import make_claim, make_episode

# Of the order of a real 90-minute episode's, holding the factory's first three excerpts.
TRANSCRIPT = "Words of a long conversation. " * 3000 + " ".join(
    f"An exact excerpt, number {n}, as it was said." for n in (1, 2, 3)
)

TRANSCRIPT_TEXT = '"episodes_transcript"."text"'


@pytest.fixture
def episode(db):
    episode = make_episode(transcript=TRANSCRIPT)
    for _ in range(3):
        make_claim(episode)
    return episode


def sql_of(client, url, params=None):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, params)
    assert response.status_code == 200
    return [query["sql"] for query in queries]


@pytest.mark.parametrize(
    "page",
    ["claims browser", "claims browser with a search", "episode page", "speaker page", "home"],
)
def test_listing_pages_never_select_the_transcript_text(client, episode, page):
    claim = episode.claims.first()
    url, params = {
        "claims browser": ("/claims/", None),
        "claims browser with a search": ("/claims/", {"q": "exact excerpt"}),
        "episode page": (episode.get_absolute_url(), None),
        "speaker page": (claim.speaker.get_absolute_url(), None),
        "home": ("/", None),
    }[page]

    statements = sql_of(client, url, params)

    assert statements
    # The episode page reads whether the transcript is public, from its row: never its text.
    assert not [sql for sql in statements if TRANSCRIPT_TEXT in sql]


def test_the_claim_cards_show_the_verbatim_check_without_the_transcript(client, episode):
    response = client.get(episode.get_absolute_url())

    assert response.content.decode().count("verified verbatim") == 3


@pytest.mark.parametrize(
    "page", ["home", "episodes", "episodes of one podcast", "podcast page", "podcasts", "speakers"]
)
def test_lists_of_episodes_podcasts_and_speakers_read_no_claim(client, episode, page):
    # Their counts are the ones each record keeps (claims.counters): however many
    # claims the ledger holds, these pages never read one.
    url, params = {
        "home": ("/", None),
        "episodes": ("/episodes/", None),
        "episodes of one podcast": ("/episodes/", {"podcast": episode.podcast.slug}),
        "podcast page": (episode.podcast.get_absolute_url(), None),
        "podcasts": ("/podcasts/", None),
        "speakers": ("/speakers/", None),
    }[page]

    statements = sql_of(client, url, params)

    claim_reads = [sql for sql in statements if '"claims_claim"' in sql]
    assert claim_reads == []


# What the cards' records keep but a card never shows (claims.querysets.UNSHOWN_ON_CARDS).
SPEAKERS_KEPT_MIX = '"episodes_speaker"."public_claim_mix"'
PODCASTS_DESCRIPTION = '"episodes_podcast"."description"'


@pytest.mark.parametrize(
    "page",
    [
        "claims browser",
        "claims browser with a search",
        "speaker page",
        "topic page",
        "episode page",
    ],
)
def test_pages_of_claim_cards_leave_out_what_a_card_never_shows(client, episode, page):
    claim = episode.claims.first()
    topic = Topic.objects.create(name="Testing", slug="testing")
    claim.topics.add(topic)
    url, params = {
        "claims browser": ("/claims/", None),
        "claims browser with a search": ("/claims/", {"q": "exact excerpt"}),
        "speaker page": (claim.speaker.get_absolute_url(), None),
        "topic page": (topic.get_absolute_url(), None),
        "episode page": (episode.get_absolute_url(), None),
    }[page]

    with CaptureQueriesContext(connection) as queries:
        page = client.get(url, params).content.decode()

    assert claim.speaker.name in page and episode.podcast.name in page
    statements = [query["sql"] for query in queries]
    cards = [sql for sql in statements if '"claims_claim"."excerpt"' in sql]
    assert cards
    assert not [sql for sql in cards if SPEAKERS_KEPT_MIX in sql or PODCASTS_DESCRIPTION in sql]
    assert not [sql for sql in cards if '"claims_claim"."search_context"' in sql]
