"""The admin's list of episodes, as an editor opens it: newest first, by year aired."""

import datetime
import re

import pytest

from tests.claims.test_admin import changelist_rows
from tests.factories import make_episode, make_podcast

EPISODES = "/admin/episodes/episode/"


@pytest.fixture
def editor_client(client, editor):
    client.force_login(editor)
    return client


@pytest.fixture
def three_years(db):
    show = make_podcast(name="Example Show")
    make_episode(show, title="Spring 2024", air_date=datetime.date(2024, 3, 1))
    make_episode(show, title="Summer 2026", air_date=datetime.date(2026, 7, 1))
    make_episode(show, title="Zebra Day", air_date=datetime.date(2026, 9, 1))
    make_episode(show, title="Aardvark Day", air_date=datetime.date(2026, 9, 1))


def titles(response):
    return [row.split(" Example Show")[0] for row in changelist_rows(response)]


def years_offered(response):
    return re.findall(r'href="\?aired=(\d+)"', response.content.decode())


def test_the_list_is_newest_first_and_a_days_episodes_in_the_order_added(
    editor_client, three_years
):
    response = editor_client.get(EPISODES)

    assert titles(response) == ["Zebra Day", "Aardvark Day", "Summer 2026", "Spring 2024"]


def test_every_year_from_the_first_air_date_to_the_last_is_offered_latest_first(
    editor_client, three_years
):
    response = editor_client.get(EPISODES)

    assert years_offered(response) == ["2026", "2025", "2024"]


def test_a_year_shows_the_episodes_aired_in_it(editor_client, three_years):
    response = editor_client.get(EPISODES, {"aired": "2024"})

    assert titles(response) == ["Spring 2024"]


@pytest.mark.parametrize("year", ["last year", "99999", "0"])
def test_a_year_that_is_not_one_is_answered_as_any_bad_filter(editor_client, three_years, year):
    response = editor_client.get(EPISODES, {"aired": year})

    # The admin's own answer to a filter it cannot apply: the whole list, with a note.
    assert response.status_code == 302
    assert response["Location"] == f"{EPISODES}?e=1"


def test_no_years_are_offered_without_episodes(editor_client):
    response = editor_client.get(EPISODES)

    assert years_offered(response) == []
