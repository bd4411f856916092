"""Topics: /topics/, each topic's page, the claims browser's topic filter, the permalink."""

import datetime
import re
from unittest.mock import patch

import pytest

from claims.facets import Facet
from claims.models import Attribution, Claim, Topic
from claims.pagination import CLAIMS_PER_PAGE
from claims.topics import walks_faster
from episodes.models import Status
from tests.factories import make_claim, make_episode, make_ledger, make_speaker

pytestmark = pytest.mark.django_db

LINKS = (Claim.topics.through, "topic")


def topic(name="Testing", slug="testing", **fields):
    return Topic.objects.create(name=name, slug=slug, **fields)


def tagged(claim, *topics):
    claim.topics.add(*topics)
    return claim


def test_the_index_counts_each_topics_published_claims(client):
    testing, roadmaps = topic(), topic("Roadmaps", "roadmaps")
    for _ in range(2):
        tagged(make_claim(), testing)
    tagged(make_claim(), roadmaps)

    html = client.get("/topics/").content.decode()

    assert html.index("Roadmaps") < html.index("Testing")
    assert '<a href="/topics/testing/">Testing</a>' in html
    assert "2 claims" in html and "1 claim<" in html


def test_the_index_lists_fifty_topics_a_page_by_name(client):
    for n in range(1, 52):
        tagged(make_claim(), topic(f"Topic {n:02d}", f"topic-{n:02d}"))

    first, second = (client.get("/topics/", {"page": n}).content.decode() for n in (1, 2))

    assert "51 topics with published claims, by name." in first
    assert "Topic 50" in first and "Topic 51" not in first
    assert "Topic 51" in second and "Topic 50" not in second
    assert "Page 2 of 2" in second


def test_drafts_are_not_counted_on_the_index(client):
    testing = topic()
    tagged(make_claim(), testing)
    tagged(make_claim(status=Status.DRAFT), testing)
    tagged(make_claim(episode=make_episode(status=Status.DRAFT)), testing)

    html = client.get("/topics/").content.decode()

    assert "1 claim<" in html


def test_a_topic_whose_claims_are_all_drafts_is_not_listed_and_has_no_page(client):
    tagged(make_claim(status=Status.DRAFT), topic("Secret plans", "secret-plans"))

    assert "Secret plans" not in client.get("/topics/").content.decode()
    assert client.get("/topics/secret-plans/").status_code == 404


def test_an_unknown_topic_is_a_404(client):
    assert client.get("/topics/nothing-here/").status_code == 404


def test_a_topic_page_shows_its_claims_mix_and_linked_speakers(client):
    testing = topic(description="How teams test.")
    ada = make_speaker(name="Ada Example", slug="ada-example")
    tagged(make_claim(speaker=ada, type="prediction", excerpt="Tests will run nightly."), testing)
    tagged(make_claim(attribution=Attribution.UNRESOLVED, unresolved_label="Caller 2"), testing)
    make_claim(excerpt="Not on this topic.")

    html = client.get("/topics/testing/").content.decode()

    assert "2 published claims · 1 attributable person" in html
    assert '<a href="/speakers/ada-example/">Ada Example</a>' in html
    assert "Tests will run nightly." in html and "Not on this topic." not in html
    assert 'href="/claims/?topic=testing&amp;type=prediction"' in html
    assert "How teams test." in html


def test_a_topic_page_hides_draft_claims(client):
    testing = topic()
    tagged(make_claim(excerpt="Public words."), testing)
    tagged(make_claim(excerpt="Draft words.", status=Status.DRAFT), testing)

    html = client.get("/topics/testing/").content.decode()

    assert "Public words." in html and "Draft words." not in html
    assert "1 published claim " in html


def test_a_topics_name_is_escaped(client):
    tagged(make_claim(), topic("<script>alert(1)</script>", "hostile"))

    html = client.get("/topics/hostile/").content.decode()

    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


