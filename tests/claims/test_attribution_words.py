"""Who said it, in words: an unresolved voice never reads as a person's name."""

import re
from html import unescape

import pytest

from claims.models import Attribution
from tests.factories import make_claim, make_speaker

pytestmark = pytest.mark.django_db


def attribution(response):
    """The claim card's attribution row as (term, words), tags dropped."""
    html = response.content.decode()
    match = re.search(r'<div class="attribution"><dt>(.*?)</dt><dd>(.*?)</dd></div>', html)
    return match[1], unescape(re.sub(r"<[^>]*>", "", match[2]))


def caller_2():
    return make_claim(attribution=Attribution.UNRESOLVED, unresolved_label="Caller 2")


def test_a_card_names_an_unresolved_voice_as_one_with_its_label_in_italics(client):
    claim = caller_2()

    response = client.get(claim.episode.get_absolute_url())

    assert attribution(response) == ("Speaker", "Unresolved voice — Caller 2")
    assert "Unresolved voice — <em>Caller 2</em>" in response.content.decode()


def test_the_label_is_escaped(client):
    claim = make_claim(attribution=Attribution.UNRESOLVED, unresolved_label="<b>Caller</b>")

    html = client.get(claim.episode.get_absolute_url()).content.decode()

    assert "Unresolved voice — <em>&lt;b&gt;Caller&lt;/b&gt;</em>" in html


def test_the_permalink_says_a_voice_is_unresolved_and_not_counted(client):
    claim = caller_2()

    response = client.get(claim.get_absolute_url())

    assert attribution(response) == (
        "Attribution",
        "Unresolved voice — Caller 2 (not counted as a person)",
    )


def test_the_permalink_links_an_identified_speaker(client):
    claim = make_claim(speaker=make_speaker(name="Ada Example", slug="ada-example"))

    response = client.get(claim.get_absolute_url())

    assert attribution(response) == ("Attribution", "Identified speaker: Ada Example")
    assert '<dd>Identified speaker: <a href="/speakers/ada-example/">Ada Example</a>' in (
        response.content.decode()
    )


def test_an_unlabelled_voice_on_the_permalink_reads_unresolved_voice(client):
    claim = make_claim(attribution=Attribution.UNRESOLVED)

    response = client.get(claim.get_absolute_url())

    assert attribution(response) == ("Attribution", "Unresolved voice (not counted as a person)")


def test_the_embed_names_an_unresolved_voice_as_one(client):
    claim = caller_2()
    episode = claim.episode

    html = client.get(
        f"/embed/{episode.podcast.slug}/{episode.slug}/claims/{claim.number}/"
    ).content.decode()

    assert (
        '<p class="embed-source"><span class="voice-unresolved">Unresolved voice — <em>Caller 2</em></span>, in'
        in html
    )


def test_the_permalinks_description_names_an_unresolved_voice_as_one(client):
    claim = caller_2()

    html = client.get(claim.get_absolute_url()).content.decode()

    assert '<meta name="description" content="Unresolved voice — Caller 2 on ' in html
