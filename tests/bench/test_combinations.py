"""The claims browser's filters two at a time (bench/combinations.py)."""

import io
from urllib.parse import parse_qsl, urlsplit

import pytest
from django.core.management import call_command

from bench.combinations import filters, urls


@pytest.fixture
def synthetic(db, settings):
    settings.PAGE_CACHE_SECONDS = 0
    call_command("generate_synthetic", "--claims", "400", "--quiet", stdout=io.StringIO())


def chosen(url):
    return parse_qsl(urlsplit(url).query)


def test_each_filter_alone_in_both_orders_and_every_two_of_different_names(synthetic):
    every = urls(filters())

    # The browser unfiltered; seventeen filters alone, newest and oldest first; and the
    # 127 pairs of them that are not two values of one filter (9 pairs: two types, two
    # horizons, two speakers and six of the four searches).
    assert len(every) == len(set(every)) == 1 + 17 * 2 + 127
    assert [len({name for name, _ in chosen(url)}) for url in every] == [0] + [2] * 161
    # Each value arrives as the reader would type it, quotes and spaces included.
    assert chosen(every[-1]) == [("attribution", "unresolved"), ("q", "model -market")]
    assert any(("q", '"open source"') in chosen(url) for url in every)


def test_every_url_of_the_sweep_answers(client, synthetic):
    answers = {url: client.get(url).status_code for url in urls(filters())}

    assert set(answers.values()) == {200}
