"""/sitemap.xml and /robots.txt, read as a crawler reads them."""

import datetime
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from lxml import etree
from protego import Protego

from claims.models import Attribution, Claim, ClaimReference, Reference, Topic
from claims.sitemaps import ClaimSitemap, EpisodeSitemap, SpeakerSitemap
from episodes.models import Status
from ledger.models import LedgerVersion
from tests.factories import make_claim, make_episode, make_ledger, make_podcast, make_speaker

pytestmark = pytest.mark.django_db

SCHEMA = etree.XMLSchema(etree.parse(str(Path(__file__).with_name("sitemap.xsd"))))
NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}


def valid_xml(response):
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/xml")
    document = etree.fromstring(response.content)
    SCHEMA.assertValid(document)
    return document


def local(url):
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def every_listed_url(client):
    index = valid_xml(client.get("/sitemap.xml"))
    urls = []
    for section in index.xpath("//s:sitemap/s:loc/text()", namespaces=NS):
        urlset = valid_xml(client.get(local(section)))
        urls += urlset.xpath("//s:url/s:loc/text()", namespaces=NS)
    return urls


@pytest.fixture
def ledger():
    podcast = make_podcast()
    episode = make_episode(podcast)
    ada = make_speaker()
    public = make_claim(episode, ada)
    make_claim(episode, attribution=Attribution.UNRESOLVED)
    return podcast, episode, ada, public


def test_the_index_lists_a_valid_sitemap_per_section(client, ledger):
    index = valid_xml(client.get("/sitemap.xml"))

    sections = index.xpath("//s:sitemap/s:loc/text()", namespaces=NS)
    assert [local(url) for url in sections] == [
        "/sitemap-pages.xml",
        "/sitemap-episodes.xml",
        "/sitemap-speakers.xml",
        "/sitemap-podcasts.xml",
        "/sitemap-claims.xml",
    ]
    # Every section of records says when it last changed.
    assert len(index.xpath("//s:sitemap/s:lastmod", namespaces=NS)) == 4


def test_every_listed_page_answers(client, ledger):
    urls = every_listed_url(client)

    podcast, episode, ada, public = ledger
    for record in (podcast, episode, ada, public):
        assert f"http://testserver{record.get_absolute_url()}" in urls
    for url in urls:
        assert client.get(local(url)).status_code == 200, url


def test_drafts_and_retractions_are_absent(client, ledger):
    podcast, episode, ada, public = ledger
    draft = make_claim(episode, make_speaker(slug="only-drafts"), status=Status.DRAFT)
    retracted = make_claim(episode, make_speaker(slug="only-retracted"))
    retracted.retract("Misattributed.")
    hidden_podcast = make_podcast(slug="all-drafts")
    draft_episode = make_episode(hidden_podcast, slug="not-aired-yet", status=Status.DRAFT)
    make_claim(draft_episode, make_speaker(slug="draft-episode-only"))

    listed = " ".join(every_listed_url(client))

    for absent in (draft, retracted, draft_episode, hidden_podcast):
        assert absent.get_absolute_url() not in listed
    for slug in ("only-drafts", "only-retracted", "draft-episode-only"):
        assert f"/speakers/{slug}/" not in listed


def test_topics_and_references_with_public_claims_are_listed(client, ledger):
    public = ledger[3]
    listed, hidden = (
        Topic.objects.create(name="Listed", slug="listed"),
        Topic.objects.create(name="Hidden", slug="hidden"),
    )
    public.topics.add(listed)
    make_claim(ledger[1], status=Status.DRAFT).topics.add(hidden)
    book = Reference.objects.create(kind="book", title="A Book", slug="a-book")
    ClaimReference.objects.create(claim=public, reference=book)

    index = valid_xml(client.get("/sitemap.xml"))
    urls = every_listed_url(client)

    sections = [local(url) for url in index.xpath("//s:sitemap/s:loc/text()", namespaces=NS)]
    assert sections[-2:] == ["/sitemap-topics.xml", "/sitemap-references.xml"]
    assert "http://testserver/topics/listed/" in urls
    assert "http://testserver/references/a-book/" in urls
    assert "http://testserver/topics/hidden/" not in urls
    assert {"http://testserver/topics/", "http://testserver/references/"} <= set(urls)


def test_a_large_section_is_split_into_pages(client, ledger, monkeypatch):
    for _ in range(4):
        make_claim(ledger[1], ledger[2])
    monkeypatch.setattr(ClaimSitemap, "limit", 2)

    index = valid_xml(client.get("/sitemap.xml"))
    sections = [local(url) for url in index.xpath("//s:sitemap/s:loc/text()", namespaces=NS)]
    claims = [section for section in sections if section.startswith("/sitemap-claims")]
    assert claims == [
        "/sitemap-claims.xml",
        "/sitemap-claims.xml?p=2",
        "/sitemap-claims.xml?p=3",
    ]
    pages = [valid_xml(client.get(url)) for url in claims]
    counts = [len(page.xpath("//s:url", namespaces=NS)) for page in pages]
    assert counts == [2, 2, 2]


