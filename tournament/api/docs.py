"""The API's documentation page (``/api/v1/docs``): the OpenAPI document the code generates,
read for a human, in the site's own page and styles.

django-ninja's own docs page (Swagger UI) loads its scripts and styles from a CDN and runs
an inline script, which the site's Content-Security-Policy forbids. Here the document is
read on the server into plain values (``reference``) that a template draws: no script at
all, every endpoint with its parameters and answers, every document it answers with its
fields. The document's own words (summaries, descriptions, field names) stay in English, as
the API speaks; the page around them is in the reader's language.
"""

import re
from dataclasses import dataclass

from csp.constants import SELF
from csp.decorators import csp_replace
from django.conf import settings
from django.shortcuts import render
from django.views.decorators.http import require_safe

from tournament.api.v1 import MAX_PAGE_SIZE, PAGE_SIZE, api
from tournament.server.rate_limits import parse_rate

# What the page shows of a value's bounds, by the JSON Schema keyword that gives it.
CONSTRAINTS = ("minimum", "maximum", "minLength", "maxLength", "pattern", "enum", "default")
_REF_PREFIX = "#/components/schemas/"


@dataclass(frozen=True)
class TypePart:
    """A piece of a type as the page writes it (``array[``, ``TableOut``, ``]``): ``anchor``
    when it names a document described further down the page."""

    text: str
    anchor: str = ""


@dataclass(frozen=True)
class Field:
    """A field of a document, or a parameter of an endpoint (``location``: path or query)."""

    name: str
    type: tuple[TypePart, ...]
    required: bool
    description: str
    constraints: tuple[str, ...]
    location: str = ""


@dataclass(frozen=True)
class Answer:
    status: str
    description: str
    type: tuple[TypePart, ...]


@dataclass(frozen=True)
class Endpoint:
    method: str
    path: str
    anchor: str
    summary: str
    description: str
    parameters: tuple[Field, ...]
    answers: tuple[Answer, ...]
    paged: bool


@dataclass(frozen=True)
class Document:
    name: str
    anchor: str
    description: str
    fields: tuple[Field, ...]


@dataclass(frozen=True)
class Reference:
    title: str
    version: str
    description: str
    endpoints: tuple[Endpoint, ...]
    documents: tuple[Document, ...]


def _anchor(kind: str, name: str) -> str:
    return f"{kind}-" + re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def _ref_name(schema: dict) -> str | None:
    ref = schema.get("$ref", "")
    return ref.removeprefix(_REF_PREFIX) if ref.startswith(_REF_PREFIX) else None


def type_parts(schema: dict) -> tuple[TypePart, ...]:
    """The type of a JSON Schema as the page writes it: ``integer``, ``string (date-time)``,
    ``integer | null``, ``array[TableOut]``, a document's name linked to its description."""
    parts: list[TypePart] = []
    name = _ref_name(schema)
    if name:
        parts.append(TypePart(name, _anchor("document", name)))
    elif "anyOf" in schema or "oneOf" in schema:
        for index, option in enumerate(schema.get("anyOf") or schema["oneOf"]):
            if index:
                parts.append(TypePart(" | "))
            parts.extend(type_parts(option))
    elif schema.get("type") == "array":
        parts.extend([TypePart("array["), *type_parts(schema.get("items", {})), TypePart("]")])
    else:
        kind = schema.get("type", "any")
        parts.append(TypePart(f"{kind} ({schema['format']})" if "format" in schema else kind))
    # Plain pieces side by side read as one ("array[" "integer" "]" is "array[integer]").
    merged: list[TypePart] = []
    for part in parts:
        if merged and not part.anchor and not merged[-1].anchor:
            merged[-1] = TypePart(merged[-1].text + part.text)
        else:
            merged.append(part)
    return tuple(merged)


