"""What the server gives a device for the network's absence (views/offline.py, docs/offline.md):
the service worker and its release, the manifest, the pages marked as kept, and a hand form
drawn by an earlier release refused rather than read."""

import json
import re
from urllib.parse import quote

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests import html
from tests.conftest import login
from tests.web.test_background_save import JSON, hand_fields
from tournament.players.player_links import player_token
from tournament.server.release import release
from tournament.views.offline import KEPT_HEADER

pytestmark = pytest.mark.django_db


def worker_config(body: str) -> dict:
    line = next(line for line in body.splitlines() if line.startswith("var CONFIG = "))
    return json.loads(line.removeprefix("var CONFIG = ").removesuffix(";"))


def test_the_service_worker_names_this_release_and_the_files_it_keeps():
    response = Client().get("/service-worker.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Cache-Control"] == "no-cache"
    config = worker_config(response.content.decode())
    assert config["release"] == release()
    assert config["keptHeader"] == KEPT_HEADER
    assert config["logout"] == reverse("logout")
    # The sheet's scripts, the tile picker's, the styles and the icons; no vendored notice.
    for name in ("js/sheet.js", "js/tablet.js", "js/tiles.js", "js/offline.js", "css/site.css"):
        assert f"/static/{name}" in config["static"]
    assert "/static/js/vendor/htmx.min.js" in config["static"]
    assert not [path for path in config["static"] if path.endswith((".md", ".LICENSE"))]


def test_the_manifest_opens_the_page_that_links_it_full_screen():
    start = "/t/spring-open/sessions/1/tables/3/"
    response = Client().get("/manifest.webmanifest", {"start": start})
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["start_url"] == manifest["id"] == start
    assert manifest["display"] == "fullscreen"
    assert {icon["sizes"] for icon in manifest["icons"]} >= {"192x192", "512x512"}


@pytest.mark.parametrize("start", ["https://elsewhere.example/", "//elsewhere.example/", "", "x"])
def test_the_manifest_never_opens_another_site(start):
    manifest = json.loads(Client().get("/manifest.webmanifest", {"start": start}).content)
    assert manifest["start_url"] == "/"


def test_the_sheet_the_referees_home_the_calculator_and_a_players_page_are_kept(
    session_in_play, referee, organiser
):
    slug = session_in_play.tournament.slug
    client = login(referee)
    player = session_in_play.seats.first().player
    kept = [
        (client, reverse("table_sheet", args=[slug, 1, 1])),
        (client, reverse("referee_home", args=[slug])),
        (Client(), reverse("calculator")),
        (Client(), reverse("player_link", args=[player_token(player)])),
    ]
    for who, path in kept:
        response = who.get(path)
        assert response.status_code == 200
        assert response[KEPT_HEADER] == "1", path
        page = response.content.decode()
        assert html.one(page, "link[rel=manifest]").attrs["href"] == (
            f"/manifest.webmanifest?start={quote(path)}"
        )
        line = html.one(page, "[data-offline-line]")
        assert line.attrs["data-page-source"] == "server"
        assert line.attrs["data-worker"] == f"/service-worker.js?release={release()}"
    # Not kept: another reading of a kept page, a part of one, any other page.
    assert KEPT_HEADER not in Client().get(reverse("calculator"), {"hand": "1m"})
    assert KEPT_HEADER not in login(organiser).get(reverse("tournament", args=[slug]))
    # A page a visitor may not see is not kept either.
    assert KEPT_HEADER not in Client().get(reverse("table_sheet", args=[slug, 1, 1]))


def test_a_hand_form_from_an_earlier_release_is_refused_not_read(session_in_play, referee):
    slug = session_in_play.tournament.slug
    url = reverse("table_sheet", args=[slug, 1, 1])
    client = login(referee)
    form = client.get(url).content.decode()
    assert html.one(form, "#hand-entry [name=release]").attrs["value"] == release()
    refused = client.post(url, hand_fields(release="0123456789ab"), **JSON)
    assert refused.status_code == 422
    reasons = [r for field in refused.json()["errors"].values() for r in field]
    assert reasons[0].startswith("The site was updated after this page was loaded")
    assert not session_in_play.tables.get(number=1).hands.exists()
    # A plain post says it on the page, above the form, which is now this release's.
    page = client.post(url, hand_fields(release="0123456789ab")).content.decode()
    assert "The site was updated" in html.one(page, "[data-error-summary]").text()
    assert html.one(page, "#hand-entry [name=release]").attrs["value"] == release()
    # The same hand from this release's page is stored.
    assert client.post(url, hand_fields(release=release()), **JSON).json()["saved"] is True


def test_the_offline_lines_are_as_docs_offline_md_says(session_in_play, referee):
    """The table of docs/offline.md: each line's words, its time 14:32."""
    doc = (settings.BASE_DIR / "docs" / "offline.md").read_text()
    said = set(re.findall(r"\| \*(No network[^*]*|The network is back\.)\*", doc))
    slug = session_in_play.tournament.slug
    sheet = login(referee).get(reverse("table_sheet", args=[slug, 1, 1])).content.decode()
    player = session_in_play.seats.first().player
    own = Client().get(reverse("player_link", args=[player_token(player)])).content.decode()
    line, own_line = html.one(sheet, "[data-offline-line]"), html.one(own, "[data-offline-line]")
    texts = {
        line.attrs["data-text-device"],
        own_line.attrs["data-text-device"],
        line.attrs["data-text-lost"],
        line.attrs["data-text-back"],
    }
    assert {text.replace("%(time)s", "14:32") for text in texts} == said
