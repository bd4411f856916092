"""The issue's "done": on the demo ledger `make run` loads, every surface works."""

import bibtexparser
import feedparser
import pytest

from claims.models import Claim
from tests.claims.clients import meta_names, of_type

pytestmark = pytest.mark.django_db

REFERENCE = "the-cognitive-revolution"


def test_reference_permalinks_carry_their_quotation_and_citation_tags(client, demo):
    claims = Claim.objects.published().filter(episode__podcast__slug=REFERENCE).for_listing()
    assert claims.count() == 19
    for claim in claims:
        response = client.get(claim.get_absolute_url())
        quotation = of_type(response, "Quotation")
        assert quotation["text"] == claim.excerpt  # verbatim
        assert quotation["creator"]["name"] == claim.speaker.name
        names = meta_names(response)
        assert names["citation_author"] == [claim.speaker.name]
        assert names["citation_publisher"] == ["The Cognitive Revolution"]


def test_sitemap_robots_a_type_feed_and_a_bibtex_download_work(client, demo):
    assert client.get("/sitemap.xml").status_code == 200
    assert b"Sitemap: http://testserver/sitemap.xml" in client.get("/robots.txt").content
    feed = feedparser.parse(client.get("/claims/feed/?type=prediction").content)
    assert not feed.bozo
    assert feed.entries
    assert all(entry.tags[0].term == "prediction" for entry in feed.entries)
    claim = Claim.objects.published().filter(episode__podcast__slug=REFERENCE).first()
    library = bibtexparser.parse_string(
        client.get(f"{claim.get_absolute_url()}citation.bib").content.decode()
    )
    assert len(library.entries) == 1
    assert not library.failed_blocks
