"""Public pages are validated and cached by the ledger's version, never served stale."""

import os

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.cache import cache
from django.urls import reverse

from claims.models import ClaimStatus
from tests.ci import in_ci
from tests.factories import make_claim


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def claim(db):
    return make_claim(excerpt="The first wording.")


def test_a_repeat_visit_with_the_etag_gets_304_without_rendering(
    client, claim, django_assert_num_queries
):
    url = claim.episode.get_absolute_url()
    etag = client.get(url)["ETag"]
    # Only the ledger's version is read.
    with django_assert_num_queries(1):
        response = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 304
    assert response.content == b""
    # A 304 may only state the length of the page it stands for: this one states none.
    assert "Content-Length" not in response.headers


def test_a_page_seen_before_is_served_from_the_cache(client, claim, django_assert_num_queries):
    url = claim.episode.get_absolute_url()
    client.get(url)
    with django_assert_num_queries(1):
        response = client.get(url)
    assert "The first wording." in response.content.decode()


def test_editing_a_claim_changes_its_page_at_once(client, claim):
    url = claim.episode.get_absolute_url()
    etag = client.get(url)["ETag"]
    claim.excerpt = "The corrected wording."
    claim.save(correction_note="The first wording was misheard.")
    response = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200
    assert "The corrected wording." in response.content.decode()
    assert "The first wording." not in response.content.decode()


def test_retracting_from_the_admin_hides_the_claim_at_once(client, admin_client, claim):
    url = claim.episode.get_absolute_url()
    assert "The first wording." in client.get(url).content.decode()
    admin_client.post(
        reverse("admin:claims_claim_changelist"),
        {"action": "retract", ACTION_CHECKBOX_NAME: [claim.pk], "reason": "Misattributed."},
    )
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.RETRACTED
    assert "The first wording." not in client.get(url).content.decode()


def test_renaming_a_speaker_reaches_every_cached_page(client, claim):
    url = claim.episode.get_absolute_url()
    client.get(url)
    claim.speaker.name = "Ada Renamed"
    claim.speaker.save()
    assert "Ada Renamed" in client.get(url).content.decode()


def test_public_pages_carry_validators_and_must_revalidate(client, claim):
    response = client.get("/")
    assert response["ETag"].startswith('"ledger-')
    assert response["Last-Modified"]
    assert response["Cache-Control"] == "public, no-cache"


def test_not_found_pages_are_not_cached(client, db):
    assert client.get("/episodes/example/none/").status_code == 404
    assert "ETag" not in client.get("/episodes/example/none/")


def test_public_pages_set_no_cookies(client, claim):
    urls = [
        "/",
        "/episodes/",
        claim.episode.get_absolute_url(),
        claim.get_absolute_url(),
        "/speakers/",
        claim.speaker.get_absolute_url(),
        "/podcasts/",
        claim.episode.podcast.get_absolute_url(),
        "/claims/?q=wording",
        "/method/",
        "/how-the-evidence-works/",
        "/about/",
        "/corrections/",
        f"{claim.get_absolute_url()}report/sent/",
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        assert not response.cookies, url


# A database of its own, emptied by the test: never a developer's cache, nor that of
# another worker of the same run (pytest-xdist names them gw0, gw1, …).
WORKER = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw"))
REDIS = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": f"redis://127.0.0.1:6379/{15 - WORKER % 8}",
    }
}


@pytest.fixture
def redis_cache(settings):
    """Production's cache (REDIS_URL). Without Redis: skipped locally, failed under CI."""
    import redis

    try:
        redis.Redis(host="127.0.0.1", port=6379, socket_connect_timeout=1).ping()
    except redis.ConnectionError:
        missing = "No Redis on 127.0.0.1:6379."
        if in_ci():
            pytest.fail(f"{missing} .ci/run starts it; CI must test the shared cache.")
        pytest.skip(f"{missing} The shared-cache test is skipped.")
    settings.CACHES = REDIS


