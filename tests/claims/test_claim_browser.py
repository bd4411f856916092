"""The claims browser at /claims/: filters, facets, search and bad input."""

import datetime
import re
from html import unescape
from urllib.parse import urlencode

import pytest
from django import forms
from django.http import QueryDict
from django.urls import reverse

from claims.browse import ClaimSearch
from claims.filters import ClaimFilter, valid_filters
from claims.models import Attribution, ClaimType
from episodes.models import Status
from tests.claims.plans import plan
from tests.factories import make_claim, make_episode, make_podcast, make_speaker

URL = reverse("claims:claim_list")


def shown_count(response):
    match = re.search(r'class="ledger-count"[^>]*>(\d+) published claim', response.content.decode())
    return int(match.group(1))


def numbers_shown(response):
    return re.findall(r'class="claim-number"[^>]*>(\d+)</a>', response.content.decode())


@pytest.fixture
def ledger(db):
    """Two podcasts, two speakers, an unresolved voice and drafts that must not count."""
    ada = make_speaker(name="Ada Example", slug="ada-example")
    ben = make_speaker(name="Ben Sample", slug="ben-sample")
    show = make_episode(
        podcast=make_podcast(name="Example Show", slug="example-show"),
        title="Example Show One",
        air_date="2026-03-01",
    )
    other = make_episode(
        podcast=make_podcast(name="Sample Hour", slug="sample-hour"),
        title="Sample Hour One",
        air_date="2026-04-01",
    )
    make_claim(
        show, ada, number=1, type=ClaimType.PREDICTION, excerpt="Prices will fall next year."
    )
    make_claim(show, ada, number=2, type=ClaimType.PREDICTION, excerpt="Rents will rise next year.")
    make_claim(show, ben, number=3, type=ClaimType.BELIEF, excerpt="Markets are mostly efficient.")
    make_claim(
        show,
        number=4,
        type=ClaimType.DISAGREEMENT,
        excerpt="That is simply not true.",
        attribution=Attribution.UNRESOLVED,
        unresolved_label="Caller 2",
    )
    make_claim(
        show,
        ada,
        number=5,
        type=ClaimType.PREDICTION,
        excerpt="A draft prediction.",
        status=Status.DRAFT,
    )
    make_claim(other, ben, number=1, type=ClaimType.PREDICTION, excerpt="Rates will fall soon.")
    make_claim(other, ben, number=2, type=ClaimType.RECOMMENDATION, excerpt="Buy the index fund.")
    draft_episode = make_episode(title="Unaired", status=Status.DRAFT)
    make_claim(draft_episode, ada, number=1, type=ClaimType.PREDICTION, excerpt="Hidden forever.")
    return {"ada": ada, "ben": ben, "show": show, "other": other}


def test_lists_every_published_claim_newest_episode_first(client, ledger):
    response = client.get(URL)
    assert shown_count(response) == 6
    assert numbers_shown(response) == ["01", "02", "01", "02", "03", "04"]


def test_several_types_at_once(client, ledger):
    response = client.get(URL, {"type": ["belief", "recommendation"]})
    assert shown_count(response) == 2


def test_filter_by_speaker_slug(client, ledger):
    response = client.get(URL, {"speaker": "ada-example"})
    assert shown_count(response) == 2
    assert "by Ada Example" in response.content.decode()


def test_a_speakers_claims_are_listed_newest_episode_first(client, ledger):
    make_claim(ledger["other"], ledger["ada"], number=3)

    response = client.get(URL, {"speaker": "ada-example"})

    assert numbers_shown(response) == ["03", "01", "02"]


@pytest.mark.parametrize(
    "query, index",
    [
        ("speaker=ada-example", "claim_speaker_record"),
        # A link of the speaker's claim mix, on their page.
        ("speaker=ada-example&type=prediction", "claim_speaker_type_record"),
    ],
)
def test_a_speakers_page_of_claims_is_read_in_order_from_their_index(ledger, query, index):
    search = ClaimSearch(QueryDict(query))

    page = plan(search.ordered()[: search.per_page])

    # Not every claim of a busy speaker, sorted by their episodes' dates.
    assert index in page
    assert "TEMP B-TREE" not in page and "Sort" not in page


