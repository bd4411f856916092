"""The same query finds the same claims on SQLite and on PostgreSQL.

One ledger, one list of queries, one expected set of claim numbers each: the
suite runs on both databases (CI runs it on each), so a difference between the
engines fails here. Stop words, markup and compound tokens are where they used
to differ.
"""

from urllib.parse import urlencode

import pytest
from django.http import QueryDict

from claims.browse import ClaimSearch
from claims.models import Attribution
from episodes.models import Status
from tests.factories import make_claim, make_episode, make_podcast, make_speaker

EXCERPTS = {
    1: ("Ada", "I predict that open models will catch up within a year."),
    2: ("Ben", "The prediction markets were wrong about the election."),
    3: ("Ada", "Use reward models sparingly: reward hacking is real."),
    4: (None, "Reward hacking happens when the model games the metric."),
    5: ("Ben", "We observed the models hacking rewards in every environment."),
    6: ("Ada", "The cost of the model is falling fast."),
    7: ("Ben", "To be or not to be is not a forecast."),
    8: ("Ada", "Wrap the answer in <think> tags before you reply."),
    9: ("Ben", "R&D spending doubled, says the &lt;annual&gt; report."),
    10: ("Ada", "GPT-3 was trained on example.com pages."),
    11: ("Ben", "Benchmarks saturate; evaluation is hard."),
    12: ("Ada", "A <b>bold</b> claim &amp; a quiet one."),
    13: (None, "Interest rates will fall next spring."),
}

# (query, the numbers of the claims it finds)
CORPUS = [
    # stemming
    ("predicted", {1, 2}),
    ("prediction", {1, 2}),
    ("models", {1, 3, 4, 5, 6}),
    ("rewards", {3, 4, 5}),
    ("hacking", {3, 4, 5}),
    ("observe", {5}),
    ("falling", {6, 13}),
    ("doubling", {9}),
    ("trains", {10}),
    ("page", {10}),
    ("benchmark", {11}),
    ("REWARD", {3, 4, 5}),
    # phrases
    ('"reward hacking"', {3, 4}),
    ('"open models"', {1}),
    ('"models reward"', set()),
    ('"catch up"', {1}),
    ('"the model"', {1, 3, 4, 5, 6}),
    ('"the model is"', {1, 3, 4, 5, 6}),
    ('"cost of the model"', {6}),
    ('"interest rates"', {13}),
    # OR, exclusion
    ("election OR metric", {2, 4}),
    ("models -reward", {1, 6}),
    ("reward -hacking", set()),
    ('"reward hacking" -caller', {3}),
    ("forecast OR spring OR zebra", {7, 13}),
    ("rates fall", {13}),
    ("zebra", set()),
    # markup and entities are read as plain words
    ("<think>", {8}),
    ("think", {8}),
    ("tags", {8}),
    ("bold", {12}),
    ("<b>bold</b>", {12}),
    ('"b bold b"', {12}),
    ("amp", {12}),
    ("&amp;", {12}),
    ("annual", {9}),
    ("&lt;annual&gt;", {9}),
    ("R&D", {9}),
    ("spending", {9}),
    ("quiet", {12}),
    # compound tokens
    ("gpt-3", {10}),
    ("gpt", {10}),
    ("example.com", {10}),
    ("com", {10}),
    ('"example com"', {10}),
    # speakers, voices and the episode title
    ("ada", {1, 3, 6, 8, 10, 12}),
    ("sample", {2, 5, 7, 9, 11}),
    ('"caller 2"', {4, 13}),
    ("roundup", set(range(1, 14))),
    ("weekly roundup reward", {3, 4, 5}),
    ("ada rates", set()),
]

# Only words too common to search: nothing is looked for, on either database.
TOO_COMMON = ["the", '"the"', "the and of", '"to be or not to be"', "don't", '"at the"', "AT&T"]


@pytest.fixture
def ledger(db):
    speakers = {
        "Ada": make_speaker(name="Ada Example", slug="ada-example"),
        "Ben": make_speaker(name="Ben Sample", slug="ben-sample"),
    }
    episode = make_episode(podcast=make_podcast(name="Example Show"), title="Weekly Roundup")
    for number, (who, excerpt) in EXCERPTS.items():
        if who is None:
            make_claim(
                episode,
                number=number,
                excerpt=excerpt,
                attribution=Attribution.UNRESOLVED,
                unresolved_label="Caller 2",
            )
        else:
            make_claim(episode, speakers[who], number=number, excerpt=excerpt)
    make_claim(episode, speakers["Ada"], number=14, excerpt="A draft reward.", status=Status.DRAFT)
    return episode


def searched(text, order=""):
    return ClaimSearch(QueryDict(urlencode({"q": text, "order": order})))


def found(text, order=""):
    search = searched(text, order)
    return {claim.number for claim in search.ordered()}


@pytest.mark.parametrize(("text", "numbers"), CORPUS, ids=[text for text, _ in CORPUS])
def test_a_query_finds_the_same_claims_on_either_database(ledger, text, numbers):
    assert found(text) == numbers


@pytest.mark.parametrize(("text", "numbers"), CORPUS[::5], ids=[text for text, _ in CORPUS[::5]])
def test_a_query_in_date_order_finds_the_same_claims(ledger, text, numbers):
    # Unranked: SQLite asks the index for ids instead of joining it.
    assert found(text, order="newest") == numbers


@pytest.mark.parametrize("text", TOO_COMMON)
def test_a_query_of_only_common_words_is_too_common_to_search(ledger, text):
    search = searched(text)

    assert list(search.ordered()) == []
    assert search.count == 0
    assert any("too common to search" in problem for problem in search.problems)
