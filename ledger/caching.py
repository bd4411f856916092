"""Public pages: validated by the ledger's version, cached in the shared cache.

Every public page depends only on the ledger's records, and `LedgerVersion`
moves on every change to them. So a page's ETag is the version: a repeat visit
costs one primary-key read and a 304; a first visit is served from the cache
when any reader has seen that page at that version; and after a save, publish
or retraction the version moves, every key misses, and no one sees the old page.
"""

import datetime
import hashlib
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpResponseNotAllowed, QueryDict
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import http_date, quote_etag

from claims.api.params import READ_PARAMETERS
from claims.filters import ClaimFilter
from ledger.fail_open import FailOpenCache
from ledger.models import current_version
from ledger.routers import replica_must_have

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
    "episodes:episode_transcript": (),
    "episodes:speaker_list": ("q", "page"),
    "episodes:speaker_detail": ("page",),
    "episodes:speaker_moves": ("page",),
    "episodes:podcast_list": ("page",),
    "episodes:podcast_detail": ("page",),
    "claims:prediction_list": ("speaker", "podcast", "outcome"),
    "claims:topic_list": ("page",),
    "claims:topic_detail": ("page",),
    "claims:reference_list": ("kind", "role", "page"),
    "claims:reference_detail": ("page",),
    "about": (),
    "claims:corrections": ("page",),
    "claims:claim_report": (),
    "claims:claim_report_sent": (),
    # What machines read: feeds, citations, embeds, sitemaps.
    "claims:claims_feed": tuple(ClaimFilter.base_filters),
    "claims:browser_citations": (*ClaimFilter.base_filters, "page"),
    "claims:claim_citation": (),
    "claims:claim_embed": (),
    "claims:oembed": ("url", "format", "maxwidth", "maxheight"),
    "claims:speaker_citations": ("page",),
    "claims:corrections_feed": (),
    "claims:speaker_feed": (),
    "claims:podcast_feed": (),
    "claims:episode_feed": (),
    "sitemap": (),
    "sitemap_section": ("p",),
    "robots_txt": (),
    # The benchmark's yardstick (BENCHMARK_VIEWS), served as every page is.
    "minimal": (),
    # The API, the downloads and their documentation.
    **READ_PARAMETERS,
}

# Public pages that take a form: each reader gets their own (it sets a CSRF cookie),
# so these are never cached or validated, and they accept POST (their views say
# which methods they answer).
FORM_PAGES = frozenset({"claims:claim_report"})


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


class PublicPageCacheMiddleware:
    """Answers public pages from the shared cache, or with a 304, before their view runs.

    Django resolves each URL once, and the page is named from that resolution: which
    page it is gets decided in process_view (request.resolver_match), between URL
    resolution and the view, and a page rendered there is stored on its way out.
    """

    def __init__(self, get_response):
        self.get_response = get_response
        self.cache = FailOpenCache("page cache")

    def __call__(self, request):
        if request.path.startswith(
            (*UNCACHED_PREFIXES, "/" + settings.ADMIN_URL, settings.STATIC_URL)
        ):
            return self.get_response(request)
        # Before any answer from the cache: a host not in ALLOWED_HOSTS gets a 400
        # (DisallowedHost) here, as it would from the view.
        request.get_host()
        request.public_page = PublicPage()
        response = self.get_response(request)
        if response.status_code == 304:
            # Answered in process_view, it came back through CommonMiddleware, which
            # counts its empty body: a 304 must not claim a length other than the page's.
            del response.headers["Content-Length"]
        if request.public_page.cache_key is None:
            return response
        return self.store(request.public_page, response)

    def process_view(self, request, view_func, view_args, view_kwargs):
        if not hasattr(request, "public_page"):
            return None
        name = request.resolver_match.view_name
        if name in FORM_PAGES:
            keep_read_parameters(request, PAGE_PARAMETERS[name])
            return None
        # Outside the admin every page only reads: any other method, OPTIONS and
        # TRACE included, would otherwise get the whole page.
        if request.method not in READ_METHODS:
            return HttpResponseNotAllowed(READ_METHODS)
        if name not in PAGE_PARAMETERS:
            return None
        keep_read_parameters(request, PAGE_PARAMETERS[name])
        return self.from_cache(request)

    def from_cache(self, request):
        """The page from the cache, or a 304 if the reader has it; None to render it."""
        # From the primary: the version names the page in the cache and in ETags, and
        # the page is read from a replica only if the replica has replayed it.
        number, changed_at = current_version()
        replica_must_have(number)
        # A page also changes with the date (a prediction falls due), so each day
        # starts a new version of every page.
        today = timezone.localdate()
        page = request.public_page
        page.changed_at = changed_at
        page.etag = quote_etag(f"ledger-{number}-{changed_at.timestamp():.6f}-{today:%Y%m%d}")
        midnight = timezone.make_aware(datetime.datetime.combine(today, datetime.time()))
        # Whole seconds, as HTTP dates carry them: compared with microseconds, a
        # client's If-Modified-Since (our own Last-Modified) always looked older.
        page.last_modified = int(max(changed_at, midnight).timestamp())
        not_modified = get_conditional_response(
            request, etag=page.etag, last_modified=page.last_modified
        )
        if not_modified is not None:
            return page.validated(not_modified)
        key = self.cache_key(page.etag, request)
        response = self.cache.get(key) if settings.PAGE_CACHE_SECONDS else None
        if response is not None:
            return page.validated(response)
        page.cache_key = key
        return None

    def store(self, page, response):
        """A page the view rendered: cached if any reader may share it."""
        if response.streaming and response.status_code == 200:
            # A download is streamed, never stored, but is as fresh as the ledger.
            return page.validated(response)
        if not self.is_shareable(response):
            return response
        if settings.PAGE_CACHE_SECONDS:
            self.cache.set(page.cache_key, response, settings.PAGE_CACHE_SECONDS)
        return page.validated(response)

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


@dataclass
class PublicPage:
    """What the page cache knows of the public page a request asks for."""

    etag: str = ""
    last_modified: int = 0
    # When the ledger last changed, as the ETag names it: the sitemap index's lastmod.
    changed_at: datetime.datetime | None = None
    # Set when the page is to be rendered and then stored under this key.
    cache_key: str | None = None

    def validated(self, response):
        response["ETag"] = self.etag
        response["Last-Modified"] = http_date(self.last_modified)
        # Shared caches may keep the page but must ask again each time: a 304 is cheap.
        patch_cache_control(response, public=True, no_cache=True)
        return response
