"""ClaimSearch, the one search object: what it answers, in whatever order it is asked."""

import pytest
from django.db import connection
from django.http import QueryDict
from django.test.utils import CaptureQueriesContext

from claims import browse, facets
from claims.browse import ClaimSearch
from claims.models import Attribution, Claim, ClaimType, Topic
from claims.pagination import CappedPaginator
from claims.public_record import kept_claim_count
from episodes.models import Status
from tests.factories import make_claim, make_episode, make_podcast, make_speaker


def searched(query_string, **kwargs):
    return ClaimSearch(QueryDict(query_string), **kwargs)


def excerpts(claims):
    return [claim.excerpt for claim in claims]


@pytest.fixture
def ledger(db):
    """Five public claims, three about rates; a draft; a speaker heard only in drafts."""
    ada = make_speaker(name="Ada Example", slug="ada-example")
    ben = make_speaker(name="Ben Sample", slug="ben-sample")
    show = make_podcast(name="Example Show", slug="example-show")
    march = make_episode(show, title="March Roundup", air_date="2026-03-01")
    april = make_episode(show, title="April Roundup", air_date="2026-04-01")
    make_claim(march, ada, type=ClaimType.PREDICTION, excerpt="Rates, rates and rates will fall.")
    make_claim(march, ben, type=ClaimType.BELIEF, excerpt="Rates are too high.")
    make_claim(
        march,
        type=ClaimType.PREDICTION,
        excerpt="Prices will rise.",
        attribution=Attribution.UNRESOLVED,
    )
    make_claim(april, ada, type=ClaimType.PREDICTION, excerpt="Rates will rise again.")
    make_claim(april, ben, type=ClaimType.OBSERVATION, excerpt="The market moved.")
    make_claim(april, ada, excerpt="Rates are a draft.", status=Status.DRAFT)
    make_claim(speaker=make_speaker(name="Sam Drafted", slug="sam"), status=Status.DRAFT)
    return {"ada": ada, "ben": ben, "march": march, "april": april}


@pytest.mark.parametrize("per_page", [1, 2, 4])
def test_a_ranked_page_is_the_matches_in_order_of_relevance(ledger, per_page):
    # The newest claim holds the word in its episode's title only: last by relevance.
    special = make_episode(title="Rates Special", air_date="2026-05-01")
    make_claim(special, excerpt="Nothing changed.")
    by_relevance = excerpts(searched("q=rates").ordered())
    assert by_relevance[-1] == "Nothing changed."

    page = searched("q=rates").page(1, per_page=per_page)

    assert excerpts(page.object_list) == by_relevance[:per_page]


def test_the_page_read_before_the_count_is_the_page_read_after_it(ledger):
    page_first = searched("q=rates")
    first_page = excerpts(page_first.page(1).object_list)
    count_first = searched("q=rates")
    count = count_first.count

    assert count == page_first.count == 3
    assert excerpts(count_first.page(1).object_list) == first_page
    # Ranked: the claim saying "rates" three times first.
    assert first_page[0] == "Rates, rates and rates will fall."


def test_ordered_lists_every_match_in_the_order_of_the_pages(ledger):
    found = searched("q=rates")

    assert excerpts(found.ordered()) == excerpts(found.page(1).object_list)


def test_pages_hold_per_page_claims_and_carry_highlights(ledger):
    found = searched("q=rates&order=oldest")
    second = found.page(2, per_page=2)

    assert excerpts(second.object_list) == ["Rates will rise again."]
    assert str(second.object_list[0].highlighted) == "<mark>Rates</mark> will rise again."


def test_a_ranked_page_reads_the_records_of_its_own_claims_only(ledger):
    found = searched("q=rates")
    assert found.count == 3

    with CaptureQueriesContext(connection) as queries:
        page = found.page(2, per_page=2)

    assert excerpts(page.object_list) == excerpts(found.ordered())[2:4]
    # The page is picked among the matches first (on PostgreSQL, with the count); only
    # its claims are then read with their episodes, podcasts and speakers, and their
    # highlights.
    statements = [q["sql"] for q in queries.captured_queries]
    picked = statements[:1] if connection.vendor == "sqlite" else []
    cards, _highlights = statements[len(picked) :]
    # Scored and sorted by the claims' own gate and date: the episodes are not joined
    # to every match.
    assert not any("episodes_episode" in sql or "episodes_speaker" in sql for sql in picked)
    assert "episodes_speaker" in cards
    assert "claims_claim_fts" not in cards and "@@" not in cards


def test_an_unreadable_page_number_gives_the_first_page(ledger):
    found = searched("order=oldest")

    assert excerpts(found.page("x", per_page=1).object_list) == [
        "Rates, rates and rates will fall."
    ]


