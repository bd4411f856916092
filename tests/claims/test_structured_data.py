"""JSON-LD, Open Graph, meta description and canonical URLs, as extruct and pyld read them."""

import pytest
from django.template import loader

from claims.models import Attribution
from episodes.models import Status
from tests.claims.clients import (
    expanded,
    head_links,
    json_ld,
    meta_names,
    of_type,
    open_graph,
)
from tests.factories import make_claim, make_episode, make_podcast, make_speaker

pytestmark = pytest.mark.django_db


@pytest.fixture
def record():
    podcast = make_podcast(name="Example Show", website_url="https://example.com/show/")
    episode = make_episode(podcast, title="On Keeping Receipts", summary="Why excerpts matter.")
    ada = make_speaker(name="Ada Example", links="https://example.com/ada/")
    claim = make_claim(episode, ada, excerpt="Receipts beat memory, every time.")
    unresolved = make_claim(
        episode, attribution=Attribution.UNRESOLVED, unresolved_label="Caller 2"
    )
    drafter = make_speaker(name="Draft Only")
    draft = make_claim(episode, drafter, excerpt="Unpublished words.", status=Status.DRAFT)
    return podcast, episode, ada, claim, unresolved, draft


def test_claim_permalink_is_a_quotation_of_its_episode(client, record):
    podcast, episode, ada, claim, *_ = record
    response = client.get(claim.get_absolute_url())

    quotation = of_type(response, "Quotation")
    assert quotation["text"] == "Receipts beat memory, every time."
    assert quotation["creator"]["@type"] == "Person"
    assert quotation["creator"]["name"] == "Ada Example"
    assert quotation["url"] == f"http://testserver{claim.get_absolute_url()}"
    assert quotation["datePublished"] == episode.air_date.isoformat()
    based_on = quotation["isBasedOn"]
    assert based_on["@type"] == "PodcastEpisode"
    assert based_on["url"] == episode.original_url
    assert based_on["partOfSeries"]["name"] == "Example Show"
    assert expanded(quotation)[0]["@type"] == ["https://schema.org/Quotation"]


def test_claim_permalink_has_breadcrumbs_down_to_the_claim(client, record):
    podcast, episode, ada, claim, *_ = record
    response = client.get(claim.get_absolute_url())

    trail = of_type(response, "BreadcrumbList")["itemListElement"]
    assert [item["name"] for item in trail] == [
        "Evidence Ledger",
        "Example Show",
        "On Keeping Receipts",
        f"Claim {claim.label}",
    ]
    assert [item["position"] for item in trail] == [1, 2, 3, 4]
    assert expanded(of_type(response, "BreadcrumbList"))


def test_an_unresolved_voice_is_quoted_without_a_person(client, record):
    unresolved = record[4]
    quotation = of_type(client.get(unresolved.get_absolute_url()), "Quotation")

    assert "creator" not in quotation
    assert quotation["text"] == unresolved.excerpt


def test_a_retracted_claim_is_described_without_its_words(client, record):
    claim = record[3]
    claim.retract("Misheard: the speaker said the opposite.")
    response = client.get(claim.get_absolute_url())

    quotation = of_type(response, "Quotation")
    assert "text" not in quotation
    assert quotation["creativeWorkStatus"] == "Retracted"
    head = response.content.decode().split("</head>")[0]
    assert "Receipts beat memory" not in head
    assert "citation_title" not in meta_names(response)


def test_episode_page_is_a_podcast_episode_of_its_series(client, record):
    podcast, episode, ada, *_ = record
    response = client.get(episode.get_absolute_url())

    data = of_type(response, "PodcastEpisode")
    assert data["name"] == "On Keeping Receipts"
    assert data["url"] == episode.original_url
    assert data["datePublished"] == episode.air_date.isoformat()
    assert data["partOfSeries"]["@type"] == "PodcastSeries"
    assert data["partOfSeries"]["sameAs"] == "https://example.com/show/"
    # Only the people of published claims: the draft's speaker is absent.
    assert [actor["name"] for actor in data["actor"]] == ["Ada Example"]
    assert expanded(data)


def test_speaker_page_is_a_profile_of_a_person(client, record):
    ada = record[2]
    response = client.get(ada.get_absolute_url())

    page = of_type(response, "ProfilePage")
    assert page["mainEntity"]["@type"] == "Person"
    assert page["mainEntity"]["name"] == "Ada Example"
    assert page["mainEntity"]["sameAs"] == ["https://example.com/ada/"]
    assert expanded(page)


def test_podcast_page_is_a_podcast_series(client, record):
    podcast = record[0]
    data = of_type(client.get(podcast.get_absolute_url()), "PodcastSeries")

    assert data["name"] == "Example Show"
    assert data["url"] == f"http://testserver{podcast.get_absolute_url()}"
    assert expanded(data)


def test_home_page_describes_the_site_its_search_and_the_dataset(client, record):
    response = client.get("/")

    site = of_type(response, "WebSite")
    action = site["potentialAction"]
    assert action["@type"] == "SearchAction"
    assert action["target"]["urlTemplate"] == "http://testserver/claims/?q={search_term_string}"
    assert action["query-input"] == "required name=search_term_string"
    assert of_type(response, "Dataset")["name"] == "Evidence Ledger"
    assert all(expanded(item) for item in json_ld(response))


