"""Speakers and episodes found by the words in their names, alike on both databases."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from episodes import trigrams
from episodes.models import Episode, Speaker, Status
from tests.factories import make_episode, make_speaker


def names(words):
    return sorted(Speaker.objects.named_like(words).values_list("name", flat=True))


def titles(words):
    return sorted(Episode.objects.titled_like(words).values_list("title", flat=True))


def test_a_name_is_found_by_any_part_of_it_in_any_case(db):
    make_speaker(name="Nora Samplewood")
    make_speaker(name="Ben Other")

    assert names(["SAMPLE"]) == ["Nora Samplewood"]
    assert names(["wood", "other"]) == ["Ben Other", "Nora Samplewood"]
    # Shorter than a trigram.
    assert names(["no"]) == ["Nora Samplewood"]
    assert names(["quokka"]) == []


def test_a_title_must_hold_every_word(db):
    make_episode(title="Open Source Models, Revisited")
    make_episode(title="Closed Models")

    assert titles(["models"]) == ["Closed Models", "Open Source Models, Revisited"]
    assert titles(["models", "open"]) == ["Open Source Models, Revisited"]


def test_a_renamed_or_deleted_record_is_found_by_what_it_is_now(db):
    speaker = make_speaker(name="Ada Example")
    episode = make_episode(title="First Notes")
    make_speaker(name="Ben Example")

    speaker.name = "Dora Renamed"
    speaker.save()
    episode.title = "Second Thoughts"
    episode.save()

    assert names(["ada"]) == []
    assert names(["dora"]) == ["Dora Renamed"]
    assert titles(["first"]) == []
    assert titles(["thoughts"]) == ["Second Thoughts"]
    Speaker.objects.filter(name="Ben Example").delete()
    assert names(["example"]) == []


def test_wildcards_in_a_word_are_plain_characters(db):
    make_speaker(name="Caller 100% Sure")
    make_speaker(name="Caller 1000 Sure")
    make_speaker(name="ada_example")

    assert names(["100%"]) == ["Caller 100% Sure"]
    assert names(["a_e"]) == ["ada_example"]


def test_words_too_short_for_a_trigram_are_looked_for_together(db):
    make_speaker(name="Nora Samplewood")
    make_speaker(name="Ben Other")
    make_episode(title="An Open Show")
    make_episode(title="An Opera")

    with CaptureQueriesContext(connection) as queries:
        assert names(["zq", "BE", "xy", "no"]) == ["Ben Other", "Nora Samplewood"]
        assert names(["zq", "xy"]) == []
        assert titles(["op", "SH", "an"]) == ["An Open Show"]
        every = Speaker.objects.named_like(["NO", "ra", "sa"], every=True)
        assert list(every.values_list("name", flat=True)) == ["Nora Samplewood"]

    if connection.vendor == "sqlite":
        # One pass of the trigrams for all of a search's short words, not one for each.
        assert [query["sql"].count("SELECT rowid") for query in queries] == [1, 1, 1, 1]


def test_on_sqlite_names_are_looked_up_among_their_trigrams(db):
    make_speaker(name="Nora Samplewood")

    with CaptureQueriesContext(connection) as queries:
        assert names(["samplewood"]) == ["Nora Samplewood"]

    if connection.vendor == "sqlite":
        assert "episodes_speaker_name_trigrams" in queries[0]["sql"]


def test_a_word_is_found_in_any_case_of_any_alphabet_and_with_quotes_in_it(db):
    make_speaker(name='Åsa "Ace" Öberg')
    make_speaker(name="Ben Other")

    assert names(["öBERG"]) == ['Åsa "Ace" Öberg']
    assert names(['"ace"']) == ['Åsa "Ace" Öberg']


def newest_titles(words, count):
    episodes = Episode.objects.published().newest_titled_like(words, count)
    return [episode.title for episode in episodes]


@pytest.mark.parametrize("walk_past", [0, 1_000], ids=["walked", "read"])
def test_the_newest_published_titles_holding_every_word_come_first(db, monkeypatch, walk_past):
    # On SQLite, how many titles hold the words picks how they are found; on PostgreSQL
    # the planner picks. Either way finds the same episodes.
    monkeypatch.setattr(trigrams, "WALK_PAST", walk_past)
    make_episode(title="Models, Oldest")
    make_episode(title="Models, Older")
    make_episode(title="Models, Unpublished", status=Status.DRAFT)
    make_episode(title="Something Else")
    same_day = make_episode(title="Models, Newest B").air_date
    make_episode(title="Models, Newest A", air_date=same_day)

    assert newest_titles(["models"], 3) == ["Models, Newest A", "Models, Newest B", "Models, Older"]
    assert newest_titles(["MODELS", "old"], 5) == ["Models, Older", "Models, Oldest"]
    assert newest_titles(["models", "else"], 5) == []
    assert newest_titles(["quokka"], 5) == []
    # Too short for a trigram: asked of each title.
    assert newest_titles(["ew"], 5) == ["Models, Newest A", "Models, Newest B"]
    assert newest_titles(["Ol", "models"], 5) == ["Models, Older", "Models, Oldest"]


def test_the_newest_titles_holding_a_short_word_with_wildcards_are_found_too(db):
    make_episode(title="A 1% Chance")
    make_episode(title="A 10 Percent Chance")

    assert newest_titles(["1%", "chance"], 5) == ["A 1% Chance"]


def test_a_word_repeated_in_any_case_is_asked_of_each_title_and_name_once(db):
    make_episode(title="AI Weekly")
    make_speaker(name="Ai Example")
    repeated = ["AI", "ai", "Ai"]

    with CaptureQueriesContext(connection) as queries:
        assert titles(repeated) == ["AI Weekly"]
        assert names(repeated) == ["Ai Example"]

    assert [query["sql"].count(" LIKE ") for query in queries] == [1, 1]