def test_filter_by_unresolved_attribution(client, ledger):
    response = client.get(URL, {"attribution": "unresolved"})
    assert shown_count(response) == 1
    assert "Caller 2" in response.content.decode()


def test_filter_by_podcast_and_episode(client, ledger):
    assert shown_count(client.get(URL, {"podcast": "sample-hour"})) == 2
    assert shown_count(client.get(URL, {"episode": ledger["show"].pk})) == 4


def test_filter_by_air_date_range(client, ledger):
    assert shown_count(client.get(URL, {"aired_from": "2026-03-15"})) == 2
    assert shown_count(client.get(URL, {"aired_to": "2026-03-15"})) == 4


def test_an_episode_aired_on_another_day_moves_its_claims_in_a_range_of_dates(client, db):
    # The range is asked of the date each claim keeps of its episode: it must follow.
    earlier = make_claim(make_episode(air_date="2999-03-01"), number=1)
    later = make_claim(make_episode(air_date="2999-06-01"), number=2)
    in_range = {"aired_from": "2999-05-01"}
    assert numbers_shown(client.get(URL, in_range)) == ["02"]

    earlier.episode.air_date = datetime.date(2999, 7, 1)
    earlier.episode.save()

    assert shown_count(client.get(URL, in_range)) == 2
    assert numbers_shown(client.get(URL, in_range)) == ["01", "02"]
    assert numbers_shown(client.get(URL, {**in_range, "order": "oldest"})) == ["02", "01"]
    assert numbers_shown(client.get(URL, {"aired_to": "2999-06-30"})) == ["02"]
    assert later.pk in [c.pk for c in ClaimSearch(QueryDict("aired_to=2999-06-30")).ordered()]


@pytest.mark.parametrize("query", ["aired_from=2026-03-15", "type=prediction&aired_to=2026-03-15"])
def test_a_range_of_air_dates_is_counted_and_read_in_order_from_the_claims_alone(ledger, query):
    search = ClaimSearch(QueryDict(query))

    page = plan(search.ordered()[: search.per_page])
    counted = plan(search.without(None).order_by().values("pk"))

    # Not every claim of the range joined to its episode to be counted, or sorted: an
    # index of the claims' dates (claim_published_aired, or _type_aired) serves both.
    assert "TEMP B-TREE" not in page and "Sort" not in page
    assert "episodes_episode" not in counted


def test_oldest_first(client, ledger):
    response = client.get(URL, {"order": "oldest"})
    assert numbers_shown(response) == ["01", "02", "03", "04", "01", "02"]


def test_type_facets_count_published_claims_only_in_a_stable_order(client, ledger):
    response = client.get(URL)
    assert response.context["search"].facets["type"] == [
        (ClaimType.BELIEF, 1, False),
        (ClaimType.PREDICTION, 3, False),
        (ClaimType.RECOMMENDATION, 1, False),
        (ClaimType.DISAGREEMENT, 1, False),
    ]


def test_each_facet_count_is_what_its_choice_shows(client, ledger):
    facets = client.get(URL, {"podcast": "example-show"}).context["search"].facets
    assert all(facets[name] for name in ("type", "speaker", "attribution", "podcast"))
    for claim_type, count, _ in facets["type"]:
        assert (
            shown_count(client.get(URL, {"podcast": "example-show", "type": claim_type})) == count
        )
    for slug, _name, count in facets["speaker"]:
        assert shown_count(client.get(URL, {"podcast": "example-show", "speaker": slug})) == count
    for value, _label, count in facets["attribution"]:
        assert (
            shown_count(client.get(URL, {"podcast": "example-show", "attribution": value})) == count
        )
    for slug, _name, count in facets["podcast"]:
        assert shown_count(client.get(URL, {"podcast": slug})) == count


@pytest.fixture
def fourteen_podcasts(db):
    """Podcast n has n published claims, so the largest facets are the last podcasts made."""
    podcasts = [make_podcast(name=f"Show {n:02d}", slug=f"show-{n:02d}") for n in range(1, 15)]
    for count, podcast in enumerate(podcasts, start=1):
        episode = make_episode(podcast=podcast)
        for _ in range(count):
            make_claim(episode)
    return podcasts


