"""The API's documentation page (``/api/v1/docs``, ``tournament/api/docs.py``): the OpenAPI
document read for a human, to anyone, with and without a final slash; every endpoint and
every document it answers shown; no script and no inline style, under a policy that allows
none; well-formed; the page in the reader's language around the document's English."""

import pytest

from tests import html
from tests.conftest import login
from tests.web.test_content_security_policy import policy
from tournament.api.docs import reference, type_parts

DOCS = "/api/v1/docs"
CHINESE = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}


def test_anyone_reads_every_endpoint_and_what_it_answers(db):
    client = login(None)
    document = client.get("/api/v1/openapi.json").json()
    response = client.get(DOCS)
    assert response.status_code == 200
    assert html.problems(response.content) == []
    page = html.parse(response.content)  # read once: the page is long
    # The same page with a final slash (the form tokens of the language switch aside).
    slashed = client.get(f"{DOCS}/")
    assert slashed.status_code == 200
    assert html.one(slashed.content, "main").text() == page.one("main").text()
    assert [e.text() for e in page.find("h3 code.api-path")] == [
        f"GET {path}" for path in document["paths"]
    ]
    # Each endpoint's parameters and answers, as the document gives them.
    tables = page.one("#get-api-v1-tournaments-slug-sessions-number-tables")
    assert html.rows_of(tables.one("table.api-fields"))[1:] == [
        ["slug", "the path", "string", "yes", "maxLength: 60 pattern: ^[-a-zA-Z0-9_]+$"],
        ["number", "the path", "integer", "yes", "maximum: 32767 minimum: 1"],
        ["page", "the query", "integer", "no", "default: 1 minimum: 1"],
        ["page_size", "the query", "integer | null", "no", "minimum: 1"],
    ]
    assert html.rows_of(tables.one("table.api-answers"))[1:] == [
        ["200", "OK", "PagedTableOut"],
        ["304", "Not Modified", "none"],
        ["404", "Not Found", "Message"],
        ["422", "Unprocessable Entity", "InvalidRequest"],
        ["429", "Too Many Requests", "Message"],
    ]
    # Every document answered is described, each field with its type; a link to each.
    documents = document["components"]["schemas"]
    shown = [e.text() for e in page.find("section.api-document h3")]
    assert set(shown) == set(documents) - {"Input"}  # ninja's pages' input: no answer
    seats = page.one("#document-seatout")
    assert [row[:3] for row in html.rows_of(seats.one("table"))[1:]] == [
        [name, _written(value), "yes"] for name, value in documents["SeatOut"]["properties"].items()
    ]
    targets = {e.attrs["id"] for e in page.find("section.api-document")}
    links = {e.attrs["href"][1:] for e in page.find("code.api-type a")}
    assert links == targets
    # The six lists by pages (docs/api.md); a tournament's sessions and a table's hands whole.
    assert [e.text() for e in page.find("span.badge")] == ["by pages"] * 6
    # No script but the site's own file, no style but its style sheet, and a policy that
    # allows no other.
    directives = policy(response)
    assert "'unsafe-inline'" not in response["Content-Security-Policy"]
    assert directives["script-src"] == ["'self'"] and directives["style-src"] == ["'self'"]
    sources = [e.attrs.get("src") for e in page.find("script")]
    assert sources and all(source.startswith("/static/") for source in sources)
    sheets = [e.attrs["href"] for e in page.find("link[rel=stylesheet]")]
    assert sheets and all(sheet.startswith("/static/") for sheet in sheets)
    assert page.find("style") == page.find("[style]") == []


def _written(schema) -> str:
    return "".join(part.text for part in type_parts(schema))


@pytest.mark.parametrize("persona", ["organiser", "referee", "other_referee", "anonymous"])
def test_every_persona_reads_it_in_chinese_around_the_documents_english(personas, persona):
    page = personas[persona].get(DOCS, **CHINESE)
    assert page.status_code == 200
    tree = html.parse(page.content)
    assert [e.text() for e in tree.find("h1")] == ["结果 API"]
    tournaments = tree.one("#get-api-v1-tournaments")
    assert [e.text() for e in tournaments.find("th")] == [
        *["参数", "位置", "类型", "必需", "取值范围"],
        *["状态码", "含义", "正文"],
    ]
    # The document's own words as the code gives them.
    assert "Every tournament, newest first." in tournaments.text()
    assert personas[persona].post(DOCS).status_code == 405


def test_types_read_as_written_with_documents_linked():
    assert _written({"type": "string", "format": "date-time"}) == "string (date-time)"
    assert _written({"anyOf": [{"type": "integer"}, {"type": "null"}]}) == "integer | null"
    parts = type_parts({"type": "array", "items": {"$ref": "#/components/schemas/HandOut"}})
    assert [(p.text, p.anchor) for p in parts] == [
        ("array[", ""),
        ("HandOut", "document-handout"),
        ("]", ""),
    ]
    assert _written({"type": "array", "items": {"type": "integer"}}) == "array[integer]"


def test_the_documents_answered_are_found_through_each_other():
    document = {
        "info": {"title": "T", "version": "2"},
        "paths": {
            "/a": {
                "get": {
                    "summary": "A",
                    "responses": {
                        "200": {
                            "description": "OK",
                            "content": {
                                "application/json": {"schema": {"$ref": "#/components/schemas/A"}}
                            },
                        },
                        "304": {"description": "Not Modified"},
                    },
                }
            }
        },
        "components": {
            "schemas": {
                "Unused": {"properties": {}},
                "B": {"properties": {"n": {"type": "integer", "minimum": 1}}, "required": ["n"]},
                "A": {
                    "properties": {
                        "b": {"type": "array", "items": {"$ref": "#/components/schemas/B"}}
                    }
                },
            }
        },
    }
    found = reference(document)
    assert [d.name for d in found.documents] == ["A", "B"]
    (endpoint,) = found.endpoints
    assert (endpoint.method, endpoint.path, endpoint.anchor, endpoint.paged) == (
        "GET",
        "/a",
        "get-a",
        False,
    )
    assert [(a.status, a.type) for a in endpoint.answers][1] == ("304", ())
    (n,) = found.documents[1].fields
    assert (n.required, n.constraints) == (True, ("minimum: 1",))