@pytest.mark.parametrize("walked", [True, False], ids=["walking the ledger", "by its links"])
def test_a_topic_lists_the_same_claims_newest_first_however_they_are_found(client, walked):
    testing = topic()
    older = make_episode(air_date=datetime.date(2024, 1, 1))
    newer = make_episode(air_date=datetime.date(2025, 1, 1))
    claims = [make_claim(episode) for episode in (older, newer, older, newer)]
    tagged(make_claim(newer, status=Status.DRAFT), testing)
    tagged(make_claim(newer), topic("Other", "other"))
    for claim in claims:
        tagged(claim, testing)

    with patch("claims.topic_pages.walks_faster", return_value=walked):
        html = client.get("/topics/testing/").content.decode()

    # Cards on a list that mixes episodes are named by the claim's key.
    shown = [int(pk) for pk in re.findall(r'<article class="claim" id="[a-z-]*-(\d+)"', html)]
    newest_first = sorted(
        claims, key=lambda c: (-c.episode.air_date.toordinal(), c.episode_id, c.number)
    )
    assert shown == [claim.pk for claim in newest_first]


@pytest.mark.parametrize("walked", [True, False], ids=["walking the ledger", "by its links"])
def test_the_claims_browser_shows_a_topics_claims_and_counts_however_they_are_found(client, walked):
    testing = topic()
    older = make_episode(air_date=datetime.date(2024, 1, 1))
    newer = make_episode(air_date=datetime.date(2025, 1, 1))
    claims = [make_claim(episode, type="prediction") for episode in (older, newer, older)]
    tagged(make_claim(newer, status=Status.DRAFT), testing)
    tagged(make_claim(newer, type="prediction"), topic("Other", "other"))
    for claim in claims:
        tagged(claim, testing)

    with patch("claims.browse.walks_faster", return_value=walked):
        html = client.get("/claims/", {"topic": "testing"}).content.decode()

    shown = [int(pk) for pk in re.findall(r'<article class="claim" id="[a-z-]*-(\d+)"', html)]
    assert shown == [claims[1].pk, claims[0].pk, claims[2].pk]
    assert "3 published claims" in html
    assert re.search(r'prediction <span class="facet-count">3</span>', html)


def test_the_ledger_is_walked_only_for_a_topic_big_enough_to_pay_for_it():
    assert walks_faster(topic_claims=60_000, ledger_claims=1_000_000, shown=50)
    assert not walks_faster(topic_claims=2_000, ledger_claims=1_000_000, shown=50)
    assert not walks_faster(topic_claims=60_000, ledger_claims=1_000_000, shown=50 * 100)


def test_a_topic_page_is_paginated(client):
    testing = topic()
    episode = make_episode()
    for _ in range(CLAIMS_PER_PAGE + 1):
        tagged(make_claim(episode), testing)

    first, second = (client.get(f"/topics/testing/?page={n}").content.decode() for n in (1, 2))

    assert first.count('class="claim"') == CLAIMS_PER_PAGE
    assert second.count('class="claim"') == 1


def test_the_permalink_links_its_topics(client):
    claim = tagged(make_claim(), topic(), topic("Roadmaps", "roadmaps"))

    html = client.get(claim.get_absolute_url()).content.decode()

    assert (
        '<a href="/topics/roadmaps/">Roadmaps</a>, <a href="/topics/testing/">Testing</a>' in html
    )


def test_the_claims_browser_filters_by_topic_with_counts(client):
    testing = topic()
    tagged(make_claim(excerpt="On testing."), testing)
    make_claim(excerpt="Off topic.")

    html = client.get("/claims/", {"topic": "testing"}).content.decode()

    assert "On testing." in html and "Off topic." not in html
    assert "1 published claim on Testing" in html
    assert '<strong aria-current="true">Testing</strong> <span class="facet-count">1</span>' in html


