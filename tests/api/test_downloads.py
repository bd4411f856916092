"""Downloads: every matching published claim, streamed, as CSV a spreadsheet opens safely."""

import csv
import io
import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from claims.downloads import COLUMNS
from claims.models import ClaimReference, Reference, Role, Topic
from tests.factories import make_claim, make_episode, make_podcast, make_speaker

pytestmark = pytest.mark.django_db


def body(response) -> str:
    assert response.streaming
    return b"".join(response.streaming_content).decode("utf-8")


def csv_rows(response) -> list[dict]:
    return list(csv.DictReader(io.StringIO(body(response))))


@pytest.fixture
def ledger(db):
    podcast = make_podcast(name="Example Show", slug="example-show")
    episode = make_episode(podcast, title="Pilot", slug="pilot")
    ada = make_speaker(name="Ada Example", slug="ada-example")
    for n in range(1, 4):
        make_claim(episode, ada, number=n, excerpt=f"Plain words, take {n}.")
    return {"podcast": podcast, "episode": episode, "ada": ada}


def test_the_csv_parses_with_the_documented_columns(client, ledger):
    response = client.get("/claims.csv")
    rows = csv_rows(response)

    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="evidence-ledger-claims.csv"'
    assert tuple(rows[0]) == tuple(COLUMNS)
    assert [row["number"] for row in rows] == ["1", "2", "3"]
    assert rows[0]["url"] == "http://testserver/episodes/example-show/pilot/claims/1/"
    assert rows[0]["citation"].startswith("Ada Example, “Pilot”, Example Show, ")


@pytest.mark.parametrize(
    ("path", "first_chunk"),
    [
        ("/claims.csv", ",".join(COLUMNS) + "\r\n"),
        ("/claims.csv?bom=1", "\ufeff" + ",".join(COLUMNS) + "\r\n"),
        ("/claims.json", '{"format": "evidence-ledger-claims", "version": 1, "claims": ['),
    ],
)
def test_a_download_starts_before_any_claim_is_read(
    client, ledger, django_assert_num_queries, path, first_chunk
):
    chunks = iter(client.get(path).streaming_content)

    with django_assert_num_queries(0):
        assert next(chunks).decode() == first_chunk


def test_every_matching_claim_is_downloaded_not_just_a_page(client, ledger):
    for n in range(4, 30):
        make_claim(ledger["episode"], ledger["ada"], number=n)

    assert len(csv_rows(client.get("/claims.csv"))) == 29
    assert len(json.loads(body(client.get("/claims.json")))["claims"]) == 29


def test_the_json_holds_the_same_records_typed(client, ledger):
    claims = json.loads(body(client.get("/claims.json")))["claims"]

    assert tuple(claims[0]) == tuple(COLUMNS)
    assert (claims[0]["number"], claims[0]["timestamp"]) == (1, None)


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_a_cell_a_spreadsheet_would_run_as_a_formula_is_made_literal(client, ledger, start):
    make_claim(ledger["episode"], number=9, excerpt=f'{start}HYPERLINK("http://x")')

    excerpts = [row["excerpt"] for row in csv_rows(client.get("/claims.csv"))]

    assert f'\'{start}HYPERLINK("http://x")' in excerpts


def test_a_byte_order_mark_on_request_for_spreadsheets(client, ledger):
    assert body(client.get("/claims.csv?bom=1")).startswith("\ufeffid,url,")
    assert body(client.get("/claims.csv")).startswith("id,url,")


def test_each_record_page_offers_its_downloads(client, ledger):
    pages = {
        "/episodes/example-show/pilot/": "/episodes/example-show/pilot/claims.csv",
        "/speakers/ada-example/": "/speakers/ada-example/claims.csv",
        "/podcasts/example-show/": "/podcasts/example-show/claims.csv",
        # The page drops what it ignores, and its links download what it shows.
        "/claims/?type=evaluation&speaker=nobody": "/claims.csv?type=evaluation",
    }
    for page, download in pages.items():
        html = client.get(page).content.decode()
        assert f'href="{download}">CSV</a>' in html, page
        assert f'href="{download.replace(".csv", ".json")}">JSON</a>' in html, page
        assert len(csv_rows(client.get(download))) == 3, download


@pytest.mark.parametrize(
    ("path", "filename"),
    [
        ("/episodes/example-show/pilot/claims.json", "example-show-pilot-claims.json"),
        ("/speakers/ada-example/claims.csv", "ada-example-claims.csv"),
        ("/podcasts/example-show/claims.csv", "example-show-claims.csv"),
    ],
)
def test_a_record_download_is_named_after_it(client, ledger, path, filename):
    assert client.get(path)["Content-Disposition"] == f'attachment; filename="{filename}"'


def test_a_records_download_narrows_the_readers_filters(client, ledger):
    make_claim(make_episode(ledger["podcast"]), ledger["ada"], type="prediction")

    rows = csv_rows(client.get("/speakers/ada-example/claims.csv?type=prediction"))

    assert [row["type"] for row in rows] == ["prediction"]


def test_an_invalid_filter_is_refused_not_ignored(client, ledger):
    response = client.get("/claims.csv?aired_from=yesterday")

    assert response.status_code == 400
    assert response.json()["errors"] == {
        "aired_from": ["“yesterday” is not a date like 2026-03-01."]
    }


@pytest.mark.parametrize(
    "path",
    ["/speakers/nobody/claims.csv", "/podcasts/nothing/claims.csv", "/episodes/a/b/claims.json"],
)
def test_a_download_of_no_public_record_is_404(client, ledger, path):
    assert client.get(path).status_code == 404


@pytest.mark.parametrize("size", [3, 40])
def test_a_download_runs_a_fixed_number_of_queries(client, ledger, django_assert_num_queries, size):
    for n in range(4, size + 1):
        make_claim(ledger["episode"], make_speaker(), number=n)
    # the ledger's version (ETag); the speaker, for the filter; the speaker's claims;
    # their topics; the references they name
    with django_assert_num_queries(5):
        rows = csv_rows(client.get("/claims.csv?speaker=ada-example"))
    assert len(rows) == 3


def test_topics_and_references_stay_with_their_claims_from_batch_to_batch(
    client, ledger, monkeypatch
):
    testing = Topic.objects.create(name="Testing", slug="testing")
    alpha = Topic.objects.create(name="Alpha", slug="alpha")
    book = Reference.objects.create(kind="book", title="A Book", slug="a-book")
    claims = {claim.number: claim for claim in ledger["episode"].claims.all()}
    claims[1].topics.add(testing, alpha)
    claims[3].topics.add(testing)
    ClaimReference.objects.create(claim=claims[2], reference=book, role=Role.MENTIONS)
    ClaimReference.objects.create(claim=claims[3], reference=book, role=Role.RECOMMENDS)
    monkeypatch.setattr("claims.downloads.BATCH", 2)

    rows = csv_rows(client.get("/claims.csv"))

    assert [(row["number"], row["topics"], row["references"]) for row in rows] == [
        ("1", "alpha\ntesting", ""),
        ("2", "", "mentions a-book"),
        ("3", "testing", "recommends a-book"),
    ]


def test_a_download_reads_only_the_columns_its_file_shows(client, ledger):
    # A million claims stream through one worker: a batch holds nothing a row does not
    # write, such as the speakers' kept counts or the claims' search text.
    with CaptureQueriesContext(connection) as queries:
        body(client.get("/claims.csv"))

    claims_query = next(q["sql"] for q in queries if 'FROM "claims_claim"' in q["sql"])
    for unshown in ("public_claim_mix", "public_roles", "resolution_history", "search_context"):
        assert unshown not in claims_query
