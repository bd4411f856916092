"""Full-text search: the same expectations hold on SQLite (FTS5) and PostgreSQL."""

import pytest

from claims import search
from claims.models import Attribution, Claim, ClaimType
from episodes.models import Episode, Speaker, Status
from tests.claims.older_indexes import vectors_of_the_excerpt_only
from tests.factories import make_claim, make_episode, make_podcast, make_speaker

CORPUS = {
    1: ("Ada", ClaimType.PREDICTION, "I predict that open models will catch up within a year."),
    2: ("Ben", ClaimType.BELIEF, "The prediction markets were wrong about the election."),
    3: (
        "Ada",
        ClaimType.RECOMMENDATION,
        "Use reward models sparingly: reward hacking is real, and the reward is never the goal.",
    ),
    4: (None, ClaimType.EVALUATION, "Reward hacking happens when the model games the metric."),
    5: (
        "Ben",
        ClaimType.OBSERVATION,
        "We observed the models hacking rewards in every environment.",
    ),
}


@pytest.fixture
def corpus(db):
    ada = make_speaker(name="Ada Example", slug="ada-example")
    ben = make_speaker(name="Ben Sample", slug="ben-sample")
    episode = make_episode(podcast=make_podcast(name="Example Show"), title="Weekly Roundup")
    for number, (who, claim_type, excerpt) in CORPUS.items():
        if who is None:
            make_claim(
                episode,
                number=number,
                type=claim_type,
                excerpt=excerpt,
                attribution=Attribution.UNRESOLVED,
                unresolved_label="Caller 2",
            )
        else:
            make_claim(
                episode,
                speaker=ada if who == "Ada" else ben,
                number=number,
                type=claim_type,
                excerpt=excerpt,
            )
    make_claim(
        episode,
        speaker=ada,
        number=6,
        excerpt="I predict a draft never shows.",
        status=Status.DRAFT,
    )
    hidden = make_episode(title="Unaired Draft", status=Status.DRAFT)
    make_claim(hidden, speaker=ada, number=1, excerpt="I predict this draft episode stays hidden.")
    return episode


def found(text, ranked=True):
    """The numbers of the public claims a reader's query finds, as a set."""
    query = search.parse(text)
    matches = search.search(Claim.objects.published(), query, ranked=ranked)
    return set(matches.values_list("number", flat=True))


def test_stemming_finds_other_forms_of_a_word(corpus):
    assert found("predicted") == {1, 2}


def test_quoted_phrase_needs_the_words_in_order(corpus):
    assert found('"reward hacking"') == {3, 4}


def test_a_phrase_among_alternatives_need_not_match(corpus):
    assert found('"reward hacking" OR observed') == {3, 4, 5}


def test_minus_excludes_a_phrase_and_keeps_its_words_apart(corpus):
    # 5 holds "hacking rewards": the words, not the phrase.
    assert found('hacking -"reward hacking"') == {5}


def test_a_phrase_and_other_words_all_count(corpus):
    assert found('"reward hacking" model') == {3, 4}
    assert found('"reward hacking" -metric') == {3}


def test_a_phrase_whose_words_stand_apart_still_needs_them_in_order(corpus):
    # Stop words between them: no two words of it are neighbours in the index.
    assert found('"reward is never"') == {3}
    assert found('"never is reward"') == set()


def test_minus_excludes_a_word(corpus):
    assert found("models -reward") == {1}


def test_or_finds_either_word(corpus):
    assert found("election OR metric") == {2, 4}


def test_words_without_or_must_all_match(corpus):
    assert found("reward environment") == {5}


def test_search_finds_the_speaker_name(corpus):
    assert found("sample") == {2, 5}


def test_search_finds_the_unresolved_label(corpus):
    assert found('"caller 2"') == {4}


def test_search_finds_the_episode_title(corpus):
    assert found("roundup") == {1, 2, 3, 4, 5}


def test_drafts_are_never_found(corpus):
    assert found("draft") == set()


@pytest.mark.parametrize(
    "text", ["predicted", '"reward hacking"', "models -reward", "election OR metric", "draft"]
)
def test_unranked_search_finds_the_same_claims(corpus, text):
    # Used past the count cap, where matches are shown newest first.
    assert found(text, ranked=False) == found(text)


