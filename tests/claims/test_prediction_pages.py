"""/predictions/, a speaker's track record, prediction cards and the browser's prediction filters.

Horizons are set from today, so "overdue" and "due soon" mean the same on any day
the suite runs.
"""

import datetime
import re

import pytest
from django.db import connection
from django.http import QueryDict
from django.urls import reverse
from django.utils import timezone

from claims.choices import ClaimType, Resolution
from claims.prediction_pages import (
    PER_OUTCOME,
    TRACK_RECORD_SIZE,
    outcome_counts,
    public_predictions,
    valid_filters,
)
from episodes import podcast_choices
from episodes.models import Episode, Status
from tests.claims.plans import plan
from tests.factories import (
    SOURCE,
    make_claim,
    make_episode,
    make_podcast,
    make_prediction,
    make_speaker,
    resolve,
)

PREDICTIONS = reverse("claims:prediction_list")
BROWSER = reverse("claims:claim_list")


def days(n):
    return timezone.localdate() + datetime.timedelta(days=n)


@pytest.fixture
def ledger(db):
    ada = make_speaker(name="Ada Example", slug="ada-example")
    ben = make_speaker(name="Ben Sample", slug="ben-sample")
    show = make_episode(make_podcast(name="Example Show", slug="example-show"))
    other = make_episode(make_podcast(name="Sample Hour", slug="sample-hour"))
    make_prediction(show, ada, horizon=days(-30), excerpt="Overdue by a month.")
    make_prediction(show, ben, horizon=days(20), excerpt="Due in three weeks.")
    make_prediction(show, ada, horizon=days(400), excerpt="Due in over a year.")
    make_prediction(show, ada, excerpt="Someday, no horizon.")
    resolve(make_prediction(other, ada, excerpt="It came true."), Resolution.CAME_TRUE)
    resolve(make_prediction(other, ben, excerpt="It did not."), Resolution.DID_NOT_COME_TRUE)
    make_claim(show, ada, type=ClaimType.BELIEF, excerpt="Not a prediction at all.")
    # Nothing of these may show or count anywhere.
    make_prediction(show, ada, horizon=days(-10), status=Status.DRAFT, excerpt="A draft, overdue.")
    resolve(
        make_prediction(make_episode(status=Status.DRAFT), ada, excerpt="In a draft episode."),
        Resolution.CAME_TRUE,
    )
    return {"ada": ada, "ben": ben}


def section(response, heading_id):
    """The page from a heading (by its id) to the next h2."""
    html = response.content.decode()
    start = html.index(f'id="{heading_id}"')
    end = html.find("<h2", start)
    return html[start : end if end > 0 else None]


def test_overdue_and_due_soon_predictions_are_listed_in_their_sections(client, ledger):
    response = client.get(PREDICTIONS)

    overdue, soon = section(response, "overdue-heading"), section(response, "due-soon-heading")
    assert "Overdue by a month." in overdue and "Due in three weeks." not in overdue
    assert "Due in three weeks." in soon and "Due in over a year." not in soon
    assert "open, <strong>overdue</strong>" in overdue


def test_resolved_predictions_are_grouped_by_outcome_with_their_sources(client, ledger):
    resolved = section(client.get(PREDICTIONS), "resolved-heading")

    assert resolved.index(">Came true <") < resolved.index("It came true.")
    assert resolved.index("It came true.") < resolved.index(">Did not come true <")
    assert f'<a href="{SOURCE["url"]}" rel="external noopener">{SOURCE["title"]}</a>' in resolved


def test_drafts_and_draft_episodes_never_appear_or_count_on_the_predictions_page(client, ledger):
    response = client.get(PREDICTIONS)

    assert "draft" not in response.content.decode().lower()
    assert response.context["counts"]["overdue"] == 1
    assert response.context["counts"][Resolution.CAME_TRUE] == 1


@pytest.mark.parametrize("name", ["Cy Belief", "Di Draft", "Ed Hidden"])
def test_the_speaker_filter_ignores_speakers_without_a_public_prediction(client, ledger, name):
    make_claim(speaker=make_speaker(name="Cy Belief"), type=ClaimType.BELIEF)
    make_prediction(speaker=make_speaker(name="Di Draft"), status=Status.DRAFT)
    make_prediction(make_episode(status=Status.DRAFT), make_speaker(name="Ed Hidden"))

    html = client.get(PREDICTIONS, {"speaker": name}).content.decode()

    assert f"Speaker was ignored: No one called “{name}” has a public prediction." in html
    assert "Overdue by a month." in html


