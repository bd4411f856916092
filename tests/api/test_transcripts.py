"""The API says whether an episode's transcript is public, and where; never its text."""

import pytest

from tests.factories import make_episode, make_podcast

pytestmark = pytest.mark.django_db

WORDS = "Ada Example: Secret words of a transcript that is not public."


@pytest.fixture
def episodes(db):
    podcast = make_podcast(slug="example-show")
    return {
        "public": make_episode(
            podcast, slug="public", transcript="Ada: hi.", transcript_public=True
        ),
        "private": make_episode(podcast, slug="private", transcript=WORDS),
        "none": make_episode(podcast, slug="none"),
    }


def transcript_fields(body):
    return {key: body[key] for key in ("transcript_public", "transcript_url")}


def test_an_episode_with_a_public_transcript_gives_its_page(client, episodes):
    body = client.get("/api/v1/episodes/example-show/public/").json()

    assert transcript_fields(body) == {
        "transcript_public": True,
        "transcript_url": "http://testserver/episodes/example-show/public/transcript/",
    }


@pytest.mark.parametrize("slug", ["private", "none"])
def test_an_episode_without_a_public_transcript_gives_no_page(client, episodes, slug):
    body = client.get(f"/api/v1/episodes/example-show/{slug}/").json()

    assert transcript_fields(body) == {"transcript_public": False, "transcript_url": None}


def test_the_list_of_episodes_says_which_transcripts_are_public_without_their_text(
    client, episodes
):
    response = client.get("/api/v1/episodes/")

    listed = {e["slug"]: transcript_fields(e) for e in response.json()["results"]}
    assert listed == {
        "public": {
            "transcript_public": True,
            "transcript_url": "http://testserver/episodes/example-show/public/transcript/",
        },
        "private": {"transcript_public": False, "transcript_url": None},
        "none": {"transcript_public": False, "transcript_url": None},
    }
    assert "Secret words" not in response.content.decode()
    assert "Ada: hi." not in response.content.decode()
