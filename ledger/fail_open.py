"""The shared cache, used so that its outage never takes a page down with it.

The page cache (ledger/caching.py) and anything else that keeps work in the
shared cache (formatted citations, rate limits) go through a FailOpenCache.
"""

import logging
import time

from django.core.cache import cache

logger = logging.getLogger(__name__)

# After a cache error, pages render without the cache this long before it is tried again.
CACHE_RETRY_SECONDS = 30


class FailOpenCache:
    """The shared cache, whose outage must never become an outage of the site.

    An error (Redis down, hung or full) is logged once, then the cache is left alone
    for CACHE_RETRY_SECONDS: pages are made without it meanwhile, and a hung server costs
    one timeout per interval per process rather than two per request.
    """

    def __init__(self, purpose: str):
        self.purpose = purpose
        self.resting_until = 0.0

    def get(self, key):
        return self.attempt(cache.get, key)

    def set(self, key, value, timeout):
        self.attempt(cache.set, key, value, timeout)

    def count(self, key, timeout) -> int | None:
        """Add one to the counter at `key` (kept `timeout` seconds from its first count)
        and return it; None while the cache is failing."""
        self.attempt(cache.add, key, 0, timeout)
        return self.attempt(cache.incr, key)

    def attempt(self, operation, *args):
        if time.monotonic() < self.resting_until:
            return None
        try:
            return operation(*args)
        # Any backend's failure, not only Redis's: the cache is an optimisation.
        except Exception:
            self.resting_until = time.monotonic() + CACHE_RETRY_SECONDS
            logger.warning(
                "The %s failed; working without it for %s seconds",
                self.purpose,
                CACHE_RETRY_SECONDS,
                exc_info=True,
            )
            return None
