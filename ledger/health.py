from django.db import DatabaseError, connection
from django.http import JsonResponse

HEALTH_PATH = "/healthz"


class HealthCheckMiddleware:
    """Answers /healthz before anything else: 200 when the database answers, 503 if not.

    Placed first so a load balancer's probe (often by IP, with no known Host) is
    neither redirected to HTTPS nor refused by ALLOWED_HOSTS.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path != HEALTH_PATH:
            return self.get_response(request)
        if not database_is_reachable():
            return JsonResponse({"status": "error", "database": "unreachable"}, status=503)
        return JsonResponse({"status": "ok", "database": "ok"})


def database_is_reachable():
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return False
    return True
