"""The admin's lists run a fixed number of queries, whatever the size of the ledger."""

import pytest

from tests.factories import make_ledger


@pytest.fixture(params=[(2, 3, 2), (8, 12, 5)], ids=["small", "large"])
def ledger(request, db):
    return make_ledger(*request.param)


@pytest.fixture
def editor_client(client, editor):
    client.force_login(editor)
    return client


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
