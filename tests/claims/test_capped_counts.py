"""Counts that stop at a cap: the claims browser, its facets and the admin changelist.

The caps are 10,000 in production, 1,000 with search text; these tests lower them so a
handful of claims crosses them.
"""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from claims.models import Claim
from claims.pagination import AtLeast, CappedPaginator, Exactly
from tests.factories import make_claim, make_episode, make_podcast, make_speaker

URL = reverse("claims:claim_list")


@pytest.fixture
def seven_claims(db):
    """Seven published claims about rates, one per episode, the newest aired last.

    The oldest says "rates" three times, so it ranks first by relevance.
    """
    speaker = make_speaker(name="Ada Example", slug="ada-example")
    claims = [
        make_claim(
            make_episode(air_date=f"2026-01-0{day}"),
            speaker,
            excerpt="Rates, rates and rates again." if day == 1 else f"Rates moved on day {day}.",
        )
        for day in range(1, 8)
    ]
    return claims


def ledger_count(response):
    return re.search(r'class="ledger-count"[^>]*>(\S+) published claim', response.content.decode())[
        1
    ]


def numbers_in_order(response):
    """The claims shown, as (episode title) in page order."""
    return re.findall(r"Example Episode \d+", response.content.decode())


def test_a_count_below_the_cap_is_exact(seven_claims):
    count = CappedPaginator(Claim.objects.order_by("pk"), 20, cap=10).count

    assert count == 7
    assert isinstance(count, Exactly)
    assert str(count) == "7"


def test_a_count_past_the_cap_stops_there_and_says_so(seven_claims):
    paginator = CappedPaginator(Claim.objects.order_by("pk"), 2, cap=5)

    assert paginator.count == 5
    assert isinstance(paginator.count, AtLeast)
    assert str(paginator.count) == "5+"
    assert paginator.num_pages == 3


def test_the_capped_count_reads_at_most_cap_plus_one_rows(seven_claims):
    with CaptureQueriesContext(connection) as queries:
        count = CappedPaginator(Claim.objects.order_by("pk"), 20, cap=5).count

    assert count == 5
    assert len(queries) == 1
    assert "LIMIT 6" in queries[0]["sql"]


def test_the_claims_browser_shows_a_capped_count_with_a_plus(client, seven_claims, cap):
    response = client.get(URL)

    assert ledger_count(response) == "5+"


def test_the_claims_browser_shows_an_exact_count_below_the_cap(client, seven_claims, cap):
    response = client.get(URL, {"aired_to": "2026-01-03"})

    assert ledger_count(response) == "3"


def test_a_search_with_more_matches_than_the_cap_is_shown_newest_first(client, seven_claims, cap):
    response = client.get(URL, {"q": "rates"})

    assert ledger_count(response) == "5+"
    assert "shown newest first, not ranked by relevance" in response.content.decode()
    # Pages run to the cap: the five newest, newest first.
    newest = [str(claim.episode) for claim in reversed(seven_claims)][:5]
    assert list(dict.fromkeys(numbers_in_order(response))) == newest


def test_a_search_with_fewer_matches_than_the_cap_is_ranked(client, seven_claims, cap):
    response = client.get(URL, {"q": "rates", "aired_to": "2026-01-04"})

    assert ledger_count(response) == "4"
    assert "not ranked by relevance" not in response.content.decode()
    assert numbers_in_order(response)[0] == str(seven_claims[0].episode)


@pytest.mark.parametrize("order", ["newest", "oldest"])
def test_a_search_in_date_order_scores_no_match(client, seven_claims, order):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(URL, {"q": "rates", "order": order})

    by_air_date = [str(claim.episode) for claim in seven_claims]
    if order == "newest":
        by_air_date.reverse()
    assert list(dict.fromkeys(numbers_in_order(response))) == by_air_date
    scoring = [q["sql"] for q in queries if "bm25(" in q["sql"] or "ts_rank(" in q["sql"]]
    assert scoring == []


def test_facets_past_the_sample_size_count_the_latest_claims_and_say_so(client, seven_claims, cap):
    response = client.get(URL)
    html = response.content.decode()

    assert "Counts among the 4 most recently added matching claims." in html
    # Every claim is an evaluation by Ada Example; the sample holds four of the seven.
    assert re.search(r'evaluation <span class="facet-count">4</span>', html)


@pytest.fixture
def added_before_older_episodes(db):
    """Seven claims added in the reverse of their episodes' order: the newest aired
    first. The four newest aired are predictions, the three oldest evaluations."""
    return [
        make_claim(
            make_episode(air_date=f"2026-02-0{day}"),
            type="prediction" if day > 3 else "evaluation",
            excerpt=f"Rates moved on day {day}.",
        )
        for day in range(7, 0, -1)
    ]


