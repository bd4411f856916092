import threading
import time

from django.core.cache import cache
from django.db import DatabaseError, connection, connections
from django.http import JsonResponse

from ledger.routers import replica_aliases

HEALTH_PATH = "/healthz"
# A load balancer's probe gives up after a few seconds; answer well before it does.
BUDGET_SECONDS = 2


class HealthCheckMiddleware:
    """Answers /healthz before anything else: 200 when the database answers, 503 if not.

    Placed first so a load balancer's probe (often by IP, with no known Host) is
    neither redirected to HTTPS nor refused by ALLOWED_HOSTS.

    The cache's state is reported but never fails the check: every node shares one
    Redis, so failing on it would drain them all at once, while the pages render
    without it (ledger/caching.py). Read replicas' likewise: without one, pages
    read from the primary (ledger/routers.py).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path != HEALTH_PATH:
            return self.get_response(request)
        deadline = time.monotonic() + BUDGET_SECONDS
        database = Probe(database_is_reachable, lambda: connection.close())
        replicas = {
            alias: Probe(lambda a=alias: replica_state(a), lambda a=alias: connections[a].close())
            for alias in replica_aliases()
        }
        cache_state = "ok" if cache_is_reachable() else "down"
        if not database.answered(until=deadline):
            return JsonResponse(
                {"status": "error", "database": "unreachable", "cache": cache_state}, status=503
            )
        report = {"status": "ok", "database": "ok", "cache": cache_state}
        if replicas:
            report["replicas"] = {
                alias: probe.answered(until=deadline) or {"status": "unreachable"}
                for alias, probe in replicas.items()
            }
        return JsonResponse(report)


class Probe:
    """`check()` in a thread of its own, on a connection of its own, started at once.

    A database that accepts connections and never answers would hold the worker
    until gunicorn killed it; here the probe is abandoned after its budget, and
    its thread ends at the connect or statement timeout (ledger/settings.py).
    """

    def __init__(self, check, close):
        self.check, self.close = check, close
        self.result = None
        self.done = threading.Event()
        threading.Thread(target=self.run, daemon=True).start()

    def run(self):
        try:
            self.result = self.check()
        finally:
            # The thread's own connection: kept, it would outlive the thread unused.
            self.close()
            self.done.set()

    def answered(self, until):
        """The check's result if it came before `until` (a time.monotonic()), else None."""
        return self.result if self.done.wait(max(0, until - time.monotonic())) else None


def database_is_reachable():
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return False
    return True


# How far a PostgreSQL standby's replay is behind; 0 when it has replayed all it
# received (an idle primary sends nothing, and the last replay's age would grow).
REPLICATION_LAG_SQL = """
    SELECT CASE
        WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
        ELSE EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp())
    END
"""


def replica_state(alias):
    """{"status": "ok", "lag_seconds": …} for a replica that answers; None if it does not.

    The lag is null where there is none to measure: a replica that is not a
    streaming standby (a test mirror, SQLite).
    """
    try:
        with connections[alias].cursor() as cursor:
            if connections[alias].vendor == "postgresql":
                cursor.execute(REPLICATION_LAG_SQL)
            else:
                cursor.execute("SELECT NULL")
            lag = cursor.fetchone()[0]
    except DatabaseError:
        return None
    return {"status": "ok", "lag_seconds": None if lag is None else round(float(lag), 3)}


def cache_is_reachable():
    try:
        cache.get("healthz")
    # Whatever the backend raises: the report must come back, whatever broke.
    except Exception:
        return False
    return True
