"""The claims browser's filters two at a time (bench/combinations.py)."""

from urllib.parse import parse_qsl, urlsplit

from bench.combinations import filters, urls
from episodes.models import Podcast, Speaker
from tests.factories import make_ledger


def chosen_names(url):
    return [name for name, _ in parse_qsl(urlsplit(url).query)]


def test_each_filter_alone_in_both_orders_and_every_two_of_different_names():
    every = urls(filters("busy", "quiet", "show", "topic"))

    # The browser unfiltered; seventeen filters alone, newest and oldest first; and the
    # 127 pairs of them that are not two values of one filter (two types, two queries).
    assert len(every) == len(set(every)) == 1 + 17 * 2 + 127
    assert all(len(set(chosen_names(url))) == 2 for url in every[35:])


def test_every_url_of_the_sweep_answers(client, db, settings):
    settings.PAGE_CACHE_SECONDS = 0
    make_ledger(4, 5, 3)
    speakers = Speaker.objects.order_by("pk")
    chosen = filters(speakers[0].slug, speakers[1].slug, Podcast.objects.first().slug, "none")

    answers = {url: client.get(url).status_code for url in urls(chosen)}

    assert set(answers.values()) == {200}
