"""The fans as the tile picker lists them (scoring/_fans.html), read back from its HTML, and
the scoring core's fans written the same way, to compare the two."""

import re

from django.utils import translation

from tests import html
from tournament.language.translated import fan_name

# A fan as its item reads: its name, its points (in bold), and how many times when more than once.
FAN_ITEM = re.compile(r"(.+?) (\d+)(?: ×(\d+))?")


def listed_fans(page) -> list[tuple[str, str, str]]:
    """(name, points, count) of each fan listed; the count is "" when the fan counts once."""
    fans = []
    for item in html.elements(page, "ul.fan-list li"):
        found = FAN_ITEM.fullmatch(item.text())
        assert found, item.text()
        name, points, count = found.groups()
        assert item.one("b").text() == points
        fans.append((name, points, count or ""))
    return fans


def core_fans(scored, language: str = "en") -> list[tuple[str, str, str]]:
    """The fans of the scoring core's result, as ``listed_fans`` reads them."""
    with translation.override(language):
        return [
            (fan_name(f), str(f.points), str(f.count) if f.count > 1 else "") for f in scored.fans
        ]
