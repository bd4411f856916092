"""Parity: the claims browser, the API and the downloads list the same claims in the same order.

For each combination of the browser's parameters, the ids of every page of the
HTML browser, of every page of the API (followed by its cursors) and the rows of
the CSV and JSON downloads must be the same list.
"""

import csv
import datetime
import io
import json
import re

import pytest

from claims.models import Attribution
from tests.factories import make_claim, make_episode, make_ledger

pytestmark = pytest.mark.django_db

WORDS = [
    "Zeppelins will carry freight again.",
    "Airship freight is a fantasy.",
    "I predicted the zeppelin revival.",
    "Nobody wants airships.",
    "Freight by zeppelin, by airship, by anything.",
]


@pytest.fixture
def ledger(db):
    """Eight episodes of 7 claims over two podcasts, and some claims worth searching."""
    made = make_ledger(8, 7, 3)
    for n, words in enumerate(WORDS):
        episode = made.episodes[n]
        if n % 2:
            make_claim(
                episode, attribution=Attribution.UNRESOLVED, excerpt=words, type="prediction"
            )
        else:
            make_claim(episode, made.speakers[n % 3], excerpt=words, type="belief")
    # Same air date as another episode: ties are broken the same way everywhere.
    twin = make_episode(made.podcasts[0], air_date=made.episodes[3].air_date)
    make_claim(twin, made.speakers[0], excerpt="A twin episode's zeppelin.")
    return made


def combinations(ledger):
    podcast, other = (p.slug for p in ledger.podcasts)
    speaker = ledger.speakers[0].slug
    episode = ledger.episodes[2].pk
    start = ledger.episodes[0].air_date
    day3, day5 = start + datetime.timedelta(days=3), start + datetime.timedelta(days=5)
    return [
        "",
        "order=oldest",
        "order=newest",
        "type=prediction",
        "type=prediction&type=belief",
        "type=commitment&type=disagreement&order=oldest",
        f"speaker={speaker}",
        f"speaker={speaker}&order=oldest",
        f"podcast={podcast}",
        f"podcast={other}&type=evaluation&attribution=identified",
        f"episode={episode}",
        f"episode={episode}&order=oldest",
        "attribution=unresolved",
        "attribution=identified&type=belief",
        f"aired_from={day3}",
        f"aired_to={day3}",
        f"aired_from={day3}&aired_to={day5}",
        f"aired_from={day3}&aired_to={day5}&order=oldest",
        "q=zeppelin",
        "q=zeppelins&order=newest",
        "q=zeppelin&order=oldest",
        "q=%22airship+freight%22",
        "q=zeppelin+OR+airship",
        "q=freight+-fantasy",
        "q=predicted",
        "q=prediction",
        "q=the",
        "q=-zeppelin",
        "q=excerpt",
        "q=excerpt&order=oldest",
        "q=excerpt&order=relevance",
        f"q=excerpt&podcast={podcast}",
        f"q=zeppelin&speaker={speaker}",
        "q=zeppelin&type=prediction",
        f"q=exact&aired_to={day5}&type=evaluation",
        f"q=freight&attribution=unresolved&aired_from={day3}",
    ]


def html_ids(client, query):
    ids, page = [], 1
    while True:
        html = client.get(f"/claims/?{query}&page={page}").content.decode()
        ids += [int(pk) for pk in re.findall(r'<article class="claim" id="result-(\d+)"', html)]
        if 'rel="next"' not in html:
            return ids
        page += 1


def api_ids(client, query):
    ids, url = [], f"/api/v1/claims/?{query}&page_size=15"
    while url:
        body = client.get(url).json()
        ids += [claim["id"] for claim in body["results"]]
        url = body["next"]
    return ids


def csv_ids(client, query):
    text = b"".join(client.get(f"/claims.csv?{query}").streaming_content).decode()
    return [int(row["id"]) for row in csv.DictReader(io.StringIO(text))]


def json_ids(client, query):
    text = b"".join(client.get(f"/claims.json?{query}").streaming_content).decode()
    return [claim["id"] for claim in json.loads(text)["claims"]]


def test_the_corpus_is_large_and_its_answers_varied(client, ledger):
    corpus = combinations(ledger)
    sizes = {len(html_ids(client, query)) for query in corpus}

    assert len(corpus) >= 30
    assert 0 in sizes and max(sizes) > 40 and len(sizes) > 10


def test_browser_api_and_downloads_list_the_same_claims_in_the_same_order(client, ledger):
    for query in combinations(ledger):
        shown = html_ids(client, query)
        assert api_ids(client, query) == shown, query
        assert csv_ids(client, query) == shown, query
        assert json_ids(client, query) == shown, query
