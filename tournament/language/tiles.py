"""The tile faces of the tile picker, with their names in the reader's language.

The faces show what the tiles show (the rank over 万, 饼 or 条; 东 南 西 北 中 发 白; the
eight flowers), whatever the page's language; the names are for screen readers and for the
picker's messages. The codes are the hand notation's (``scoring.hand.ALL_TILES``).
"""

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournament.scoring.hand import DRAGON_TILES, SUITS, WIND_TILES
from tournament.scoring.settlement import MAX_FLOWERS

SUIT_FACES = {"m": "万", "p": "饼", "s": "条"}
SUIT_NAMES = {
    "m": _("Characters"),
    "p": _("Dots"),
    "s": _("Bamboo"),
}
SUITED_TILE_NAMES = {
    "m": _("%(rank)s of characters"),
    "p": _("%(rank)s of dots"),
    "s": _("%(rank)s of bamboo"),
}
HONOR_FACES = dict(zip(WIND_TILES + DRAGON_TILES, "东南西北中发白", strict=True))
HONOR_NAMES = {
    "E": _("East wind"),
    "S": _("South wind"),
    "W": _("West wind"),
    "N": _("North wind"),
    "C": _("Red dragon"),
    "F": _("Green dragon"),
    "P": _("White dragon"),
}
# The flowers and seasons: only their count scores, but a referee counts them by face.
FLOWER_FACES = "春夏秋冬梅兰竹菊"
FLOWER_NAMES = (
    pgettext_lazy("flower tile", "Spring"),
    pgettext_lazy("flower tile", "Summer"),
    pgettext_lazy("flower tile", "Autumn"),
    pgettext_lazy("flower tile", "Winter"),
    pgettext_lazy("flower tile", "Plum"),
    pgettext_lazy("flower tile", "Orchid"),
    pgettext_lazy("flower tile", "Bamboo"),
    pgettext_lazy("flower tile", "Chrysanthemum"),
)
assert len(FLOWER_FACES) == len(FLOWER_NAMES) == MAX_FLOWERS


@dataclass(frozen=True)
class TileFace:
    code: str  # in the hand notation: "5m", "E"
    face: str  # the big character: "5", "东"
    mark: str  # the small one beneath: "万", or the notation's letter for an honor
    name: str  # for screen readers, in the reader's language
    group: str  # "m", "p", "s", "wind", "dragon"


@dataclass(frozen=True)
class TileRow:
    label: str
    tiles: tuple[TileFace, ...]


def tile_rows() -> tuple[TileRow, ...]:
    """The 34 faces in four rows: characters, dots, bamboo, then the winds and dragons."""
    rows = [
        TileRow(
            str(SUIT_NAMES[suit]),
            tuple(
                TileFace(
                    f"{rank}{suit}",
                    str(rank),
                    SUIT_FACES[suit],
                    str(SUITED_TILE_NAMES[suit]) % {"rank": rank},
                    suit,
                )
                for rank in range(1, 10)
            ),
        )
        for suit in SUITS
    ]
    honors = tuple(
        TileFace(
            code,
            HONOR_FACES[code],
            code,
            str(HONOR_NAMES[code]),
            "wind" if code in WIND_TILES else "dragon",
        )
        for code in WIND_TILES + DRAGON_TILES
    )
    rows.append(TileRow(str(_("Honors")), honors))
    return tuple(rows)


def flower_faces() -> tuple[TileFace, ...]:
    return tuple(
        TileFace(str(index + 1), face, "", str(name), "flower")
        for index, (face, name) in enumerate(zip(FLOWER_FACES, FLOWER_NAMES, strict=True))
    )


def tile_names() -> dict[str, str]:
    """Every tile's name by its code, for the picker's messages ("a fifth 5 of dots")."""
    return {tile.code: tile.name for row in tile_rows() for tile in row.tiles}
