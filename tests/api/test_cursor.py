"""The claims list pages by cursor: stable while claims are published, capped in size."""

import datetime

import pytest

from claims.models import Claim
from tests.factories import make_claim, make_episode, make_speaker

pytestmark = pytest.mark.django_db


@pytest.fixture
def episodes(db):
    made = [make_episode() for _ in range(4)]
    for episode in made:
        for _ in range(3):
            make_claim(episode)
    return made


def walk(client, url):
    ids = []
    while url:
        body = client.get(url).json()
        ids += [claim["id"] for claim in body["results"]]
        url = body["next"]
    return ids


def test_a_claim_published_while_paging_shifts_nothing(client, episodes):
    everything = walk(client, "/api/v1/claims/?page_size=5")
    first = client.get("/api/v1/claims/?page_size=5").json()
    # Newer than the page already read, and in the middle of its episode's ledger.
    make_claim(episodes[-1], number=10)
    make_claim(make_episode())

    rest = walk(client, first["next"])

    assert [c["id"] for c in first["results"]] + rest == everything


@pytest.mark.parametrize("order", ["newest", "oldest"])
def test_every_claim_once_whatever_the_page_size(client, episodes, order):
    whole = walk(client, f"/api/v1/claims/?order={order}&page_size=100")

    assert len(whole) == 12
    for size in (1, 4, 5):
        assert walk(client, f"/api/v1/claims/?order={order}&page_size={size}") == whole


def test_a_speakers_claims_each_come_once_by_the_dates_they_keep(client):
    speaker = make_speaker(slug="ada")
    made = [make_claim(make_episode(), speaker) for _ in range(4)]
    # A claim whose copy of its episode's date went astray (manage.py recount mends it):
    # a speaker's claims are ordered by the copies, so their pages must follow them.
    later = made[-1].episode.air_date + datetime.timedelta(days=365)
    Claim.objects.filter(pk=made[0].pk).update(air_date=later)

    whole = walk(client, "/api/v1/claims/?speaker=ada&page_size=100")

    assert whole == [made[0].pk, made[3].pk, made[2].pk, made[1].pk]
    for size in (1, 3):
        assert walk(client, f"/api/v1/claims/?speaker=ada&page_size={size}") == whole


@pytest.mark.parametrize("size", ["0", "101", "many"])
def test_page_size_is_capped(client, episodes, size):
    response = client.get(f"/api/v1/claims/?page_size={size}")

    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["page_size"]


def test_a_made_up_cursor_is_refused(client, episodes):
    response = client.get("/api/v1/claims/?cursor=not-a-cursor")

    assert response.status_code == 400
    assert response.json()["errors"] == {
        "cursor": ["This cursor is not valid: use the `next` link of a previous page."]
    }


def test_a_cursor_keeps_to_its_order(client, episodes):
    next_page = client.get("/api/v1/claims/?page_size=2&order=newest").json()["next"]

    response = client.get(next_page.replace("order=newest", "order=oldest"))

    assert response.status_code == 400
    assert "start again without it" in response.json()["errors"]["cursor"][0]
