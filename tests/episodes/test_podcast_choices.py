"""The podcasts a filter offers: the largest few by name, and the chosen one wherever it is."""

import pytest

from episodes.models import Status
from episodes.podcast_choices import offered
from tests.factories import make_episode, make_podcast

pytestmark = pytest.mark.django_db


def podcast_with(episodes, name, slug):
    podcast = make_podcast(name=name, slug=slug)
    for _ in range(episodes):
        make_episode(podcast)
    return podcast


@pytest.fixture
def podcasts():
    podcast_with(3, "Zebra Hour", "zebra")
    podcast_with(2, "Alpha Talk", "alpha")
    podcast_with(1, "Middle Show", "middle")
    podcast_with(1, "Tied Show", "tied")
    make_episode(make_podcast(name="Draft Only", slug="draft-only"), status=Status.DRAFT)


def names(offer):
    return [row["name"] for row in offer.podcasts]


def test_the_largest_are_offered_by_name_and_ties_go_by_slug(podcasts):
    offer = offered("public_episode_count", size=3)

    assert names(offer) == ["Alpha Talk", "Middle Show", "Zebra Hour"]
    assert (offer.chosen, offer.total, offer.every, offer.leaves_some_out) == (None, 7, 4, True)


def test_the_chosen_podcast_is_offered_beside_the_largest(podcasts):
    offer = offered("public_episode_count", "tied", size=2)

    assert names(offer) == ["Alpha Talk", "Tied Show", "Zebra Hour"]
    assert (offer.chosen["slug"], offer.chosen["size"]) == ("tied", 1)
    assert offer.total == 7


def test_a_podcast_without_any_is_neither_offered_nor_chosen(podcasts):
    offer = offered("public_episode_count", "draft-only")

    assert names(offer) == ["Alpha Talk", "Middle Show", "Tied Show", "Zebra Hour"]
    assert offer.chosen is None
    assert not offer.leaves_some_out


def test_with_no_podcasts_nothing_is_offered(db):
    offer = offered("public_episode_count", "anything")

    assert (offer.podcasts, offer.chosen, offer.total, offer.every) == ([], None, 0, 0)


@pytest.mark.parametrize("chosen", ["", "zebra\x00", "zeb ra", "zebra/"])
def test_what_is_no_slug_chooses_nothing(podcasts, chosen):
    offer = offered("public_episode_count", chosen)

    assert offer.chosen is None
    assert names(offer) == ["Alpha Talk", "Middle Show", "Tied Show", "Zebra Hour"]
