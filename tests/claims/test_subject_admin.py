"""Topics and references in the admin: their own pages, and on a claim's page."""

import pytest

from claims.models import ClaimReference, Reference, Topic
from ledger.models import current_version
from tests.claims.admin_forms import claim_change_form
from tests.factories import make_claim

pytestmark = pytest.mark.django_db


def test_an_editor_adds_a_topic_with_its_slug_filled_from_its_name(editor_client):
    form = editor_client.get("/admin/claims/topic/add/").content.decode()

    assert "prepopulated_fields" in form or "data-prepopulated-fields" in form
    response = editor_client.post(
        "/admin/claims/topic/add/", {"name": "Testing", "slug": "testing", "description": ""}
    )
    assert response.status_code == 302
    assert Topic.objects.get().name == "Testing"


def test_topics_and_references_are_searchable(editor_client):
    Topic.objects.create(name="Testing", slug="testing")
    Reference.objects.create(kind="book", title="The Careful Deploy", slug="the-careful-deploy")

    topics = editor_client.get("/admin/claims/topic/", {"q": "test"}).content.decode()
    references = editor_client.get("/admin/claims/reference/", {"q": "careful"}).content.decode()

    assert "Testing" in topics
    assert "The Careful Deploy" in references


def test_the_reference_form_refuses_an_address_that_is_not_web(editor_client):
    response = editor_client.post(
        "/admin/claims/reference/add/",
        {"kind": "book", "title": "Bad", "slug": "bad", "creator": "", "url": "javascript:x"},
    )

    assert response.status_code == 200
    assert "Enter a valid URL." in response.content.decode()
    assert not Reference.objects.exists()


def test_the_claim_page_offers_topics_and_references_by_autocomplete(editor_client):
    claim = make_claim()

    html = editor_client.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()

    assert 'name="topics"' in html and "admin-autocomplete" in html
    assert 'name="references_named-__prefix__-reference"' in html
    assert "Named references" in html


def test_an_editor_tags_a_claim_and_names_a_reference_with_its_role(editor_client):
    claim = make_claim()
    topic = Topic.objects.create(name="Testing", slug="testing")
    book = Reference.objects.create(kind="book", title="A Book", slug="a-book")
    before = current_version()

    response = editor_client.post(
        f"/admin/claims/claim/{claim.pk}/change/",
        claim_change_form(
            claim,
            topics=[topic.pk],
            **{
                "references_named-TOTAL_FORMS": 1,
                "references_named-0-reference": book.pk,
                "references_named-0-role": "recommends",
            },
        ),
    )

    assert response.status_code == 302
    assert list(claim.topics.all()) == [topic]
    assert ClaimReference.objects.get().role == "recommends"
    assert current_version() != before


def test_tagging_a_published_claim_moves_the_ledger_version():
    claim, topic = make_claim(), Topic.objects.create(name="Testing", slug="testing")
    before = current_version()

    claim.topics.add(topic)

    assert current_version() != before
