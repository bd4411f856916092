"""A search's counts past the cap: its facets count its newest matches, however the
database hands them over (claims.search_sample on PostgreSQL).

A search's count stops at 1,000 in production, and its facets count the newest 1,000;
these tests lower them to 5 and 4.
"""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from claims import search_sample
from claims.browse import ClaimSearch
from tests.claims.test_capped_counts import ledger_count
from tests.factories import make_claim, make_episode

URL = reverse("claims:claim_list")


@pytest.fixture
def open_source(db):
    """Eight claims saying "open source", added oldest first: the two newest are
    predictions, the rest evaluations; then three newer claims that don't say it."""
    for n in range(8):
        make_claim(
            make_episode(),
            type="prediction" if n >= 6 else "evaluation",
            excerpt=f"Open source won the day, number {n}.",
        )
    for n in range(3):
        make_claim(make_episode(), excerpt=f"Closed doors, number {n}.")


def type_counts(response):
    html = response.content.decode()
    return dict(
        re.findall(r'<label for="type-(\w+)">\w+ <span class="facet-count">(\d+)</span>', html)
    )


@pytest.mark.parametrize("q", ['"open source"', "open source", "open OR source"])
def test_a_search_past_the_cap_counts_its_facets_among_its_newest_matches(
    client, open_source, cap, q
):
    response = client.get(URL, {"q": q})

    # On PostgreSQL words any of which will do are sampled by the dates the claims keep,
    # words together from the newest ids (ClaimSearch.samples_by_air_date).
    by_date = connection.vendor == "postgresql" and q == "open OR source"
    newest = "aired" if by_date else "added"
    assert ledger_count(response) == "5+"
    assert (
        f"Counts among the 4 most recently {newest} matching claims." in response.content.decode()
    )
    # The four newest matches: two predictions, two evaluations (the first six read in
    # the order the table holds them would give four evaluations).
    assert type_counts(response) == {"evaluation": "2", "prediction": "2"}


@pytest.mark.parametrize("q", ['"open source"', "open source"])
def test_a_count_that_stops_where_the_sample_does_counts_the_newest_matches(
    client, open_source, cap, monkeypatch, q
):
    # As in production, where both are 1,000: the matches read for the count are the sample.
    monkeypatch.setattr(ClaimSearch, "search_count_cap", 4)

    response = client.get(URL, {"q": q})

    assert ledger_count(response) == "4+"
    assert "Counts among the 4 most recently added matching claims." in response.content.decode()
    assert type_counts(response) == {"evaluation": "2", "prediction": "2"}


def test_as_many_matches_as_the_cap_are_counted_exactly(client, open_source, cap, monkeypatch):
    monkeypatch.setattr(ClaimSearch, "search_count_cap", 8)

    response = client.get(URL, {"q": '"open source"'})

    assert ledger_count(response) == "8"
    assert "Counts among the 4 most recently added matching claims." in response.content.decode()


@pytest.mark.parametrize("walked", [False, True])
@pytest.mark.parametrize("windows", [(1, 2), (3, 5), (20, 40)])
def test_the_newest_matches_are_found_whatever_the_windows_hold(
    client, open_source, cap, monkeypatch, windows, walked
):
    # (1, 2): both windows hold only the claims that don't match, and the rest is read;
    # (3, 5): the wider window holds two matches, the rest two more; (20, 40): all.
    monkeypatch.setattr(search_sample, "WINDOW", windows[0])
    monkeypatch.setattr(search_sample, "WIDER_WINDOW", windows[1])
    if walked:
        walk_the_first_window(monkeypatch)

    response = client.get(URL, {"q": '"open source"'})

    assert type_counts(response) == {"evaluation": "2", "prediction": "2"}


def test_a_search_below_the_cap_counts_every_match_exactly(client, open_source, cap):
    response = client.get(URL, {"q": '"source won the day, number 7"'})

    assert ledger_count(response) == "1"
    assert type_counts(response) == {"prediction": "1"}
    assert "Counts among the" not in response.content.decode()


def test_a_facet_in_use_counts_the_newest_matches_of_the_other_filters(client, open_source, cap):
    response = client.get(URL, {"q": '"open source"', "type": "evaluation"})

    assert ledger_count(response) == "5+"
    # The type facet counts what every other filter allows: the search's newest four.
    assert type_counts(response) == {"evaluation": "2", "prediction": "2"}


