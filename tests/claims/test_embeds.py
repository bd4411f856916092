"""The embeddable claim card and oEmbed, as a consuming site reads them."""

import json
from urllib.parse import urlsplit

import pytest
from lxml import html

from claims.models import Attribution
from episodes.models import Status
from tests.claims.clients import head_links
from tests.factories import make_claim, make_episode, make_ledger, make_podcast, make_speaker

pytestmark = pytest.mark.django_db


def embed_path(claim):
    episode = claim.episode
    return f"/embed/{episode.podcast.slug}/{episode.slug}/claims/{claim.number}/"


def csp(response):
    return dict(
        directive.strip().split(" ", 1)
        for directive in response["Content-Security-Policy"].split(";")
    )


def oembed(client, url, **params):
    return client.get("/oembed/", {"url": url, **params})


@pytest.fixture
def claim():
    episode = make_episode(make_podcast(name="Example Show"), title="On Keeping Receipts")
    return make_claim(episode, make_speaker(name="Ada Example"), excerpt="Receipts beat memory.")


def test_the_embed_card_may_be_framed_by_any_site(client, claim):
    for _ in range(2):  # the second answer comes from the page cache
        response = client.get(embed_path(claim))
        assert response.status_code == 200
        assert csp(response)["frame-ancestors"] == "*"
        assert "X-Frame-Options" not in response
    text = html.fromstring(response.content).text_content()
    assert "“Receipts beat memory.”" in text
    assert "Ada Example" in text


def test_every_other_page_refuses_to_be_framed(client, claim):
    for url in ("/", claim.get_absolute_url(), claim.episode.get_absolute_url(), "/claims/"):
        response = client.get(url)
        assert csp(response)["frame-ancestors"] == "'none'", url
        assert response["X-Frame-Options"] == "DENY", url


def test_the_embed_card_tells_search_engines_to_index_the_permalink(client, claim):
    response = client.get(embed_path(claim))

    assert [href for _, href, _ in head_links(response, "canonical")] == [
        f"http://testserver{claim.get_absolute_url()}"
    ]
    assert 'name="robots" content="noindex"' in response.content.decode()


def test_drafts_have_no_embed(client, claim):
    draft = make_claim(claim.episode, status=Status.DRAFT)
    hidden = make_claim(make_episode(status=Status.DRAFT))

    for absent in (draft, hidden):
        assert client.get(embed_path(absent)).status_code == 404
        assert oembed(client, f"http://testserver{absent.get_absolute_url()}").status_code == 404


def test_a_retracted_claim_s_embed_shows_the_retraction_not_its_words(client, claim):
    claim.retract("The speaker was misheard.")

    text = client.get(embed_path(claim)).content.decode()
    assert "The speaker was misheard." in text
    assert "Receipts beat memory" not in text
    data = oembed(client, f"http://testserver{claim.get_absolute_url()}").json()
    assert data["title"].endswith("(retracted)")
    assert "author_name" not in data
    assert "Receipts beat memory" not in json.dumps(data)


def test_oembed_answers_a_permalink_with_an_iframe_of_its_card(client, claim):
    response = oembed(client, f"http://testserver{claim.get_absolute_url()}")

    assert response["Content-Type"] == "application/json"
    data = response.json()
    assert data["version"] == "1.0"
    assert data["type"] == "rich"
    assert data["provider_name"] == "Evidence Ledger"
    assert data["title"] == f"Claim {claim.label} of “On Keeping Receipts”"
    assert data["author_name"] == "Ada Example"
    assert (data["width"], data["height"]) == (560, 300)
    iframe = html.fragment_fromstring(data["html"])
    assert iframe.tag == "iframe"
    assert iframe.get("src") == f"http://testserver{embed_path(claim)}"
    assert client.get(urlsplit(iframe.get("src")).path).status_code == 200


def test_oembed_respects_the_consumer_s_maximum_size(client, claim):
    data = oembed(
        client, f"http://testserver{claim.get_absolute_url()}", maxwidth="320", maxheight="200"
    ).json()

    assert (data["width"], data["height"]) == (320, 200)
    assert 'width="320"' in data["html"]


def test_oembed_refuses_what_it_cannot_embed(client, claim):
    permalink = f"http://testserver{claim.get_absolute_url()}"

    assert oembed(client, permalink, format="xml").status_code == 501
    assert oembed(client, f"http://elsewhere.example{claim.get_absolute_url()}").status_code == 404
    assert oembed(client, "http://testserver/claims/").status_code == 404
    assert oembed(client, "http://testserver/no/such/page/").status_code == 404
    assert oembed(client, "javascript:alert(1)").status_code == 404


def test_permalinks_point_consumers_to_their_oembed(client, claim):
    page = client.get(claim.get_absolute_url())

    [(kind, href, title)] = head_links(page, "alternate")[-1:]
    assert kind == "application/json+oembed"
    assert title == f"Claim {claim.label} of “On Keeping Receipts”"
    found = client.get(href.removeprefix("http://testserver")).json()
    assert f"http://testserver{embed_path(claim)}" in found["html"]


def test_an_unresolved_voice_embeds_with_its_label(client):
    claim = make_claim(attribution=Attribution.UNRESOLVED, unresolved_label="Caller 2")

    assert "Caller 2" in client.get(embed_path(claim)).content.decode()
    assert (
        "author_name" not in oembed(client, f"http://testserver{claim.get_absolute_url()}").json()
    )


@pytest.mark.parametrize("size", [(2, 3, 2), (8, 12, 5)], ids=["small", "larger"])
def test_embed_query_counts_stay_constant(client, size, django_assert_num_queries):
    made = make_ledger(*size)
    claim = made.episodes[-1].claims.published().first()
    # the ledger's version (page cache); the claim with its episode, podcast and speaker
    with django_assert_num_queries(2):
        client.get(embed_path(claim))
    with django_assert_num_queries(2):
        oembed(client, f"http://testserver{claim.get_absolute_url()}")