def test_the_podcast_facet_lists_the_twelve_with_the_most_claims(client, fourteen_podcasts):
    facets = client.get(URL).context["search"].facets

    assert [slug for slug, _name, _count in facets["podcast"]] == [
        f"show-{n:02d}" for n in range(14, 2, -1)
    ]


def test_speakers_with_as_many_claims_are_listed_by_slug_up_to_the_twelve(client, db):
    episode = make_episode()
    busiest = make_speaker(name="Speaker X", slug="speaker-x")
    make_claim(episode, busiest)
    make_claim(episode, busiest)
    for n in range(14, 0, -1):  # made in reverse order of their slugs
        make_claim(episode, make_speaker(name=f"Speaker {n:02d}", slug=f"speaker-{n:02d}"))

    facets = client.get(URL).context["search"].facets

    assert [slug for slug, _name, _count in facets["speaker"]] == [
        "speaker-x",
        *(f"speaker-{n:02d}" for n in range(1, 12)),
    ]


def test_the_podcast_facet_counts_the_claims_of_all_its_episodes(client, db):
    for slug, claims_per_episode in (("long-show", (2, 3)), ("short-show", (1,))):
        podcast = make_podcast(name=slug.title(), slug=slug)
        for count in claims_per_episode:
            episode = make_episode(podcast=podcast)
            for _ in range(count):
                make_claim(episode)

    facets = client.get(URL).context["search"].facets

    assert facets["podcast"] == [("long-show", "Long-Show", 5), ("short-show", "Short-Show", 1)]
    assert all(type(count) is int for _slug, _name, count in facets["podcast"])


def test_an_episode_moved_to_another_podcast_is_counted_by_that_podcast_in_its_facet(client, db):
    moved = make_episode(podcast=make_podcast(name="Old Show", slug="old-show"))
    make_claim(moved)
    make_claim(moved)
    make_claim(make_episode(podcast=moved.podcast))

    moved.podcast = make_podcast(name="New Show", slug="new-show")
    moved.save()

    for search in ({}, {"q": "exact excerpt"}):
        facets = client.get(URL, search).context["search"].facets
        assert facets["podcast"] == [("new-show", "New Show", 2), ("old-show", "Old Show", 1)]


def test_a_chosen_podcast_stays_in_its_facet_past_the_twelve(client, fourteen_podcasts):
    response = client.get(URL, {"podcast": "show-01"})

    assert response.context["search"].facets["podcast"][-1] == ("show-01", "Show 01", 1)
    assert 'aria-label="Remove the podcast filter"' in response.content.decode()


def test_facets_follow_the_search(client, ledger):
    facets = client.get(URL, {"q": "fall"}).context["search"].facets
    assert facets["type"] == [(ClaimType.PREDICTION, 2, False)]
    assert facets["speaker"] == [("ada-example", "Ada Example", 1), ("ben-sample", "Ben Sample", 1)]


def test_search_highlights_the_matched_words(client, ledger):
    response = client.get(URL, {"q": "falling"})
    assert shown_count(response) == 2
    assert "Prices will <mark>fall</mark> next year." in response.content.decode()


def test_search_offers_matching_speakers(client, ledger):
    response = client.get(URL, {"q": "sample"})
    assert "Speakers matching “sample”" in response.content.decode()
    assert response.context["search"].matching_speakers == [ledger["ben"]]


def test_a_query_of_common_words_says_why_nothing_matched(client, ledger):
    response = client.get(URL, {"q": "the and"})
    assert shown_count(response) == 0
    assert "“the and” is too common to search" in response.content.decode()


def test_only_exclusions_says_a_word_is_needed(client, ledger):
    response = client.get(URL, {"q": "-fall"})
    assert shown_count(response) == 0
    assert "needs at least one word to look for" in response.content.decode()


def test_unknown_type_is_ignored_with_a_message_and_other_filters_kept(client, ledger):
    response = client.get(URL, {"type": "bogus", "podcast": "sample-hour"})
    assert response.status_code == 200
    assert shown_count(response) == 2
    assert "“bogus” is not a claim type, so it was ignored." in response.content.decode()


