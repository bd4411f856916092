"""Atom feeds, read by feedparser as a feed reader reads them."""

from datetime import date

import feedparser
import pytest
from django.utils import timezone
from lxml import html

from claims.cards import day_in_words
from claims.models import Attribution, ClaimType
from episodes.models import Status
from tests.claims.clients import head_links
from tests.factories import make_claim, make_episode, make_ledger, make_podcast, make_speaker

pytestmark = pytest.mark.django_db


def read_feed(client, url):
    response = client.get(url)
    assert response.status_code == 200, url
    assert response["Content-Type"] == "application/atom+xml; charset=utf-8"
    feed = feedparser.parse(response.content)
    assert not feed.bozo, feed.get("bozo_exception")
    assert feed.version == "atom10"
    return feed


def permalinks(feed):
    return [entry.id.removeprefix("http://testserver") for entry in feed.entries]


def page_permalinks(response):
    """The claims a page shows, in its order, by their permalinks."""
    tree = html.fromstring(response.content)
    return tree.xpath("//article[contains(@class, 'claim')]//a[@class='claim-number']/@href")


@pytest.fixture
def ledger():
    podcast = make_podcast(name="Example Show")
    older = make_episode(podcast, title="Older Episode")
    newer = make_episode(podcast, title="Newer Episode")
    ada, ben = make_speaker(name="Ada Example"), make_speaker(name="Ben Sample")
    claims = [
        make_claim(older, ada, type=ClaimType.PREDICTION, excerpt="Rain will fall on Tuesday."),
        make_claim(older, ben, type=ClaimType.BELIEF, excerpt="Receipts matter more than memory."),
        make_claim(newer, ada, type=ClaimType.PREDICTION, excerpt="Prices will rise next year."),
        make_claim(newer, attribution=Attribution.UNRESOLVED, unresolved_label="Caller 2"),
    ]
    make_claim(newer, ada, excerpt="A draft nobody may read.", status=Status.DRAFT)
    return podcast, (older, newer), (ada, ben), claims


def test_newest_claims_feed_lists_published_claims_newest_episodes_first(client, ledger):
    podcast, episodes, speakers, claims = ledger
    feed = read_feed(client, "/claims/feed/")

    assert feed.feed.title == "Evidence Ledger: newest claims"
    expected = [claims[2], claims[3], claims[0], claims[1]]
    assert permalinks(feed) == [claim.get_absolute_url() for claim in expected]
    entry = feed.entries[0]
    assert entry.link == entry.id
    assert entry.author == "Ada Example"
    assert entry.author_detail.href == f"http://testserver{speakers[0].get_absolute_url()}"
    assert "Prices will rise next year." in entry.summary
    assert "Newer Episode" in entry.summary
    assert entry.updated_parsed is not None
    assert [tag.term for tag in entry.tags] == ["prediction"]


def test_an_entry_says_who_said_it_where_and_when_and_its_corrections(client):
    podcast = make_podcast(name="Tom & Jerry's <Show>")
    episode = make_episode(podcast, title="<b>Bold</b> & “quoted”", air_date=date(2026, 3, 9))
    claim = make_claim(
        episode,
        make_speaker(name="Ada <Example>"),
        excerpt="Prices <will> rise & stay.",
        timestamp=754,
    )
    claim.summary = "Prices stay high."
    claim.save(correction_note="The summary <was> missing.")

    entry = read_feed(client, "/claims/feed/").entries[0]
    content = html.fromstring(entry.summary)

    assert " ".join(content.text_content().split()) == (
        "“Prices <will> rise & stay.” Ada <Example>, in “<b>Bold</b> & “quoted”” "
        "(Tom & Jerry's <Show>, 9 March 2026) at 12:34. Claim 01, evaluation. "
        f"Correction, {day_in_words(timezone.localdate())}: The summary <was> missing."
    )
    assert content.xpath("//a/@href") == [f"http://testserver{episode.get_absolute_url()}"]
    assert content.xpath("//b") == [] and content.xpath("//will") == []


