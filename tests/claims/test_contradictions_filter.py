"""The claims browser's contradictions filter (?contradictions=only), its count, and the
same filter in the API and the downloads."""

import csv
import io
import re

import pytest
from django.http import QueryDict
from django.urls import reverse

from claims.browse import ClaimSearch
from claims.models import Claim
from episodes.models import Status
from tests.factories import link_every_claim, make_claim, make_episode, make_ledger, make_link

URL = reverse("claims:claim_list")


def shown_count(response):
    match = re.search(r'class="ledger-count"[^>]*>(\d+) published claim', response.content.decode())
    return int(match.group(1))


def facet_count(response):
    match = re.search(
        r'Only claims in a contradiction <span class="facet-count">(\d+)</span>',
        response.content.decode(),
    )
    return match and int(match.group(1))


@pytest.fixture
def claims(db):
    """Eight public claims: 1 contradicts 2, 3 is contradicted by 4, 5 supports 6; 7 and 8
    contradict a draft and a claim of a draft episode, which the public cannot see."""
    episode = make_episode()
    public = {n: make_claim(episode, number=n, excerpt=f"Claim {n} speaks.") for n in range(1, 9)}
    make_link(public[1], public[2], "contradicts")
    make_link(public[4], public[3], "contradicts")
    make_link(public[5], public[6], "supports")
    make_link(public[7], make_claim(episode, number=9, status=Status.DRAFT), "contradicts")
    make_link(public[8], make_claim(make_episode(status=Status.DRAFT)), "contradicts")
    return public


def test_the_filter_shows_only_claims_that_contradict_or_are_contradicted(client, claims):
    response = client.get(URL, {"contradictions": "only", "order": "oldest"})

    assert shown_count(response) == 4
    assert re.findall(r"Claim (\d) speaks", response.content.decode()) == ["1", "2", "3", "4"]


def test_the_filter_counts_the_claims_in_a_contradiction_before_it_is_chosen(client, claims):
    response = client.get(URL)

    assert shown_count(response) == 8
    assert facet_count(response) == 4


def test_the_count_stays_beside_the_chosen_filter(client, claims):
    response = client.get(URL, {"contradictions": "only"})

    assert facet_count(response) == 4
    assert 'name="contradictions" value="only" checked' in response.content.decode()


def test_the_count_follows_the_other_filters(client, claims):
    response = client.get(URL, {"q": "Claim 1 speaks"})

    assert facet_count(response) == 1


def test_without_contradictions_the_filter_is_not_offered(client, db):
    make_claim()

    assert "Only claims in a contradiction" not in client.get(URL).content.decode()


def test_a_contradiction_with_a_draft_counts_for_neither_claim(client, claims):
    Claim.objects.filter(pk=claims[2].pk).update(status=Status.DRAFT)

    response = client.get(URL, {"contradictions": "only"})

    assert shown_count(response) == 2
    assert facet_count(response) == 2


def test_a_bogus_value_is_ignored_with_a_message(client, claims):
    response = client.get(URL, {"contradictions": "<b>yes</b>"})

    assert shown_count(response) == 8
    assert (
        "“&lt;b&gt;yes&lt;/b&gt;” is not a contradictions filter (the one choice is “only”), "
        "so it was ignored." in response.content.decode()
    )


@pytest.mark.parametrize("value", ["bogus", "came-true"])
def test_a_bogus_outcome_or_horizon_is_ignored_with_a_message_not_a_failure(client, claims, value):
    response = client.get(URL, {"resolution": value, "due": value})

    assert response.status_code == 200
    assert f"“{value}” is not an outcome" in response.content.decode()
    assert f"“{value}” is not a horizon" in response.content.decode()


def test_the_api_takes_the_same_filter(client, claims):
    response = client.get("/api/v1/claims/", {"contradictions": "only", "order": "oldest"})

    assert [claim["number"] for claim in response.json()["results"]] == [1, 2, 3, 4]


def test_the_api_refuses_a_bogus_value_with_the_reason(client, claims):
    response = client.get("/api/v1/claims/", {"contradictions": "yes"})

    assert response.status_code == 400
    assert response.json()["errors"] == {
        "contradictions": ["“yes” is not a contradictions filter (the one choice is “only”)."]
    }


def test_the_download_takes_the_same_filter(client, claims):
    response = client.get("/claims.csv", {"contradictions": "only", "order": "oldest"})

    body = b"".join(response.streaming_content).decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(body)))
    assert [row["number"] for row in rows] == ["1", "2", "3", "4"]


@pytest.mark.parametrize("size", [(2, 3, 2), (8, 12, 5)], ids=["small", "larger"])
def test_the_filtered_browser_query_count(client, db, size, django_assert_num_queries):
    make_ledger(*size)
    link_every_claim(list(Claim.objects.order_by("episode__air_date", "number")))
    # the ledger's version, for the page cache key and ETag; then
    # 1. the count of matches and every facet not in use, the contradictions' among them
    # 2. the contradictions facet, in use, over the claims every other filter allows
    # 3. the page of claims with episode, podcast and speaker
    with django_assert_num_queries(4):
        response = client.get(URL, {"contradictions": "only"})
    assert shown_count(response) > 0


def test_a_page_asks_each_claim_or_reads_every_contradiction_and_lists_the_same(
    claims, monkeypatch
):
    # Up to ClaimSearch.walked_at_most claims a page asks each claim it walks; past it,
    # it reads the ids of every claim in a contradiction first.
    query = QueryDict("contradictions=only&order=oldest")
    walked = [claim.number for claim in ClaimSearch(query).ordered(shown=20)]
    monkeypatch.setattr(ClaimSearch, "walked_at_most", 0)
    read_first = [claim.number for claim in ClaimSearch(query).ordered(shown=20)]

    assert walked == read_first == [1, 2, 3, 4]