def test_unknown_speaker_is_ignored_with_a_message(client, ledger):
    response = client.get(URL, {"speaker": "999999"})
    assert shown_count(response) == 6
    assert "“999999” is not a speaker in the public record, so it was ignored." in (
        response.content.decode()
    )


def test_a_speaker_with_only_drafts_cannot_be_filtered_on(client, ledger):
    make_claim(speaker=make_speaker(name="Dana Draft", slug="dana-draft"), status=Status.DRAFT)
    response = client.get(URL, {"speaker": "dana-draft"})
    assert "Dana Draft" not in response.content.decode()
    assert "“dana-draft” is not a speaker in the public record" in response.content.decode()


def test_a_speaker_whose_one_claim_is_retracted_is_refused_on_the_next_request(client, ledger):
    # The filters' form fields serve every request (claims.filters._cleaned): none may
    # keep an answer from an earlier one.
    claim = make_claim(speaker=make_speaker(name="Dana Later", slug="dana-later"))
    assert shown_count(client.get(URL, {"speaker": "dana-later"})) == 1

    claim.retract("Misheard: the host said it.")

    response = client.get(URL, {"speaker": "dana-later"})
    assert "“dana-later” is not a speaker in the public record" in response.content.decode()
    assert shown_count(response) == 6


def test_a_refused_value_leaves_the_others_looked_up_once(ledger, django_assert_num_queries):
    good = {"speaker": "ada-example", "podcast": "example-show"}
    with django_assert_num_queries(2):  # the speaker and the podcast
        chosen, problems = valid_filters(QueryDict(urlencode(good)))
    with django_assert_num_queries(2):
        refused, problems = valid_filters(
            QueryDict(urlencode({**good, "type": ["bogus", "belief"], "episode": "nowhere"}, True))
        )

    assert problems == [
        "“bogus” is not a claim type, so it was ignored.",
        "“nowhere” is not a published episode, so it was ignored.",
    ]
    assert list(refused.cleaned_data) == list(chosen.cleaned_data)
    assert refused.cleaned_data["type"] == ["belief"]
    assert refused.cleaned_data["speaker"] == chosen.cleaned_data["speaker"]
    assert refused.cleaned_data["podcast"] == chosen.cleaned_data["podcast"]


def test_the_filters_form_has_no_checks_of_its_own_that_cleaning_would_skip():
    # claims.filters._cleaned cleans the shared fields one by one, as a bound form does
    # before its clean() and clean_<name>() hooks, which it never runs: a check added
    # there must be added to _cleaned too, or the page would let through what it refuses.
    form = ClaimFilter.form_class()

    assert form.clean is forms.Form.clean
    assert [name for name in dir(form) if name.startswith("clean_")] == []


@pytest.mark.parametrize(
    "params",
    [
        {"page": "abc"},
        {"page": "-1"},
        {"page": "99999"},
        {"q": ""},
        {"q": "   "},
        {"q": "x" * 10_000},
        {"q": "\" & | ! ( ) : * '"},
        {"q": "fall\x00rise"},
        {"q": "fall -fall"},
        {"q": "fall " * 60},
        {"q": "ﬁnance 🤖 Ωmega ́"},
        {"aired_from": "2026-13-45"},
        {"order": "sideways"},
        {"episode": "not-a-number"},
        {"type": ["prediction", "prediction"]},
    ],
)
def test_hostile_input_gets_a_page_not_an_error(client, ledger, params):
    response = client.get(URL, params)
    assert response.status_code == 200
    assert "\x00" not in response.content.decode()


def test_a_search_that_leaves_out_its_own_word_says_nothing_matches(client, ledger):
    html = client.get(URL, {"q": "fall -fall"}).content.decode()

    assert "No published claim matches “fall -fall” with these filters." in html


def test_a_very_long_query_is_shortened_with_a_notice(client, ledger):
    response = client.get(URL, {"q": "fall " * 2000})
    assert "only its first 300 characters were used" in response.content.decode()


def test_search_redirects_to_the_browser_keeping_the_query(client, db):
    response = client.get("/search/", {"q": "fall"})
    assert response.status_code == 302
    assert response["Location"] == "/claims/?q=fall"


