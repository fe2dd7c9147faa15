"""The results API against its own OpenAPI document, as served by the app: schemathesis
generates requests for every operation from the document (valid and invalid slugs, numbers,
pages) and checks each answer: never a server error, every status code, header and body as
the document describes it."""

import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, settings

EXAMPLES = 30


# The document the app serves at /api/v1/openapi.json (reading it needs no database), the
# app answering the requests made from it.
schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", get_wsgi_application())


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_every_answer_matches_the_document(case, results, connection_kept):
    case.call_and_validate()