@pytest.mark.parametrize("size", [(2, 3, 2), (8, 12, 5)], ids=["small", "larger"])
def test_query_counts_stay_constant(client, size, django_assert_num_queries):
    ledger = make_ledger(*size)
    for claim in ledger.episodes[0].claims.all():
        claim.topics.add(Topic.objects.get_or_create(name="Testing", slug="testing")[0])
        book = Reference.objects.get_or_create(kind="book", title="A Book", slug="a-book")[0]
        ClaimReference.objects.create(claim=claim, reference=book)
    # the ledger's version (page cache), which is every section's lastmod too; then a
    # count per section of records, from kept counts or one subject at a time (the pages
    # section needs none)
    with django_assert_num_queries(1 + 6):
        client.get("/sitemap.xml")
    for section in ("episodes", "speakers", "podcasts", "claims", "topics", "references"):
        # the ledger's version; the paginator's count; the page of records
        with django_assert_num_queries(3):
            client.get(f"/sitemap-{section}.xml")


def test_robots_txt_names_the_sitemap_and_keeps_crawlers_off_filters(client):
    response = client.get("/robots.txt")

    assert response["Content-Type"] == "text/plain; charset=utf-8"
    lines = response.content.decode().splitlines()
    assert "User-agent: *" in lines
    assert "Disallow: /admin/" in lines
    assert "Disallow: /claims/?" in lines
    assert "Sitemap: http://testserver/sitemap.xml" in lines


def test_a_crawler_obeying_robots_txt_reads_pages_but_not_filter_combinations(client):
    robots = Protego.parse(client.get("/robots.txt").content.decode())

    for allowed in ("/", "/claims/", "/claims/feed/", "/episodes/a/b/claims/3/", "/speakers/"):
        assert robots.can_fetch(f"http://testserver{allowed}", "ExampleBot"), allowed
    for refused in (
        "/admin/",
        "/claims/?type=belief&q=x",
        "/claims/feed/?type=belief",
        "/claims/citations.bib?type=belief",
    ):
        assert not robots.can_fetch(f"http://testserver{refused}", "ExampleBot"), refused
    assert list(robots.sitemaps) == ["http://testserver/sitemap.xml"]


def test_robots_txt_does_not_reveal_a_moved_admin(client, settings):
    settings.ADMIN_URL = "back-office-7f3a/"

    text = client.get("/robots.txt").content.decode()
    assert "back-office" not in text
    assert "/admin/" not in text


def test_each_section_last_changed_when_the_ledger_did(client, ledger):
    LedgerVersion.objects.update(
        changed_at=datetime.datetime(2026, 2, 3, 9, 0, tzinfo=datetime.UTC)
    )

    index = valid_xml(client.get("/sitemap.xml"))

    lastmods = index.xpath("//s:sitemap/s:lastmod/text()", namespaces=NS)
    assert lastmods == ["2026-02-03T09:00:00+00:00"] * 4


def test_sections_count_only_public_records(client, ledger, monkeypatch):
    podcast, episode, ada, public = ledger
    make_claim(episode, ada, status=Status.DRAFT)
    make_claim(episode, make_speaker(slug="retracted-only")).retract("Misattributed.")
    make_claim(make_episode(podcast, slug="draft", status=Status.DRAFT), ada)
    for section in ClaimSitemap, EpisodeSitemap, SpeakerSitemap:
        monkeypatch.setattr(section, "limit", 1)

    index = valid_xml(client.get("/sitemap.xml"))

    sections = [local(url) for url in index.xpath("//s:sitemap/s:loc/text()", namespaces=NS)]
    # two public claims (one of an unresolved voice), one episode, one speaker
    assert sections == [
        "/sitemap-pages.xml",
        "/sitemap-episodes.xml",
        "/sitemap-speakers.xml",
        "/sitemap-podcasts.xml",
        "/sitemap-claims.xml",
        "/sitemap-claims.xml?p=2",
    ]


def test_each_address_carries_the_day_of_its_last_change(client, ledger):
    _, episode, ada, _ = ledger
    newer = make_claim(episode, ada)
    march = datetime.datetime(2025, 3, 4, 23, 30, tzinfo=datetime.UTC)
    Claim.objects.exclude(pk=newer.pk).update(updated_at=march)
    Claim.objects.filter(pk=newer.pk).update(
        updated_at=datetime.datetime(2026, 1, 2, 8, 0, tzinfo=datetime.UTC)
    )

    response = client.get("/sitemap-claims.xml")

    urlset = valid_xml(response)
    days = [
        url.findtext("s:lastmod", namespaces=NS) for url in urlset.xpath("//s:url", namespaces=NS)
    ]
    assert days == ["2025-03-04", "2025-03-04", "2026-01-02"]
    assert response["X-Robots-Tag"] == "noindex, noodp, noarchive"


def test_the_day_of_a_change_is_the_day_in_utc_whatever_the_site_time_zone(
    client, ledger, settings
):
    settings.TIME_ZONE = "Pacific/Auckland"  # already 5 March there
    late = datetime.datetime(2025, 3, 4, 23, 30, tzinfo=datetime.UTC)
    Claim.objects.update(updated_at=late)
    Claim.objects.filter(pk=ledger[3].pk).update(
        updated_at=datetime.datetime(2025, 3, 4, 0, 0, 0, 1, tzinfo=datetime.UTC)
    )

    urlset = valid_xml(client.get("/sitemap-claims.xml"))

    assert urlset.xpath("//s:url/s:lastmod/text()", namespaces=NS) == ["2025-03-04"] * 2


@pytest.mark.parametrize("query", ["?p=2", "?p=0", "?p=two", "?p=%00"])
def test_a_page_past_the_end_or_not_a_number_is_not_found(client, ledger, query):
    assert client.get(f"/sitemap-claims.xml{query}").status_code == 404


def test_an_unknown_section_is_not_found(client):
    assert client.get("/sitemap-drafts.xml").status_code == 404