def test_the_speaker_filter_is_a_labelled_text_box_not_a_list_of_everyone(client, ledger):
    html = client.get(PREDICTIONS).content.decode()

    assert '<label for="id_speaker">Speaker</label> <input type="text" name="speaker"' in html
    assert "<select" in html  # the podcasts and outcomes
    assert '<select name="speaker"' not in html and "<option>Ada Example" not in html


def test_the_podcast_filter_offers_only_podcasts_with_a_public_prediction(client, ledger):
    make_claim(make_episode(make_podcast(name="Beliefs Only")), type=ClaimType.BELIEF)
    make_prediction(make_episode(make_podcast(name="Draft Claim")), status=Status.DRAFT)
    make_prediction(make_episode(make_podcast(name="Draft Episode"), status=Status.DRAFT))

    html = client.get(PREDICTIONS).content.decode()

    podcasts = html[html.index('<select name="podcast"') : html.index("</select>")]
    assert re.findall(r"<option[^>]*>([^<]*)</option>", podcasts) == [
        "Any podcast",
        "Example Show",
        "Sample Hour",
    ]


def test_the_podcast_filter_offers_those_with_most_predictions_and_the_chosen_one(
    client, ledger, monkeypatch
):
    monkeypatch.setattr(podcast_choices, "OFFERED", 1)

    offered = client.get(PREDICTIONS).content.decode()
    chosen = client.get(PREDICTIONS, {"podcast": "sample-hour"}).content.decode()

    def podcasts(html):
        return html[html.index('<select name="podcast"') : html.index("</select>")]

    # Example Show has four public predictions, Sample Hour two.
    assert re.findall(r'<option value="([^"]+)"', podcasts(offered)) == ["example-show"]
    assert 'aria-describedby="podcast-hint"' in offered
    assert 'most predictions; every one is on <a href="/podcasts/">the podcasts’ page' in offered
    assert re.findall(r'<option value="([^"]+)"( selected)?', podcasts(chosen)) == [
        ("example-show", ""),
        ("sample-hour", " selected"),
    ]


def test_the_podcast_filter_selects_the_chosen_podcast_and_escapes_names(client, ledger):
    make_prediction(make_episode(make_podcast(name="Zany <i>Odds</i> & Ends", slug="odds")))

    html = client.get(PREDICTIONS, {"podcast": "sample-hour"}).content.decode()

    podcasts = html[html.index('<select name="podcast"') : html.index("</select>")]
    assert re.findall(r'<option value="([^"]*)"( selected)?>([^<]*)</option>', podcasts) == [
        ("", "", "Any podcast"),
        ("example-show", "", "Example Show"),
        ("sample-hour", " selected", "Sample Hour"),
        ("odds", "", "Zany &lt;i&gt;Odds&lt;/i&gt; &amp; Ends"),
    ]


def test_the_speaker_filter_finds_a_speaker_by_name_in_any_case(client, ledger):
    html = client.get(PREDICTIONS, {"speaker": "  ben   SAMPLE "}).content.decode()

    assert "Due in three weeks." in html and "Overdue by a month." not in html
    assert 'id="id_speaker" value="Ben Sample"' in html


def test_a_link_to_a_speakers_predictions_shows_their_name_in_the_filter(client, ledger):
    html = client.get(PREDICTIONS, {"speaker": "ben-sample"}).content.decode()

    assert "Due in three weeks." in html and "Overdue by a month." not in html
    assert 'id="id_speaker" value="Ben Sample"' in html


def test_a_name_nobody_has_suggests_the_speakers_whose_names_hold_its_words(client, ledger):
    html = client.get(PREDICTIONS, {"speaker": "sample"}).content.decode()

    assert "Speaker was ignored: No one called “sample” has a public prediction." in html
    assert '<a href="?speaker=ben-sample">Ben Sample</a>' in html
    assert 'id="id_speaker" value="sample"' in html


def test_two_speakers_of_the_same_name_are_told_apart(client, ledger):
    other = make_speaker(name="Ada Example", slug="ada-example-2", description="The other one")
    make_prediction(speaker=other)

    html = client.get(PREDICTIONS, {"speaker": "Ada Example"}).content.decode()

    assert "More than one speaker is called “Ada Example”: choose one below." in html
    assert '<a href="?speaker=ada-example">Ada Example</a>' in html
    assert (
        '<a href="?speaker=ada-example-2">Ada Example</a> <span class="muted">(The other one)'
        in html
    )
    chosen = client.get(PREDICTIONS, {"speaker": "ada-example"}).content.decode()
    assert "Overdue by a month." in chosen


