"""Every public page runs a fixed number of queries, whatever the size of the ledger.

Each test runs twice, on a small and on a larger ledger (more episodes, more claims
per episode, more speakers); the pinned count must hold for both. A count that
grows with the data is an N+1 bug in the view or template, not a number to bump.
"""

import pytest
from django.db import connection

from claims.models import Claim
from episodes.models import Role
from tests.factories import make_appearance, make_ledger, make_speaker


@pytest.fixture(
    params=[
        pytest.param((2, 3, 2), id="2-episodes-3-claims-2-speakers"),
        pytest.param((8, 12, 5), id="8-episodes-12-claims-5-speakers"),
    ]
)
def ledger(request, db):
    episodes, claims_per_episode, speakers = request.param
    ledger = make_ledger(episodes, claims_per_episode, speakers)
    # Someone who was on every episode and said nothing on the record.
    quiet = make_speaker()
    for episode in ledger.episodes:
        make_appearance(episode, quiet, Role.OTHER)
    return ledger


def test_home_page_query_count(client, ledger, django_assert_num_queries):
    # the ledger's version, for the page cache key and ETag; then
    # 1. the public podcasts' kept counts, summed: podcasts, episodes and claims
    # 2. count of speakers in the public record, by their kept counts
    # 3. recent episodes with their podcast and public counts
    with django_assert_num_queries(4):
        response = client.get("/")
    assert response.status_code == 200


def test_episode_list_query_count(client, ledger, django_assert_num_queries):
    # the ledger's version, for the page cache key and ETag; then
    # 1. podcasts in the public record with their kept episode counts, for the filter;
    #    summed, they page the list: no episode is counted
    # 2. the page of episodes with their podcast and kept counts
    with django_assert_num_queries(3):
        response = client.get("/episodes/")
    assert response.status_code == 200


def test_episode_list_of_one_podcast_query_count(client, ledger, django_assert_num_queries):
    # the ledger's version, for the page cache key and ETag; then
    # 1. podcasts in the public record with their kept episode counts: the chosen
    #    podcast's pages the list
    # 2. the page of its episodes with their podcast and kept counts
    with django_assert_num_queries(3):
        response = client.get("/episodes/", {"podcast": ledger.podcasts[0].slug, "page": 2})
    assert response.status_code == 200


def test_episode_page_query_count(client, ledger, django_assert_num_queries):
    url = ledger.episodes[-1].get_absolute_url()
    # the ledger's version, for the page cache key and ETag; then
    # 1. the episode with its podcast
    # 2. its published claims with speaker (and episode and podcast, for links)
    # 3. the claim mix
    # 4. who appeared on it, with their speakers
    with django_assert_num_queries(5):
        response = client.get(url)
    assert response.status_code == 200


def test_speaker_list_query_count(client, ledger, django_assert_num_queries):
    # the ledger's version, for the page cache key and ETag; then
    # 1. count of speakers in the public record, for the paginator
    # 2. the page of speakers with the counts and roles they keep (claims.counters):
    #    no episode, claim or appearance is read
    with django_assert_num_queries(3):
        response = client.get("/speakers/")
    assert response.status_code == 200


def test_speaker_page_query_count(client, ledger, django_assert_num_queries):
    url = ledger.speakers[0].get_absolute_url()
    # the ledger's version, for the page cache key and ETag; then
    # 1. the speaker, with what it keeps (claims.counters): the count and mix of their
    #    public claims, their predictions by outcome, their episodes by role and their
    #    moves (none here: tests/claims/test_link_pages.py counts a page with them), so
    #    the paginator, the mix, the track record and the roles count nothing
    # 2. their resolved predictions (the ledger's speakers all made predictions)
    # 3. the page of claims with episode, podcast and speaker
    # 4. the newest episodes they appeared in, in each role, with their episodes
    with django_assert_num_queries(5):
        response = client.get(url)
    assert response.status_code == 200


def test_podcast_list_query_count(client, ledger, django_assert_num_queries):
    # the ledger's version, for the page cache key and ETag; then
    # 1. how many podcasts are in the public record, for the pages
    # 2. the page of them with their kept counts
    with django_assert_num_queries(3):
        response = client.get("/podcasts/")
    assert response.status_code == 200


def test_podcast_page_query_count(client, ledger, django_assert_num_queries):
    url = ledger.podcasts[0].get_absolute_url()
    # the ledger's version, for the page cache key and ETag; then
    # 1. the podcast, with its kept count of published episodes that pages them
    # 2. the page of episodes with their kept counts
    with django_assert_num_queries(3):
        response = client.get(url)
    assert response.status_code == 200


def test_claim_permalink_query_count(client, ledger, django_assert_num_queries):
    url = Claim.objects.published().filter(episode=ledger.episodes[-1]).last().get_absolute_url()
    # the ledger's version, for the page cache key and ETag; then
    # 1. the claim with its episode, podcast and speaker
    # 2. and 3. its public links, and the claims at their ends (asked even when it has none)
    # 4. its topics
    # 5. the references it names, with each reference
    with django_assert_num_queries(6):
        response = client.get(url)
    assert response.status_code == 200


def test_search_query_count(client, ledger, django_assert_num_queries):
    # /search/ redirects here, to the claims browser. With a query:
    # the ledger's version, for the page cache key and ETag; then
    # 1. the matching published claims counted for the paginator, and the
    #    type, speaker, podcast and attribution facets, in one pass
    # 2. the page's claims, ranked, by id (on PostgreSQL, read in the first pass)
    # 3. those claims with their episodes, podcasts and speakers
    # 4. highlights for the claims on the page
    # 5. speakers whose names match
    # 6. episodes whose titles match
    with django_assert_num_queries(7 - (connection.vendor == "postgresql")):
        response = client.get("/claims/", {"q": "excerpt"})
    assert response.status_code == 200
    assert "Claims matching “excerpt”" in response.content.decode()


def test_speaker_list_search_query_count(client, ledger, django_assert_num_queries):
    # the ledger's version, for the page cache key and ETag; then
    # 1. count of speakers in the public record whose names match, for the paginator
    # 2. the page of them with the counts and roles they keep
    with django_assert_num_queries(3):
        response = client.get("/speakers/", {"q": "ada example"})
    assert response.status_code == 200


def test_page_of_a_speaker_without_claims_query_count(client, ledger, django_assert_num_queries):
    quiet = ledger.episodes[0].appearances.get(role=Role.OTHER).speaker
    # the ledger's version, for the page cache key and ETag; then
    # 1. the speaker, with their kept counts of public claims and moves (none) and of
    #    episodes by role
    # 2. the newest episodes they appeared in, in each role, with their episodes
    with django_assert_num_queries(3):
        response = client.get(quiet.get_absolute_url())
    assert response.status_code == 200
