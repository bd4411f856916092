"""Public pages: validated by the ledger's version, cached in the shared cache.

Every public page depends only on the ledger's records, and `LedgerVersion`
moves on every change to them. So a page's ETag is the version: a repeat visit
costs one primary-key read and a 304; a first visit is served from the cache
when any reader has seen that page at that version; and after a save, publish
or retraction the version moves, every key misses, and no one sees the old page.
"""

import hashlib

from django.conf import settings
from django.core.cache import cache
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import http_date, quote_etag

from ledger.models import current_version

UNCACHED_PREFIXES = ("/healthz",)


class PublicPageCacheMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not self.is_public_read(request):
            return self.get_response(request)

        number, changed_at = current_version()
        etag = quote_etag(f"ledger-{number}-{changed_at.timestamp():.6f}")
        last_modified = changed_at.timestamp()
        not_modified = get_conditional_response(request, etag=etag, last_modified=last_modified)
        if not_modified is not None:
            return self.validated(not_modified, etag, last_modified)

        key = self.cache_key(etag, request)
        response = cache.get(key) if settings.PAGE_CACHE_SECONDS else None
        if response is None:
            response = self.get_response(request)
            if not self.is_shareable(response):
                return response
            if settings.PAGE_CACHE_SECONDS:
                cache.set(key, response, settings.PAGE_CACHE_SECONDS)
        return self.validated(response, etag, last_modified)

    @staticmethod
    def is_public_read(request):
        return request.method in ("GET", "HEAD") and not request.path.startswith(
            (*UNCACHED_PREFIXES, "/" + settings.ADMIN_URL, settings.STATIC_URL)
        )

    @staticmethod
    def is_shareable(response):
        # Errors, redirects and anything that sets a cookie are for one reader only.
        return response.status_code == 200 and not response.cookies and not response.streaming

    @staticmethod
    def cache_key(etag, request):
        # The whole address, host included: API answers and citations hold absolute links.
        path = hashlib.sha256(request.build_absolute_uri().encode()).hexdigest()
        return f"page:{etag}:{request.method}:{path}"

    @staticmethod
    def validated(response, etag, last_modified):
        response["ETag"] = etag
        response["Last-Modified"] = http_date(last_modified)
        # Shared caches may keep the page but must ask again each time: a 304 is cheap.
        patch_cache_control(response, public=True, no_cache=True)
        return response