def constraints(schema: dict) -> tuple[str, ...]:
    """A value's bounds as the document gives them (``minimum: 1``, ``maxLength: 60``),
    those of each alternative of an ``anyOf`` included."""
    found = [
        f"{keyword}: {', '.join(map(str, value)) if keyword == 'enum' else value}"
        for keyword, value in schema.items()
        if keyword in CONSTRAINTS
    ]
    for option in schema.get("anyOf", ()):
        found.extend(constraints(option))
    return tuple(found)


def _answer_schema(response: dict) -> dict:
    return response.get("content", {}).get("application/json", {}).get("schema", {})


def _referenced(schema: dict):
    """The names of the documents ``schema`` refers to, in the order it names them."""
    name = _ref_name(schema)
    if name:
        yield name
    for value in schema.values():
        if isinstance(value, dict):
            yield from _referenced(value)
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, dict):
                    yield from _referenced(item)


def _documents(document: dict, endpoints) -> tuple[Document, ...]:
    """Every document the endpoints answer with, and those they hold, each once, in the
    order a reader meets them."""
    schemas = document.get("components", {}).get("schemas", {})
    order: list[str] = []
    waiting = [
        name
        for operation in endpoints
        for response in operation["responses"].values()
        for name in _referenced(_answer_schema(response))
    ]
    while waiting:
        name = waiting.pop(0)
        if name in order or name not in schemas:
            continue
        order.append(name)
        waiting.extend(_referenced(schemas[name]))
    found = []
    for name in order:
        schema = schemas[name]
        required = set(schema.get("required", ()))
        fields = tuple(
            Field(
                name=field,
                type=type_parts(value),
                required=field in required,
                description=value.get("description", ""),
                constraints=constraints(value),
            )
            for field, value in schema.get("properties", {}).items()
        )
        found.append(
            Document(name, _anchor("document", name), schema.get("description", ""), fields)
        )
    return tuple(found)


def _parameter(parameter: dict) -> Field:
    schema = parameter.get("schema", {})
    return Field(
        name=parameter["name"],
        type=type_parts(schema),
        required=parameter.get("required", False),
        description=parameter.get("description", ""),
        constraints=constraints(schema),
        location=parameter.get("in", ""),
    )


def _answer(status: str, response: dict) -> Answer:
    schema = _answer_schema(response)
    # An answer without a body (304) has no type.
    return Answer(status, response.get("description", ""), type_parts(schema) if schema else ())


def reference(document: dict) -> Reference:
    """The OpenAPI ``document`` as the page shows it: its endpoints in the document's order,
    then the documents they answer with."""
    operations = [
        (method.upper(), path, operation)
        for path, methods in document.get("paths", {}).items()
        for method, operation in methods.items()
    ]
    endpoints = tuple(
        Endpoint(
            method=method,
            path=path,
            anchor=_anchor(method.lower(), path),
            summary=operation.get("summary", ""),
            description=operation.get("description", ""),
            parameters=tuple(map(_parameter, operation.get("parameters", ()))),
            answers=tuple(_answer(*item) for item in operation.get("responses", {}).items()),
            # A list by pages takes the page's number (ninja's PageNumberPagination).
            paged=any(p["name"] == "page" for p in operation.get("parameters", ())),
        )
        for method, path, operation in operations
    )
    info = document.get("info", {})
    return Reference(
        title=info.get("title", ""),
        version=str(info.get("version", "")),
        description=info.get("description", ""),
        endpoints=endpoints,
        documents=_documents(document, [operation for *_, operation in operations]),
    )


@require_safe
# The page has no inline style either: it may say so, stricter than the site's policy.
@csp_replace({"style-src": [SELF]})
def docs_page(request):
    root = api.get_root_path({})
    rate = parse_rate(settings.API_RATE)
    return render(
        request,
        "api/docs.html",
        {
            # Generated for each reading (some 50 ms): a page read now and then, by those
            # writing a client, is not worth a copy kept in every process.
            "reference": reference(api.get_openapi_schema(path_prefix=root)),
            "openapi_url": f"{root}openapi.json",
            "page_size": PAGE_SIZE,
            "max_page_size": MAX_PAGE_SIZE,
            "rate": rate,
        },
    )
