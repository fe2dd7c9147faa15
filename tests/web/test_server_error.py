"""A server error: the page shows a short id, and the service's log (stderr) has the same id
on the line with the traceback."""

import re
from unittest import mock

import pytest
from django.test import Client

from tests import html


def broken_home():
    return mock.patch(
        "tournament.views.public.tournament_list", side_effect=RuntimeError("the home page broke")
    )


@pytest.mark.django_db
def test_the_500_page_shows_the_id_that_the_log_line_carries(service_log):
    with broken_home():
        response = Client(raise_request_exception=False).get("/")
    assert response.status_code == 500
    page = response.content
    assert "Something went wrong on the server" in html.text(page)
    error_id = html.one(page, "strong[data-error-id]").text()
    assert re.fullmatch(r"[0-9a-f]{8}", error_id)

    log = service_log.getvalue()
    assert f"ERROR django.request: Internal Server Error: / [error {error_id}]\n" in log
    assert "Traceback (most recent call last):" in log
    assert "RuntimeError: the home page broke" in log


@pytest.mark.django_db
def test_each_error_has_its_own_id():
    client = Client(raise_request_exception=False)
    with broken_home():
        pages = [client.get("/").content.decode() for _ in range(2)]
    ids = {html.one(page, "[data-error-id]").text() for page in pages}
    assert len(ids) == 2


@pytest.mark.django_db
def test_the_page_answers_even_when_its_template_fails(service_log):
    with (
        broken_home(),
        mock.patch("django.template.loader.render_to_string", side_effect=RuntimeError("no")),
    ):
        response = Client(raise_request_exception=False).get("/")
    assert response.status_code == 500
    assert response["Content-Type"].startswith("text/plain")
    error_id = re.fullmatch(r"Server error ([0-9a-f]{8})\n", response.content.decode())[1]
    assert f"[error {error_id}]" in service_log.getvalue()


@pytest.mark.django_db
def test_other_log_lines_carry_no_error_id(service_log):
    assert Client().get("/t/no-such-cup/").status_code == 404
    assert "WARNING django.request: Not Found: /t/no-such-cup/\n" in service_log.getvalue()


@pytest.mark.django_db
def test_a_request_for_another_host_is_one_warning_line_without_a_traceback(service_log):
    response = Client().get("/", HTTP_HOST="scanner.example")
    assert response.status_code == 400
    log = service_log.getvalue()
    line = "WARNING django.security.DisallowedHost: Invalid HTTP_HOST header: 'scanner.example'"
    assert line in log
    assert "ERROR" not in log
    assert "Traceback" not in log