def test_bad_values_are_listed_as_problems_and_the_rest_still_applies(ledger):
    found = searched("type=bogus&speaker=nobody&aired_from=not-a-date&podcast=example-show")

    assert found.problems == [
        "“bogus” is not a claim type, so it was ignored.",
        "“nobody” is not a speaker in the public record, so it was ignored.",
        "“not-a-date” is not a date like 2026-03-01, so it was ignored.",
    ]
    assert found.count == 5
    assert list(found.params) == ["podcast"]


def test_a_speaker_heard_only_in_drafts_is_not_a_valid_choice(ledger):
    found = searched("speaker=sam")

    assert len(found.problems) == 1
    assert found.count == 5


def test_a_speaker_published_since_an_earlier_search_is_a_valid_choice(ledger):
    assert searched("speaker=sam").problems  # heard only in drafts so far
    draft = Claim.objects.get(speaker__slug="sam")
    draft.status = Status.PUBLISHED
    draft.save()

    found = searched("speaker=sam")

    assert found.problems == []
    assert found.count == 1


def test_facets_count_exactly_what_each_choice_shows(ledger):
    found = searched("q=rates&type=prediction")

    assert found.facets == {
        "sampled": False,
        # Every type the other filters allow, the chosen one marked.
        "type": [
            (ClaimType.BELIEF, 1, False),
            (ClaimType.PREDICTION, 2, True),
        ],
        "speaker": [("ada-example", "Ada Example", 2)],
        "podcast": [("example-show", "Example Show", 2)],
        "attribution": [("identified", "identified", 2)],
        # Predictions only: the belief has no outcome and no horizon.
        "resolution": [("open", "Open", 2)],
        "due": [("no_horizon", "No horizon stated", 2)],
        # Claims in a contradiction: none here.
        "contradictions": 0,
        # No claim here has a topic.
        "topic": [],
    }
    for claim_type, count, _ in found.facets["type"]:
        assert searched(f"q=rates&type={claim_type}").count == count


def test_a_search_is_ranked_unless_an_order_is_chosen(ledger):
    assert searched("q=rates").ordering == "relevance"
    assert searched("q=rates&order=oldest").ordering == "oldest"
    assert searched("").ordering == "newest"
    # Without words to look for, relevance means nothing.
    assert searched("q=the&order=relevance").ordering == "newest"


def test_past_the_cap_a_search_is_shown_newest_first(ledger, monkeypatch):
    monkeypatch.setattr(ClaimSearch, "search_count_cap", 2)
    monkeypatch.setattr(ClaimSearch, "facet_sample", 2)
    found = searched("q=rates")

    assert found.ordering == "newest"
    assert found.too_many_to_rank
    assert str(found.count) == "2+"
    assert excerpts(found.ordered())[0] == "Rates will rise again."


def test_past_the_cap_the_newest_aired_come_first_after_an_episode_is_redated(ledger, monkeypatch):
    monkeypatch.setattr(ClaimSearch, "search_count_cap", 2)
    monkeypatch.setattr(ClaimSearch, "facet_sample", 2)
    march = ledger["march"]
    march.air_date = "2026-05-01"
    march.save()

    assert excerpts(searched("q=rates").ordered()) == [
        "Rates, rates and rates will fall.",
        "Rates are too high.",
        "Rates will rise again.",
    ]


def test_past_the_cap_a_word_s_page_is_the_newest_aired_after_an_episode_is_redated(
    ledger, monkeypatch
):
    monkeypatch.setattr(ClaimSearch, "search_count_cap", 2)
    monkeypatch.setattr(ClaimSearch, "facet_sample", 2)
    march = ledger["march"]
    march.air_date = "2026-05-01"
    march.save()

    page = searched("q=rates").page(1, per_page=2)

    assert excerpts(page.object_list) == [
        "Rates, rates and rates will fall.",
        "Rates are too high.",
    ]


def test_past_the_cap_postgresql_reads_a_word_s_first_page_with_its_count(ledger, monkeypatch):
    # The facets' sample is taken newest first by the dates the claims keep, and its
    # first claims are the page's: the matches are read once, where a rare word's
    # were read and sorted again for the page (14 ms at ten million claims).
    if connection.vendor != "postgresql":
        pytest.skip("SQLite's newest pages are read from the newest ids (newest_page)")
    monkeypatch.setattr(ClaimSearch, "search_count_cap", 2)
    monkeypatch.setattr(ClaimSearch, "facet_sample", 2)

    with CaptureQueriesContext(connection) as queries:
        page = searched("q=rates").page(1, per_page=2)

    assert excerpts(page.object_list) == [
        "Rates will rise again.",
        "Rates, rates and rates will fall.",
    ]
    # Only the count and the facets ask the full-text index.
    searching = [q["sql"] for q in queries.captured_queries if "@@" in q["sql"]]
    assert len(searching) == 1
    assert searching[0].startswith("WITH matches AS")


