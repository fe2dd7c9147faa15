"""The draw by lot: a table and a starting seat for every player, verifiable by anyone.

Each player's lot key is the SHA-256 of the text ``"<seed>:<player>"``; players sorted by
key get lots 1, 2, 3, ... and four consecutive lots make a table. Publishing the seed and
the list of registration numbers lets anyone recompute the seating with a few lines of
code or ``sha256sum``, so nobody has to trust our software.
"""

import hashlib
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournament.core_errors import Message, gettext_noop
from tournament.seating.errors import SeatingError

SEATS_PER_TABLE = 4

# Nine decimal digits: short enough to read aloud and print on the draw sheet, and still
# far more seeds than there are distinct seatings anyone could try to steer towards.
SEED_MIN = 100_000_000
SEED_MAX = 999_999_999


class DrawError(SeatingError):
    """A draw that cannot be made. ``code`` says why, for forms to translate.

    Codes: ``bad_seed``, ``bad_player``, ``no_players``, ``duplicate_player``,
    ``not_multiple_of_four`` (then ``missing`` is the number of substitutes needed).
    """

    def __init__(
        self,
        template: str,
        params: Mapping[str, object] | None = None,
        *,
        code: str,
        missing: int | None = None,
    ) -> None:
        super().__init__(template, params, code=code)
        self.missing = missing


# Players not filling tables of four, by (one player, one table, one substitute missing):
# whole sentences for the five cases there are.
_SHORT_OF_FOUR = {
    (True, True, False): gettext_noop(
        "1 player is registered; 4 players are needed for 1 table: 3 substitutes are missing."
    ),
    (False, True, False): gettext_noop(
        "%(players)s players are registered; %(needed)s players are needed for 1 table: "
        "%(missing)s substitutes are missing."
    ),
    (False, True, True): gettext_noop(
        "%(players)s players are registered; %(needed)s players are needed for 1 table: "
        "1 substitute is missing."
    ),
    (False, False, False): gettext_noop(
        "%(players)s players are registered; %(needed)s players are needed for %(tables)s "
        "tables: %(missing)s substitutes are missing."
    ),
    (False, False, True): gettext_noop(
        "%(players)s players are registered; %(needed)s players are needed for %(tables)s "
        "tables: 1 substitute is missing."
    ),
}


@dataclass(frozen=True, slots=True)
class SeatAssignment:
    """Where one player starts: ``table`` is 1-based, ``seat`` is 0..3 for P1..P4."""

    player: int
    table: int
    seat: int
    lot: int


def is_int(value: object) -> bool:
    # bool is an int subclass, but True as a seed or a player number is always a mistake.
    return isinstance(value, int) and not isinstance(value, bool)


def check_seed(seed: object) -> None:
    """Raise DrawError ``bad_seed`` unless ``seed`` is a whole number of zero or more."""
    if not is_int(seed) or seed < 0:
        raise DrawError(
            gettext_noop("The seed must be a whole number of zero or more, not %(seed)s."),
            {"seed": repr(seed)},
            code="bad_seed",
        )


def _check_player(player: object) -> None:
    if not is_int(player) or player < 1:
        raise DrawError(
            gettext_noop("Player numbers must be positive whole numbers, not %(player)s."),
            {"player": repr(player)},
            code="bad_player",
        )


# Why the active regular players cannot fill tables of four even with every substitute, and
# the two ways out: register the substitutes missing, or withdraw the players left over
# (fewer would leave a table even shorter). A sentence for each count, singular or plural.
_CANNOT_FILL = {
    True: gettext_noop(
        "%(players)s active player, not counting substitutes, cannot fill tables of four."
    ),
    False: gettext_noop(
        "%(players)s active players, not counting substitutes, cannot fill tables of four."
    ),
}
_REGISTER_MORE = {
    True: gettext_noop("Register %(missing)s more substitute to fill the last table."),
    False: gettext_noop("Register %(missing)s more substitutes to fill the last table."),
}
_WITHDRAW_EXTRA = {
    True: gettext_noop(
        "Otherwise, withdraw %(extra)s player so that the others fill whole tables."
    ),
    False: gettext_noop(
        "Otherwise, withdraw %(extra)s players so that the others fill whole tables."
    ),
}
_SHORTFALL = gettext_noop("%(cannot_fill)s %(register_more)s")
_SHORTFALL_OR_WITHDRAW = gettext_noop("%(cannot_fill)s %(register_more)s %(withdraw_extra)s")


