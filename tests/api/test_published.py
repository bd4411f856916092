"""Published means published: drafts and retracted words never leave through the API or a download."""

import json

import pytest

from episodes.models import Episode, Status
from tests.factories import make_claim, make_episode, make_podcast, make_speaker

pytestmark = pytest.mark.django_db

SECRETS = ("draftword", "drafteepisodeword", "retractedword")


@pytest.fixture
def ledger(db):
    podcast = make_podcast(slug="example-show")
    ada = make_speaker(slug="ada-example")
    episode = make_episode(podcast, slug="pilot")
    make_claim(episode, ada, number=1, type="belief", excerpt="The public words.")
    make_claim(episode, ada, number=2, type="prediction", excerpt="draftword", status=Status.DRAFT)
    make_claim(episode, ada, number=3, type="prediction", excerpt="retractedword").retract("Wrong.")
    hidden = make_episode(podcast, slug="hidden", status=Status.DRAFT, title="drafteepisodeword")
    make_claim(
        hidden, make_speaker(slug="only-in-drafts"), type="prediction", excerpt="drafteepisodeword"
    )
    return episode


def read(client, path):
    """(status, body); a list's links to itself, which repeat the query asked, left out."""
    response = client.get(path)
    if response.streaming:
        return response.status_code, b"".join(response.streaming_content).decode()
    if response["Content-Type"] != "application/json":
        return response.status_code, response.content.decode()
    body = response.json()
    if isinstance(body, dict):
        body = {key: value for key, value in body.items() if key not in ("url", "next")}
    return response.status_code, json.dumps(body)


PUBLIC = [
    "/api/v1/claims/",
    "/api/v1/claims/?type=prediction",
    "/api/v1/claims/?q=draftword+OR+drafteepisodeword+OR+retractedword+OR+public",
    "/api/v1/claims/?q=public&highlight=1",
    "/api/v1/episodes/",
    "/api/v1/episodes/?q=drafteepisodeword",
    "/api/v1/episodes/example-show/pilot/",
    "/api/v1/speakers/",
    "/api/v1/speakers/ada-example/",
    "/api/v1/podcasts/",
    "/api/v1/stats/",
    "/claims.csv",
    "/claims.json?q=draftword+OR+drafteepisodeword+OR+retractedword+OR+public",
    "/episodes/example-show/pilot/claims.csv",
    "/speakers/ada-example/claims.json",
    "/podcasts/example-show/claims.csv",
]


@pytest.mark.parametrize("path", PUBLIC)
def test_no_draft_or_retracted_words_anywhere(client, ledger, path):
    status, content = read(client, path)

    assert status == 200
    assert not [secret for secret in SECRETS if secret in content]


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/episodes/example-show/hidden/",
        "/api/v1/episodes/example-show/pilot/claims/2/",
        "/api/v1/speakers/only-in-drafts/",
        "/episodes/example-show/hidden/claims.csv",
        "/speakers/only-in-drafts/claims.csv",
    ],
)
def test_drafts_have_no_address(client, ledger, path):
    assert read(client, path)[0] == 404


@pytest.mark.parametrize(
    "query",
    ["speaker=only-in-drafts", "episode={hidden}", "type=prediction&speaker=only-in-drafts"],
)
def test_a_filter_cannot_name_a_draft(client, ledger, query):
    hidden = Episode.objects.get(slug="hidden").pk
    assert client.get(f"/api/v1/claims/?{query.format(hidden=hidden)}").status_code == 400


def test_every_count_counts_the_public_claim_only(client, ledger):
    claims = client.get("/api/v1/claims/?type=prediction").json()
    episode = client.get("/api/v1/episodes/example-show/pilot/").json()
    listed = client.get("/api/v1/episodes/").json()
    speaker = client.get("/api/v1/speakers/ada-example/").json()

    assert (claims["count"], claims["results"]) == (0, [])
    assert (episode["claim_count"], episode["claim_mix"]) == (1, [{"type": "belief", "count": 1}])
    assert [e["claim_count"] for e in listed["results"]] == [1]
    assert (speaker["claim_count"], speaker["claim_mix"]) == (1, [{"type": "belief", "count": 1}])
    assert client.get("/api/v1/podcasts/").json()["results"][0]["claim_count"] == 1
    assert client.get("/api/v1/stats/").json()["claim_count"] == 1


def test_facets_count_the_public_claim_only(client, ledger):
    facets = client.get("/api/v1/claims/").json()["facets"]

    assert facets["type"] == [{"value": "belief", "count": 1, "chosen": False}]
    assert [(f["value"], f["count"]) for f in facets["speaker"]] == [("ada-example", 1)]
    assert [(f["value"], f["count"]) for f in facets["podcast"]] == [("example-show", 1)]