@pytest.mark.parametrize("typed", ["\x00", "x" * 500, "<b>Ada</b>", "%", "_"])
def test_anything_typed_as_a_speaker_gets_the_page_and_a_message(client, ledger, typed):
    response = client.get(PREDICTIONS, {"speaker": typed})

    assert response.status_code == 200
    assert "Overdue by a month." in response.content.decode()
    assert "<b>Ada</b>" not in response.content.decode()


def test_an_ignored_speaker_leaves_the_other_filters_in_place(client, ledger):
    html = client.get(PREDICTIONS, {"speaker": "nobody", "podcast": "sample-hour"}).content.decode()

    assert "Speaker was ignored" in html
    assert "It did not." in html and "Overdue by a month." not in html


@pytest.mark.parametrize(
    ("query", "dropped", "kept"),
    [
        ("speaker=nobody&podcast=sample-hour&outcome=came_true", "speaker", None),
        ("speaker=ada-example&podcast=no-such-show&outcome=came_true", "podcast", None),
        ("speaker=ada-example&podcast=sample-hour&outcome=bogus", "outcome", ""),
    ],
)
def test_a_dropped_filter_value_leaves_the_others_looked_up_once(
    ledger, django_assert_num_queries, query, dropped, kept
):
    # One lookup of the speaker, one of the podcast, whichever of them is dropped.
    with django_assert_num_queries(2):
        filters, ignored = valid_filters(QueryDict(query))

    chosen = {
        name: getattr(value, "slug", value) for name, value in filters.form.cleaned_data.items()
    }
    expected = {"speaker": "ada-example", "podcast": "sample-hour", "outcome": "came_true"}
    assert list(ignored) == [dropped]
    assert chosen == expected | {dropped: kept}


def test_the_predictions_page_filters_by_speaker_podcast_and_outcome(client, ledger):
    by_ben = client.get(PREDICTIONS, {"speaker": "ben-sample"})
    in_other = client.get(PREDICTIONS, {"podcast": "sample-hour"})
    came_true = client.get(PREDICTIONS, {"outcome": "came_true"})

    assert "Overdue by a month." not in by_ben.content.decode()
    assert "Due in three weeks." in by_ben.content.decode()
    assert "Overdue by a month." not in in_other.content.decode()
    assert "It did not." in in_other.content.decode()
    assert "It came true." in came_true.content.decode()
    assert "It did not." not in came_true.content.decode()


def test_a_speaker_not_in_the_predictions_is_ignored_with_a_message(client, ledger):
    response = client.get(PREDICTIONS, {"speaker": "nobody"})

    assert "Overdue by a month." in response.content.decode()
    assert "Speaker was ignored" in response.content.decode()


def test_a_prediction_falls_overdue_the_day_after_its_horizon_with_nothing_written(
    client, ledger, monkeypatch
):
    in_three_weeks = days(21)
    monkeypatch.setattr("django.utils.timezone.localdate", lambda: in_three_weeks)

    response = client.get(PREDICTIONS)

    assert "Due in three weeks." in section(response, "overdue-heading")
    assert (response.context["counts"]["overdue"], response.context["counts"]["soon"]) == (2, 0)
    assert "2 overdue · 0 due within 90 days · 1 came true · 1 did not come true" in (
        response.content.decode()
    )


@pytest.mark.parametrize(
    "params",
    [{}, {"outcome": "came_true"}, {"outcome": "open"}, {"podcast": "example-show"}],
)
def test_the_counts_are_those_of_the_predictions_shown(client, ledger, params):
    counts = client.get(PREDICTIONS, params).context["counts"]

    predictions = public_predictions()
    if "outcome" in params:
        predictions = predictions.filter(resolution=params["outcome"])
    if "podcast" in params:
        predictions = predictions.filter(episode__podcast__slug=params["podcast"])
    assert counts == outcome_counts(predictions, timezone.localdate())


def test_the_page_counts_every_public_prediction_in_one_query_of_the_counts_kept(
    client, ledger, django_assert_num_queries
):
    for n in range(5):
        make_prediction(horizon=days(n - 2))
    # The version; the counts kept; the overdue and due-soon lists; the latest of the
    # two outcomes resolved; the podcasts to choose from.
    with django_assert_num_queries(7) as captured:
        client.get(PREDICTIONS)

    counting = captured.captured_queries[1]["sql"]
    assert "claims_predictioncount" in counting and "claims_claim" not in counting


@pytest.mark.parametrize("extra", [0, 6])
def test_the_predictions_page_runs_the_same_queries_whatever_the_data_size(
    client, ledger, django_assert_num_queries, extra
):
    for n in range(extra):
        resolve(make_prediction(horizon=days(-n - 1)), Resolution.PARTLY)
        make_prediction(horizon=days(-n - 1))
    # The ledger's version (page cache key); the speaker lookup (filter validation);
    # the counts of every section and outcome; the overdue and due-soon lists; the
    # resolved, by outcome; the podcasts for the filter's choices.
    with django_assert_num_queries(7):
        client.get(PREDICTIONS, {"speaker": "ada-example"})


