"""The API's topics and references, and a claim's topics and named references."""

import csv
import io
import json

import pytest

from claims.models import Attribution, ClaimReference, Reference, Role, Topic
from episodes.models import Status
from tests.factories import make_claim, make_ledger, make_speaker

pytestmark = pytest.mark.django_db


@pytest.fixture
def ledger(db):
    testing = Topic.objects.create(name="Testing", slug="testing")
    book = Reference.objects.create(
        kind="book", title="The Careful Deploy", creator="Ada Example", slug="the-careful-deploy"
    )
    ada, ben = make_speaker(slug="ada-example"), make_speaker(slug="ben-sample")
    claim = make_claim(speaker=ada, excerpt="Read The Careful Deploy.")
    claim.topics.add(testing)
    ClaimReference.objects.create(claim=claim, reference=book, role=Role.RECOMMENDS)
    ClaimReference.objects.create(claim=claim, reference=book, role=Role.MENTIONS)
    for speaker in (ben, ben):
        other = make_claim(speaker=speaker)
        ClaimReference.objects.create(claim=other, reference=book, role=Role.RECOMMENDS)
        other.topics.add(testing)
    unresolved = make_claim(attribution=Attribution.UNRESOLVED)
    ClaimReference.objects.create(claim=unresolved, reference=book, role=Role.CRITICISES)
    draft = make_claim(speaker=make_speaker(), status=Status.DRAFT)
    draft.topics.add(testing)
    ClaimReference.objects.create(claim=draft, reference=book, role=Role.USES)
    return {"claim": claim}


def test_a_claim_lists_its_topic_slugs_and_references(client, ledger):
    body = client.get(f"/api/v1/claims/{ledger['claim'].pk}/").json()

    assert body["topics"] == ["testing"]
    assert [(r["role"], r["slug"], r["kind"]) for r in body["references"]] == [
        ("recommends", "the-careful-deploy", "book"),
        ("mentions", "the-careful-deploy", "book"),
    ]
    assert body["references"][0]["url"] == "http://testserver/references/the-careful-deploy/"


def test_a_retracted_claim_lists_no_topics_or_references(client, ledger):
    ledger["claim"].retract("Misheard.")

    body = client.get(f"/api/v1/claims/{ledger['claim'].pk}/").json()

    assert body["topics"] is None and body["references"] is None


def test_topics_count_published_claims_only(client, ledger):
    body = client.get("/api/v1/topics/").json()

    assert [(t["slug"], t["claim_count"]) for t in body["results"]] == [("testing", 3)]
    assert body["url"] == "http://testserver/topics/"


def test_a_topic_has_its_mix_and_people(client, ledger):
    body = client.get("/api/v1/topics/testing/").json()

    assert body["claim_mix"] == [{"type": "evaluation", "count": 3}]
    assert [person["slug"] for person in body["people"]] == ["ada-example", "ben-sample"]


def test_references_count_distinct_people_per_role(client, ledger):
    body = client.get("/api/v1/references/").json()

    reference = body["results"][0]
    assert reference["people_count"] == 2 and reference["claim_count"] == 4
    assert reference["roles"] == [
        {"role": "recommends", "people_count": 2, "by_unresolved_voice": False},
        {"role": "criticises", "people_count": 0, "by_unresolved_voice": True},
        {"role": "mentions", "people_count": 1, "by_unresolved_voice": False},
    ]


def test_a_bogus_reference_filter_is_a_400(client, ledger):
    response = client.get("/api/v1/references/", {"role": "adores"})

    assert response.status_code == 400
    assert "role" in response.json()["errors"]


def test_a_reference_named_only_in_drafts_is_a_404(client, ledger):
    Reference.objects.create(kind="tool", title="Hidden", slug="hidden")

    assert client.get("/api/v1/references/hidden/").status_code == 404


def test_the_claims_facets_count_topics(client, ledger):
    body = client.get("/api/v1/claims/").json()

    assert body["facets"]["topic"] == [{"value": "testing", "label": "Testing", "count": 3}]


def test_the_csv_download_carries_topics_and_references(client, ledger):
    response = client.get("/claims.csv", {"q": "Careful"})
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))

    assert rows[0]["topics"] == "testing"
    assert rows[0]["references"] == "recommends the-careful-deploy\nmentions the-careful-deploy"


def test_the_json_download_carries_topics_and_references(client, ledger):
    response = client.get("/claims.json", {"q": "Careful"})
    claim = json.loads(b"".join(response.streaming_content))["claims"][0]

    assert claim["topics"] == ["testing"]
    assert claim["references"][0] == {"role": "recommends", "slug": "the-careful-deploy"}


@pytest.fixture(params=[(2, 3, 2), (8, 12, 5)], ids=["small", "larger"])
def sized(request):
    ledger = make_ledger(*request.param)
    topic = Topic.objects.create(name="Testing", slug="testing")
    book = Reference.objects.create(kind="book", title="A Book", slug="a-book")
    for claim in ledger.episodes[0].claims.all():
        claim.topics.add(topic)
        ClaimReference.objects.create(claim=claim, reference=book)
    return ledger


@pytest.mark.parametrize(
    ("path", "queries"),
    [
        # the ledger's version; the count; the page of topics with their counts
        ("/api/v1/topics/", 3),
        # the same for references, then who named each reference on the page, and how
        ("/api/v1/references/?role=mentions", 4),
        # the ledger's version; the reference with its counts; who named it, and how
        ("/api/v1/references/a-book/", 3),
    ],
)
def test_topics_and_references_query_count(client, sized, django_assert_num_queries, path, queries):
    with django_assert_num_queries(queries):
        assert client.get(path).status_code == 200


def test_topic_detail_query_count(client, sized, django_assert_num_queries):
    # the ledger's version; the topic with its count; its claim mix; its people
    with django_assert_num_queries(4):
        assert client.get("/api/v1/topics/testing/").status_code == 200
