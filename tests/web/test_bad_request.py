"""A request the site cannot read (a form posted in a charset other than UTF-8, a broken
multipart body, a body over the form limit) is answered 400 with the site's page, and the
service's log has one warning line for it: never a 500, never a traceback, so that nobody
can fill the log by sending such requests."""

import re

import pytest
from django.test import Client

from tests import html

pytestmark = pytest.mark.django_db

FORM = b"username=referee&password=wrong"
# Pages that take anyone's post: the login and the language switch.
PAGES = ["/accounts/login/", "/i18n/setlang/"]


def anonymous_with_a_made_up_csrf_cookie() -> Client:
    """A browser that kept a CSRF cookie but sends no header token: Django's CSRF check then
    reads the form's body for the token."""
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    client.cookies["csrftoken"] = "a" * 32
    return client


def assert_one_warning_line(log: str) -> None:
    assert re.fullmatch(r"\S+ \S+ WARNING django\.[.\w]+: [^\n]+\n", log), log


@pytest.mark.parametrize("path", PAGES)
@pytest.mark.parametrize("charset", ["latin-1", "utf-16", "koi8-r"])
def test_a_form_posted_in_another_charset_is_a_400_page_and_one_warning(path, charset, service_log):
    response = anonymous_with_a_made_up_csrf_cookie().generic(
        "POST", path, FORM, content_type=f"application/x-www-form-urlencoded; charset={charset}"
    )
    assert response.status_code == 400
    page = response.content
    assert "The server could not read this request" in html.text(page)
    assert html.elements(page, "[data-bad-request]")
    log = service_log.getvalue()
    assert "must be UTF-8 encoded" in log
    assert_one_warning_line(log)


def test_without_the_csrf_check_the_form_read_is_a_400_too(service_log):
    """The view's own read of the form (what the test client reaches, without the CSRF
    check): a 400, its line without the traceback Django attaches."""
    response = Client(raise_request_exception=False).generic(
        "POST",
        "/accounts/login/",
        FORM,
        content_type="application/x-www-form-urlencoded; charset=latin-1",
    )
    assert response.status_code == 400
    assert_one_warning_line(service_log.getvalue())


def test_a_charset_python_does_not_know_is_never_a_server_error(service_log):
    response = anonymous_with_a_made_up_csrf_cookie().generic(
        "POST",
        "/accounts/login/",
        FORM,
        content_type="application/x-www-form-urlencoded; charset=x-made-up",
    )
    assert response.status_code in (400, 403)
    assert "ERROR" not in service_log.getvalue()
    assert "Traceback" not in service_log.getvalue()


def test_a_broken_multipart_body_is_a_400(service_log):
    response = anonymous_with_a_made_up_csrf_cookie().generic(
        "POST",
        "/accounts/login/",
        b'--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n',
        content_type="multipart/form-data; boundary=",
    )
    assert response.status_code == 400
    assert_one_warning_line(service_log.getvalue())


def test_a_form_body_over_the_limit_is_a_400_and_one_warning(settings, service_log):
    """``RequestDataTooBig``: Django logs it as an error with its traceback."""
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = anonymous_with_a_made_up_csrf_cookie().post(
        "/accounts/login/", {"username": "x" * 2000}
    )
    assert response.status_code == 400
    log = service_log.getvalue()
    assert "WARNING django.security.RequestDataTooBig: " in log
    assert_one_warning_line(log)


def test_the_page_answers_even_when_its_template_fails(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("no")

    monkeypatch.setattr("django.template.loader.render_to_string", broken)
    response = anonymous_with_a_made_up_csrf_cookie().generic(
        "POST",
        "/accounts/login/",
        FORM,
        content_type="application/x-www-form-urlencoded; charset=latin-1",
    )
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/plain")
    assert response.content == b"Bad request\n"
