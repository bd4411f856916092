"""The search examples readers are shown find claims in the demo ledger."""

import html
import re
from pathlib import Path

import pytest
from django.http import QueryDict
from django.urls import reverse

from claims.browse import ClaimSearch

README = Path(__file__).resolve().parents[2] / "README.md"


def readme_examples():
    """Every `?…` example in the README's table of the claims browser's parameters."""
    section = README.read_text().split("## Finding the evidence")[1].split("\n## ")[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return [example for row in rows for example in re.findall(r"`(\?[^`]+)`", row)]


def test_the_readme_shows_an_example_for_each_kind_of_search():
    assert len(readme_examples()) == 12


@pytest.mark.parametrize("example", readme_examples())
def test_each_readme_example_finds_claims_in_the_demo(demo, example):
    found = ClaimSearch(QueryDict(example[1:]))

    assert found.problems == []
    assert found.count > 0


def test_each_example_in_the_search_hint_finds_claims_in_the_demo(client, demo):
    page = client.get(reverse("claims:claim_list")).content.decode()
    hint = re.search(r'<p id="search-hint"[^>]*>(.*?)</p>', page)[1]
    examples = [html.unescape(kbd) for kbd in re.findall(r"<kbd>(.*?)</kbd>", hint)]

    assert examples == [
        '"production data"',
        "OR",
        "roadmap OR release",
        "production -privacy",
        "promised",
    ]
    for text in examples:
        if text != "OR":
            found = ClaimSearch(_q(text))
            assert (found.problems, found.count > 0) == ([], True), text


def test_promised_finds_promise_in_the_demo(client, demo):
    page = client.get(reverse("claims:claim_list"), {"q": "promised"}).content.decode()

    assert "<mark>promise</mark> made by the people" in page


def _q(text):
    query = QueryDict(mutable=True)
    query["q"] = text
    return query
