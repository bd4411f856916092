"""Every API endpoint runs a fixed number of queries, whatever the size of the ledger.

Each test runs on a small and on a larger ledger; the pinned count must hold for
both. Each count starts with the ledger's version, read by the page cache for the
ETag; throttling counts in the cache, not the database.
"""

import pytest

from claims.models import Claim
from tests.factories import make_ledger


@pytest.fixture(
    params=[
        pytest.param((2, 3, 2), id="2-episodes-3-claims-2-speakers"),
        pytest.param((8, 12, 5), id="8-episodes-12-claims-5-speakers"),
    ]
)
def ledger(request, db):
    episodes, claims_per_episode, speakers = request.param
    return make_ledger(episodes, claims_per_episode, speakers)


def get(client, path):
    response = client.get(path)
    assert response.status_code == 200, response.content
    return response


def test_claims_list_query_count(client, ledger, django_assert_num_queries):
    # 1. the ledger's version
    # 2. ClaimSearch's count, with the facets not in use (claims/facets.py)
    # 3. the type facet, which is in use, over the claims every other filter allows
    # 4. the page of claims with their episodes, podcasts and speakers
    # 5. and 6. their public links, and the claims at their ends, asked even when there
    #    are none (claims/links.py)
    # 7. and 8. their topics, and the references they name
    with django_assert_num_queries(8):
        get(client, "/api/v1/claims/?type=prediction&page_size=5")


def test_claims_list_with_every_filter_query_count(client, ledger, django_assert_num_queries):
    speaker, podcast = ledger.speakers[0].slug, ledger.podcasts[0].slug
    episode = ledger.episodes[0]
    path = (
        f"/api/v1/claims/?q=exact&type=evaluation&type=belief&speaker={speaker}"
        f"&podcast={podcast}&episode={episode.pk}&attribution=identified"
        f"&aired_from=2024-01-01&aired_to=2030-01-01&highlight=1"
    )
    # 1. the ledger's version
    # 2.-4. the speaker, the podcast and the episode named, each checked to be public
    # 5. ClaimSearch's count (which decides whether to rank) with the facets not in use
    # 6.-9. the type, speaker, podcast and attribution facets, each in use
    # 10. the page of ranked claims with their episodes, podcasts and speakers
    # 11. the highlighted excerpts of that page
    # 12. and 13. the page's public links, and the claims at their ends
    # 14. and 15. their topics, and the references they name
    with django_assert_num_queries(15):
        get(client, path)


def test_claims_list_next_page_query_count(client, ledger, django_assert_num_queries):
    next_page = get(client, "/api/v1/claims/?page_size=2").json()["next"]
    # the ledger's version, its kept count of public claims, every facet over the
    # newest claims, the page after the cursor, its links and the claims at their ends,
    # its claims' topics and the references they name
    with django_assert_num_queries(8):
        get(client, next_page)


def test_claim_detail_query_count(client, ledger, django_assert_num_queries):
    claim = Claim.objects.published().first()
    by_number = "/api/v1" + claim.get_absolute_url()
    # the ledger's version; the claim with its episode, podcast and speaker; its public
    # links and the claims at their ends; its topics; the references it names
    with django_assert_num_queries(6):
        get(client, f"/api/v1/claims/{claim.pk}/")
    with django_assert_num_queries(6):
        get(client, by_number)


def test_episode_detail_query_count(client, ledger, django_assert_num_queries):
    episode = ledger.episodes[-1]
    # 1. the ledger's version
    # 2. the episode with its podcast
    # 3. its published claims with their speakers
    # 4. and 5. the public links of those claims, and the claims at their ends (asked
    #    even when there are none: the count doesn't depend on the links)
    # 6. and 7. their topics, and the references they name
    # 8. its claim mix
    # 9. who appeared on it, with their speakers
    with django_assert_num_queries(9):
        get(client, f"/api/v1/episodes/{episode.podcast.slug}/{episode.slug}/")


def test_episode_list_query_count(client, ledger, django_assert_num_queries):
    # the ledger's version; the podcast named; the count; the page with its counts
    with django_assert_num_queries(4):
        get(client, f"/api/v1/episodes/?podcast={ledger.podcasts[0].slug}&q=example")


def test_speaker_list_query_count(client, ledger, django_assert_num_queries):
    # the ledger's version; the count; the page with claim counts
    with django_assert_num_queries(3):
        get(client, "/api/v1/speakers/?q=ada")


def test_speaker_detail_query_count(client, ledger, django_assert_num_queries):
    # the ledger's version; the speaker with the count, claim mix and roles it keeps
    with django_assert_num_queries(2):
        get(client, f"/api/v1/speakers/{ledger.speakers[0].slug}/")


def test_podcast_list_query_count(client, ledger, django_assert_num_queries):
    # the ledger's version; the podcasts with their kept counts
    with django_assert_num_queries(2):
        get(client, "/api/v1/podcasts/")


def test_stats_query_count(client, ledger, django_assert_num_queries):
    # the ledger's version; the podcasts' kept counts summed; the people counted
    with django_assert_num_queries(3):
        get(client, "/api/v1/stats/")


@pytest.mark.parametrize("path", ["/claims.csv", "/claims.json?q=exact&type=evaluation"])
def test_download_query_count(client, ledger, django_assert_num_queries, path):
    # the ledger's version; with a search, the count that decides whether to rank, with
    # its facets, and the type facet (in use); every claim, in batches, each batch
    # with its claims' topics and the references they name
    with django_assert_num_queries(6 if "q=" in path else 4):
        response = get(client, path)
        b"".join(response.streaming_content)
