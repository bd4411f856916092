"""Listings carry only what a card shows: never an episode's transcript."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import make_claim, make_episode

# Of the order of a real 90-minute episode's, holding the factory's first three excerpts.
TRANSCRIPT = "Words of a long conversation. " * 3000 + " ".join(
    f"An exact excerpt, number {n}, as it was said." for n in (1, 2, 3)
)


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
def test_listing_pages_never_select_the_transcript(client, episode, page):
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
    # The transcripts' table; a claim's own transcript_start and _end are small numbers.
    assert not [sql for sql in statements if '"episodes_transcript"' in sql]


def test_the_claim_cards_show_the_verbatim_check_without_the_transcript(client, episode):
    response = client.get(episode.get_absolute_url())

    assert response.content.decode().count("verified verbatim") == 3
