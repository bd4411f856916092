"""A claim's timestamp opens the original at that moment, when the host can."""

import pytest

from claims.moments import clock, moment_url
from tests.factories import make_claim, make_episode

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("original", "audio", "expected"),
    [
        (
            "https://www.youtube.com/watch?v=abc123",
            "",
            "https://www.youtube.com/watch?v=abc123&t=754s",
        ),
        ("https://youtu.be/abc123?t=9", "", "https://youtu.be/abc123?t=754s"),
        ("https://vimeo.com/12345", "", "https://vimeo.com/12345#t=754s"),
        (
            "https://example.com/episodes/7/",
            "https://example.com/audio/7.mp3",
            "https://example.com/audio/7.mp3#t=754",
        ),
        ("https://example.com/episodes/7/", "", None),
    ],
    ids=["youtube", "youtu.be", "vimeo", "audio-file", "neither"],
)
def test_the_moment_link_suits_the_host(original, audio, expected):
    assert moment_url(original, audio, 754) == expected


@pytest.mark.parametrize(("seconds", "shown"), [(5, "0:05"), (754, "12:34"), (3723, "1:02:03")])
def test_a_timestamp_reads_as_a_clock(seconds, shown):
    assert clock(seconds) == shown


def test_the_claim_card_links_its_timestamp_to_the_moment(client):
    episode = make_episode(audio_url="https://example.com/audio/pilot.mp3")
    make_claim(episode, timestamp=754)

    html = client.get(episode.get_absolute_url()).content.decode()

    assert (
        '<dt>At</dt><dd><a href="https://example.com/audio/pilot.mp3#t=754" rel="external noopener">'
        '12:34<span class="visually-hidden"> in the original</span>'
    ) in html


def test_a_timestamp_the_host_cannot_open_is_shown_as_a_time(client):
    episode = make_episode(original_url="https://example.com/episodes/pilot/")
    make_claim(episode, timestamp=754)

    html = client.get(episode.get_absolute_url()).content.decode()

    assert "<dt>At</dt><dd>12:34</dd>" in html


def test_a_claim_without_a_timestamp_shows_no_time(client):
    episode = make_episode()
    make_claim(episode)

    assert "<dt>At</dt>" not in client.get(episode.get_absolute_url()).content.decode()
