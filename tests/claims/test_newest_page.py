"""A common word's first pages newest first, read on SQLite from the newest claims
(claims.newest_page): the page every match would give, whichever claims were added last.

The count's cap is lowered to 5 and the facets' sample to the 4 newest matches
(claims/conftest.py), and a page to 2 claims, so that a handful of claims crosses them.
"""

import datetime
import re

import pytest
from django.db import connection
from django.http import QueryDict
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from claims.browse import ClaimSearch
from tests.factories import make_claim, make_episode

URL = reverse("claims:claim_list")


@pytest.fixture
def window(monkeypatch, cap):
    monkeypatch.setattr(ClaimSearch, "per_page", 2)


def shown(response):
    return [claim.excerpt for claim in response.context["page"]]


def asked_the_index_for_newer_ids(queries):
    # Not the highlights' "rowid >= …", which every search's page asks.
    return any(re.search(r"rowid > \d", query["sql"]) for query in queries)


@pytest.fixture
def eight_models(db):
    """Eight claims on models, one an episode, each episode aired after the last."""
    for n in range(8):
        make_claim(make_episode(), excerpt=f"Models, number {n}.")


def test_the_newest_matches_come_from_the_newest_claims(client, window, eight_models):
    make_claim(make_episode(), excerpt="Models, a draft.", status="draft")

    with CaptureQueriesContext(connection) as queries:
        response = client.get(URL, {"q": "models"})

    assert shown(response) == ["Models, number 7.", "Models, number 6."]
    assert asked_the_index_for_newer_ids(queries) == (connection.vendor == "sqlite")


def test_a_later_page_comes_from_the_newest_claims_too(client, window, eight_models):
    response = client.get(URL, {"q": "models", "page": "2"})

    assert shown(response) == ["Models, number 5.", "Models, number 4."]


def test_a_claim_added_long_ago_to_the_newest_episode_is_still_shown_first(client, db, window):
    # Added before the eight below, so below the window, in an episode aired after them all
    # (the factories date each episode a day after the last, from 2026).
    make_claim(make_episode(air_date=datetime.date(2999, 1, 1)), excerpt="Models, aired last.")
    for n in range(8):
        make_claim(make_episode(), excerpt=f"Models, number {n}.")

    response = client.get(URL, {"q": "models"})

    assert shown(response) == ["Models, aired last.", "Models, number 7."]


def test_a_count_that_stops_where_the_sample_does_still_reads_from_the_newest(
    client, window, eight_models, monkeypatch
):
    # As in production, where both are 1,000: the count says 4+, no more than the
    # sample holds, yet more claims match than it.
    monkeypatch.setattr(ClaimSearch, "search_count_cap", 4)

    with CaptureQueriesContext(connection) as queries:
        response = client.get(URL, {"q": "models"})

    assert shown(response) == ["Models, number 7.", "Models, number 6."]
    assert asked_the_index_for_newer_ids(queries) == (connection.vendor == "sqlite")


def test_a_page_deeper_than_the_window_holds_reads_every_match(client, window, eight_models):
    response = client.get(URL, {"q": "models", "page": "3"})

    # The count stops at 5+, so the third page of two holds the fifth newest alone.
    assert shown(response) == ["Models, number 3."]


def test_it_costs_the_queries_a_ranked_page_does(
    window, eight_models, monkeypatch, django_assert_num_queries
):
    # So that the count's size does not change what a page costs: the check that no
    # older claim comes first is asked in the same statement as the page.
    with CaptureQueriesContext(connection) as from_the_newest:
        ClaimSearch(QueryDict("q=models")).page()
    monkeypatch.setattr(ClaimSearch, "search_count_cap", 100)

    # On PostgreSQL both pages' ids come with the count.
    with django_assert_num_queries(len(from_the_newest)):
        page = ClaimSearch(QueryDict("q=models")).page()
    assert not page.paginator.count.capped