def test_facets_within_a_range_of_air_dates_count_the_latest_aired(
    client, added_before_older_episodes, cap
):
    response = client.get(URL, {"aired_from": "2026-02-01"})
    html = response.content.decode()

    assert ledger_count(response) == "5+"
    assert "Counts among the 4 most recently aired matching claims." in html
    # By id, the sample would be the three evaluations and the oldest prediction.
    assert re.search(r'prediction <span class="facet-count">4</span>', html)
    assert 'value="evaluation"' not in html


def test_facets_of_a_podcast_count_its_latest_aired(client, db, cap):
    show = make_podcast(slug="the-show")
    for day in range(7, 0, -1):
        make_claim(
            make_episode(show, air_date=f"2026-02-0{day}"),
            type="prediction" if day > 3 else "evaluation",
        )

    response = client.get(URL, {"podcast": "the-show"})
    html = response.content.decode()

    assert ledger_count(response) == "5+"
    assert "Counts among the 4 most recently aired matching claims." in html
    assert re.search(r'prediction <span class="facet-count">4</span>', html)
    assert 'value="evaluation"' not in html


def test_a_search_within_a_range_of_air_dates_samples_as_its_index_walks(
    client, added_before_older_episodes, cap
):
    response = client.get(URL, {"q": "rates", "aired_from": "2026-02-01"})
    html = response.content.decode()

    if connection.vendor == "sqlite":
        # In the order SQLite's full-text index hands its matches over, by id.
        assert "Counts among the 4 most recently added matching claims." in html
        assert re.search(r'evaluation <span class="facet-count">3</span>', html)
        assert re.search(r'prediction <span class="facet-count">1</span>', html)
    else:
        # PostgreSQL's hands them over in no order: walked newest aired first, a common
        # word's matches in an old range of dates no longer lie behind every newer one.
        assert "Counts among the 4 most recently aired matching claims." in html
        assert re.search(r'prediction <span class="facet-count">4</span>', html)
        assert not re.search(r'evaluation <span class="facet-count">', html)


def test_a_speaker_facet_in_use_counts_what_choosing_the_speaker_shows(client, seven_claims, cap):
    # The two newest claims are unresolved voices: a sample of the four newest claims
    # would hold only two of Ada's three claims since the 5th.
    for day in (8, 9):
        make_claim(make_episode(air_date=f"2026-01-0{day}"), attribution="unresolved")
    response = client.get(URL, {"speaker": "ada-example", "aired_from": "2026-01-05"})
    html = response.content.decode()

    assert ledger_count(response) == "3"
    assert re.search(r'Ada Example</strong> <span class="facet-count">3</span>', html)
    assert "Counts among the" not in html


def test_every_public_claim_is_counted_from_the_kept_counts(client, seven_claims, cap):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(URL, {"order": "oldest"})

    assert ledger_count(response) == "5+"
    # No pass reads the cap's six claims: the facets read their sample of four, and one more.
    passes = [q["sql"] for q in queries if "WITH matches" in q["sql"]]
    assert len(passes) == 1
    assert "LIMIT 5" in passes[0]


def test_a_facet_in_use_reads_only_its_sample(client, seven_claims, cap):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(URL, {"attribution": "identified"})

    assert ledger_count(response) == "5+"
    passes = [q["sql"] for q in queries if "WITH matches" in q["sql"]]
    # The count reads up to the cap and one more; the attribution facet, its sample and
    # one more.
    assert ["LIMIT 6" in sql for sql in passes] == [True, False]
    assert "LIMIT 5" in passes[1]


@pytest.mark.parametrize(
    "params, passes",
    [
        # The matches' facets; the speaker facet, in use.
        ({"speaker": "ada-example"}, 2),
        # The type facet, in use, besides.
        ({"speaker": "ada-example", "type": "evaluation"}, 3),
    ],
)
def test_a_speakers_claims_are_counted_from_their_kept_mix(
    client, seven_claims, cap, params, passes
):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(URL, params)

    assert ledger_count(response) == "5+"
    # No pass reads the cap's six claims: each reads its sample of four, and one more.
    read = [q["sql"] for q in queries if "WITH matches" in q["sql"]]
    assert len(read) == passes
    assert not any("LIMIT 6" in sql for sql in read)


def test_facets_below_the_sample_size_are_exact_and_say_nothing(client, seven_claims, cap):
    response = client.get(URL, {"aired_to": "2026-01-03"})
    html = response.content.decode()

    assert "Counts among the" not in html
    assert re.search(r'evaluation <span class="facet-count">3</span>', html)


def test_the_admin_changelist_counts_claims_up_to_the_cap(
    client, django_user_model, seven_claims, cap
):
    admin = django_user_model.objects.create_superuser("root", "", "a-long-test-password")
    client.force_login(admin)

    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("admin:claims_claim_changelist"))

    assert response.status_code == 200
    assert "5+ claims" in response.content.decode()
    counts = [q["sql"] for q in queries if "COUNT(" in q["sql"].upper()]
    assert counts and all("LIMIT" in sql for sql in counts)
