"""The Content-Security-Policy: every page's scripts come from the site's own files, never
inline. The browser tests read Chromium's console for violations after each test
(``tests/browser/conftest.py``); here, the header on the pages of each persona, and no
template that would need an inline script."""

import re
from pathlib import Path

import pytest
from django.urls import reverse

from tests import html

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
# A <script> element of code without a src (data, such as Django's json_script, is no code),
# or an event-handler attribute.
INLINE_SCRIPT = re.compile(
    r"<script(?![^>]*\b(?:src=|type=\"application/json\"))[^>]*>", re.IGNORECASE
)
HANDLER_ATTRIBUTE = re.compile(r"<[a-z][^>]*\son[a-z]+\s*=", re.IGNORECASE)


def policy(response) -> dict[str, list[str]]:
    header = response.headers["Content-Security-Policy"]
    return {
        name: values
        for name, *values in (part.split() for part in header.split(";") if part.strip())
    }


@pytest.mark.parametrize("persona", ["organiser", "referee", "other_referee", "anonymous"])
def test_every_persona_gets_pages_whose_scripts_are_the_sites_own(
    personas, persona, session_in_play
):
    slug = session_in_play.tournament.slug
    pages = [
        reverse("home"),
        reverse("tournament", args=[slug]),
        reverse("standings", args=[slug]),
        reverse("table_sheet", args=[slug, 1, 1]),
        reverse("table_cards", args=[slug, 1]),
    ]
    for page in pages:
        response = personas[persona].get(page)
        directives = policy(response)
        assert directives["script-src"] == ["'self'"], (page, response.status_code)
        assert directives["object-src"] == ["'none'"]


def test_the_referees_sheet_loads_its_scripts_from_files(personas, session_in_play):
    response = personas["referee"].get(reverse("table_sheet", args=["spring-open", 1, 1]))
    assert response.status_code == 200
    scripts = html.elements(response.content, "script")
    inline = [
        s for s in scripts if "src" not in s.attrs and s.attrs.get("type") != "application/json"
    ]
    assert inline == []
    handlers = [
        name
        for e in html.elements(response.content, "*")
        for name in e.attrs
        if name.startswith("on")
    ]
    assert handlers == []
    sheet = [s for s in scripts if re.search(r"/js/sheet\.[0-9a-f.]*js$", s.attrs.get("src", ""))]
    assert len(sheet) == 1 and "defer" in sheet[0].attrs


@pytest.mark.parametrize(
    "template", sorted(TEMPLATES.rglob("*.html")), ids=lambda path: str(path.relative_to(TEMPLATES))
)
def test_no_template_holds_an_inline_script_or_an_event_handler(template):
    text = template.read_text(encoding="utf-8")
    assert INLINE_SCRIPT.findall(text) == []
    assert HANDLER_ATTRIBUTE.findall(text) == []