def test_the_topic_facet_counts_each_claim_once_per_topic(client):
    testing, roadmaps = topic(), topic("Roadmaps", "roadmaps")
    tagged(make_claim(), testing, roadmaps)
    tagged(make_claim(), testing)
    make_claim()

    html = client.get("/claims/").content.decode()

    assert "3 published claims" in html
    assert '<a href="?topic=testing">Testing</a> <span class="facet-count">2</span>' in html
    assert '<a href="?topic=roadmaps">Roadmaps</a> <span class="facet-count">1</span>' in html


def test_the_topic_facet_ignores_drafts(client):
    testing = topic()
    tagged(make_claim(), testing)
    tagged(make_claim(status=Status.DRAFT), testing)

    html = client.get("/claims/").content.decode()

    assert '<a href="?topic=testing">Testing</a> <span class="facet-count">1</span>' in html


def test_a_facet_counted_through_links_refuses_a_condition_it_would_not_apply():
    with pytest.raises(ValueError, match="takes no condition"):
        Facet(None, Topic, condition=("attribution", Attribution.IDENTIFIED), through=LINKS)


def test_a_topic_with_only_drafts_is_refused_by_the_browser(client):
    tagged(make_claim(status=Status.DRAFT), topic())

    html = client.get("/claims/", {"topic": "testing"}).content.decode()

    assert "“testing” is not a topic in the public record, so it was ignored." in html


@pytest.fixture(params=[(2, 3, 2), (8, 12, 5)], ids=["small", "larger"])
def ledger(request):
    ledger = make_ledger(*request.param)
    testing = topic()
    for claim in ledger.episodes[0].claims.all():
        claim.topics.add(testing)
    for claim in ledger.episodes[-1].claims.all():
        claim.topics.add(testing, topic(f"Topic {claim.pk}", f"topic-{claim.pk}"))
    return ledger


def test_topic_index_query_count(client, ledger, django_assert_num_queries):
    # the ledger's version; how many topics have public claims; a page of them, with
    # their kept public claim counts
    with django_assert_num_queries(3):
        assert client.get("/topics/").status_code == 200


def test_topic_page_query_count(client, ledger, django_assert_num_queries):
    # the ledger's version; then
    # 1. the topic, with its kept count, mix and speakers (no count, no mix query)
    # 2. the ledger's kept claim total, which chooses how to find the topic's claims
    # 3. the page of claims with episode, podcast and speaker
    # 4. its kept speakers, by name
    with django_assert_num_queries(5):
        assert client.get("/topics/testing/").status_code == 200


def test_claims_browser_with_a_topic_query_count(client, ledger, django_assert_num_queries):
    # the ledger's version; the topic lookup (form validation); the ledger's kept total
    # (whether to walk it for the topic's claims); one pass counting the matches and
    # every other facet; one pass for the topic facet; the page rows
    with django_assert_num_queries(6):
        assert client.get("/claims/", {"topic": "testing"}).status_code == 200


def test_a_topic_page_describes_itself_with_a_canonical_address(client):
    tagged(make_claim(), topic(description="How teams test."))

    html = client.get("/topics/testing/", {"utm_source": "x", "page": "1"}).content.decode()

    assert '<meta name="description" content="How teams test.">' in html
    assert '<link rel="canonical" href="http://testserver/topics/testing/">' in html


def test_a_topic_page_lists_its_busiest_speakers_and_says_how_many_more_there_are(client):
    testing = topic()
    ada, ben, cleo = (make_speaker(name=name) for name in ("Ada Z", "Ben Y", "Cleo X"))
    with patch("claims.counters.KEPT_SPEAKERS", 2):
        for speaker, claims in ((ada, 1), (ben, 3), (cleo, 2)):
            for _ in range(claims):
                tagged(make_claim(speaker=speaker), testing)

    html = client.get("/topics/testing/").content.decode()

    assert "6 published claims · 3 attributable people" in html
    panel = html[html.index('id="speakers-heading"') : html.index('id="mix-heading"')]
    assert "The 2 with the most claims on this topic, of 3." in panel
    # The kept two, by name; Ada, with one claim, is left out.
    assert panel.index("Ben Y") < panel.index("Cleo X")
    assert "Ada Z" not in panel