@pytest.mark.parametrize("extra", [1, 4])
def test_each_outcome_lists_its_latest_in_one_query_of_its_own(
    client, ledger, django_assert_num_queries, monkeypatch, extra
):
    for outcome in (Resolution.PARTLY, Resolution.CANNOT_BE_RESOLVED):
        for n in range(extra):
            resolve(make_prediction(excerpt=f"{outcome.label}, {n}."), outcome)
    monkeypatch.setattr("claims.prediction_pages.PER_OUTCOME", 2)
    # The version; the counts kept; the overdue and due-soon lists; one list for each of
    # the four outcomes any prediction has, however many it has; the podcasts to choose.
    with django_assert_num_queries(9):
        response = client.get(PREDICTIONS)

    resolved = section(response, "resolved-heading")
    shown = re.findall(r"“(Partly came true, \d)\.”", resolved)
    assert shown == [f"Partly came true, {n}" for n in reversed(range(extra))][:2]


def test_each_outcome_shows_its_five_latest_and_links_to_the_rest(client, ledger):
    for n in range(PER_OUTCOME + 1):
        resolve(make_prediction(excerpt=f"Did not happen, {n}."), Resolution.DID_NOT_COME_TRUE)

    html = client.get(PREDICTIONS).content.decode()

    start = html.index('id="outcome-did_not_come_true"')
    outcome = html[start : html.index("</section>", start)]
    shown = re.findall(r"“Did not happen, (\d)\.”", outcome)
    assert (PER_OUTCOME, shown) == (5, ["5", "4", "3", "2", "1"])
    # With the ledger's own "It did not.", seven.
    link = f'href="{BROWSER}?resolution=did_not_come_true">All 7 in the claims browser →</a>'
    assert link in html


def test_an_outcome_with_more_predictions_than_shown_links_to_them_all(client, ledger, monkeypatch):
    for _ in range(2):
        resolve(make_prediction(), Resolution.CAME_TRUE)
    monkeypatch.setattr("claims.prediction_pages.PER_OUTCOME", 2)

    html = client.get(PREDICTIONS).content.decode()

    assert f'href="{BROWSER}?resolution=came_true">All 3 in the claims browser →</a>' in html


def test_a_speaker_page_shows_the_track_record_counted_by_outcome(client, ledger):
    response = client.get(ledger["ada"].get_absolute_url())

    record = section(response, "track-record-heading")
    assert (
        "4 published predictions: 3 still open, 1 came true, 0 did not come true, "
        "0 partly came true, 0 cannot be resolved." in record
    )
    assert "this is a record, not a score" in record


def test_the_track_record_links_each_resolved_prediction(client, ledger):
    record = section(client.get(ledger["ada"].get_absolute_url()), "track-record-heading")

    links = re.findall(r'<a href="([^"]+/claims/\d+/)">“([^”]+)”</a>', record)
    assert [text for _, text in links] == ["It came true."]


def test_the_track_record_lists_the_latest_resolved_and_links_to_them_all(client, ledger):
    for day in range(1, TRACK_RECORD_SIZE + 2):
        claim = make_prediction(speaker=ledger["ada"], excerpt=f"Prediction of day {day}.")
        resolve(claim, Resolution.PARTLY, on=datetime.date(2026, 1, day))

    record = section(client.get(ledger["ada"].get_absolute_url()), "track-record-heading")

    # Newest first: the ledger's own (resolved in June), then the days of January down.
    assert re.findall(r"“(It came true)\.”", record) == ["It came true"]
    days_listed = [int(day) for day in re.findall(r"“Prediction of day (\d+)\.”", record)]
    assert days_listed == list(range(TRACK_RECORD_SIZE + 1, 2, -1))
    resolved_total = TRACK_RECORD_SIZE + 2  # and the ledger's one that came true
    assert f"All {resolved_total} resolved predictions →" in record


def test_a_speaker_without_predictions_has_no_track_record(client, db):
    claim = make_claim(type=ClaimType.BELIEF)

    response = client.get(claim.speaker.get_absolute_url())

    assert "Track record" not in response.content.decode()