def test_results_are_ranked_by_relevance(corpus):
    query = search.parse("reward")
    ranked = search.search(Claim.objects.published(), query).order_by("-rank", "number")
    assert list(ranked.values_list("number", flat=True))[0] == 3


def test_renaming_a_speaker_reaches_the_index(corpus):
    ben = corpus.claims.get(number=2).speaker
    ben.name = "Ben Renamed"
    ben.save()
    assert found("renamed") == {2, 5}
    assert found("sample") == set()


def test_retitling_an_episode_reaches_the_index(corpus):
    corpus.title = "Monthly Digest"
    corpus.save()
    assert found("digest") == {1, 2, 3, 4, 5}
    assert found("roundup") == set()


def test_editing_an_excerpt_reaches_the_index(corpus):
    claim = corpus.claims.get(number=1)
    claim.excerpt = "Open weights will be everywhere."
    claim.save(correction_note="The excerpt was transcribed wrongly.")
    assert found("weights") == {1}
    assert found("predicted") == {2}


def test_editing_an_excerpt_moves_its_phrases(corpus):
    claim = corpus.claims.get(number=4)
    claim.excerpt = "The metric games the model when hacking pays a reward."
    claim.save(correction_note="The excerpt was transcribed wrongly.")
    assert found('"reward hacking"') == {3}
    assert found('"metric games"') == {4}


def test_highlight_marks_matches_and_escapes_the_excerpt(db):
    claim = make_claim(excerpt='<b>Bold</b> reward & "risk" <script>alert(1)</script>')
    query = search.parse("reward")
    results = list(search.search(Claim.objects.published(), query))
    search.highlight(results, query)
    assert results[0].pk == claim.pk
    assert str(results[0].highlighted) == (
        "&lt;b&gt;Bold&lt;/b&gt; <mark>reward</mark> &amp; &quot;risk&quot; "
        "&lt;script&gt;alert(1)&lt;/script&gt;"
    )


@pytest.mark.parametrize(
    "text",
    ["the and of", "-reward", '"" OR', "& | ! ( ) : * '", "OR OR", "   ", "\x00"],
)
def test_queries_without_a_word_to_look_for_are_not_searchable(text):
    assert not search.parse(text).is_searchable


def test_a_query_of_stop_words_says_so():
    assert search.parse("the and of").dropped_stop_words


def test_operators_and_punctuation_become_plain_words():
    query = search.parse('reward:* & (hacking) | "one phrase')
    assert query.as_fts5() == '("reward") AND ("hacking") AND ("one phrase")'
    assert query.as_websearch() == 'reward hacking "one phrase"'


def test_a_term_asked_again_is_asked_once():
    query = search.parse('Reward reward OR reward REWARD "reward hacking" -x -X "Reward Hacking"')

    assert query.as_websearch() == 'reward "reward hacking" -x'
    assert query.as_fts5() == '("reward") AND ("reward hacking") NOT "x"'


def test_a_word_repeated_finds_what_the_word_finds_and_asks_for_it_once(corpus):
    once = search.search(Claim.objects.published(), search.parse("reward"))
    repeated = search.search(Claim.objects.published(), search.parse("reward " * 50))

    assert set(repeated.values_list("pk", flat=True)) == set(once.values_list("pk", flat=True))
    sql = str(repeated.query).lower()
    assert sql.count("reward") == str(once.query).lower().count("reward")


@pytest.mark.parametrize(
    ("text", "contradicts"),
    [
        ("reward -reward", True),
        ('"reward hacking" OR reward -reward -"Reward Hacking"', True),
        ("reward OR model -reward", False),
        ('"reward hacking" -reward', False),
    ],
)
def test_a_query_that_leaves_out_every_term_of_a_group_contradicts_itself(text, contradicts):
    assert search.parse(text).contradicts_itself is contradicts


def test_a_search_that_contradicts_itself_finds_nothing_without_asking(
    corpus, django_assert_num_queries
):
    with django_assert_num_queries(0):
        assert list(search.search(Claim.objects.published(), search.parse("reward -reward"))) == []


def test_long_queries_are_cut_to_the_limit():
    query = search.parse("reward " * 2000)
    assert query.truncated
    assert len(query.text) == search.MAX_QUERY_LENGTH


