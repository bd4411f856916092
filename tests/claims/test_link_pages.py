"""Linked claims as readers see them: on both claims' permalinks, and on a speaker's page."""

import datetime
import itertools
import re
from html import unescape

import pytest
from django.db import connection

from claims.links import attach_public_links
from claims.models import Attribution, Claim
from episodes.models import Status
from tests.factories import (
    link_every_claim,
    make_claim,
    make_episode,
    make_ledger,
    make_link,
    make_podcast,
    make_speaker,
)

pytestmark = pytest.mark.django_db


def text_of(response, section_id):
    """The visible text of the page's section headed by `section_id`, in one line."""
    html = response.content.decode()
    match = re.search(rf'<section[^>]*aria-labelledby="{section_id}".*?</section>', html, re.S)
    if match is None:
        return None
    inline = re.sub(r"</?(a|time|q|strong|span)\b[^>]*>", "", match.group(0))
    return " ".join(unescape(re.sub(r"<[^>]*>", " ", inline)).split())


@pytest.fixture
def contradiction():
    """Ben Sample's claim 02 of "Later" contradicts Ada Example's claim 01 of "Earlier"."""
    show = make_podcast(name="Example Show")
    earlier = make_episode(show, title="Earlier", air_date=datetime.date(2026, 1, 5))
    later = make_episode(show, title="Later", air_date=datetime.date(2026, 2, 5))
    ada = make_claim(
        earlier, make_speaker(name="Ada Example"), number=1, excerpt="Prices will fall."
    )
    ben = make_claim(later, make_speaker(name="Ben Sample"), number=2, excerpt="They rose.")
    make_link(ben, ada, "contradicts", note="The figures for January say otherwise.")
    return ada, ben


def test_the_linking_claim_shows_what_it_contradicts(client, contradiction):
    ada, ben = contradiction

    response = client.get(ben.get_absolute_url())

    assert text_of(response, "links-heading") == (
        "Linked claims Contradicts: Ada Example, “Earlier”, claim 01 (5 January 2026): "
        "Prices will fall. — The figures for January say otherwise."
    )
    assert f'href="{ada.get_absolute_url()}"' in response.content.decode()


def test_the_linked_claim_reads_the_link_the_other_way(client, contradiction):
    ada, ben = contradiction

    response = client.get(ada.get_absolute_url())

    assert text_of(response, "links-heading") == (
        "Linked claims Contradicted by: Ben Sample, “Later”, claim 02 (5 February 2026): "
        "They rose. — The figures for January say otherwise."
    )
    assert f'href="{ben.get_absolute_url()}"' in response.content.decode()


@pytest.mark.parametrize(
    ("relation", "forward", "inverse"),
    [
        ("supports", "Supports:", "Supported by:"),
        ("refines", "Refines:", "Refined by:"),
        ("repeats", "Repeats:", "Repeated by:"),
        ("responds_to", "Responds to:", "Responded to by:"),
    ],
)
def test_every_relation_has_its_inverse_wording(client, relation, forward, inverse):
    episode = make_episode()
    first, second = make_claim(episode), make_claim(episode)
    make_link(second, first, relation)

    assert forward in text_of(client.get(second.get_absolute_url()), "links-heading")
    assert inverse in text_of(client.get(first.get_absolute_url()), "links-heading")


def test_a_claim_lists_each_relation_then_its_inverse(client):
    episode = make_episode()
    center, *others = [make_claim(episode) for _ in range(4)]
    make_link(others[0], center, "supports")
    make_link(center, others[1], "contradicts")
    make_link(center, others[2], "supports")

    section = text_of(client.get(center.get_absolute_url()), "links-heading")

    assert re.findall(r"(Supports|Supported by|Contradicts|Contradicted by):", section) == [
        "Supports",
        "Supported by",
        "Contradicts",
    ]


def unpublish(episode):
    """As an editor does, in the episode's admin page."""
    episode.status = Status.DRAFT
    episode.save()