def test_the_shared_redis_cache_serves_pages_and_stays_fresh(
    client, claim, redis_cache, django_assert_num_queries
):
    cache.clear()
    url = claim.episode.get_absolute_url()
    client.get(url)
    with django_assert_num_queries(1):
        assert "The first wording." in client.get(url).content.decode()
    claim.summary = "A summary added later."
    claim.save()
    assert "A summary added later." in client.get(url).content.decode()
    cache.clear()


def test_a_cached_page_is_refused_to_a_host_not_allowed(client, claim, settings):
    settings.ALLOWED_HOSTS = ["ledger.example.org"]
    url = claim.get_absolute_url()
    assert client.get(url, HTTP_HOST="ledger.example.org").status_code == 200
    assert client.get(url, HTTP_HOST="evil.example").status_code == 400
    etag = client.get(url, HTTP_HOST="ledger.example.org")["ETag"]
    assert client.get(url, HTTP_HOST="evil.example", HTTP_IF_NONE_MATCH=etag).status_code == 400


def test_each_host_gets_its_own_citation_address(client, claim, settings):
    settings.ALLOWED_HOSTS = ["ledger.example.org", "mirror.example.net"]
    url = claim.get_absolute_url()
    client.get(url, HTTP_HOST="ledger.example.org")
    html = client.get(url, HTTP_HOST="mirror.example.net").content.decode()
    assert f"http://mirror.example.net{url}" in html
    assert "ledger.example.org" not in html
    html = client.get(url, HTTP_HOST="ledger.example.org", secure=True).content.decode()
    assert f"https://ledger.example.org{url}" in html


def test_parameters_no_page_reads_share_the_cached_page(client, claim, django_assert_num_queries):
    client.get("/claims/?type=evaluation&order=oldest")
    # Only the ledger's version is read: the page comes from the cache.
    with django_assert_num_queries(1):
        response = client.get("/claims/?utm_source=news&order=oldest&fbclid=x&type=evaluation")
    assert "The first wording." in response.content.decode()
    assert "utm_source" not in response.content.decode()
    client.get("/?utm_source=news")
    with django_assert_num_queries(1):
        client.get("/")


def test_a_parameter_the_page_reads_still_makes_its_own_page(client, claim):
    assert "The first wording." in client.get("/claims/").content.decode()
    assert "The first wording." not in client.get("/claims/?type=prediction").content.decode()
    assert "The first wording." not in client.get("/claims/?q=nothing-like-it").content.decode()


def test_the_citation_address_carries_no_stray_parameters(client, claim):
    url = claim.get_absolute_url()
    html = client.get(url, {"utm_source": "newsletter"}).content.decode()
    assert f"http://testserver{url}" in html
    assert "newsletter" not in html


def test_every_public_page_says_which_parameters_it_reads():
    from django.urls import URLPattern, URLResolver, get_resolver

    from ledger.caching import PAGE_PARAMETERS

    def names(patterns, namespace=""):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                if pattern.namespace != "admin":
                    yield from names(pattern.url_patterns, pattern.namespace or namespace)
            elif isinstance(pattern, URLPattern) and pattern.name not in ("search", "minimal"):
                yield f"{namespace}:{pattern.name}" if namespace else pattern.name

    assert sorted(names(get_resolver().url_patterns)) == sorted(set(PAGE_PARAMETERS) - {"minimal"})


def test_a_repeat_visit_with_the_last_modified_date_gets_304(client, claim):
    url = claim.episode.get_absolute_url()
    last_modified = client.get(url)["Last-Modified"]
    response = client.get(url, HTTP_IF_MODIFIED_SINCE=last_modified)
    assert response.status_code == 304
    assert response["Last-Modified"] == last_modified


def test_the_page_is_named_from_djangos_own_url_resolution(client, claim, monkeypatch):
    # The page cache reads request.resolver_match (process_view): the URL is resolved
    # once per request, by Django, not again by the cache before it.
    from django.urls import resolvers

    resolved = []
    resolve = resolvers.URLResolver.resolve

    def counting(self, path):
        if self.pattern.regex.pattern == "^/":
            resolved.append(path)
        return resolve(self, path)

    monkeypatch.setattr(resolvers.URLResolver, "resolve", counting)
    assert client.get(claim.episode.get_absolute_url()).status_code == 200
    assert resolved == [claim.episode.get_absolute_url()]
