"""The OpenAPI document is valid, and the API keeps to it for any input a fuzzer finds.

Schemathesis reads the live document through the WSGI application (no network)
and calls every operation with generated parameters: no answer may be a server
error, and every answer must match the document (status, content type, body).
The examples per operation are few, so CI stays fast on both databases.
"""

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, given, settings
from openapi_spec_validator import validate
from schemathesis import checks

from claims.models import Attribution, Claim
from episodes.models import Status
from ledger.wsgi import application
from tests.factories import make_claim, make_episode, make_ledger, make_podcast, make_speaker

pytestmark = pytest.mark.django_db

EXAMPLES_PER_OPERATION = 20


def test_the_openapi_document_is_valid(client):
    response = client.get("/api/v1/schema/")

    assert response["Content-Type"].startswith("application/vnd.oai.openapi+json")
    validate(response.json())


def test_the_document_describes_every_claims_browser_parameter(client):
    operation = client.get("/api/v1/schema/").json()["paths"]["/api/v1/claims/"]["get"]
    names = {parameter["name"] for parameter in operation["parameters"]}

    assert names >= {
        "q", "type", "speaker", "podcast", "episode", "attribution",
        "aired_from", "aired_to", "order", "cursor", "page_size", "highlight",
    }  # fmt: skip


@pytest.fixture
def wsgi_in_the_test_transaction():
    """Let the WSGI application keep the test's connection, as Django's test client does:
    at the end of each request it would close it, and the test's data with it."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def live_schema(db, wsgi_in_the_test_transaction):
    """A small ledger of every kind of record behind the API, its document read through
    the application. (Factories, not the demo: loading it for each operation took longer
    than fuzzing it.)"""
    podcast = make_podcast(name="Example Show", slug="example-show")
    ada = make_speaker(name="Ada Example", slug="ada-example")
    episode = make_episode(podcast, title="Testing in Production", slug="testing-in-production")
    make_claim(episode, ada, number=1, type="prediction", excerpt="Zeppelins will return.")
    make_claim(episode, ada, number=2, excerpt="Words to be retracted.", timestamp=75)
    make_claim(episode, number=3, attribution=Attribution.UNRESOLVED, unresolved_label="Caller 2")
    make_claim(episode, ada, number=4, status=Status.DRAFT)
    make_ledger(3, 4, 2)
    return schemathesis.openapi.from_wsgi("/api/v1/schema/", application)


# Each path of the document, known without a database (pytest's parametrize runs first).
PATHS = sorted(SchemaGenerator().get_schema(request=None, public=True)["paths"])


@pytest.mark.parametrize("path", PATHS)
def test_every_operation_keeps_to_its_document(live_schema, path):
    operation = live_schema[path]["GET"]

    # Hypothesis runs it on the examples it generates (schemathesis.pytest.from_fixture
    # would do the same, but does not run under pytest 9 yet).
    @given(case=operation.as_strategy())
    @settings(
        max_examples=EXAMPLES_PER_OPERATION,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
        database=None,
    )
    def keeps_to_its_document(case):
        case.call_and_validate(
            checks=[
                checks.not_a_server_error,
                checks.status_code_conformance,
                checks.content_type_conformance,
                checks.response_schema_conformance,
            ]
        )

    keeps_to_its_document()


# A fuzzer rarely guesses a real slug: the ledger's own records, answered and checked the same way.
EXAMPLE_SHOW = {"podcast_slug": "example-show", "episode_slug": "testing-in-production"}
RECORDS = [
    ("/api/v1/claims/{id}/", "published"),
    ("/api/v1/claims/{id}/", "retracted"),
    ("/api/v1/episodes/{podcast_slug}/{slug}/", {"podcast_slug": "example-show", "slug": "testing-in-production"}),
    ("/api/v1/episodes/{podcast_slug}/{episode_slug}/claims/{number}/", {**EXAMPLE_SHOW, "number": 1}),
    ("/api/v1/episodes/{podcast_slug}/{episode_slug}/claims/{number}/", {**EXAMPLE_SHOW, "number": 2}),
    ("/api/v1/speakers/{slug}/", {"slug": "ada-example"}),
]  # fmt: skip


@pytest.mark.parametrize(("path", "parameters"), RECORDS)
def test_real_records_keep_to_the_document(live_schema, path, parameters):
    retracted = Claim.objects.get(episode__slug="testing-in-production", number=2)
    retracted.retract("Retracted for this test.")
    if parameters in ("published", "retracted"):
        claim = Claim.objects.get(episode__slug="testing-in-production", number=1)
        parameters = {"id": (claim if parameters == "published" else retracted).pk}
    case = live_schema[path]["GET"].Case(path_parameters=parameters)

    response = case.call_and_validate(checks=[checks.response_schema_conformance])

    assert response.status_code == 200
