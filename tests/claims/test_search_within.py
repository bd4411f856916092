"""A search within a speaker's claims or some types: SQLite's full-text index holds the
claims' speaker and type beside their words and narrows to them first; a reader's
words are still asked of the words only. The same answers on both databases; and the
index an older release made is made again."""

from urllib.parse import urlencode

import pytest
from django.db import DatabaseError, connection
from django.http import QueryDict
from django.test.utils import CaptureQueriesContext

from claims import search_index
from claims.browse import ClaimSearch
from claims.models import Claim, ClaimType
from tests.claims.older_indexes import vectors_of_the_excerpt_only
from tests.factories import make_claim, make_episode, make_speaker

# number: (speaker, type, excerpt)
CLAIMS = {
    1: ("ada", ClaimType.PREDICTION, "Open models will catch up within a year."),
    2: ("ben", ClaimType.PREDICTION, "Open models will never catch up."),
    3: ("ada", ClaimType.BELIEF, "Open weights are good for safety research."),
    4: ("ben", ClaimType.EVALUATION, "The open benchmark is saturated."),
    5: ("ada", ClaimType.EVALUATION, "Closed labs ship faster."),
}


@pytest.fixture
def speakers(db):
    people = {
        "ada": make_speaker(name="Ada Example", slug="ada"),
        "ben": make_speaker(name="Ben Sample", slug="ben"),
    }
    episode = make_episode(title="Weekly Roundup")
    for number, (who, claim_type, excerpt) in CLAIMS.items():
        make_claim(episode, people[who], number=number, type=claim_type, excerpt=excerpt)
    return people


def found(**params):
    return {claim.number for claim in ClaimSearch(QueryDict(urlencode(params, True))).ordered()}


def test_a_search_within_a_speaker_finds_only_their_matching_claims(speakers):
    assert found(q="open", speaker="ada") == {1, 3}
    assert found(q="open", speaker="ben") == {2, 4}


def test_a_search_within_types_finds_only_claims_of_those_types(speakers):
    assert found(q="open", type="prediction") == {1, 2}
    assert found(q="open", type=["belief", "evaluation"]) == {3, 4}
    assert found(q="open", type="belief", speaker="ben") == set()


def test_a_ranked_and_a_dated_search_within_a_speaker_agree(speakers):
    assert found(q="open", speaker="ada", order="newest") == found(q="open", speaker="ada")


def test_a_word_naming_a_type_does_not_find_claims_of_that_type(speakers):
    # Claims 4 and 5 are evaluations; none says the word.
    assert found(q="evaluation") == set()
    assert found(q="belief") == set()


def test_a_number_naming_a_speaker_does_not_find_their_claims(speakers):
    assert found(q=str(speakers["ada"].pk)) == set()


def test_the_speaker_facet_counts_every_speaker_while_one_is_chosen(speakers):
    facets = ClaimSearch(QueryDict("q=open&speaker=ada")).facets
    assert [(slug, count) for slug, _name, count in facets["speaker"]] == [("ada", 2), ("ben", 2)]
    assert {value: count for value, count, _meaning in facets["type"]} == {
        "prediction": 1,
        "belief": 1,
    }


def test_a_claim_given_to_another_speaker_is_found_within_them(speakers):
    claim = Claim.objects.get(number=1)
    claim.speaker = speakers["ben"]
    claim.save(correction_note="Ben said it, not Ada.")
    assert found(q="open", speaker="ben") == {1, 2, 4}
    assert found(q="open", speaker="ada") == {3}


def test_a_retyped_claim_is_found_within_its_new_type(speakers):
    Claim.objects.filter(number=3).update(type=ClaimType.PREDICTION)
    assert found(q="open", type="prediction") == {1, 2, 3}
    assert found(q="open", type="belief") == set()


def test_the_type_facet_counts_every_type_while_one_is_chosen(speakers):
    facets = ClaimSearch(QueryDict("q=open&type=prediction")).facets
    assert {value: count for value, count, _meaning in facets["type"]} == {
        "prediction": 2,
        "belief": 1,
        "evaluation": 1,
    }


def test_sqlite_asks_its_index_for_the_chosen_speaker_and_types(speakers):
    if connection.vendor != "sqlite":
        pytest.skip("PostgreSQL's planner picks its own indexes (search._postgres_search)")
    with CaptureQueriesContext(connection) as queries:
        assert found(q="open", speaker="ada", type="belief") == {3}
    wanted = f'{{speaker_id}} : "{speakers["ada"].pk}" AND {{type}} : ("belief")'
    assert any(wanted in query["sql"] for query in queries.captured_queries)


@pytest.mark.parametrize("chosen", [{"resolution": "open"}, {"due": "no_horizon"}])
def test_an_outcome_or_a_horizon_finds_only_predictions(speakers, chosen):
    assert found(q="open", **chosen) == {1, 2}
    assert found(q="open", type="belief", **chosen) == set()


def answers(**params):
    search = ClaimSearch(QueryDict(urlencode(params, True)))
    return {claim.number for claim in search.ordered()}, search.count, search.facets