def test_past_the_cap_postgresql_reads_words_together_for_the_page_again(ledger, monkeypatch):
    # Words together are sampled from windows of the newest ids, not by date.
    if connection.vendor != "postgresql":
        pytest.skip("SQLite's newest pages are read from the newest ids (newest_page)")
    monkeypatch.setattr(ClaimSearch, "search_count_cap", 1)
    monkeypatch.setattr(ClaimSearch, "facet_sample", 1)
    make_claim(ledger["march"], ledger["ben"], excerpt="Rates rise, then they fall.")

    with CaptureQueriesContext(connection) as queries:
        page = searched("q=rates+rise").page(1)

    assert excerpts(page.object_list)[0] == "Rates will rise again."
    ids = [
        q["sql"]
        for q in queries.captured_queries
        if q["sql"].startswith('SELECT "claims_claim"."id" AS "pk"') and "@@" in q["sql"]
    ]
    assert len(ids) == 1
    assert "episodes_episode" not in ids[0]


@pytest.mark.parametrize("number", [1, 2])
def test_pages_deeper_than_the_sample_keeps_are_the_same_claims(ledger, monkeypatch, number):
    monkeypatch.setattr(ClaimSearch, "search_count_cap", 2)
    monkeypatch.setattr(ClaimSearch, "facet_sample", 2)
    # The sample keeps the ids of its first claim only: the second page reads the
    # matches again.
    monkeypatch.setattr(facets, "FIRST_IDS", 1)
    newest_first = excerpts(searched("q=rates").ordered())

    page = searched("q=rates").page(number, per_page=1)

    assert excerpts(page.object_list) == [newest_first[number - 1]]


def test_a_sample_that_holds_every_match_gives_every_page_newest_first(ledger):
    found = searched("q=rates&order=newest")

    assert excerpts(found.page(2, per_page=2).object_list) == ["Rates are too high."]


def test_search_text_is_counted_to_its_own_cap_and_filters_to_the_paginators(ledger, monkeypatch):
    monkeypatch.setattr(CappedPaginator, "cap", 2)
    monkeypatch.setattr(ClaimSearch, "search_count_cap", 1)
    monkeypatch.setattr(ClaimSearch, "facet_sample", 1)

    assert str(searched("q=rates").count) == "1+"
    assert str(searched("aired_from=2026-01-01").count) == "2+"


def test_a_sample_larger_than_the_count_reads_is_refused(ledger, monkeypatch):
    monkeypatch.setattr(ClaimSearch, "search_count_cap", 2)

    with pytest.raises(ValueError, match="A sample of 1000 is more than a count to 2 reads."):
        searched("q=rates").page(1)


def test_a_page_past_the_cap_costs_no_more_queries_than_a_ranked_one(
    ledger, monkeypatch, django_assert_num_queries
):
    with CaptureQueriesContext(connection) as ranked:
        searched("q=rates").page(1, per_page=1)
    monkeypatch.setattr(ClaimSearch, "search_count_cap", 2)
    monkeypatch.setattr(ClaimSearch, "facet_sample", 2)

    # On PostgreSQL both pages' ids come with the count.
    with django_assert_num_queries(len(ranked)):
        page = searched("q=rates").page(1, per_page=1)
    assert excerpts(page.object_list)[0] == "Rates will rise again."


def test_a_search_in_date_order_is_listed_without_counting(ledger, django_assert_num_queries):
    found = searched("q=rates&order=newest")

    # Only the matches: a download in date order needs no count.
    with django_assert_num_queries(1):
        assert len(list(found.ordered())) == 3


def test_a_page_costs_a_count_the_rows_and_their_highlights(ledger, django_assert_num_queries):
    found = searched("q=rates&speaker=ada-example")

    # The speaker's lookup (validation); the count with the facets not in use;
    # the speaker facet (in use); the page's ids by relevance (on PostgreSQL, with the
    # count); their rows; their highlights.
    with django_assert_num_queries(6 - (connection.vendor == "postgresql")):
        found.page(1)
    # Asked again, nothing is fetched again.
    with django_assert_num_queries(0):
        found.page(1)
        assert found.count == 2
        assert found.facets["speaker"][0][2] == 2


def test_a_search_of_common_words_finds_nothing(ledger):
    found = searched("q=the")

    assert found.count == 0
    assert list(found.ordered()) == []
    assert found.query.dropped_stop_words


def test_matching_speakers_are_in_the_public_record_only(ledger):
    assert searched("q=example").matching_speakers == [ledger["ada"]]
    assert searched("q=drafted").matching_speakers == []
    # Words of fewer than three letters match too many names to help.
    assert searched("q=ad").matching_speakers == []


