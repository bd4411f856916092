"""Every API answer is JSON, errors included: a status, a message, never a traceback."""

from django.http import JsonResponse
from django.views import defaults
from rest_framework import status
from rest_framework.exceptions import APIException
from rest_framework.views import exception_handler

API_PREFIX = "/api/"


class InvalidParameters(APIException):
    """400: some query parameter has a value the API can't use."""

    status_code = status.HTTP_400_BAD_REQUEST
    default_detail = "Some parameters have values that can't be used: see `errors`."
    default_code = "invalid"

    def __init__(self, errors: dict[str, list[str]], detail: str | None = None):
        super().__init__(detail)
        self.errors = errors


def json_errors(exc, context):
    """DRF's handler, with every error shaped as {"status", "detail", "errors"?}."""
    response = exception_handler(exc, context)
    if response is None:
        return None  # a server error: Django logs it and answers with server_error()
    body = {"status": response.status_code}
    if isinstance(exc, InvalidParameters):
        body.update(detail=str(exc.detail), errors=exc.errors)
    elif isinstance(response.data, dict) and set(response.data) == {"detail"}:
        body["detail"] = str(response.data["detail"])
    else:
        body.update(detail="The request is not valid: see `errors`.", errors=response.data)
    response.data = body
    return response


def error_response(status_code: int, detail: str) -> JsonResponse:
    return JsonResponse({"status": status_code, "detail": detail}, status=status_code)


def not_found(request):
    """What /api/ answers at an address it doesn't have."""
    return error_response(404, "There is nothing at this address: see /api/v1/.")


def server_error(request):
    """handler500: JSON under /api/, the site's page elsewhere."""
    if request.path.startswith(API_PREFIX):
        return error_response(500, "The server failed to answer; the error has been logged.")
    return defaults.server_error(request)
