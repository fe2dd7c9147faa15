"""Static files as a real event serves them (DEBUG off, after collectstatic): hashed names
in the pages, compressed copies, cached for good; the admin's too."""

import gzip
import re

import pytest
from django.core.management import call_command
from django.test import Client, override_settings

from tests import html
from tests.conftest import make_tournament, make_user

MANIFEST = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}


def serving(static_root):
    """The settings of `make serve` for static files; a new Client starts whitenoise on them."""
    return override_settings(
        STATIC_ROOT=static_root,
        STORAGES=MANIFEST,
        WHITENOISE_USE_FINDERS=False,
        WHITENOISE_AUTOREFRESH=False,
    )


@pytest.fixture(scope="module")
def static_root(tmp_path_factory):
    """collectstatic run once, into a temporary STATIC_ROOT."""
    root = tmp_path_factory.mktemp("staticfiles")
    with serving(root):
        call_command("collectstatic", interactive=False, verbosity=0)
    return root


@pytest.fixture
def collected(static_root, db):
    with serving(static_root):
        yield static_root


def linked(page, rel: str) -> list[str]:
    """The addresses the page's ``<link rel=...>`` elements name."""
    return [link.attrs["href"] for link in html.elements(page, f"link[rel={rel}]")]


def stylesheet(page) -> str:
    (url,) = [url for url in linked(page, "stylesheet") if url.startswith("/static/css/site.")]
    assert re.fullmatch(r"/static/css/site\.[0-9a-f]{12}\.css", url), url
    return url


def test_pages_link_the_hashed_stylesheet_served_for_good(collected):
    client = Client()
    url = stylesheet(client.get("/").content)
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/css")
    assert "immutable" in response["Cache-Control"]
    body = b"".join(response.streaming_content)
    assert body == (collected / "css/site.css").read_bytes()


def test_a_browser_that_takes_gzip_gets_it(collected):
    client = Client()
    url = stylesheet(client.get("/").content)
    response = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate")
    assert response["Content-Encoding"] == "gzip"
    assert (
        gzip.decompress(b"".join(response.streaming_content))
        == (collected / "css/site.css").read_bytes()
    )


def test_the_unhashed_name_is_served_too(collected):
    assert Client().get("/static/css/site.css").status_code == 200


def test_the_admin_stylesheets_are_served(collected):
    client = Client()
    page = client.get("/admin/login/").content
    (url,) = [url for url in linked(page, "stylesheet") if "/admin/css/base." in url]
    assert re.fullmatch(r"/static/admin/css/base\.[0-9a-f]{12}\.css", url), url
    assert client.get(url).status_code == 200


def test_pages_name_the_sites_icon_and_it_is_served(collected):
    client = Client()
    (icon,) = linked(client.get("/").content, "icon")
    assert re.fullmatch(r"/static/favicon\.[0-9a-f]{12}\.svg", icon), icon
    response = client.get(icon)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("image/svg+xml")


def test_the_hall_screen_names_its_scripts_and_they_are_served(collected):
    organiser = make_user("organiser", can_create=True)
    make_tournament(creator=organiser)
    client = Client()
    page = client.get("/t/spring-open/screen/").content
    named = [e.attrs["src"] for e in html.elements(page, "script[src]")] + linked(
        page, "stylesheet"
    )
    for name in ("js/vendor/htmx.min", "js/screen", "css/screen"):
        extension = name.rsplit("/", 1)[0].split("/")[0]
        pattern = rf"/static/{re.escape(name)}\.[0-9a-f]{{12}}\.{extension}"
        found = [url for url in named if re.fullmatch(pattern, url)]
        assert len(found) == 1, name
        assert client.get(found[0]).status_code == 200