def _plan(queryset):
    from django.db import connection

    sql, params = queryset.query.sql_with_params()
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # The test table is tiny, where a scan is cheapest: forbid it to see
            # whether the index can serve the search at all.
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute("EXPLAIN " + sql, params)
        else:
            cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
        return "\n".join(str(row) for row in cursor.fetchall())


def test_search_is_served_by_the_full_text_index(corpus):
    from django.db import connection

    query = search.parse("reward")
    # The match condition alone (no ordering, whose joins the planner may prefer to walk
    # once other tests have left statistics behind): at scale it weighs them all.
    plan = _plan(search.search(Claim.objects.order_by(), query))
    if connection.vendor == "postgresql":
        assert "claim_search_vector_gin" in plan
    else:
        assert "VIRTUAL TABLE INDEX" in plan


@pytest.mark.parametrize(
    ("records", "lookup", "index"),
    [
        (Episode.objects.all(), {"title__icontains": "ROUNDUP"}, "episode_title_trgm"),
        (Speaker.objects.all(), {"name__icontains": "ada"}, "speaker_name_trgm"),
    ],
)
def test_names_matching_a_search_are_found_through_a_trigram_index_on_postgresql(
    corpus, records, lookup, index
):
    from django.db import connection

    # Unordered: with statistics left by other tests the planner may walk an ordering index.
    matches = records.filter(**lookup).order_by()
    assert matches.count() == 1
    # SQLite has no trigram index: it reads every episode title and speaker name.
    if connection.vendor == "postgresql":
        assert index in _plan(matches)


def test_stop_words_at_the_ends_of_a_phrase_are_left_out():
    # PostgreSQL's index holds no stop words: "the model" can only mean "model".
    query = search.parse('"the model is" "cost of the model"')
    assert query.as_fts5() == '("model") AND ("cost of the model")'


def test_a_phrase_of_stop_words_only_is_too_common():
    query = search.parse('"to be or not to be"')
    assert not query.is_searchable
    assert query.dropped_stop_words


def test_words_inside_markup_are_found_and_highlighted(db):
    claim = make_claim(excerpt="Wrap it in <think> tags & R&amp;D notes.")
    query = search.parse("think notes")
    results = list(search.search(Claim.objects.published(), query))
    search.highlight(results, query)
    assert results == [claim]
    assert str(results[0].highlighted) == (
        "Wrap it in &lt;<mark>think</mark>&gt; tags &amp; R&amp;amp;D <mark>notes</mark>."
    )


def test_a_changed_index_function_reindexes_every_claim_on_postgresql(db):
    from django.db import connection

    from claims import search_index

    if connection.vendor != "postgresql":
        pytest.skip("SQLite's index has no function to change")
    make_claim(excerpt="Wrap it in <think> tags.")
    with connection.cursor() as cursor:
        # The function as it was, which let PostgreSQL's parser drop tags.
        vectors_of_the_excerpt_only(cursor)
    assert found("think") == set()

    search_index.install(connection)

    assert found("think") == {1}


@pytest.mark.parametrize("matches, ranges", [(None, 3), (4, 1)], ids=["count unknown", "few"])
def test_claims_far_apart_are_highlighted_from_a_range_each_unless_the_words_are_few(
    db, matches, ranges, django_assert_num_queries
):
    # Ids far apart, as a ranked page's are: one range of ids between them read every
    # match of the word in the ledger, unless the word has only a few.
    episode = make_episode()
    far_apart = [
        make_claim(episode, id=pk, excerpt=f"Tariffs, said {name}.")
        for pk, name in ((9_000, "one"), (2_000, "two"), (5_000, "three"))
    ]
    near = make_claim(episode, id=5_400, excerpt="Tariffs, said four.")
    query = search.parse("tariffs")

    with django_assert_num_queries(1) as queries:
        search.highlight([*far_apart, near], query, matches=matches)

    assert [str(claim.highlighted) for claim in [*far_apart, near]] == [
        f"<mark>Tariffs</mark>, said {name}." for name in ("one", "two", "three", "four")
    ]
    if queries.connection.vendor == "sqlite":
        assert queries.captured_queries[0]["sql"].count("rowid >=") == ranges
