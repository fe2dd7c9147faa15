"""HEAD and OPTIONS on the results API: the uptime monitors poll with HEAD. HEAD answers as
GET does (status, headers, ETag, 304) without the body; OPTIONS lists the methods; the
OpenAPI document names GET operations only, and no HEAD or OPTIONS one."""

import pytest

from tests.api.test_results_api import BASE, endpoints
from tests.conftest import login
from tournament.server import rate_limits

ALLOW = "GET, HEAD, OPTIONS"


@pytest.fixture
def client():
    return login(None)


def test_head_answers_every_endpoint_as_get_without_the_body(results, client):
    for url in [*endpoints(), f"{BASE}/openapi.json"]:
        get = client.get(url)
        head = client.head(url)
        assert (head.status_code, head.content) == (200, b""), url
        assert head["Content-Type"] == get["Content-Type"], url
        assert head["Content-Length"] == str(len(get.content)), url
        assert head.get("ETag") == get.get("ETag"), url
        assert head.get("Cache-Control") == get.get("Cache-Control"), url


def test_head_with_the_latest_etag_is_304(results, client):
    url = f"{BASE}/tournaments/spring-open/standings"
    etag = client.head(url)["ETag"]
    again = client.head(url, HTTP_IF_NONE_MATCH=etag)
    assert (again.status_code, again.content, again["ETag"]) == (304, b"", etag)
    assert client.head(url, HTTP_IF_NONE_MATCH='"another"').status_code == 200


def test_head_of_what_does_not_exist_is_404_without_the_body(results, client):
    for url in [f"{BASE}/tournaments/no-such-cup", f"{BASE}/series/no-such-series/ranking"]:
        get, head = client.get(url), client.head(url)
        assert (head.status_code, head.content) == (404, b""), url
        assert head["Content-Length"] == str(len(get.content)), url


def test_head_counts_against_the_rate(results, client, settings, monkeypatch):
    settings.API_RATE = "2/m"
    # Well inside one minute's window, so that the three requests share it.
    monkeypatch.setattr(rate_limits, "_now", lambda: 1_800_000_020.0)
    url = f"{BASE}/tournaments"
    assert [client.head(url).status_code for _ in range(3)] == [200, 200, 429]


def test_options_lists_the_methods_without_a_body(results, client):
    for url in [*endpoints(), f"{BASE}/openapi.json"]:
        response = client.options(url)
        assert (response.status_code, response.content) == (200, b""), url
        assert response["Allow"] == ALLOW, url


def test_other_methods_are_refused_naming_those_taken(results, client):
    for url in endpoints():
        for method in ("post", "put", "patch", "delete"):
            response = getattr(client, method)(url)
            assert response.status_code == 405, (method, url)
            assert response["Allow"] == ALLOW, (method, url)


def test_the_openapi_document_keeps_its_get_operations_only(db, client):
    """Every address only reads (what ``methods.read_only`` assumes): a GET operation each,
    and HEAD and OPTIONS answered without being documented as operations of their own."""
    paths = client.get(f"{BASE}/openapi.json").json()["paths"]
    assert paths
    assert {method for operations in paths.values() for method in operations} == {"get"}
