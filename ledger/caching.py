"""Public pages: validated by the ledger's version, cached in the shared cache.

Every public page depends only on the ledger's records, and `LedgerVersion`
moves on every change to them. So a page's ETag is the version: a repeat visit
costs one primary-key read and a 304; a first visit is served from the cache
when any reader has seen that page at that version; and after a save, publish
or retraction the version moves, every key misses, and no one sees the old page.
"""

import hashlib
import logging
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponseNotAllowed, QueryDict
from django.urls import Resolver404, resolve
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import http_date, quote_etag

from claims.api.params import READ_PARAMETERS
from claims.filters import ClaimFilter
from ledger.models import current_version

UNCACHED_PREFIXES = ("/healthz",)
READ_METHODS = ("GET", "HEAD")
# The query parameters each public page reads. Any other (utm_source, a typo, a
# scanner's junk) is dropped before the view sees it, so it can neither change the
# page nor make a cache entry of its own. A page not listed here is not cached.
PAGE_PARAMETERS = {
    "home": (),
    "method": (),
    "how_it_works": (),
    "claims:claim_list": (*ClaimFilter.base_filters, "page"),
    "claims:claim_detail": (),
    "episodes:episode_list": ("podcast", "page"),
    "episodes:episode_detail": (),
    "episodes:speaker_list": ("page",),
    "episodes:speaker_detail": ("page",),
    "episodes:podcast_list": (),
    "episodes:podcast_detail": ("page",),
    # The benchmark's yardstick (BENCHMARK_VIEWS), served as every page is.
    "minimal": (),
    # The API, the downloads and their documentation.
    **READ_PARAMETERS,
}
# After a cache error, pages render without the cache this long before it is tried again.
CACHE_RETRY_SECONDS = 30

logger = logging.getLogger(__name__)


class FailOpenCache:
    """The page cache, whose outage must never become an outage of the site.

    An error (Redis down, hung or full) is logged once, then the cache is left alone
    for CACHE_RETRY_SECONDS: pages render uncached meanwhile, and a hung server costs
    one timeout per interval per process rather than two per request.
    """

    def __init__(self):
        self.resting_until = 0.0

    def get(self, key):
        return self.attempt(cache.get, key)

    def set(self, key, value, timeout):
        self.attempt(cache.set, key, value, timeout)

    def attempt(self, operation, *args):
        if time.monotonic() < self.resting_until:
            return None
        try:
            return operation(*args)
        # Any backend's failure, not only Redis's: the cache is an optimisation.
        except Exception:
            self.resting_until = time.monotonic() + CACHE_RETRY_SECONDS
            logger.warning(
                "The page cache failed; serving pages uncached for %s seconds",
                CACHE_RETRY_SECONDS,
                exc_info=True,
            )
            return None


def keep_read_parameters(request, reads):
    """Keep only the query parameters the page reads, sorted by name.

    Values keep their order within a parameter: `?type=a&type=b` is the reader's order.
    """
    kept = QueryDict(mutable=True)
    for name in sorted(set(request.GET) & set(reads)):
        kept.setlist(name, request.GET.getlist(name))
    kept._mutable = False
    request.GET = kept
    request.META["QUERY_STRING"] = kept.urlencode()


def view_name(request):
    try:
        return resolve(request.path_info).view_name
    except Resolver404:
        return None


class PublicPageCacheMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.cache = FailOpenCache()

    def __call__(self, request):
        if request.path.startswith(
            (*UNCACHED_PREFIXES, "/" + settings.ADMIN_URL, settings.STATIC_URL)
        ):
            return self.get_response(request)
        # Before any answer from the cache: a host not in ALLOWED_HOSTS gets a 400
        # (DisallowedHost) here, as it would from the view.
        request.get_host()
        name = view_name(request)
        if name is None:
            return self.get_response(request)
        # Outside the admin every page only reads: any other method, OPTIONS and
        # TRACE included, would otherwise get the whole page.
        if request.method not in READ_METHODS:
            return HttpResponseNotAllowed(READ_METHODS)
        if name not in PAGE_PARAMETERS:
            return self.get_response(request)
        keep_read_parameters(request, PAGE_PARAMETERS[name])
        return self.page(request)

    def page(self, request):
        """The page from the cache, or rendered and cached; a 304 if the reader has it."""
        number, changed_at = current_version()
        etag = quote_etag(f"ledger-{number}-{changed_at.timestamp():.6f}")
        # Whole seconds, as HTTP dates carry them: compared with microseconds, a
        # client's If-Modified-Since (our own Last-Modified) always looked older.
        last_modified = int(changed_at.timestamp())
        not_modified = get_conditional_response(request, etag=etag, last_modified=last_modified)
        if not_modified is not None:
            return self.validated(not_modified, etag, last_modified)

        key = self.cache_key(etag, request)
        response = self.cache.get(key) if settings.PAGE_CACHE_SECONDS else None
        if response is None:
            response = self.get_response(request)
            if response.streaming and response.status_code == 200:
                # A download is streamed, never stored, but is as fresh as the ledger.
                return self.validated(response, etag, last_modified)
            if not self.is_shareable(response):
                return response
            if settings.PAGE_CACHE_SECONDS:
                self.cache.set(key, response, settings.PAGE_CACHE_SECONDS)
        return self.validated(response, etag, last_modified)

    @staticmethod
    def is_shareable(response):
        # Errors, redirects and anything that sets a cookie are for one reader only.
        return response.status_code == 200 and not response.cookies and not response.streaming

    @staticmethod
    def cache_key(etag, request):
        # Pages hold absolute addresses ("Cite this claim") built from the request's
        # scheme and host, so each allowed origin has pages of its own.
        address = request.build_absolute_uri()
        return f"page:{etag}:{request.method}:{hashlib.sha256(address.encode()).hexdigest()}"

    @staticmethod
    def validated(response, etag, last_modified):
        response["ETag"] = etag
        response["Last-Modified"] = http_date(last_modified)
        # Shared caches may keep the page but must ask again each time: a 304 is cheap.
        patch_cache_control(response, public=True, no_cache=True)
        return response
