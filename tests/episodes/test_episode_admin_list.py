"""The admin's list of episodes, as an editor opens it: newest first, by year aired."""

import datetime
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.claims.test_admin import changelist_rows
from tests.factories import make_episode, make_podcast

EPISODES = "/admin/episodes/episode/"


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


def months_offered(response):
    return re.findall(r'href="\?[^"]*aired_month=(\d+)', response.content.decode())


def test_the_list_is_newest_first_and_a_days_episodes_in_the_order_added(
    editor_client, three_years
):
    response = editor_client.get(EPISODES)

    assert titles(response) == ["Zebra Day", "Aardvark Day", "Summer 2026", "Spring 2024"]


def test_the_years_that_hold_an_episode_are_offered_latest_first(editor_client, three_years):
    response = editor_client.get(EPISODES)

    assert years_offered(response) == ["2026", "2024"]


def test_a_mistyped_air_date_adds_its_year_alone(editor_client, three_years):
    make_episode(title="Typo", air_date=datetime.date(26, 5, 20))

    response = editor_client.get(EPISODES)

    assert years_offered(response) == ["2026", "2024", "26"]


def test_the_years_are_found_without_reading_every_episode(editor_client, three_years):
    with CaptureQueriesContext(connection) as queries:
        editor_client.get(EPISODES)

    statements = [query["sql"].upper() for query in queries]
    # A date hierarchy asked for every episode's DISTINCT year.
    assert not any("DISTINCT" in sql for sql in statements)
    assert any("LIMIT 10001" in sql for sql in statements)


def test_a_year_shows_the_episodes_aired_in_it(editor_client, three_years):
    response = editor_client.get(EPISODES, {"aired": "2024"})

    assert titles(response) == ["Spring 2024"]


def test_months_are_offered_once_a_year_is_chosen(editor_client, three_years):
    assert months_offered(editor_client.get(EPISODES)) == []

    response = editor_client.get(EPISODES, {"aired": "2026"})

    assert months_offered(response) == [str(month) for month in range(1, 13)]


def test_a_month_shows_the_episodes_aired_in_it(editor_client, three_years):
    response = editor_client.get(EPISODES, {"aired": "2026", "aired_month": "9"})

    assert titles(response) == ["Zebra Day", "Aardvark Day"]


@pytest.mark.parametrize("year", ["last year", "99999", "0"])
def test_a_year_that_is_not_one_is_answered_as_any_bad_filter(editor_client, three_years, year):
    response = editor_client.get(EPISODES, {"aired": year})

    # The admin's own answer to a filter it cannot apply: the whole list.
    assert response.status_code == 302
    assert response["Location"] == f"{EPISODES}?e=1"


@pytest.mark.parametrize(
    "query", [{"aired_month": "9"}, {"aired": "2026", "aired_month": "13"}, {"aired_month": "x"}]
)
def test_a_month_without_a_year_or_that_is_not_one_is_answered_as_any_bad_filter(
    editor_client, three_years, query
):
    response = editor_client.get(EPISODES, query)

    assert response.status_code == 302
    assert response["Location"] == f"{EPISODES}?e=1"


def test_no_years_are_offered_without_episodes(editor_client):
    response = editor_client.get(EPISODES)

    assert years_offered(response) == []
