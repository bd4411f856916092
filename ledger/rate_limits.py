"""Limits on what one client address may do in a while, counted in the shared cache.

The count fails open, as the page cache does (ledger/fail_open.py): while the
cache is down nothing is counted and nothing is refused, so an outage never
stops a reader; the limit is a brake on abuse, not a guarantee.
"""

import hashlib
import time

from django.http import HttpRequest
from rest_framework.throttling import BaseThrottle

from ledger.fail_open import FailOpenCache


def client_address(request: HttpRequest) -> str:
    """The reader's address as the API's rate limits read it: REMOTE_ADDR or, behind
    PROXY_COUNT proxies, the address the nearest one saw (REST_FRAMEWORK's NUM_PROXIES)."""
    return BaseThrottle().get_ident(request) or "unknown"


class AddressRateLimit:
    """At most `limit` actions per address in each window of `seconds` (a fixed window)."""

    def __init__(self, purpose: str, seconds: int):
        self.purpose = purpose
        self.seconds = seconds
        self.cache = FailOpenCache(f"{purpose} rate limit")

    def allows(self, request: HttpRequest, limit: int) -> bool:
        """Count one more action from the request's address; whether it is within the limit."""
        window = int(time.time() // self.seconds)
        # Hashed: a forwarded address is whatever the client sent, of any length.
        address = hashlib.sha256(client_address(request).encode()).hexdigest()[:32]
        count = self.cache.count(f"rate:{self.purpose}:{window}:{address}", self.seconds)
        return count is None or count <= limit