def test_json_ld_escapes_markup_in_the_records(client):
    words = 'She said </script><script>alert("x")</script> & <b>left</b>.'
    claim = make_claim(excerpt=words)
    response = client.get(claim.get_absolute_url())

    assert "</script><script>" not in response.content.decode()
    assert of_type(response, "Quotation")["text"] == words


def test_drafts_are_absent_from_every_page_s_json_ld(client, record):
    podcast, episode, ada, claim, unresolved, draft = record
    for url in (
        "/",
        episode.get_absolute_url(),
        ada.get_absolute_url(),
        podcast.get_absolute_url(),
    ):
        text = str(json_ld(client.get(url)))
        assert "Unpublished words" not in text
        assert "Draft Only" not in text
    assert client.get(draft.get_absolute_url()).status_code == 404


def test_a_draft_episode_is_absent_from_its_podcast_s_json_ld(client, record):
    podcast = record[0]
    make_episode(podcast, title="Not Out Yet", status=Status.DRAFT)

    assert "Not Out Yet" not in client.get(podcast.get_absolute_url()).content.decode()


def public_pages(record):
    podcast, episode, ada, claim, *_ = record
    return [
        "/",
        "/episodes/",
        "/speakers/",
        "/podcasts/",
        "/claims/",
        "/method/",
        "/how-the-evidence-works/",
        episode.get_absolute_url(),
        ada.get_absolute_url(),
        podcast.get_absolute_url(),
        claim.get_absolute_url(),
    ]


def test_every_page_has_open_graph_twitter_description_and_canonical(client, record):
    for url in public_pages(record):
        response = client.get(url)
        graph = open_graph(response)
        names = meta_names(response)
        canonical = head_links(response, "canonical")
        assert [href for _, href, _ in canonical] == [f"http://testserver{url}"], url
        assert graph["og:url"] == f"http://testserver{url}"
        assert graph["og:title"] and graph["og:description"] and graph["og:type"], url
        assert graph["og:site_name"] == "Evidence Ledger"
        assert names["description"] == [graph["og:description"]], url
        assert names["twitter:card"] == ["summary"]
        assert names["twitter:title"] == [graph["og:title"]]


def test_claim_page_titles_itself_and_quotes_the_speaker(client, record):
    claim = record[3]
    graph = open_graph(client.get(claim.get_absolute_url()))

    assert graph["og:type"] == "article"
    assert graph["og:title"] == f"Claim {claim.label} of “On Keeping Receipts”"
    assert (
        graph["og:description"]
        == "Ada Example on Example Show: “Receipts beat memory, every time.”"
    )


def test_canonical_url_drops_unknown_parameters_and_orders_the_rest(client, record):
    response = client.get(
        "/claims/?utm_source=feed&type=prediction&q=receipts&fbclid=1&type=belief&page=1"
    )

    assert [href for _, href, _ in head_links(response, "canonical")] == [
        "http://testserver/claims/?q=receipts&type=belief&type=prediction"
    ]


def test_canonical_url_leaves_out_values_the_browser_ignored(client, record):
    # Invalid values are dropped (claims/filters.py valid_filters): the page shows what
    # the rest select, and so does its canonical URL.
    response = client.get("/claims/?type=nonsense&type=belief&speaker=nobody&q=receipts")

    assert [href for _, href, _ in head_links(response, "canonical")] == [
        "http://testserver/claims/?q=receipts&type=belief"
    ]


def test_canonical_url_of_a_permalink_has_no_parameters(client, record):
    claim = record[3]
    response = client.get(f"{claim.get_absolute_url()}?utm_campaign=x&ref=share")

    assert [href for _, href, _ in head_links(response, "canonical")] == [
        f"http://testserver{claim.get_absolute_url()}"
    ]


def test_claim_permalink_carries_highwire_citation_tags(client, record):
    podcast, episode, ada, claim, *_ = record
    names = meta_names(client.get(claim.get_absolute_url()))

    assert names["citation_title"] == [f"Claim {claim.label} of “On Keeping Receipts”"]
    assert names["citation_author"] == ["Ada Example"]
    assert names["citation_publication_date"] == [episode.air_date.strftime("%Y/%m/%d")]
    assert names["citation_publisher"] == ["Example Show"]
    assert names["citation_public_url"] == [f"http://testserver{claim.get_absolute_url()}"]


def test_an_unresolved_voice_is_no_citation_author(client, record):
    unresolved = record[4]
    names = meta_names(client.get(unresolved.get_absolute_url()))

    assert "citation_author" not in names
    assert names["citation_title"]


def test_the_server_error_page_renders_without_a_request():
    # Django renders 500.html with an empty context: the head falls back to the defaults.
    text = loader.get_template("500.html").render()

    assert '<meta name="description"' in text
    assert 'rel="canonical"' not in text


def test_a_missing_page_has_the_default_head(client):
    response = client.get("/no/such/page/")

    assert response.status_code == 404
    assert open_graph(response)["og:title"] == "Evidence Ledger"
