"""The fans as the tile picker lists them (scoring/_fans.html), read back from its HTML, and
the scoring core's fans written the same way, to compare the two."""

import re

from django.utils import translation

from tournament.language.translated import fan_name

FAN_ITEM = re.compile(r"<li>(.+?) <b>(\d+)</b>(?: ×(\d+))?</li>")


def listed_fans(html: str) -> list[tuple[str, str, str]]:
    """(name, points, count) of each fan listed; the count is "" when the fan counts once."""
    return [(name, points, count or "") for name, points, count in FAN_ITEM.findall(html)]


def core_fans(scored, language: str = "en") -> list[tuple[str, str, str]]:
    """The fans of the scoring core's result, as ``listed_fans`` reads them."""
    with translation.override(language):
        return [
            (fan_name(f), str(f.points), str(f.count) if f.count > 1 else "") for f in scored.fans
        ]