def test_matching_episodes_hold_every_word(ledger):
    assert searched("q=roundup april").matching_episodes == [ledger["april"]]
    assert searched("q=roundup").matching_episodes == [ledger["april"], ledger["march"]]
    assert searched("q=roundup may").matching_episodes == []


def test_a_base_queryset_limits_everything(ledger):
    found = searched("q=rates", claims=ledger["march"].claims.published())

    assert found.count == 2
    assert found.facets["speaker"] == [
        ("ada-example", "Ada Example", 1),
        ("ben-sample", "Ben Sample", 1),
    ]


def test_claims_matching_in_the_excerpt_rank_above_those_matching_only_elsewhere(db):
    long_excerpt = (
        "We spent the whole of last spring arguing about what to measure, which teams "
        "to ask, how often to ask them and what a fair reward would be for the people "
        "who answered every single survey we sent, and in the end we chose none of it."
    )
    in_excerpt = make_claim(make_episode(title="Spring Notes"), excerpt=long_excerpt)
    titled = make_episode(title="Reward, Reward, Reward")
    for number in (1, 2):
        make_claim(titled, number=number, excerpt="Short words.")

    ranked = list(searched("q=reward").ordered())

    assert ranked[0] == in_excerpt
    assert [claim.episode for claim in ranked[1:]] == [titled, titled]


def test_equally_relevant_claims_are_ranked_newest_episode_first(db):
    # By the date each claim keeps, and its own gate: the episodes are not joined.
    show = make_podcast()
    older = make_episode(show, title="Winter", air_date="2026-01-01")
    newer = make_episode(show, title="Summer", air_date="2026-07-01")
    unaired = make_episode(show, title="Autumn", air_date="2026-10-01", status=Status.DRAFT)
    for episode in (older, newer, unaired):
        make_claim(episode, excerpt="Tariffs will stay.")

    ranked = list(searched("q=tariffs").ordered())

    assert [claim.episode for claim in ranked] == [newer, older]


@pytest.mark.parametrize(
    "query, kept",
    [
        ("speaker=ada-example", True),
        ("speaker=ada-example&type=prediction", True),
        ("speaker=ada-example&type=prediction&type=prediction", True),
        ("speaker=ben-sample&type=belief&type=observation", True),
        ("topic=rates", True),
        ("topic=rates&type=prediction&type=recommendation", True),
        ("topic=rates&order=oldest", True),
        # Anything else narrowing them is counted.
        ("topic=rates&speaker=ben-sample", False),
        ("topic=rates&q=rates", False),
        ("speaker=ada-example&attribution=identified", False),
        ("speaker=ada-example&aired_from=2026-04-01", False),
        ("speaker=ada-example&resolution=open", False),
        ("topic=rates&contradictions=only", False),
    ],
)
def test_a_count_kept_for_a_speaker_or_topic_is_what_counting_finds(
    ledger, monkeypatch, query, kept
):
    topic = Topic.objects.create(name="Rates", slug="rates")
    for claim in Claim.objects.filter(excerpt__icontains="rate"):  # the draft among them
        claim.topics.add(topic)
    make_claim(make_episode(status=Status.DRAFT), ledger["ada"]).topics.add(topic)
    found = searched(query)
    shown = (found.count, found.facets, excerpts(found.page(1).object_list))

    monkeypatch.setattr(browse, "kept_claim_count", lambda chosen: None)
    counted = searched(query)

    assert shown == (counted.count, counted.facets, excerpts(counted.page(1).object_list))
    assert (kept_claim_count(found.chosen) is not None) is kept


@pytest.mark.parametrize("query, ranges", [("q=tariffs", 1), ("q=tariffs&type=evaluation", 2)])
def test_a_page_is_highlighted_from_one_range_only_where_the_words_alone_are_few(db, query, ranges):
    # The one range reads every match of the words between the page's ids, whatever
    # else is chosen: the count of a narrower search says nothing of how many that is.
    episode = make_episode()
    for pk, kind in ((2_000, ClaimType.EVALUATION), (9_000, ClaimType.EVALUATION)):
        make_claim(episode, id=pk, type=kind, excerpt="Tariffs will stay.")
    make_claim(episode, id=5_000, type=ClaimType.BELIEF, excerpt="Tariffs will go.")

    with CaptureQueriesContext(connection) as queries:
        page = searched(query).page(1)

    assert {str(claim.highlighted) for claim in page.object_list} >= {
        "<mark>Tariffs</mark> will stay."
    }
    if connection.vendor == "sqlite":
        assert queries.captured_queries[-1]["sql"].count("rowid >=") == ranges