def test_an_unresolved_voice_is_named_as_one_with_its_label(client, ledger):
    feed = read_feed(client, "/claims/feed/")

    entry = feed.entries[1]
    assert entry.author == "Unresolved voice — Caller 2"
    assert entry.title.startswith("Unresolved voice — Caller 2: “")
    assert "href" not in entry.author_detail


def test_speaker_feed_lists_only_their_claims(client, ledger):
    ada = ledger[2][0]
    feed = read_feed(client, f"/speakers/{ada.slug}/feed/")

    assert feed.feed.title == "Evidence Ledger: claims by Ada Example"
    assert feed.feed.link == f"http://testserver{ada.get_absolute_url()}"
    assert permalinks(feed) == [ledger[3][2].get_absolute_url(), ledger[3][0].get_absolute_url()]


def test_podcast_and_episode_feeds(client, ledger):
    podcast, (older, newer), speakers, claims = ledger

    assert len(read_feed(client, f"/podcasts/{podcast.slug}/feed/").entries) == 4
    episode_feed = read_feed(client, f"{older.get_absolute_url()}feed/")
    assert permalinks(episode_feed) == [claims[0].get_absolute_url(), claims[1].get_absolute_url()]


def test_feeds_of_records_out_of_the_public_record_are_not_found(client, ledger):
    podcast = ledger[0]
    draft_episode = make_episode(podcast, status=Status.DRAFT)
    hidden = make_speaker()
    make_claim(draft_episode, hidden)
    empty_podcast = make_podcast()
    make_episode(empty_podcast, status=Status.DRAFT)

    for url in (
        f"/speakers/{hidden.slug}/feed/",
        "/speakers/nobody/feed/",
        f"{draft_episode.get_absolute_url()}feed/",
        f"/podcasts/{empty_podcast.slug}/feed/",
    ):
        assert client.get(url).status_code == 404, url


def test_drafts_and_retracted_words_are_in_no_feed(client, ledger):
    podcast, episodes, (ada, ben), claims = ledger
    claims[1].retract("The speaker was misheard.")
    urls = [
        "/claims/feed/",
        "/corrections/feed/",
        f"/speakers/{ada.slug}/feed/",
        f"/podcasts/{podcast.slug}/feed/",
        f"{episodes[0].get_absolute_url()}feed/",
        f"{episodes[1].get_absolute_url()}feed/",
    ]
    for url in urls:
        text = client.get(url).content.decode()
        assert "A draft nobody may read" not in text, url
        assert "Receipts matter more than memory" not in text, url


@pytest.mark.parametrize(
    "query",
    [
        "type=prediction",
        "q=rain OR prices",
        "q=rain OR prices&order=oldest",
        "attribution=unresolved",
        "order=oldest",
    ],
)
def test_a_claims_browser_view_and_its_feed_list_the_same_claims_in_the_same_order(
    client, ledger, query
):
    page = page_permalinks(client.get(f"/claims/?{query}"))
    feed = read_feed(client, f"/claims/feed/?{query}")

    assert page, "the view should show some claims"
    assert permalinks(feed) == page


def test_a_claims_browser_feed_is_titled_by_its_filters(client, ledger):
    ada = ledger[2][0]
    feed = read_feed(client, f"/claims/feed/?type=prediction&speaker={ada.slug}&utm_source=x")

    assert feed.feed.title == "Evidence Ledger: claims (prediction) by Ada Example"
    assert feed.feed.link == f"http://testserver/claims/?speaker={ada.slug}&type=prediction"


def test_corrections_feed_lists_corrections_and_retractions(client, ledger):
    claims = ledger[3]
    corrected = claims[0]
    corrected.excerpt = "Rain will fall on Wednesday."
    corrected.save(correction_note="The speaker said Wednesday.")
    claims[1].retract("The speaker was misheard.")

    feed = read_feed(client, "/corrections/feed/")

    titles = [entry.title for entry in feed.entries]
    assert titles == [
        f"Retraction of claim {claims[1].label} of “Older Episode”",
        f"Correction to claim {corrected.label} of “Older Episode”",
    ]
    assert "The speaker was misheard." in feed.entries[0].summary
    assert "The speaker said Wednesday." in feed.entries[1].summary
    assert "Rain will fall on Wednesday." in feed.entries[1].summary
    assert feed.entries[0].link == f"http://testserver{claims[1].get_absolute_url()}"
    assert len({entry.id for entry in feed.entries}) == 2


