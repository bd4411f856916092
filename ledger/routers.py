"""Public reads from read replicas; everything else from the primary.

With DATABASE_REPLICA_URLS set (ledger/settings.py), a request may read from a
replica only when a lag behind the primary can show no one anything wrong:

- it is a public GET or HEAD, outside the admin, from a reader with no session
  (an editor signed in carries a session cookie, and reads their own writes);
- it has not written anything yet (after a write, every read is the primary's);
- the replica has replayed the ledger's version the page is cached under. The
  page cache reads that version from the primary (ledger/caching.py) and asks for
  it here: a lagging replica would otherwise render the old page, to be cached
  under the new version and served as fresh until the next change.

Anything outside a request (management commands, the shell, migrations) reads
and writes the primary. A replica that cannot be reached is left alone for
REPLICA_RETRY_SECONDS, and its requests read from the primary meanwhile.
"""

import logging
import random
import time
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass

from django.conf import settings
from django.db import DatabaseError, connections

from ledger.models import current_version

logger = logging.getLogger(__name__)

PRIMARY = "default"
READ_METHODS = ("GET", "HEAD")
# After a replica fails to answer, requests read from the primary this long.
REPLICA_RETRY_SECONDS = 30


@dataclass
class Reads:
    """Where this request reads: `replica` (an alias), or the primary when it is None."""

    replica: str | None
    # The primary's ledger version the replica must have replayed, if any.
    needs_version: int | None = None
    checked: bool = False


_reads: ContextVar[Reads | None] = ContextVar("ledger_reads", default=None)
_resting_until: dict[str, float] = {}


def replica_aliases() -> list[str]:
    return [alias for alias in settings.DATABASES if alias != PRIMARY]


def may_read_from_replica(request) -> bool:
    """A public read by a reader who has written nothing we could fail to show them."""
    return (
        request.method in READ_METHODS
        and not request.path.startswith("/" + settings.ADMIN_URL)
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
    )


def choose_replica() -> str | None:
    now = time.monotonic()
    awake = [alias for alias in replica_aliases() if _resting_until.get(alias, 0) <= now]
    return random.choice(awake) if awake else None


def replica_must_have(version: int) -> None:
    """This request's pages show the ledger at `version`: a replica behind it is not read."""
    reads = _reads.get()
    if reads is not None:
        reads.needs_version = version
        reads.checked = False


def replica_serves(alias: str, needs_version: int | None) -> bool:
    """Whether `alias` answers and has replayed `needs_version`; one primary-key read."""
    try:
        if needs_version is None:
            connections[alias].ensure_connection()
            return True
        return current_version(using=alias)[0] >= needs_version
    except DatabaseError:
        _resting_until[alias] = time.monotonic() + REPLICA_RETRY_SECONDS
        logger.warning(
            "The read replica %s failed; reading from the primary for %s seconds",
            alias,
            REPLICA_RETRY_SECONDS,
            exc_info=True,
        )
        return False


class ReplicaRouter:
    """Django's database router: see the module's docstring."""

    def db_for_read(self, model, **hints):
        reads = _reads.get()
        if reads is None or reads.replica is None:
            return PRIMARY
        if not reads.checked:
            # Once per request, at its first read: a page served from the cache
            # never connects to a replica at all.
            reads.checked = True
            if not replica_serves(reads.replica, reads.needs_version):
                reads.replica = None
                return PRIMARY
        return reads.replica

    def db_for_write(self, model, **hints):
        reads = _reads.get()
        if reads is not None:
            # Read your writes: the rest of this request reads the primary.
            reads.replica = None
        return PRIMARY

    def allow_relation(self, obj1, obj2, **hints):
        # Every alias holds the same data.
        return True

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        # Replicas copy the primary's schema; they cannot be written.
        return db == PRIMARY


class ReplicaReadsMiddleware:
    """Decides, per request, whether its reads may go to a replica (ReplicaRouter)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        reads = Reads(choose_replica() if may_read_from_replica(request) else None)
        token = _reads.set(reads)
        try:
            response = self.get_response(request)
        finally:
            _reads.reset(token)
        if response.streaming and reads.replica is not None:
            # A download reads as it is sent, after this middleware has returned.
            response.streaming_content = reading(reads, response.streaming_content)
        return response


def reading(reads: Reads, chunks) -> Iterator:
    """`chunks`, each made with this request's reads in place."""
    chunks = iter(chunks)
    while True:
        token = _reads.set(reads)
        try:
            chunk = next(chunks, None)
        finally:
            _reads.reset(token)
        if chunk is None:
            return
        yield chunk
