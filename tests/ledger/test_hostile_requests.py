"""Hostile requests over every public page and parameter, through the production stack.

DEBUG off (as pytest-django runs), the page cache on, the demo ledger loaded. Each
request may be refused (400, 404, 405) but never fail (5xx), never show a
traceback, and never echo a payload unescaped.
"""

import pytest
from django.core.cache import cache
from django.test import Client

from claims.models import Claim
from episodes.models import Episode, Podcast

HOST = "ledger.example.org"

XSS = [
    "<script>alert('xss')</script>",
    '"><img src=x onerror=alert(1)>',
    "'><svg/onload=alert(1)>",
    "</textarea><b>bold</b>",
]
# Percent-encoded already: they go into the query string as they are.
RAW = [
    "%00",
    "a%00b",
    "%ZZ",
    "%",
    "%C3%28",
    "%FF%FE%FD",
    "%E2%80%A8",
    "%0D%0ASet-Cookie:%20x=1",
    "x" * 10_000,
    "%C3%A9" * 3_000,
]
TEXT = [
    "' OR 1=1--",
    '"; DROP TABLE claims_claim; --',
    "1' UNION SELECT NULL, NULL--",
    "%' AND '1'='1",
    '"unterminated',
    "NEAR(a b",
    "* OR -",
    "((((",
    "a:b ^ col:val",
    "-",
    "OR",
    "   ",
]
NUMBERS = [
    "0",
    "-1",
    "1.5",
    "1e9",
    "NaN",
    "abc",
    "99999999999999999999999",
    "-99999999999999999999999",
    "2147483648",
    "9223372036854775808",
]
DATES = ["2026-13-45", "0000-00-00", "99999-01-01", "2026-02-30", "1-1-1", "yesterday"]

CLAIM_PARAMETERS = [
    "q",
    "type",
    "speaker",
    "podcast",
    "episode",
    "attribution",
    "aired_from",
    "aired_to",
    "order",
    "page",
]


def values_for(parameter):
    from urllib.parse import quote

    text = [quote(value) for value in XSS + TEXT]
    if parameter in ("page", "episode"):
        return NUMBERS + RAW[:4] + text[:2]
    if parameter in ("aired_from", "aired_to"):
        return DATES + RAW[:4] + text[:2]
    return text + RAW


@pytest.fixture
def pages(demo, settings):
    settings.ALLOWED_HOSTS = [HOST]
    cache.clear()
    claim = Claim.objects.published().select_related("episode__podcast", "speaker").first()
    episode = Episode.objects.published().select_related("podcast").first()
    return {
        "home": "/",
        "method": "/method/",
        "how": "/how-the-evidence-works/",
        "search": "/search/",
        "claims": "/claims/",
        "claim": claim.get_absolute_url(),
        "episodes": "/episodes/",
        "episode": episode.get_absolute_url(),
        "speakers": "/speakers/",
        "speaker": Claim.objects.published().speakers().first().get_absolute_url(),
        "podcasts": "/podcasts/",
        "podcast": Podcast.objects.public().first().get_absolute_url(),
        "about": "/about/",
        "corrections": "/corrections/",
        "report": f"{claim.get_absolute_url()}report/",
    }


@pytest.fixture
def client():
    # As in production: a failing view answers 500, it doesn't raise into the test.
    return Client(raise_request_exception=False, HTTP_HOST=HOST)


def problems_with(response, url):
    body = response.content.decode("utf-8", "replace")
    found = []
    if response.status_code >= 500:
        found.append(f"{response.status_code}")
    if "Traceback" in body or 'File "/' in body:
        found.append("a traceback")
    for payload in XSS:
        if payload in body:
            found.append(f"{payload!r} unescaped")
    return [f"{url[:120]}: {problem}" for problem in found]


def fetch_all(client, urls, **headers):
    assert len(urls) >= 1
    problems = []
    for url in urls:
        problems += problems_with(client.get(url, **headers), url)
    return problems


def test_hostile_query_strings_on_every_public_page(client, pages):
    urls = [
        f"{pages['claims']}?{name}={value}"
        for name in CLAIM_PARAMETERS
        for value in values_for(name)
    ]
    urls += [f"{pages['search']}?{name}={value}" for name in ("q", "type") for value in XSS]
    for page in ("episodes", "speakers", "speaker", "podcast"):
        urls += [f"{pages[page]}?page={value}" for value in values_for("page")]
    urls += [f"{pages['episodes']}?podcast={value}" for value in values_for("podcast")]
    for page in ("home", "method", "how", "claim", "episode", "podcasts"):
        urls += [f"{pages[page]}?q={value}&page=-1&utm_source={value}" for value in XSS]
    urls += [
        f"{pages['claims']}?" + "&".join(f"type=evaluation{n}" for n in range(1_001)),
        f"{pages['claims']}?q=a&q=b&type=belief&type=belief&order=oldest&order=newest",
        f"{pages['claims']}?q=" + "%20OR%20".join(["word"] * 500),
        f"{pages['claims']}?aired_from=2026-12-31&aired_to=2000-01-01",
    ]
    assert len(urls) >= 150
    assert fetch_all(client, urls) == []


def test_hostile_paths(client, pages):
    claim = pages["claim"]
    urls = [
        "/episodes/%3Cscript%3E/x/",
        "/speakers/%00/",
        "/podcasts/%2e%2e%2f%2e%2e%2fetc%2fpasswd/",
        "/claims/%ZZ/",
        "/%C3%28/",
        "/" + "a" * 5_000 + "/",
        claim.rsplit("/", 2)[0] + "/99999999999999999999999/",
        claim.rsplit("/", 2)[0] + "/9223372036854775808/",
        claim.rsplit("/", 2)[0] + "/0/",
        "/static/%2e%2e/%2e%2e/settings.py",
        "/healthz/../admin/",
        "/search/?q=%3Cscript%3E&type=%00",
    ]
    assert fetch_all(client, urls) == []


@pytest.mark.parametrize(
    "headers",
    [
        {"HTTP_HOST": "evil.example"},
        {"HTTP_HOST": f"{HOST}:99999"},
        {"HTTP_HOST": "[::1"},
        {"HTTP_HOST": f"{HOST}\x00.evil"},
        {"HTTP_HOST": "<script>alert('xss')</script>"},
        {"HTTP_IF_NONE_MATCH": '"<script>alert(\'xss\')</script>", W/"x", *'},
        {"HTTP_IF_MODIFIED_SINCE": "Sat, 99 Foo 99999 99:99:99 GMT"},
        {"HTTP_IF_MODIFIED_SINCE": "x" * 5_000},
        {"HTTP_ACCEPT_LANGUAGE": "<script>alert('xss')</script>;q=x"},
        {"HTTP_COOKIE": "sessionid=<script>alert('xss')</script>; csrftoken=\x00"},
        {"HTTP_X_FORWARDED_FOR": "<script>alert('xss')</script>, 999.1.1.1"},
        {"HTTP_X_FORWARDED_PROTO": "javascript"},
        {"HTTP_REFERER": "javascript:alert(1)//<script>alert('xss')</script>"},
        {"HTTP_USER_AGENT": "x" * 10_000},
        {"HTTP_RANGE": "bytes=-1,0-99999999999999999999"},
    ],
)
def test_hostile_headers_on_every_public_page(client, pages, headers):
    urls = list(pages.values()) + [pages["claims"] + "?q=evidence"]
    assert fetch_all(client, urls, **headers) == []