@pytest.mark.parametrize(
    "params",
    [
        {"resolution": "open"},
        {"due": "no_horizon", "type": "belief"},
        {"due": "no_horizon", "type": ["prediction", "evaluation"]},
        {"resolution": "open", "speaker": "ben"},
    ],
)
def test_narrowing_the_index_to_predictions_changes_no_answer(speakers, params, monkeypatch):
    narrowed = answers(q="open", **params)
    monkeypatch.setattr(ClaimSearch, "_within", lambda search, excluded: search_index.Within())

    assert answers(q="open", **params) == narrowed


@pytest.mark.parametrize("chosen", [{"resolution": "open"}, {"due": "no_horizon"}])
def test_sqlite_asks_its_index_for_predictions_when_an_outcome_or_a_horizon_is_chosen(
    speakers, chosen
):
    if connection.vendor != "sqlite":
        pytest.skip("PostgreSQL's planner picks its own indexes (search._postgres_search)")
    with CaptureQueriesContext(connection) as queries:
        assert found(q="open", **chosen) == {1, 2}
    # Only predictions have an outcome or a horizon: the word's matches among them
    # are read, not its matches among every claim.
    assert any('{type} : ("prediction")' in query["sql"] for query in queries.captured_queries)


OLD_SQLITE_INDEX = [
    "CREATE VIRTUAL TABLE claims_claim_fts USING fts5(excerpt, search_context, "
    "content='claims_claim', content_rowid='id', "
    "tokenize='porter unicode61 remove_diacritics 2')",
    "CREATE TRIGGER claims_claim_fts_insert AFTER INSERT ON claims_claim BEGIN "
    "INSERT INTO claims_claim_fts(rowid, excerpt, search_context) "
    "VALUES (new.id, new.excerpt, new.search_context); END",
    "CREATE TRIGGER claims_claim_fts_delete AFTER DELETE ON claims_claim BEGIN "
    "INSERT INTO claims_claim_fts(claims_claim_fts, rowid, excerpt, search_context) "
    "VALUES ('delete', old.id, old.excerpt, old.search_context); END",
    "CREATE TRIGGER claims_claim_fts_update AFTER UPDATE OF excerpt, search_context "
    "ON claims_claim BEGIN "
    "INSERT INTO claims_claim_fts(claims_claim_fts, rowid, excerpt, search_context) "
    "VALUES ('delete', old.id, old.excerpt, old.search_context); "
    "INSERT INTO claims_claim_fts(rowid, excerpt, search_context) "
    "VALUES (new.id, new.excerpt, new.search_context); END",
]


def test_an_index_made_by_an_older_release_is_made_again(speakers):
    if connection.vendor != "sqlite":
        pytest.skip("PostgreSQL's index holds no speaker or type")
    with connection.cursor() as cursor:
        # The words only, and triggers that kept only them.
        for name in search_index.SQLITE_TRIGGERS:
            cursor.execute(f"DROP TRIGGER {name}")
        cursor.execute("DROP TABLE claims_claim_fts")
        for statement in OLD_SQLITE_INDEX:
            cursor.execute(statement)
        cursor.execute("INSERT INTO claims_claim_fts(claims_claim_fts) VALUES ('rebuild')")

    search_index.install(connection)

    assert found(q="open", speaker="ada") == {1, 3}
    make_claim(Claim.objects.get(number=1).episode, speakers["ada"], excerpt="Open data wins.")
    assert found(q="open", speaker="ada") == {1, 3, 6}
    Claim.objects.filter(number=6).update(type=ClaimType.BELIEF)
    assert found(q="open", type="belief") == {3, 6}


def test_an_index_as_this_release_makes_it_is_left_alone(speakers):
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's tables and triggers")
    with CaptureQueriesContext(connection) as queries:
        search_index.install(connection)
    changes = [
        query["sql"]
        for query in queries.captured_queries
        if query["sql"].lstrip().startswith(("DROP", "INSERT"))
    ]
    assert changes == []


def test_vectors_are_made_again_without_the_sites_time_limit(speakers):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite has no statement timeout")
    with connection.cursor() as cursor:
        vectors_of_the_excerpt_only(cursor)
        assert found(q="Ada Example") == set()
        # A limit the rewrite of every claim's vector would outlast at a million claims.
        cursor.execute("SET LOCAL statement_timeout = 1")

        search_index.install(connection)

        cursor.execute("SHOW statement_timeout")
        assert cursor.fetchone() == ("0",)
    assert found(q="Ada Example") == {1, 3, 5}


def test_a_failed_rewrite_of_the_vectors_is_done_again_by_the_next_install(speakers):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite's index has no vectors to rewrite")
    with connection.cursor() as cursor:
        vectors_of_the_excerpt_only(cursor)
        # Stands for a rewrite cancelled halfway.
        cursor.execute(
            "CREATE FUNCTION refuse() RETURNS trigger AS $$ BEGIN "
            "RAISE EXCEPTION 'cancelled'; END $$ LANGUAGE plpgsql"
        )
        cursor.execute(
            "CREATE TRIGGER refuse BEFORE UPDATE ON claims_claim "
            "FOR EACH ROW EXECUTE FUNCTION refuse()"
        )
        with pytest.raises(DatabaseError, match="cancelled"):
            search_index.install(connection)
        cursor.execute("DROP TRIGGER refuse ON claims_claim")

        search_index.install(connection)

    assert found(q="Ada Example") == {1, 3, 5}