def test_a_correction_shows_the_claims_words_only_while_the_claim_stands(client):
    episode = make_episode(make_podcast(name="Tom & Jerry's <Show>"), title="<b>Bold</b>")
    standing = make_claim(episode, make_speaker(name="Ada"), number=1, excerpt="Rain <fell>.")
    standing.excerpt = "Rain <falls>."
    standing.save(correction_note="Tense <fixed>.")
    withdrawn = make_claim(episode, make_speaker(name="Ben"), number=2, excerpt="Secret word.")
    withdrawn.excerpt = "Secret words."
    withdrawn.save(correction_note="Plural fixed.")
    withdrawn.retract("Misheard & misattributed.")

    feed = read_feed(client, "/corrections/feed/")
    texts = [" ".join(html.fromstring(e.summary).text_content().split()) for e in feed.entries]

    retracted_note = "Claim 02 of “<b>Bold</b>” is retracted: its permalink keeps its number and gives the reason."
    assert texts == [
        f"Retracted: Misheard & misattributed. {retracted_note}",
        f"Correction: Plural fixed. {retracted_note}",
        "Correction: Tense <fixed>. “Rain <falls>.” Ada, in “<b>Bold</b>” (Tom & Jerry's <Show>).",
    ]


def test_every_page_names_its_feeds_and_each_one_parses(client, ledger):
    podcast, (older, newer), (ada, ben), claims = ledger
    expected = {
        "/": ["/claims/feed/", "/corrections/feed/"],
        "/claims/?type=prediction&page=1": ["/claims/feed/?type=prediction", "/claims/feed/"],
        older.get_absolute_url(): [
            f"{older.get_absolute_url()}feed/",
            f"/podcasts/{podcast.slug}/feed/",
            "/claims/feed/",
        ],
        ada.get_absolute_url(): [f"/speakers/{ada.slug}/feed/", "/claims/feed/"],
        podcast.get_absolute_url(): [f"/podcasts/{podcast.slug}/feed/", "/claims/feed/"],
        claims[0].get_absolute_url(): [f"{older.get_absolute_url()}feed/", "/claims/feed/"],
        "/method/": ["/claims/feed/"],
    }
    for page, feeds in expected.items():
        links = head_links(client.get(page), "alternate")
        atom = [href for kind, href, _ in links if kind == "application/atom+xml"]
        assert atom == feeds, page
        for url in atom:
            read_feed(client, url)


def test_feeds_answer_a_conditional_get_with_not_modified(client, ledger):
    first = client.get("/claims/feed/")

    again = client.get("/claims/feed/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    since = client.get("/claims/feed/", HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert since.status_code == 304


@pytest.mark.parametrize("size", [(2, 3, 2), (8, 12, 5)], ids=["small", "larger"])
def test_feed_query_counts_stay_constant(client, size, django_assert_num_queries):
    made = make_ledger(*size)
    speaker, podcast, episode = made.speakers[0], made.podcasts[0], made.episodes[-1]
    # the ledger's version (page cache) and the entries with speaker, episode and podcast
    with django_assert_num_queries(2):
        client.get("/claims/feed/?type=prediction")
    # ... and the revisions with their claims
    with django_assert_num_queries(2):
        client.get("/corrections/feed/")
    # ... and the speaker, podcast or episode first
    for url in (
        f"/speakers/{speaker.slug}/feed/",
        f"/podcasts/{podcast.slug}/feed/",
        f"{episode.get_absolute_url()}feed/",
    ):
        with django_assert_num_queries(3):
            client.get(url)
    # a search: the version, the speaker filter's choice, then ClaimSearch's count, which
    # decides whether to rank as the page does (its counting pass, and the pass of the
    # speaker facet in use: claims/facets.py), and the entries
    with django_assert_num_queries(5):
        client.get(f"/claims/feed/?q=excerpt&speaker={speaker.slug}")