@pytest.mark.parametrize("extra", [0, 6])
def test_the_track_record_runs_the_same_queries_whatever_the_data_size(
    client, ledger, django_assert_num_queries, extra
):
    for _ in range(extra):
        resolve(make_prediction(speaker=ledger["ada"]), Resolution.PARTLY)
    # The ledger's version; the speaker, with the count (paginator), claim mix and
    # predictions by outcome it keeps; the track record's resolved predictions; the page
    # of claims. (They appeared on no episode and moved no position, as they keep: no
    # query for their episodes by role or their moves.)
    with django_assert_num_queries(4):
        client.get(ledger["ada"].get_absolute_url())


def test_the_permalink_shows_the_horizon_outcome_sources_and_each_change_of_outcome(client, db):
    claim = make_prediction(horizon=datetime.date(2026, 3, 31), precision="month")
    resolve(claim, Resolution.CAME_TRUE, note="First reading.")
    resolve(claim, Resolution.PARTLY, note="Only the first half happened.")

    html = client.get(claim.get_absolute_url()).content.decode()

    assert "by March 2026" in html
    assert "<strong>Partly came true</strong>, resolved" in html
    assert SOURCE["title"] in html
    assert "set to “came true”</strong>" in html
    assert "set to “partly came true”</strong>" in html
    assert "Only the first half happened." in html


def test_the_claims_browser_filters_predictions_by_outcome_and_counts_them(client, ledger):
    response = client.get(BROWSER, {"resolution": "came_true"})

    assert re.findall(r"“([^”]+)”</p></blockquote>", response.content.decode()) == ["It came true."]
    facets = response.context["search"].facets
    assert ("did_not_come_true", "Did not come true", 1) in facets["resolution"]
    assert ("open", "Open", 4) in facets["resolution"]


def test_the_claims_browser_filters_open_predictions_by_when_they_are_due(client, ledger):
    response = client.get(BROWSER, {"due": "overdue"})

    excerpts = re.findall(r"“([^”]+)”</p></blockquote>", response.content.decode())
    assert excerpts == ["Overdue by a month."]
    assert sorted(response.context["search"].facets["due"]) == [
        ("later", "Due later", 1),
        ("no_horizon", "No horizon stated", 1),
        ("overdue", "Overdue", 1),
        ("soon", "Due soon", 1),
    ]


def test_the_claims_browser_counts_predictions_due_from_the_day_it_is_asked(
    client, ledger, monkeypatch
):
    due = client.get(BROWSER).context["search"].facets["due"]
    assert ("overdue", "Overdue", 1) in due and ("soon", "Due soon", 1) in due

    in_three_weeks = days(21)
    monkeypatch.setattr("django.utils.timezone.localdate", lambda: in_three_weeks)
    due = client.get(BROWSER).context["search"].facets["due"]

    assert ("overdue", "Overdue", 2) in due
    assert "soon" not in [value for value, _, _ in due]


@pytest.mark.parametrize("extra", [0, 6])
def test_the_claims_browser_due_filter_runs_the_same_queries_whatever_the_data_size(
    client, ledger, django_assert_num_queries, extra
):
    for n in range(extra):
        make_prediction(horizon=days(-n - 1))
    # The version; one pass (the count and every facet but Due); the Due facet's pass;
    # the page's rows.
    with django_assert_num_queries(4):
        response = client.get(BROWSER, {"due": "overdue"})

    assert response.context["search"].count == 1 + extra


def test_the_claims_browser_prediction_filters_cost_one_pass_each(
    client, ledger, django_assert_num_queries
):
    # Version, one pass (count and the facets not in use), one pass for each facet in
    # use (outcome, due), page rows.
    with django_assert_num_queries(5):
        client.get(BROWSER, {"resolution": "open", "due": "overdue"})


def test_the_episode_claim_mix_counts_a_resolved_prediction_as_a_prediction(client, db):
    episode = make_episode()
    resolve(make_prediction(episode), Resolution.DID_NOT_COME_TRUE)
    make_prediction(episode)

    response = client.get(episode.get_absolute_url())

    assert response.context["mix"] == [(ClaimType.PREDICTION, 2)]


def test_an_episodes_predictions_are_counted_from_an_index_alone(ledger):
    if connection.vendor != "sqlite":
        # Whether PostgreSQL reads an index alone depends on its visibility map, which a
        # test's rows, just written, don't have (at a million: no heap fetches).
        pytest.skip("an index-only scan needs the claims vacuumed")
    # A podcast's are counted so, episode by episode (/predictions/?podcast=).
    episode = Episode.objects.get(podcast__slug="example-show")
    predictions = public_predictions().filter(episode=episode)

    counted = plan(predictions.order_by().values("resolution", "horizon"))

    # Not each of a big show's predictions read from the table for its outcome and horizon.
    assert "COVERING INDEX claim_episode_predictions" in counted