def test_the_episode_claim_mix_links_to_those_claims(client, ledger):
    episode_page = client.get(ledger["show"].get_absolute_url()).content.decode()
    link = f"/claims/?episode={ledger['show'].pk}&amp;type=prediction"
    assert link in episode_page
    assert shown_count(client.get(link.replace("&amp;", "&"))) == 2


def _grow(episodes, claims_each):
    speakers = [make_speaker() for _ in range(5)]
    for _ in range(episodes):
        episode = make_episode()
        for n in range(claims_each):
            make_claim(episode, speakers[n % 5], excerpt=f"Prices will fall in case {n}.")


@pytest.mark.parametrize("size", [(1, 3), (6, 15)])
def test_query_count_is_the_same_whatever_the_data_size(
    client, ledger, django_assert_num_queries, size
):
    _grow(*size)
    params = {
        "q": "fall",
        "type": "prediction",
        "speaker": "ada-example",
        "podcast": "example-show",
    }
    # The ledger's version (page cache key), speaker and podcast lookups (form
    # validation), one pass counting the matches and the attribution facet, one
    # pass for each facet in use (type, speaker, podcast), the page's ids by
    # relevance, their rows, their highlights, matching speakers, matching episodes.
    with django_assert_num_queries(12):
        client.get(URL, params)
    # Without a search or lookups: version, the ledger's kept count of public claims,
    # one pass (the facets, over the newest claims only), page rows.
    with django_assert_num_queries(4):
        client.get(URL)


def test_a_phrase_is_quoted_once_in_the_headings(client, ledger):
    html = client.get(URL, {"q": '"ben sample" -rates'}).content.decode()

    assert "<title>“ben sample” -rates · Search evidence" in html
    assert "Claims matching “ben sample” -rates</h1>" in html
    assert "Speakers matching “ben sample” -rates:" in html
    assert "“&quot;" not in html


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"type": "bogus"}, "“bogus” is not a claim type, so it was ignored."),
        (
            {"podcast": "nowhere"},
            "“nowhere” is not a podcast in the public record, so it was ignored.",
        ),
        ({"episode": "abc"}, "“abc” is not a published episode, so it was ignored."),
        (
            {"attribution": "maybe"},
            "“maybe” is not an attribution (identified or unresolved), so it was ignored.",
        ),
        (
            {"aired_from": "2026-13-45"},
            "“2026-13-45” is not a date like 2026-03-01, so it was ignored.",
        ),
        ({"aired_to": "soon"}, "“soon” is not a date like 2026-03-01, so it was ignored."),
        (
            {"order": "sideways"},
            "“sideways” is not an order (relevance, newest or oldest), so it was ignored.",
        ),
        ({"page": "abc"}, "“abc” is not a page number, so the first page is shown."),
        ({"page": "-1"}, "“-1” is not a page number, so the first page is shown."),
        ({"page": "9"}, "There is no page 9 of these claims, so the last, page 1, is shown."),
    ],
)
def test_a_bad_value_is_explained_in_plain_words(client, ledger, params, message):
    response = client.get(URL, params)

    assert response.context["search"].problems == [message]
    assert shown_count(response) == 6


def test_a_bad_type_among_good_ones_leaves_the_good_ones_chosen(client, ledger):
    response = client.get(URL, {"type": ["prediction", "bogus"]})

    assert response.context["search"].problems == [
        "“bogus” is not a claim type, so it was ignored."
    ]
    assert shown_count(response) == 3


def test_each_result_says_where_it_matched(client, ledger):
    html = unescape(client.get(URL, {"q": "example", "order": "oldest"}).content.decode())

    # Every claim of "Example Show One" matches on its title; Ada's also on her name.
    assert html.count("Matched in the speaker's name and the episode title, not the excerpt.") == 2
    assert html.count("Matched in the episode title, not the excerpt.") == 2


def test_a_result_matching_in_the_excerpt_says_where_else_it_matched(client, ledger):
    html = unescape(client.get(URL, {"q": "fall ada"}).content.decode())

    assert "Prices will <mark>fall</mark> next year." in html
    assert "Also matched in the speaker's name." in html
