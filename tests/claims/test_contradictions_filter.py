"""The claims browser's contradictions filter (?contradictions=only), its count, and the
same filter in the API and the downloads."""

import csv
import io
import re

import pytest
from django.db import connection
from django.http import QueryDict
from django.urls import reverse

from claims.browse import ClaimSearch
from claims.models import Claim
from episodes.models import Status
from tests.claims.plans import plan
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
    draft = make_claim(episode, number=9, status=Status.DRAFT, excerpt="Claim 9 speaks.")
    make_link(public[7], draft, "contradicts")
    in_a_draft_episode = make_claim(make_episode(status=Status.DRAFT), excerpt="Claim 0 speaks.")
    make_link(public[8], in_a_draft_episode, "contradicts")
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


def shown_numbers(client):
    """The claims shown oldest first; newest first, the same claims are shown."""
    shown = {}
    for order in ("oldest", "newest"):
        response = client.get(URL, {"contradictions": "only", "order": order})
        numbers = [int(n) for n in re.findall(r"Claim (\d) speaks", response.content.decode())]
        assert shown_count(response) == facet_count(response) == len(numbers)
        shown[order] = numbers
    assert sorted(shown["newest"]) == sorted(shown["oldest"])
    return shown["oldest"]


def test_a_retraction_takes_the_contradiction_off_both_claims(client, claims):
    claims[2].retract("Said by someone else.")

    assert shown_numbers(client) == [3, 4]


def test_publishing_the_draft_at_one_end_puts_both_claims_in_it(client, claims):
    draft = Claim.objects.get(number=9)
    draft.status = Status.PUBLISHED
    draft.save()

    assert shown_numbers(client) == [1, 2, 3, 4, 7, 9]


def publish_the_draft_episode(claims):
    episode = claims[8].links_from.get().to_claim.episode
    episode.status = Status.PUBLISHED
    episode.save()
    return episode


def test_publishing_the_episode_at_one_end_puts_both_claims_in_it(client, claims):
    publish_the_draft_episode(claims)

    assert shown_numbers(client) == [1, 2, 3, 4, 8, 0]


def test_unpublishing_the_episode_at_one_end_takes_both_claims_out(client, claims):
    episode = publish_the_draft_episode(claims)
    episode.status = Status.DRAFT
    episode.save()

    assert shown_numbers(client) == [1, 2, 3, 4]


def test_an_unlinked_contradiction_leaves_both_claims(client, claims):
    claims[1].links_from.get().delete()

    assert shown_numbers(client) == [3, 4]


def test_a_link_pointed_at_another_claim_moves_the_contradiction(client, claims):
    link = claims[1].links_from.get()
    link.to_claim = claims[6]
    link.save()

    assert shown_numbers(client) == [1, 3, 4, 6]


def test_a_link_that_no_longer_contradicts_leaves_both_claims(client, claims):
    link = claims[4].links_from.get()
    link.relation = "refines"
    link.save()

    assert shown_numbers(client) == [1, 2]


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


@pytest.mark.parametrize(
    "query, searched_by",
    [
        ("contradictions=only", "status=?"),
        ("contradictions=only&type=belief", "status=? AND type=?"),
    ],
)
def test_the_claims_in_a_contradiction_are_counted_from_an_index_of_them(
    claims, query, searched_by
):
    if connection.vendor != "sqlite":
        # PostgreSQL reads an index alone only once the claims are vacuumed.
        pytest.skip("an index-only scan needs the claims vacuumed")
    found = ClaimSearch(QueryDict(query))

    # Counted from an index of them alone, not every public claim read for its flag; and
    # searched by the gate's status (and the type), as SQLite searches claim_status_type:
    # an index of them it could only scan, it passed over for that one (a type of them,
    # at a million claims: 248-269 -> 49-52 ms).
    counted = plan(found.without(None).order_by().values("pk"))
    index = f"USING COVERING INDEX claim_contradiction_type ({searched_by})"
    assert f"SEARCH claims_claim {index}" in counted


@pytest.mark.parametrize(
    "order, by, asked",
    [("newest", "-air_date", False), ("oldest", "episode__air_date", True)],
)
def test_the_claims_in_a_contradiction_are_walked_by_a_date_an_index_orders(
    claims, order, by, asked
):
    found = ClaimSearch(QueryDict(f"contradictions=only&order={order}"))

    ordered = found.ordered(shown=20)
    sql = str(ordered[:20].query)

    # The newest by the date each keeps, from the index of the claims in a contradiction.
    # Asked of the episodes too (the claims keep whether theirs is public), the gate let
    # SQLite walk every published episode instead (at a million: 372 -> 20 ms). The
    # oldest by the episodes' date: no index gives that order by their own date.
    assert ordered.query.order_by[0] == by
    assert ('"episodes_episode"."status" =' in sql) is asked
