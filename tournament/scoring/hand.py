"""The winning hand as plain data: tiles, melds and win conditions.

Tiles are short strings: ``1m``–``9m`` characters, ``1p``–``9p`` dots, ``1s``–``9s``
bamboo, ``E S W N`` winds, ``C`` red dragon (中), ``F`` green dragon (发), ``P`` white
dragon (白). This module only describes a hand; ``notation`` reads one from text or
JSON and checks it is legal, ``calculator`` scores it.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from tournament.core_errors import CoreError, Message, gettext_noop

SUITS = ("m", "p", "s")
WIND_TILES = ("E", "S", "W", "N")
DRAGON_TILES = ("C", "F", "P")
SUITED_TILES = tuple(f"{rank}{suit}" for suit in SUITS for rank in range(1, 10))
HONOR_TILES = WIND_TILES + DRAGON_TILES
ALL_TILES = SUITED_TILES + HONOR_TILES  # the 34 kinds, in a fixed order

MeldKind = Literal["chow", "pung", "kong"]

# The blessings a referee may declare (``WinningHand.blessing``), each with the key of its fan:
# heavenly, the dealer wins on the 14 tiles dealt; earthly, a non-dealer wins on the dealer's
# first discard; human, a non-dealer wins in the first go-around before any claim, on another
# non-dealer's discard or on their own first draw. Counted only when the rules play them.
BLESSINGS = {"heavenly": "heavenly_hand", "earthly": "earthly_hand", "human": "human_hand"}
DEALER_WIND = "E"  # the dealer sits East
# Each blessing's name in messages.
BLESSING_NAMES = {
    "heavenly": Message(gettext_noop("Heavenly Hand")),
    "earthly": Message(gettext_noop("Earthly Hand")),
    "human": Message(gettext_noop("Human Hand")),
}


class HandError(CoreError):
    """An illegal or unreadable hand: a stable ``code`` and a message saying where and why.

    ``template`` (a ``gettext_noop`` literal) and ``params`` make the ``message``, in English
    here and in the reader's language on the web pages (see ``messages``).
    """

    def __init__(
        self,
        code: str,
        template: str,
        params: Mapping[str, object] | None = None,
        *,
        position: int | None = None,
    ):
        super().__init__(template, params)
        self.code = code
        self.position = position


@dataclass(frozen=True)
class Meld:
    """A declared set: exposed chow, pung or kong, or a concealed kong.

    ``tiles`` lists the tiles of the set (3, or 4 for a kong). ``concealed`` is only
    true for a concealed kong. ``claimed_from`` (1, 2 or 3: the player on the left,
    opposite, on the right) records whom an exposed set was claimed from; it does
    not change the fans.
    """

    kind: MeldKind
    tiles: tuple[str, ...]
    concealed: bool = False
    claimed_from: int | None = None


@dataclass(frozen=True)
class WinningHand:
    """Everything needed to score a win.

    ``concealed`` holds the concealed tiles without the winning tile; ``melds`` the
    declared sets. ``kong`` means out with replacement tile when self-drawn and
    robbing the kong otherwise; ``last_tile`` means last tile draw or last tile
    claim; ``fourth_tile`` means the winning tile is the last of its four copies;
    ``blessing`` is a blessing the referee declares (a key of ``BLESSINGS``) or None.
    """

    concealed: tuple[str, ...]
    win_tile: str
    melds: tuple[Meld, ...] = ()
    self_drawn: bool = False
    fourth_tile: bool = False
    kong: bool = False
    last_tile: bool = False
    seat_wind: str = "E"
    prevalent_wind: str = "E"
    flowers: int = 0
    blessing: str | None = None


def wind_error(hand: WinningHand) -> HandError | None:
    """The error for a seat or prevalent wind that is not a wind (notation's codes), or None."""
    if hand.seat_wind not in WIND_TILES:
        return HandError(
            "invalid_seat_wind",
            gettext_noop("seat wind %(wind)s is not E, S, W or N"),
            {"wind": repr(hand.seat_wind)},
        )
    if hand.prevalent_wind not in WIND_TILES:
        return HandError(
            "invalid_prevalent_wind",
            gettext_noop("prevalent wind %(wind)s is not E, S, W or N"),
            {"wind": repr(hand.prevalent_wind)},
        )
    return None


def blessing_error(hand: WinningHand) -> HandError | None:
    """The error for a blessing that is not one (notation's code), or None."""
    if hand.blessing is not None and (
        not isinstance(hand.blessing, str) or hand.blessing not in BLESSINGS
    ):
        return HandError(
            "invalid_blessing",
            gettext_noop("blessing %(blessing)s is not heavenly, earthly, human or nothing"),
            {"blessing": repr(hand.blessing)},
        )
    return None