def test_words_together_are_read_from_the_newest_ids_and_one_word_by_the_claims_dates(
    client, open_source, cap
):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite's full-text index hands its matches over newest first")

    def matches_sql(q):
        with CaptureQueriesContext(connection) as queries:
            client.get(URL, {"q": q})
        return next(query["sql"] for query in queries if "WITH matches" in query["sql"])

    together = matches_sql('"open source"')
    one_word = matches_sql("source")

    matches = together[: together.index(", sample AS")]
    assert "WHERE c_pk > " in matches and "ORDER BY c_pk DESC LIMIT 6" in matches
    assert 'ORDER BY "claims_claim"."air_date" DESC' in one_word and "c_pk >" not in one_word


def walk_the_first_window(monkeypatch, break_even=1e-9):
    """The newest 5 claims probed (3 that don't match, then 2 that do), and the first
    window walked if at least ceil(5 * sqrt(break_even / the newest id)) of them match."""
    monkeypatch.setattr(search_sample, "PROBE", 5)
    monkeypatch.setattr(search_sample, "MOST_COMMON_SHARE", 1)
    monkeypatch.setattr(search_sample, "WALK_BREAK_EVEN", break_even)


def first_window_read(client, q):
    """The page for `q`, and which ways its first window's matches were read: {"walked":
    bool, "indexed": bool}, from PostgreSQL's account of running the counting query."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(URL, {"q": q})
    sql = next(query["sql"] for query in queries if "WITH matches" in query["sql"])
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + sql)
        plan = cursor.fetchone()[0][0]["Plan"]
    read, nodes = {}, [plan]
    while nodes:
        node = nodes.pop()
        nodes += node.get("Plans", [])
        gate = node.get("One-Time Filter", "")
        if "$" in gate:  # the probe's answer: NOT it gates the index's branch
            way = "indexed" if gate.startswith("(NOT") else "walked"
            read[way] = any(child["Actual Loops"] for child in node.get("Plans", []))
    return response, read


@pytest.mark.parametrize("q", ['"open source"', "open source"])
def test_words_most_of_the_newest_claims_hold_are_found_by_walking_them(
    client, open_source, cap, monkeypatch, q
):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite's full-text index hands its matches over newest first")
    walk_the_first_window(monkeypatch)

    response, read = first_window_read(client, q)

    assert read == {"walked": True, "indexed": False}
    assert ledger_count(response) == "5+"
    assert type_counts(response) == {"evaluation": "2", "prediction": "2"}


@pytest.mark.parametrize("q", ['"open source"', "open source"])
def test_words_too_few_of_the_newest_claims_hold_are_found_from_the_index(
    client, open_source, cap, monkeypatch, q
):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite's full-text index hands its matches over newest first")
    # 4 of the newest 5 must match; 2 do.
    walk_the_first_window(monkeypatch, break_even=search_sample.newest_id() / 2)

    response, read = first_window_read(client, q)

    assert read == {"walked": False, "indexed": True}
    assert ledger_count(response) == "5+"
    assert type_counts(response) == {"evaluation": "2", "prediction": "2"}


def test_how_many_of_the_newest_claims_must_hold_the_words_falls_as_the_ledger_grows():
    # Of the newest 1,000: 6.4% at a million claims ("open source", 3%, is read from the
    # index), 2% at ten million (it is walked); a small ledger never walks.
    assert search_sample._walks_from(1_000_000) == 64
    assert search_sample._walks_from(10_000_000) == 20
    assert search_sample._walks_from(3_000) > search_sample.PROBE


@pytest.mark.parametrize(("newest_id", "probed"), [(1_000_000, False), (10_000_000, True)])
def test_only_a_large_ledger_asks_how_many_of_its_newest_claims_hold_the_words(newest_id, probed):
    # Past 1.6 million claims, where words a twentieth of the claims hold are walked.
    assert search_sample._probed(newest_id) is probed


def test_a_ledger_too_small_to_walk_is_not_asked(client, open_source, cap):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite's full-text index hands its matches over newest first")

    response, read = first_window_read(client, '"open source"')

    assert read == {}
    assert type_counts(response) == {"evaluation": "2", "prediction": "2"}
