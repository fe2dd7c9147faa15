"""A body declared larger than the site takes is refused (413) before anything reads it;
every request the site takes passes, the largest upload (a player list of 5 MB) included;
the limit is the nginx configurations' too."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, RequestFactory

from tests import html
from tests.conftest import login
from tournament.players import player_file
from tournament.server.body_limit import BodyLimitMiddleware

ROOT = Path(__file__).resolve().parents[2]
LIMIT = settings.REQUEST_BODY_MAX_BYTES


def unread_body_request(length: str, **headers):
    """A post declaring ``length`` bytes whose body fails the test if anything reads it."""
    request = RequestFactory().post("/accounts/login/", b"", content_type="text/plain", **headers)
    request.META["CONTENT_LENGTH"] = length

    class Unreadable:
        def read(self, *args):
            raise AssertionError("the body was read")

        readline = read

    request._stream = Unreadable()
    return request


def refused_before_reading(length: str, **headers):
    def view(request):
        raise AssertionError("the request went on")

    return BodyLimitMiddleware(view)(unread_body_request(length, **headers))


def test_a_declared_body_over_the_limit_is_413_without_reading_it():
    response = refused_before_reading(str(LIMIT + 1))
    assert response.status_code == 413
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response.content == b"The request is too large: the site takes at most 6 MB.\n"


def test_a_browser_gets_a_page_in_its_language():
    response = refused_before_reading(
        str(600 * 1024 * 1024), HTTP_ACCEPT="text/html", HTTP_ACCEPT_LANGUAGE="zh-CN"
    )
    assert response.status_code == 413
    page = html.parse(response.content)
    assert "6 MB" in page.one("p[data-too-large]").text()
    assert page.one("html").attrs["lang"] == "zh-hans"


@pytest.mark.parametrize("length", ["", "0", "12", str(LIMIT), "not a number"])
def test_requests_within_the_limit_go_on(length):
    seen = []
    response = BodyLimitMiddleware(lambda request: seen.append(request) or "answered")(
        unread_body_request(length)
    )
    assert response == "answered"
    assert len(seen) == 1


@pytest.mark.django_db
def test_it_comes_first_before_the_csrf_check_and_the_health_check():
    assert settings.MIDDLEWARE[0] == "tournament.server.body_limit.BodyLimitMiddleware"
    client = Client(enforce_csrf_checks=True)
    client.cookies["csrftoken"] = "a" * 32
    response = client.generic(
        "POST", "/accounts/login/", b"x", "text/plain", CONTENT_LENGTH=str(600 * 1024 * 1024)
    )
    assert response.status_code == 413
    assert Client().get("/healthz").status_code == 200
    assert Client().get("/accounts/login/").status_code == 200


@pytest.mark.django_db
def test_the_largest_player_list_is_taken(tournament, organiser):
    """A file of the most the import takes reaches its form: the form, not the limit,
    refuses a larger one beside its field (tests/web/test_player_import.py)."""
    largest = SimpleUploadedFile(
        "players.csv", b"number,name\n" + b"x" * (player_file.MAX_FILE_BYTES - 12)
    )
    response = login(organiser).post(f"/t/{tournament.slug}/players/import/", {"file": largest})
    assert response.status_code == 200
    assert len(response.wsgi_request.FILES["file"]) == player_file.MAX_FILE_BYTES


def test_the_limit_leaves_room_for_every_legitimate_body():
    # The largest file with its multipart envelope (a few hundred bytes), and the largest
    # form without a file (the import's confirmation, under DATA_UPLOAD_MAX_MEMORY_SIZE).
    assert LIMIT >= player_file.MAX_FILE_BYTES + 64 * 1024
    assert LIMIT >= settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    # Far below what once filled /tmp: a 600 MB upload.
    assert LIMIT <= 10 * 1024 * 1024


@pytest.mark.parametrize("config", ["deploy/nginx-venue.conf", "docs/deploy.md"])
def test_nginx_refuses_bodies_over_the_same_limit(config):
    sizes = re.findall(r"^\s*client_max_body_size (\d+)m;", (ROOT / config).read_text(), re.M)
    assert sizes, config
    assert {int(size) * 1024 * 1024 for size in sizes} == {LIMIT}