@pytest.mark.parametrize(
    "hide",
    [
        pytest.param(
            lambda claim: Claim.objects.filter(pk=claim.pk).update(status=Status.DRAFT),
            id="draft-claim",
        ),
        pytest.param(lambda claim: unpublish(claim.episode), id="draft-episode"),
        pytest.param(lambda claim: claim.retract("Misattributed."), id="retracted-claim"),
    ],
)
def test_a_link_to_a_claim_the_public_cannot_see_shows_on_neither_page(client, contradiction, hide):
    ada, ben = contradiction

    hide(ada)

    response = client.get(ben.get_absolute_url())
    assert text_of(response, "links-heading") is None
    assert "Prices will fall" not in response.content.decode()


def test_a_claim_retracted_once_its_links_were_read_is_left_out(contradiction):
    ada, ben = contradiction
    links_read = []

    def retract_ada_after_the_links(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if "claims_claimlink" in sql and not links_read:
            links_read.append(sql)
            ada.retract("Misattributed.")
        return result

    with connection.execute_wrapper(retract_ada_after_the_links):
        attach_public_links([ben])

    assert links_read, "the links were read"
    assert ben.public_links == []


def test_a_retracted_claim_shows_none_of_its_links(client, contradiction):
    ada, ben = contradiction

    ben.retract("Misattributed: Ben was not on this episode.")

    assert text_of(client.get(ben.get_absolute_url()), "links-heading") is None


def test_a_claim_without_links_has_no_linked_claims_section(client):
    claim = make_claim()

    assert text_of(client.get(claim.get_absolute_url()), "links-heading") is None


def test_a_note_and_the_other_claims_words_are_escaped(client):
    episode = make_episode()
    first = make_claim(episode, excerpt="<script>alert(1)</script> said plainly.")
    second = make_claim(episode)
    make_link(second, first, "supports", note="<b>bold</b> & more")

    html = client.get(second.get_absolute_url()).content.decode()

    assert "&lt;script&gt;alert(1)&lt;/script&gt; said plainly." in html
    assert "&lt;b&gt;bold&lt;/b&gt; &amp; more" in html


def test_the_unresolved_voice_of_a_linked_claim_is_named_by_its_label(client):
    episode = make_episode(title="Pilot")
    caller = make_claim(episode, attribution=Attribution.UNRESOLVED, unresolved_label="Caller 2")
    host = make_claim(episode)
    make_link(caller, host, "responds_to")

    section = text_of(client.get(host.get_absolute_url()), "links-heading")

    assert section.startswith("Linked claims Responded to by: Caller 2, “Pilot”, claim 01")


# A speaker's page: how their positions moved.


def dated_episode(day, **fields):
    return make_episode(air_date=datetime.date(2026, 1, 1) + datetime.timedelta(days=day), **fields)


@pytest.fixture
def ada():
    return make_speaker(name="Ada Example", slug="ada-example")


def test_a_speakers_contradiction_of_their_own_earlier_claim_is_shown_earlier_first(client, ada):
    earlier = make_claim(dated_episode(1, title="First"), ada, excerpt="Prices will fall.")
    later = make_claim(dated_episode(40, title="Second"), ada, excerpt="Prices will rise.")
    make_link(later, earlier, "contradicts", note="She changed her mind.")

    section = text_of(client.get(ada.get_absolute_url()), "moved-heading")

    assert section == (
        "How their positions moved Their later claims that contradict, refine or repeat their "
        "own earlier ones, in time order. "
        "Earlier: Ada Example, “First”, claim 01 (2 January 2026): Prices will fall. "
        "Later, contradicts the earlier claim: Ada Example, “Second”, claim 01 (10 February "
        "2026): Prices will rise. She changed her mind."
    )


def test_a_contradiction_linked_from_the_earlier_claim_is_still_shown_earlier_first(client, ada):
    earlier = make_claim(dated_episode(1, title="First"), ada)
    later = make_claim(dated_episode(40, title="Second"), ada)
    make_link(earlier, later, "contradicts")

    section = text_of(client.get(ada.get_absolute_url()), "moved-heading")

    assert section.index("“First”") < section.index("“Second”")


def test_moved_positions_are_in_time_order_of_the_later_claim(client, ada):
    first, second, third, fourth = (
        make_claim(dated_episode(day, title=f"Day {day}"), ada) for day in (1, 2, 3, 4)
    )
    make_link(fourth, first, "repeats")
    make_link(second, first, "refines")
    make_link(third, second, "contradicts")

    section = text_of(client.get(ada.get_absolute_url()), "moved-heading")

    assert re.findall(r"Later, (\w+)", section) == ["refines", "contradicts", "repeats"]


def refine_day_after_day(speaker, days):
    """Claims of `speaker` on days 1 to `days`, each refining the day before's."""
    claims = [
        make_claim(dated_episode(day, title=f"Day {day}"), speaker) for day in range(1, days + 1)
    ]
    for earlier, later in itertools.pairwise(claims):
        make_link(later, earlier, "refines")


def later_days(text):
    return [
        int(day) for day in re.findall(r"Later, refines the earlier claim: [^“]*“Day (\d+)”", text)
    ]


def test_a_long_record_of_moves_shows_the_latest_and_links_to_all_of_them(client, ada):
    refine_day_after_day(ada, 23)

    response = client.get(ada.get_absolute_url())
    section = text_of(response, "moved-heading")

    assert "The latest 5 of 22." in section
    assert later_days(section) == [19, 20, 21, 22, 23]
    assert section.endswith("All 22 moves, in time order →")
    assert 'href="/speakers/ada-example/moves/"' in response.content.decode()


def test_a_few_moves_are_all_shown_with_no_link_to_more(client, ada):
    refine_day_after_day(ada, 4)

    response = client.get(ada.get_absolute_url())

    assert later_days(text_of(response, "moved-heading")) == [2, 3, 4]
    assert "/speakers/ada-example/moves/" not in response.content.decode()


def test_the_page_of_moves_lists_them_all_in_time_order_a_page_at_a_time(client, ada):
    refine_day_after_day(ada, 23)

    first = client.get("/speakers/ada-example/moves/")
    second = client.get("/speakers/ada-example/moves/?page=2")

    assert "22 moves on record" in first.content.decode()
    assert later_days(visible(first)) == list(range(2, 22))
    assert later_days(visible(second)) == [22, 23]
    assert 'rel="next" href="?page=2"' in first.content.decode()


def test_a_bogus_page_of_moves_shows_the_last_page(client, ada):
    refine_day_after_day(ada, 23)

    response = client.get("/speakers/ada-example/moves/?page=99")

    assert response.status_code == 200
    assert later_days(visible(response)) == [22, 23]


def test_a_speaker_without_public_moves_has_no_page_of_moves(client, ada):
    earlier = make_claim(dated_episode(1), ada)
    make_link(make_claim(dated_episode(2), ada, status=Status.DRAFT), earlier, "contradicts")

    assert client.get("/speakers/ada-example/moves/").status_code == 404


def visible(response):
    html = re.sub(r"</?(a|time|q|strong|span)\b[^>]*>", "", response.content.decode())
    return " ".join(unescape(re.sub(r"<[^>]*>", " ", html)).split())


def test_a_move_follows_its_episodes_new_air_date(client, ada):
    earlier = make_claim(dated_episode(1, title="First"), ada)
    later = make_claim(dated_episode(40, title="Second"), ada)
    make_link(later, earlier, "refines")

    later.episode.air_date = earlier.episode.air_date
    later.episode.save()
    same_day = text_of(client.get(ada.get_absolute_url()), "moved-heading")
    later.episode.air_date = datetime.date(2025, 12, 1)
    later.episode.save()
    refined_backwards = text_of(client.get(ada.get_absolute_url()), "moved-heading")

    # Said the same day, then "refining" a later claim: neither is a move.
    assert (same_day, refined_backwards) == (None, None)


def test_a_draft_moved_to_another_episode_takes_its_new_date_into_its_moves(client, ada):
    earlier = make_claim(dated_episode(1, title="First"), ada)
    draft = make_claim(dated_episode(1, title="Same day"), ada, status=Status.DRAFT)
    make_link(draft, earlier, "contradicts")
    draft.episode = dated_episode(30, title="A month on")
    draft.status = Status.PUBLISHED
    draft.save()

    section = text_of(client.get(ada.get_absolute_url()), "moved-heading")

    assert "Later, contradicts the earlier claim: Ada Example, “A month on”" in section


def test_a_refinement_pointing_forward_in_time_is_no_move(client, ada):
    earlier = make_claim(dated_episode(1), ada)
    later = make_claim(dated_episode(2), ada)
    make_link(earlier, later, "refines")

    assert text_of(client.get(ada.get_absolute_url()), "moved-heading") is None


@pytest.mark.parametrize("relation", ["supports", "responds_to"])
def test_support_and_responses_are_not_moved_positions(client, ada, relation):
    make_link(make_claim(dated_episode(2), ada), make_claim(dated_episode(1), ada), relation)

    assert text_of(client.get(ada.get_absolute_url()), "moved-heading") is None


def test_links_to_other_speakers_claims_are_not_their_moved_positions(client, ada):
    theirs = make_claim(dated_episode(1), make_speaker())
    make_link(make_claim(dated_episode(2), ada), theirs, "contradicts")

    assert text_of(client.get(ada.get_absolute_url()), "moved-heading") is None


def test_claims_of_the_same_day_are_not_a_move(client, ada):
    episode = dated_episode(1)
    make_link(make_claim(episode, ada), make_claim(episode, ada), "contradicts")

    assert text_of(client.get(ada.get_absolute_url()), "moved-heading") is None


def test_a_move_from_a_draft_claim_is_not_shown(client, ada):
    earlier = make_claim(dated_episode(1), ada, excerpt="Published words.")
    later = make_claim(dated_episode(2), ada, status=Status.DRAFT, excerpt="Draft words.")
    make_link(later, earlier, "contradicts")

    response = client.get(ada.get_absolute_url())

    assert text_of(response, "moved-heading") is None
    assert "Draft words." not in response.content.decode()


def test_a_move_to_a_claim_of_a_draft_episode_is_not_shown(client, ada):
    earlier = make_claim(dated_episode(1, status=Status.DRAFT), ada)
    later = make_claim(dated_episode(2), ada)
    make_link(later, earlier, "contradicts")

    assert text_of(client.get(ada.get_absolute_url()), "moved-heading") is None


# Query counts: the pinned counts of tests/episodes/test_query_counts.py, with links.


@pytest.fixture(params=[(2, 3, 2), (8, 12, 5)], ids=["small", "larger"])
def linked_ledger(request, db):
    ledger = make_ledger(*request.param)
    link_every_claim(list(Claim.objects.order_by("episode__air_date", "number")))
    return ledger


def test_permalink_query_count_with_links(client, linked_ledger, django_assert_num_queries):
    claim = Claim.objects.published().filter(links_from__isnull=False, links_to__isnull=False)
    url = claim.first().get_absolute_url()
    # the ledger's version; the claim with its episode, podcast and speaker; its public
    # links; the claims at their other ends; its topics; the references it names
    with django_assert_num_queries(6):
        response = client.get(url)
    assert "Linked claims" in response.content.decode()


def test_speaker_page_query_count_with_links(client, linked_ledger, django_assert_num_queries):
    ada = linked_ledger.speakers[0]
    theirs = Claim.objects.published().filter(speaker=ada).order_by("episode__air_date")
    make_link(theirs.last(), theirs.first(), "contradicts")
    url = ada.get_absolute_url()
    # as tests/episodes/test_query_counts.py: the version, the speaker (with the counts it
    # keeps), the resolved predictions, the page of claims, the episodes they appeared in;
    # and for their moved positions, the latest links between their own claims, and the
    # claims of those shown
    with django_assert_num_queries(7):
        response = client.get(url)
    assert "How their positions moved" in response.content.decode()


def test_page_of_moves_query_count(client, linked_ledger, django_assert_num_queries):
    ada = linked_ledger.speakers[0]
    theirs = list(Claim.objects.published().filter(speaker=ada).order_by("episode__air_date"))
    for earlier, later in itertools.pairwise(theirs):
        if later.episode.air_date > earlier.episode.air_date:
            make_link(later, earlier, "repeats")
    # the version; the speaker, with the count of their moves it keeps; the page of them;
    # their claims
    with django_assert_num_queries(4):
        response = client.get(f"/speakers/{ada.slug}/moves/")
    assert re.search(r"\b[1-9]\d* moves? on record", response.content.decode())
