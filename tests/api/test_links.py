"""A claim's public links in the API: on every claim, in a fixed number of queries."""

import pytest

from claims.models import Claim
from episodes.models import Status
from tests.factories import link_every_claim, make_claim, make_episode, make_ledger, make_link

pytestmark = pytest.mark.django_db


@pytest.fixture
def linked():
    episode = make_episode()
    first, second = make_claim(episode, number=1), make_claim(episode, number=2)
    make_link(second, first, "contradicts", note="Not so.")
    return first, second


def test_a_claim_lists_its_links_read_from_its_side(client, linked):
    first, second = linked

    data = client.get(f"/api/v1/claims/{first.pk}/").json()

    assert data["links"] == [
        {
            "relation": "contradicts",
            "wording": "contradicted by",
            "claim_id": second.pk,
            "claim_url": f"http://testserver{second.get_absolute_url()}",
            "note": "Not so.",
        }
    ]


def test_the_linking_claim_reads_the_link_forward(client, linked):
    first, second = linked

    data = client.get(f"/api/v1{second.get_absolute_url()}").json()

    assert [(link["wording"], link["claim_id"]) for link in data["links"]] == [
        ("contradicts", first.pk)
    ]


def test_the_claims_list_gives_each_claim_its_links(client, linked):
    results = client.get("/api/v1/claims/", {"order": "oldest"}).json()["results"]

    assert [[link["wording"] for link in claim["links"]] for claim in results] == [
        ["contradicted by"],
        ["contradicts"],
    ]


def test_a_link_to_a_draft_is_in_no_claims_json(client, linked):
    first, second = linked
    Claim.objects.filter(pk=first.pk).update(status=Status.DRAFT)

    assert client.get(f"/api/v1/claims/{second.pk}/").json()["links"] == []


def test_an_episodes_ledger_gives_each_claim_its_links(client, linked):
    first, _ = linked

    data = client.get(f"/api/v1{first.episode.get_absolute_url()}").json()

    assert [len(claim["links"]) for claim in data["claims"]] == [1, 1]


@pytest.mark.parametrize("size", [(2, 3, 2), (8, 12, 5)], ids=["small", "larger"])
def test_the_claims_list_query_count_holds_with_links(client, size, django_assert_num_queries):
    make_ledger(*size)
    link_every_claim(list(Claim.objects.order_by("episode__air_date", "number")))
    # as tests/api/test_query_counts.py: the version, the count with its facets, the type
    # facet, the page, the page's links and the claims at their other ends, its topics
    # and its references
    with django_assert_num_queries(8):
        response = client.get("/api/v1/claims/", {"type": "evaluation"})
    assert any(claim["links"] for claim in response.json()["results"])


def test_the_claims_list_counts_the_claims_in_a_contradiction(client, linked):
    make_claim()

    assert client.get("/api/v1/claims/").json()["facets"]["contradictions"] == 2
