"""Linking claims in the admin: inlines on the claim's page, both ways, with autocomplete."""

import pytest

from claims.models import ClaimLink
from tests.claims.admin_forms import claim_change_form, links_formset
from tests.factories import make_claim, make_episode, make_link

CLAIMS = "/admin/claims/claim/"


@pytest.fixture
def two_claims(db):
    episode = make_episode(title="Testing Carefully")
    return make_claim(episode, excerpt="Prices will fall."), make_claim(episode)


def test_the_claim_page_shows_its_links_both_ways(editor_client, two_claims):
    first, second = two_claims
    make_link(second, first, "contradicts", note="Plainly opposed.")

    html = editor_client.get(f"{CLAIMS}{first.pk}/change/").content.decode()

    assert 'id="links_from-group"' in html
    assert 'id="links_to-group"' in html
    # The link made from the other claim, on this claim's page, with the other claim named.
    assert 'name="links_to-0-from_claim"' in html
    assert "Plainly opposed." in html
    assert f'<option value="{second.pk}" selected>{second}</option>' in html


def test_an_editor_links_a_claim_to_another_from_its_page(editor_client, two_claims):
    first, second = two_claims
    data = claim_change_form(
        first, **links_formset("links_from", [("contradicts", second, "A reversal.")])
    )

    response = editor_client.post(f"{CLAIMS}{first.pk}/change/", data)

    assert response.status_code == 302
    link = ClaimLink.objects.get()
    assert (link.from_claim, link.relation, link.to_claim, link.note) == (
        first,
        "contradicts",
        second,
        "A reversal.",
    )


def test_a_link_from_a_claim_to_itself_is_refused_with_a_reason(editor_client, two_claims):
    first, _ = two_claims
    data = claim_change_form(first, **links_formset("links_from", [("supports", first, "")]))

    response = editor_client.post(f"{CLAIMS}{first.pk}/change/", data)

    assert response.status_code == 200
    assert "A claim cannot be linked to itself." in response.content.decode()
    assert not ClaimLink.objects.exists()


def test_a_link_the_other_claim_already_made_is_refused_with_a_reason(editor_client, two_claims):
    first, second = two_claims
    make_link(second, first, "repeats")
    data = claim_change_form(first, **links_formset("links_from", [("repeats", second, "")]))
    data.update({"links_to-TOTAL_FORMS": 0, "links_to-INITIAL_FORMS": 0})

    response = editor_client.post(f"{CLAIMS}{first.pk}/change/", data)

    assert response.status_code == 200
    assert (
        "These two claims are already linked by this relation (in one direction or the other)."
        in response.content.decode()
    )
    assert ClaimLink.objects.count() == 1


def test_the_other_claim_is_found_by_its_words_and_named_by_episode_and_number(
    editor_client, two_claims
):
    first, _ = two_claims

    response = editor_client.get(
        "/admin/autocomplete/",
        {
            "app_label": "claims",
            "model_name": "claimlink",
            "field_name": "to_claim",
            "term": "Prices",
        },
    )

    assert response.json()["results"] == [
        {"id": str(first.pk), "text": "Testing Carefully · 01 — “Prices will fall.”"}
    ]


def test_the_autocomplete_names_a_page_of_claims_in_a_fixed_number_of_queries(
    editor_client, django_assert_max_num_queries, db
):
    for _ in range(3):
        episode = make_episode()
        for _ in range(8):
            make_claim(episode)
    params = {"app_label": "claims", "model_name": "claimlink", "field_name": "to_claim"}
    # session, user, permissions (2), the page of claims with their episodes, and the count
    with django_assert_max_num_queries(7):
        response = editor_client.get("/admin/autocomplete/", {**params, "term": "exact"})
    assert len(response.json()["results"]) == 20


def test_the_same_new_link_entered_twice_is_refused_with_a_reason(editor_client, two_claims):
    first, second = two_claims
    twice = [("supports", second, ""), ("supports", second, "again")]
    data = claim_change_form(first, **links_formset("links_from", twice))

    response = editor_client.post(f"{CLAIMS}{first.pk}/change/", data)

    assert response.status_code == 200
    assert "The same two claims are linked twice by the same relation." in (
        response.content.decode()
    )
    assert not ClaimLink.objects.exists()
