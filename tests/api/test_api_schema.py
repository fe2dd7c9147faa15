"""The results API against its own OpenAPI document, as served by the app: schemathesis
generates requests for every operation from the document (valid and invalid slugs, numbers,
pages) and checks each answer: never a server error, every status code, header and body as
the document describes it."""

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings

EXAMPLES = 30


# The document the app serves at /api/v1/openapi.json (reading it needs no database), the
# app answering the requests made from it.
schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", get_wsgi_application())


@pytest.fixture
def connection_kept():
    """The app answers in the test's own transaction, as the test client's requests do: a
    request's end must not close the database connection (which it does, on a database
    whose connections are not kept between requests)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_every_answer_matches_the_document(case, results, connection_kept):
    case.call_and_validate()
