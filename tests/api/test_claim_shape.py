"""A claim's JSON, written in plain Python (claims.api.serializers.claim_shape), is byte for
byte what ClaimSerializer's declared fields write: the fields stay the documentation
(the OpenAPI schema is read from them), so the two must never drift apart."""

import pytest
from rest_framework import serializers

from claims.api.serializers import VOUCHED_FOR, ClaimSerializer
from claims.models import Attribution, ClaimReference, Reference, Role, Topic
from tests.factories import make_claim, make_episode, make_link, make_podcast, make_speaker

pytestmark = pytest.mark.django_db


def declared_fields(serializer, claim):
    """What DRF writes from the declared fields, as the API wrote before claim_shape."""
    data = serializers.Serializer.to_representation(serializer, claim)
    if claim.is_retracted:
        data.update(dict.fromkeys(VOUCHED_FOR))
    return data


@pytest.fixture
def ledger(db):
    """Every part of a claim's shape, filled and empty."""
    podcast = make_podcast(name="Tom & Jerry's <Show>", slug="tom-and-jerry")
    video = make_episode(
        podcast,
        slug="on-video",
        title="“Quoted” & <b>bold</b>",
        original_url="https://www.youtube.com/watch?v=abc123",
    )
    audio = make_episode(podcast, slug="on-audio", audio_url="https://cdn.example.com/ep.mp3")
    ada = make_speaker(name="Ada <Example>", slug="ada-example")
    timed = make_claim(
        video, ada, type="prediction", excerpt="Zeppelins <return> & stay.", timestamp=754
    )
    timed.topics.add(Topic.objects.create(name="Airships", slug="airships"))
    book = Reference.objects.create(kind="book", title="Lighter <than> Air", slug="lighter")
    ClaimReference.objects.create(claim=timed, reference=book, role=Role.RECOMMENDS)
    ClaimReference.objects.create(claim=timed, reference=book, role=Role.MENTIONS)
    timed.summary = "Airships come back."
    timed.save(correction_note="The summary was missing.")
    make_claim(video, attribution=Attribution.UNRESOLVED, unresolved_label="Caller <2>")
    labelless = make_claim(audio, attribution=Attribution.UNRESOLVED, timestamp=30)
    answer = make_claim(audio, ada, type="belief", excerpt="Zeppelins are done.")
    make_link(answer, timed, "contradicts", note="Changed her mind & said so.")
    make_link(labelless, timed, "supports")
    make_claim(audio, ada, excerpt="Withdrawn zeppelin words.").retract("Misattributed.")
    return {"video": video, "audio": audio}


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/episodes/tom-and-jerry/on-video/",
        "/api/v1/episodes/tom-and-jerry/on-audio/",
        "/api/v1/claims/?order=oldest",
        "/api/v1/claims/?q=zeppelins&highlight=1",
        "/api/v1/episodes/tom-and-jerry/on-audio/claims/3/",
    ],
)
def test_a_claims_json_is_what_the_declared_fields_write(
    client, ledger, monkeypatch, settings, path
):
    settings.PAGE_CACHE_SECONDS = 0  # Both answers are written, neither read from the cache.
    shaped = client.get(path)
    monkeypatch.setattr(ClaimSerializer, "to_representation", declared_fields)
    declared = client.get(path)

    assert shaped.status_code == declared.status_code == 200
    assert shaped.content == declared.content
    assert b'"excerpt"' in shaped.content


def test_every_part_of_the_shape_is_met_by_the_ledger(client, ledger):
    """The comparison above sees each kind of value, not only empty ones."""
    claims = [
        *client.get("/api/v1/episodes/tom-and-jerry/on-video/").json()["claims"],
        *client.get("/api/v1/episodes/tom-and-jerry/on-audio/").json()["claims"],
        client.get("/api/v1/episodes/tom-and-jerry/on-audio/claims/3/").json(),
    ]

    assert [claim["status"] for claim in claims] == [
        "published",
        "published",
        "published",
        "published",
        "retracted",
    ]
    timed, unresolved, labelless, answer, retracted = claims
    assert timed["moment_url"] == "https://www.youtube.com/watch?v=abc123&t=754s"
    assert labelless["moment_url"] == "https://cdn.example.com/ep.mp3#t=30"
    assert [c["changed"] for c in timed["corrections"]] == [["summary"]]
    assert (timed["topics"], len(timed["references"])) == (["airships"], 2)
    assert [link["wording"] for link in timed["links"]] == ["supported by", "contradicted by"]
    assert (unresolved["speaker"], unresolved["voice"]) == (None, "Caller <2>")
    assert retracted["retraction"]["reason"] == "Misattributed."
    assert retracted["excerpt"] is None
