"""How many speakers and references the pages list: kept in a row each, read by the
home page, the speakers' and references' indexes and the sitemap's index."""

import re
from html import unescape

import pytest

from claims.choices import ClaimStatus
from claims.listed_counts import ListedCount, ListedKind, kept_listed_counts, listed
from tests.claims.plans import plan
from tests.factories import make_appearance, make_claim, make_episode, make_speaker

pytestmark = pytest.mark.django_db


def text_of(response):
    return " ".join(unescape(re.sub(r"<[^>]*>", " ", response.content.decode())).split())


def keep(kind, count):
    ListedCount.objects.filter(kind=kind).update(count=count)


def test_a_published_claim_and_an_appearance_are_counted_as_they_happen():
    episode = make_episode()
    make_claim(episode, speaker=make_speaker(name="Ada Example"))
    make_appearance(episode, make_speaker(name="Ben Host"))
    make_claim(episode, speaker=make_speaker(name="Cy Draft"), status=ClaimStatus.DRAFT)

    assert kept_listed_counts() == {
        ListedKind.SPEAKERS: 2,
        ListedKind.PEOPLE: 1,
        ListedKind.REFERENCES: 0,
    }


def test_a_retraction_takes_its_speaker_out_of_the_people_counted():
    claim = make_claim()
    claim.retract("Misquoted: the host said it.")

    assert kept_listed_counts()[ListedKind.PEOPLE] == 0


def test_the_home_page_shows_the_kept_count_of_people(client):
    make_claim()
    keep(ListedKind.PEOPLE, 1234)

    assert "1234 attributable people" in text_of(client.get("/"))


def test_the_speakers_index_pages_by_the_kept_count(client):
    make_claim()
    keep(ListedKind.SPEAKERS, 1234)

    assert "1234 identified people" in text_of(client.get("/speakers/"))


def test_a_search_of_the_speakers_counts_the_speakers_it_finds(client):
    make_claim(speaker=make_speaker(name="Ada Example"))
    make_claim(speaker=make_speaker(name="Ben Sample"))
    keep(ListedKind.SPEAKERS, 1234)

    text = text_of(client.get("/speakers/?q=ada"))

    assert "1234" not in text
    assert "Ada Example" in text and "Ben Sample" not in text


def test_a_ledger_without_kept_counts_counts_them(client):
    make_claim()
    ListedCount.objects.all().delete()

    assert "1 attributable person" in text_of(client.get("/"))


def test_the_people_are_counted_from_the_speakers_index():
    make_claim(make_episode(), speaker=make_speaker())

    counted = plan(listed(ListedKind.PEOPLE).order_by().values("pk"))

    # Not every speaker read to find those with a public claim.
    assert "speaker_on_record" in counted
    assert "Seq Scan" not in counted and "SCAN episodes_speaker" not in counted