def players_to_draw(regular: Sequence[int], substitutes: Sequence[int]) -> list[int]:
    """The players a session's draw seats: every active regular player, topped up with the
    first active ``substitutes`` (in the order given, lowest number first by custom) to fill
    tables of four. Every method of seating seats this list.

    Raises ``DrawError``: ``no_players`` when nobody is to be drawn, ``not_multiple_of_four``
    (with ``missing``, the substitutes still needed) when even every substitute cannot fill
    the last table, saying how many substitutes to register or players to withdraw.

    >>> players_to_draw([1, 2, 3, 4, 5], [21, 22, 23, 24])
    [1, 2, 3, 4, 5, 21, 22, 23]
    """
    regular, substitutes = list(regular), list(substitutes)
    needed = -len(regular) % SEATS_PER_TABLE
    if needed > len(substitutes):
        missing = needed - len(substitutes)
        extra = len(regular) % SEATS_PER_TABLE
        params = {
            "cannot_fill": Message(_CANNOT_FILL[len(regular) == 1], {"players": len(regular)}),
            "register_more": Message(_REGISTER_MORE[missing == 1], {"missing": missing}),
        }
        template = _SHORTFALL
        # Withdrawing them all would leave nobody to draw: not a way out.
        if extra != len(regular):
            params["withdraw_extra"] = Message(_WITHDRAW_EXTRA[extra == 1], {"extra": extra})
            template = _SHORTFALL_OR_WITHDRAW
        raise DrawError(template, params, code="not_multiple_of_four", missing=missing)
    if not regular and not needed:
        raise DrawError(gettext_noop("There are no active players to draw."), code="no_players")
    return regular + substitutes[:needed]


def new_seed() -> int:
    """Return a fresh seed of nine decimal digits from the ``secrets`` module."""
    return SEED_MIN + secrets.randbelow(SEED_MAX - SEED_MIN + 1)


def lot_key(seed: int, player: int) -> str:
    """Return the lowercase hex SHA-256 of the UTF-8 text ``f"{seed}:{player}"``.

    Players are ordered by this key (then by number) to give out the lots.
    """
    check_seed(seed)
    _check_player(player)
    # int() so that int subclasses (an IntEnum, say) still hash as their plain decimal text.
    text = f"{int(seed)}:{int(player)}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def draw_by_lot(players: Sequence[int], seed: int) -> list[SeatAssignment]:
    """Draw tables and starting seats for ``players`` (registration numbers) with ``seed``.

    The result depends only on the seed and the set of players, never on their order.
    It is ordered by table, then seat. Raises ``DrawError`` when the seed or the players
    are invalid or when the number of players is not a multiple of four.
    """
    check_seed(seed)
    players = list(players)
    if not players:
        raise DrawError(gettext_noop("There are no players to draw."), code="no_players")
    for player in players:
        _check_player(player)
    duplicates = sorted({player for player in players if players.count(player) > 1})
    if duplicates:
        numbers = ", ".join(str(player) for player in duplicates)
        raise DrawError(
            gettext_noop("Each player can be drawn only once; repeated: %(numbers)s."),
            {"numbers": numbers},
            code="duplicate_player",
        )
    missing = -len(players) % SEATS_PER_TABLE
    if missing:
        needed = len(players) + missing
        tables = needed // SEATS_PER_TABLE
        raise DrawError(
            _SHORT_OF_FOUR[len(players) == 1, tables == 1, missing == 1],
            {"players": len(players), "needed": needed, "tables": tables, "missing": missing},
            code="not_multiple_of_four",
            missing=missing,
        )

    # The player number breaks ties so the order is total even in the (practically
    # impossible) case of two equal hashes.
    ordered = sorted(players, key=lambda player: (lot_key(seed, player), player))
    return [
        SeatAssignment(
            player=player,
            table=index // SEATS_PER_TABLE + 1,
            seat=index % SEATS_PER_TABLE,
            lot=index + 1,
        )
        for index, player in enumerate(ordered)
    ]


def lot_tables(players: Sequence[int], seed: int) -> list[tuple[int, ...]]:
    """The tables of ``draw_by_lot(players, seed)``, each its players East..North."""
    drawn = [seat.player for seat in draw_by_lot(players, seed)]
    return [tuple(drawn[i : i + SEATS_PER_TABLE]) for i in range(0, len(drawn), SEATS_PER_TABLE)]
