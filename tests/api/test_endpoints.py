"""The JSON API answers like the pages it mirrors, through the same public gates."""

import pytest

from claims.models import Attribution
from episodes.models import Status
from tests.factories import make_claim, make_episode, make_podcast, make_speaker

pytestmark = pytest.mark.django_db


@pytest.fixture
def ledger(db):
    podcast = make_podcast(name="Example Show", slug="example-show")
    episode = make_episode(podcast, title="On Keeping Receipts", slug="receipts")
    ada = make_speaker(name="Ada Example", slug="ada-example")
    kept = make_claim(episode, ada, number=1, type="prediction", excerpt="Zeppelins return.")
    make_claim(episode, number=2, attribution=Attribution.UNRESOLVED, unresolved_label="Caller 2")
    retracted = make_claim(episode, ada, number=3, excerpt="Withdrawn words.")
    retracted.retract("Misattributed.")
    return {
        "podcast": podcast,
        "episode": episode,
        "ada": ada,
        "kept": kept,
        "retracted": retracted,
    }


def test_api_root_links_to_its_versions_and_docs(client):
    body = client.get("/api/").json()

    assert body["versions"] == {"v1": "http://testserver/api/v1/"}
    assert body["documentation"] == "http://testserver/developers/"


def test_an_unknown_api_address_is_a_json_404(client):
    response = client.get("/api/v1/nothing-here/")

    assert response.status_code == 404
    assert response.json()["detail"] == "There is nothing at this address: see /api/v1/."


def test_an_invalid_filter_value_is_a_400_with_the_browsers_message(client, ledger):
    response = client.get("/api/v1/claims/?type=bogus&type=belief&speaker=nobody")

    assert response.status_code == 400
    assert response.json()["errors"] == {
        "type": ["“bogus” is not a claim type."],
        "speaker": ["“nobody” is not a speaker in the public record."],
    }


def test_a_refused_value_is_named_as_read_the_last_of_several_and_without_nul_bytes(client, ledger):
    response = client.get("/api/v1/claims/?podcast=first&podcast=no%00where&order=newest")

    assert response.status_code == 400
    assert response.json()["errors"] == {
        "podcast": ["“no where” is not a podcast in the public record."],
    }


def test_a_search_of_common_words_only_finds_nothing_as_on_the_page(client, ledger):
    response = client.get("/api/v1/claims/?q=the")

    assert (response.status_code, response.json()["results"]) == (200, [])


def test_writing_is_refused(client, ledger):
    # By the page cache, before the API sees it, as on every public address.
    response = client.post("/api/v1/claims/")

    assert response.status_code == 405
    assert response["Allow"] == "GET, HEAD"


def test_html_is_never_offered(client, ledger):
    response = client.get("/api/v1/stats/", HTTP_ACCEPT="text/html")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"


def test_a_claim_carries_its_permalink_citation_and_verification(client, ledger):
    body = client.get(f"/api/v1/claims/{ledger['kept'].pk}/").json()

    url = "http://testserver/episodes/example-show/receipts/claims/1/"
    assert body["url"] == url
    assert body["excerpt"] == "Zeppelins return."
    assert body["speaker"]["url"] == "http://testserver/speakers/ada-example/"
    assert body["verification"] == "no_transcript"
    assert body["citation"] == (
        f"Ada Example, “On Keeping Receipts”, Example Show, "
        f"{ledger['episode'].air_date.day} {ledger['episode'].air_date:%B %Y}. "
        f"Evidence Ledger, claim 01: {url}"
    )


def test_a_corrected_claim_shows_its_correction(client, ledger):
    claim = ledger["kept"]
    claim.excerpt = "Zeppelins will return."
    claim.save(correction_note="A word was missing.")

    body = client.get("/api/v1/episodes/example-show/receipts/claims/1/").json()

    assert body["excerpt"] == "Zeppelins will return."
    assert [(c["note"], c["changed"]) for c in body["corrections"]] == [
        ("A word was missing.", ["excerpt"])
    ]


def test_a_retracted_claim_shows_its_retraction_and_not_its_words(client, ledger):
    response = client.get("/api/v1/episodes/example-show/receipts/claims/3/")
    body = response.json()

    assert body["status"] == "retracted"
    assert body["retraction"]["reason"] == "Misattributed."
    assert body["excerpt"] is body["speaker"] is body["citation"] is None
    assert "Withdrawn words" not in response.content.decode()


def test_the_episode_shows_its_claim_mix_people_and_ledger(client, ledger):
    body = client.get("/api/v1/episodes/example-show/receipts/").json()

    assert (body["claim_count"], body["people_count"]) == (2, 1)
    assert body["claim_mix"] == [
        {"type": "evaluation", "count": 1},
        {"type": "prediction", "count": 1},
    ]
    assert [p["slug"] for p in body["people"]] == ["ada-example"]
    assert [c["label"] for c in body["claims"]] == ["01", "02"]
    assert body["claims"][1]["voice"] == "Caller 2"


def test_episodes_filter_by_podcast_dates_and_title_words(client, ledger):
    other = make_episode(title="Zeppelin Weekly")

    def slugs(query):
        return [e["slug"] for e in client.get(f"/api/v1/episodes/?{query}").json()["results"]]

    assert slugs("q=receipts+keeping") == ["receipts"]
    assert slugs("podcast=example-show") == ["receipts"]
    assert slugs(f"aired_from={other.air_date}") == [other.slug]
    assert client.get("/api/v1/episodes/?podcast=nobody").status_code == 400
    assert client.get("/api/v1/episodes/?aired_to=soon").status_code == 400


def test_speakers_are_found_by_name_with_counts_and_mix(client, ledger):
    listed = client.get("/api/v1/speakers/?q=ada").json()["results"]
    detail = client.get("/api/v1/speakers/ada-example/").json()

    assert [(s["slug"], s["claim_count"]) for s in listed] == [("ada-example", 1)]
    assert detail["claim_mix"] == [{"type": "prediction", "count": 1}]


def test_podcasts_and_stats_count_public_records_only(client, ledger):
    make_claim(make_episode(ledger["podcast"], status=Status.DRAFT))

    assert client.get("/api/v1/podcasts/").json()["results"][0]["claim_count"] == 2
    assert client.get("/api/v1/stats/").json() == {
        "url": "http://testserver/",
        "claim_count": 2,
        "episode_count": 1,
        "people_count": 1,
        "podcast_count": 1,
    }


def test_claims_list_highlights_on_request_escaped(client, ledger):
    make_claim(ledger["episode"], excerpt="<b>Zeppelins</b> & airships")

    body = client.get("/api/v1/claims/?q=zeppelins&highlight=1&order=newest").json()

    assert [c["highlighted"] for c in body["results"]] == [
        "Zeppelins return.".replace("Zeppelins", "<mark>Zeppelins</mark>"),
        "&lt;b&gt;<mark>Zeppelins</mark>&lt;/b&gt; &amp; airships",
    ]


@pytest.mark.parametrize(
    ("path", "page"),
    [
        ("/api/v1/claims/?type=prediction&page_size=5&highlight=1", "/claims/?type=prediction"),
        ("/api/v1/claims/", "/claims/"),
        ("/api/v1/episodes/?podcast=example-show&q=receipts", "/episodes/?podcast=example-show"),
        ("/api/v1/speakers/?q=ada", "/speakers/"),
        ("/api/v1/podcasts/", "/podcasts/"),
        ("/api/v1/stats/", "/"),
    ],
)
def test_every_list_names_the_sites_page_of_it(client, ledger, path, page):
    assert client.get(path).json()["url"] == f"http://testserver{page}"
