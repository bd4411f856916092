"""Anonymous rate limits per client address, counted in the shared cache.

Rates come from API_RATE and DOWNLOAD_RATE (ledger/settings.py). Answers served
from the page cache, and 304s, are cheap and are answered before these count.
"""

from rest_framework.throttling import AnonRateThrottle


class APIThrottle(AnonRateThrottle):
    scope = "api"


class DownloadThrottle(AnonRateThrottle):
    scope = "downloads"

    def get_cache_key(self, request, view):
        # Per address, always: downloads are anonymous, and asking for the user would
        # read the session and make every download vary by cookie.
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
