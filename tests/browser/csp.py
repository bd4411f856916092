"""A strict Content-Security-Policy for the browser tests, used only when the site sends none."""

STRICT_POLICY = "; ".join(
    (
        "default-src 'self'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
HEADERS = ("Content-Security-Policy", "Content-Security-Policy-Report-Only")


class StrictCSPMiddleware:
    """Same origin only, no inline script or style: as strict as a site's own policy would be."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if not any(header in response.headers for header in HEADERS):
            response.headers["Content-Security-Policy"] = STRICT_POLICY
        return response
