"""The admin's lists run a fixed number of queries, whatever the size of the ledger, and an
episode's page the same number, whatever the episode holds."""

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from claims.models import Attribution, ClaimStatus
from episodes.models import Role
from tests.factories import (
    link_every_claim,
    make_appearance,
    make_claim,
    make_episode,
    make_ledger,
    make_speaker,
)

TRANSCRIPT = "Ada: We moved everything to GRPO last spring.\nBen: It was cheaper than we expected."


@pytest.fixture(params=[(2, 3, 2), (8, 12, 5)], ids=["small", "large"])
def ledger(request, db):
    return make_ledger(*request.param)


def test_claims_changelist_query_count(editor_client, ledger, django_assert_num_queries):
    # 1. the session
    # 2. the user
    # 3-4. the user's own and their groups' permissions
    # 5. the podcasts, for the "By podcast" filter
    # 6. the claims counted up to the cap (claims.pagination.CappedPaginator)
    # 7. the page of claims with their episodes and speakers
    with django_assert_num_queries(7):
        response = editor_client.get("/admin/claims/claim/")
    assert response.status_code == 200


def test_claims_changelist_of_unverified_claims_query_count(
    editor_client, ledger, django_assert_num_queries
):
    # The same seven: the review queue's filter adds none.
    with django_assert_num_queries(7):
        response = editor_client.get(
            "/admin/claims/claim/",
            {"status__exact": "published", "verification__in": "not_found,no_transcript"},
        )
    assert response.status_code == 200


def episode_with_transcript():
    episode = make_episode()
    episode.save_transcript(TRANSCRIPT, [[1, 0], [65, 46]])
    return episode


def busy_episode():
    """Sixty claims, a third of them drafts, half not found in the transcript, every one
    linked to the next; four people on it with claims, and one who said nothing."""
    episode = episode_with_transcript()
    people = [make_speaker() for _ in range(5)]
    for person, role in zip(people, (Role.HOST, *[Role.GUEST] * 4), strict=True):
        make_appearance(episode, person, role)
    claims = [
        make_claim(
            episode,
            speaker=people[number % 4],
            number=number,
            excerpt="It was cheaper" if number % 2 else "Words nobody said.",
            status=ClaimStatus.DRAFT if number % 3 == 0 else ClaimStatus.PUBLISHED,
            attribution=Attribution.UNRESOLVED if number % 7 == 0 else Attribution.IDENTIFIED,
        )
        for number in range(1, 61)
    ]
    link_every_claim(claims)
    return episode


def quiet_episode():
    """One published claim, by an unresolved voice; no draft, nobody listed on it."""
    episode = episode_with_transcript()
    make_claim(episode, attribution=Attribution.UNRESOLVED, excerpt="It was cheaper")
    return episode


def test_an_episode_page_runs_the_same_queries_with_many_claims_and_people_as_with_few(
    editor_client,
):
    counts = {}
    for name, episode in (("busy", busy_episode()), ("quiet", quiet_episode())):
        ContentType.objects.clear_cache()  # as a fresh process finds it, each time
        with CaptureQueriesContext(connection) as queries:
            response = editor_client.get(
                reverse("admin:episodes_episode_change", args=[episode.pk])
            )
        assert response.status_code == 200
        counts[name] = len(queries)

    # Session and user; the episode with its podcast and transcript; the editor's
    # permissions (twice); the drafts with their speakers; the published and retracted
    # claims with theirs; the content types of the episode, its appearances and its
    # claims (the history links'), together; who appeared on it, with their speakers
    # (named and chosen in each row's autocomplete from there); the transcript's
    # captured passages (an episode without a transcript has no panel, and no such
    # query); the podcast's autocomplete.
    assert counts == {"busy": 11, "quiet": 11}
