import threading

from django.core.cache import cache
from django.db import DatabaseError, connection
from django.http import JsonResponse

HEALTH_PATH = "/healthz"
# A load balancer's probe gives up after a few seconds; answer well before it does.
BUDGET_SECONDS = 2


class HealthCheckMiddleware:
    """Answers /healthz before anything else: 200 when the database answers, 503 if not.

    Placed first so a load balancer's probe (often by IP, with no known Host) is
    neither redirected to HTTPS nor refused by ALLOWED_HOSTS.

    The cache's state is reported but never fails the check: every node shares one
    Redis, so failing on it would drain them all at once, while the pages render
    without it (ledger/caching.py).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path != HEALTH_PATH:
            return self.get_response(request)
        database = DatabaseProbe()
        cache_state = "ok" if cache_is_reachable() else "down"
        if not database.answered(within=BUDGET_SECONDS):
            return JsonResponse(
                {"status": "error", "database": "unreachable", "cache": cache_state}, status=503
            )
        return JsonResponse({"status": "ok", "database": "ok", "cache": cache_state})


class DatabaseProbe:
    """`SELECT 1` in a thread of its own, on a connection of its own, started at once.

    A database that accepts connections and never answers would hold the worker
    until gunicorn killed it; here the probe is abandoned after its budget, and
    its thread ends at the connect or statement timeout (ledger/settings.py).
    """

    def __init__(self):
        self.ok = False
        self.done = threading.Event()
        threading.Thread(target=self.run, daemon=True).start()

    def run(self):
        try:
            self.ok = database_is_reachable()
        finally:
            # The thread's own connection: kept, it would outlive the thread unused.
            connection.close()
            self.done.set()

    def answered(self, within):
        return self.done.wait(within) and self.ok


def database_is_reachable():
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return False
    return True


def cache_is_reachable():
    try:
        cache.get("healthz")
    # Whatever the backend raises: the report must come back, whatever broke.
    except Exception:
        return False
    return True
