from django.core.cache import cache
from django.db import DatabaseError, connection
from django.http import JsonResponse

HEALTH_PATH = "/healthz"


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
        cache_state = "ok" if cache_is_reachable() else "down"
        if not database_is_reachable():
            return JsonResponse(
                {"status": "error", "database": "unreachable", "cache": cache_state}, status=503
            )
        return JsonResponse({"status": "ok", "database": "ok", "cache": cache_state})


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
