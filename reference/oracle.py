"""The adapter to the reference fan calculator, ``pymahjonggb`` (the test oracle).

The oracle is a C++ MCR calculator with a Python binding (the ``MahjongGB`` module),
installed with the development dependencies and never used at run time. This module:

- calls the oracle on a ``WinningHand`` and translates its answer into our fan names
  (``oracle_fans``), converting the documented deviations explicitly;
- compares the oracle with our calculator's result and explains the difference
  (``compare``).

The hands to feed it come from ``reference.hand_generators``. No Django here: the
benchmark imports this module outside the test run.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from MahjongGB import MahjongFanCalculator

from tournament.scoring.calculator import score_arrangements
from tournament.scoring.fans import FANS, MIXED_KONGS_FAN_READING, SEED_FANS
from tournament.scoring.hand import ALL_TILES, WinningHand
from tournament.scoring.notation import format_hand
from tournament.scoring.rules import SEED_RULES, Rules

# ---------------------------------------------------------------------------------------
# The 81 fans, from our table (tournament.scoring.fans), and the oracle's names for them
# ---------------------------------------------------------------------------------------

# The 81 of the seed table; the oracle knows no blessing, and 明暗杠 is handled below.
FAN_NAMES: tuple[str, ...] = tuple(fan.name_en for fan in SEED_FANS)
FAN_POINTS: dict[str, int] = {fan.name_en: fan.points for fan in FANS}
# Every fan's place in the counting order, the option fans included, for reports.
_FAN_ORDER: dict[str, int] = {fan.name_en: position for position, fan in enumerate(FANS)}

# The oracle writes the three waits its own way ("独听・…", and 单钓 for 单钓将); every other
# fan carries the Chinese name of our table.
ORACLE_WAIT_NAMES: dict[str, str] = {
    "独听・边张": "Edge Wait",
    "独听・嵌张": "Closed Wait",
    "独听・单钓": "Single Wait",
}
# The oracle's Chinese fan names -> our English names. A name not in here stops the
# comparison (UnknownOracleFan).
ORACLE_NAME_TO_OURS: dict[str, str] = {
    **{
        fan.name_zh: fan.name_en
        for fan in SEED_FANS
        if fan.name_en not in ORACLE_WAIT_NAMES.values()
    },
    **ORACLE_WAIT_NAMES,
}
# Every oracle name maps to one of our fans, and every one of our 81 fans has one name.
if sorted(ORACLE_NAME_TO_OURS.values()) != sorted(FAN_NAMES) or len(FAN_NAMES) != 81:
    raise AssertionError("ORACLE_NAME_TO_OURS must map one oracle name to each of the 81 fans")

# Deviation (1): the oracle's extra 5-point fan for one melded kong plus one concealed kong.
# The 81-fan table has no such fan: the seed reading scores Melded Kong (1) + Concealed
# Kong (2). Under the rules' 5-point reading (Rules(melded_and_concealed_kong=5)) it is our
# option fan of the same name, and no deviation.
ORACLE_MIXED_KONGS = "明暗杠"
MIXED_KONGS_FAN = "Melded and Concealed Kong"

_ORACLE_TILE: dict[str, str] = {
    **{f"{rank}m": f"W{rank}" for rank in range(1, 10)},
    **{f"{rank}p": f"B{rank}" for rank in range(1, 10)},
    **{f"{rank}s": f"T{rank}" for rank in range(1, 10)},
    "E": "F1",
    "S": "F2",
    "W": "F3",
    "N": "F4",
    "C": "J1",
    "F": "J2",
    "P": "J3",
}
_WIND_INDEX = {"E": 0, "S": 1, "W": 2, "N": 3}
_ORDER = {tile: position for position, tile in enumerate(ALL_TILES)}


class OracleNotWin(ValueError):
    """The oracle says the tiles are not a winning hand (or refuses them)."""


class UnknownOracleFan(KeyError):
    """The oracle named a fan this adapter does not know: the mapping must be extended."""


# ---------------------------------------------------------------------------------------
# Calling the oracle
# ---------------------------------------------------------------------------------------


def _tile_order(tile: str) -> int:
    return _ORDER[tile]


def oracle_arguments(hand: WinningHand) -> dict:
    """The keyword arguments for ``MahjongFanCalculator`` describing ``hand``."""
    pack = []
    for meld in hand.melds:
        if meld.kind == "chow":
            middle = sorted(meld.tiles, key=_tile_order)[1]
            # For a chow the oracle's "offer" is which of the three tiles was claimed; it
            # does not change the fans.
            pack.append(("CHI", _ORACLE_TILE[middle], 2))
        elif meld.kind == "pung":
            pack.append(("PENG", _ORACLE_TILE[meld.tiles[0]], meld.claimed_from or 1))
        else:
            offer = 0 if meld.concealed else (meld.claimed_from or 1)
            pack.append(("GANG", _ORACLE_TILE[meld.tiles[0]], offer))
    return {
        "pack": tuple(pack),
        "hand": tuple(_ORACLE_TILE[tile] for tile in hand.concealed),
        "winTile": _ORACLE_TILE[hand.win_tile],
        "flowerCount": hand.flowers,
        "isSelfDrawn": hand.self_drawn,
        "is4thTile": hand.fourth_tile,
        "isAboutKong": hand.kong,
        "isWallLast": hand.last_tile,
        "seatWind": _WIND_INDEX[hand.seat_wind],
        "prevalentWind": _WIND_INDEX[hand.prevalent_wind],
        "verbose": True,
    }


def oracle_raw(hand: WinningHand) -> tuple[tuple[int, int, str, str], ...]:
    """The oracle's own answer: ``((points, count, name_zh, name_en), ...)``."""
    try:
        return MahjongFanCalculator(**oracle_arguments(hand))
    except TypeError as error:  # the binding reports every refusal as TypeError
        raise OracleNotWin(str(error)) from error


def oracle_fans(hand: WinningHand, rules: Rules = SEED_RULES) -> dict[str, tuple[int, int]]:
    """The oracle's fans in our names: ``{name_en: (points, count)}``, for comparing with our
    calculator under ``rules`` (the seed reading, or the 5-point kong reading).

    Under the seed reading deviation (1) is converted here: 明暗杠 (5) becomes Melded Kong
    (1) + Concealed Kong (2); under the 5-point reading it is our fan 明暗杠, unconverted.
    The oracle scores 明暗杠 only for exactly two kongs, one melded and one
    concealed, and then lists neither 明杠 nor 暗杠 (checked in test_differential.py); the
    conversion checks the hand has exactly that combination and fails loudly otherwise.
    """
    fans: dict[str, tuple[int, int]] = {}
    mixed_kongs = False
    for points, count, name_zh, name_en in oracle_raw(hand):
        if name_zh == ORACLE_MIXED_KONGS:
            mixed_kongs = True
            continue
        try:
            ours = ORACLE_NAME_TO_OURS[name_zh]
        except KeyError:
            raise UnknownOracleFan(
                f"the oracle scored an unknown fan {name_zh!r} ({name_en!r}, {points} points);"
                " add it to ORACLE_NAME_TO_OURS"
            ) from None
        if points != FAN_POINTS[ours]:
            raise UnknownOracleFan(
                f"the oracle gives {name_zh} ({ours}) {points} points, our table {FAN_POINTS[ours]}"
            )
        if ours in fans:
            raise UnknownOracleFan(f"the oracle listed {ours} twice")
        fans[ours] = (points, count)
    if mixed_kongs:
        kongs = [meld for meld in hand.melds if meld.kind == "kong"]
        concealed = sum(meld.concealed for meld in kongs)
        if len(kongs) != 2 or concealed != 1:
            raise UnknownOracleFan(
                f"the oracle scored {ORACLE_MIXED_KONGS} for {len(kongs)} kongs"
                f" ({concealed} concealed): expected exactly one melded and one concealed"
            )
        if "Melded Kong" in fans or "Concealed Kong" in fans:
            raise UnknownOracleFan(
                f"the oracle scored {ORACLE_MIXED_KONGS} together with a single-kong fan"
            )
        if rules.melded_and_concealed_kong == MIXED_KONGS_FAN_READING:
            fans[MIXED_KONGS_FAN] = (FAN_POINTS[MIXED_KONGS_FAN], 1)
        elif rules.melded_and_concealed_kong == SEED_RULES.melded_and_concealed_kong:
            fans["Melded Kong"] = (FAN_POINTS["Melded Kong"], 1)
            fans["Concealed Kong"] = (FAN_POINTS["Concealed Kong"], 1)
        else:
            raise UnknownOracleFan(
                f"no conversion of {ORACLE_MIXED_KONGS} for the"
                f" {rules.melded_and_concealed_kong}-point reading"
            )
    return fans


def is_oracle_win(hand: WinningHand) -> bool:
    try:
        oracle_raw(hand)
    except OracleNotWin:
        return False
    return True


# ---------------------------------------------------------------------------------------
# Comparing with our calculator
# ---------------------------------------------------------------------------------------


def our_fans(scored) -> dict[str, tuple[int, int]]:
    """Our ``Scored`` result as ``{name_en: (points, count)}`` (points of one occurrence)."""
    fans: dict[str, tuple[int, int]] = {}
    for fan in scored.fans:
        if fan.name_en in fans:
            raise AssertionError(f"our calculator listed {fan.name_en} twice")
        fans[fan.name_en] = (fan.points, fan.count)
    return fans


def fans_total(fans: Mapping[str, tuple[int, int]]) -> int:
    return sum(points * count for points, count in fans.values())


def format_fans(fans: Mapping[str, tuple[int, int]]) -> str:
    """``Seven Pairs 24, Tile Hog 2, Flower Tiles 1×2 = 28`` in the table's order."""
    order = _FAN_ORDER
    parts = []
    for name in sorted(fans, key=lambda name: order.get(name, len(order))):
        points, count = fans[name]
        parts.append(f"{name} {points}" + (f"×{count}" if count != 1 else ""))
    return (", ".join(parts) or "(none)") + f" = {fans_total(fans)}"


def diff_fans(
    expected: Mapping[str, tuple[int, int]], actual: Mapping[str, tuple[int, int]]
) -> list[str]:
    """One line per fan that differs; empty when both agree."""
    lines = []
    order = _FAN_ORDER
    for name in sorted(set(expected) | set(actual), key=lambda n: order.get(n, len(order))):
        want, got = expected.get(name), actual.get(name)
        if want == got:
            continue
        if got is None:
            lines.append(f"  missing  {name} {want[0]}×{want[1]}")
        elif want is None:
            lines.append(f"  extra    {name} {got[0]}×{got[1]}")
        else:
            lines.append(f"  differs  {name}: oracle {want[0]}×{want[1]}, ours {got[0]}×{got[1]}")
    return lines


# Fans that do not depend on how the tiles are arranged into sets and a pair (they follow
# from the tiles, the melds and the win conditions alone), and that no arrangement-dependent
# fan excludes. Two arrangements of the same hand always agree on these.
ARRANGEMENT_FREE_FANS = frozenset(
    {
        "Full Flush",
        "Last Tile Draw",
        "Last Tile Claim",
        "Out with Replacement Tile",
        "Robbing the Kong",
        "Half Flush",
        "Two Concealed Kongs",
        "Two Melded Kongs",
        "Three Kongs",
        "Four Kongs",
        "Last Tile",
        "Dragon Pung",
        "Prevalent Wind",
        "Seat Wind",
        "Tile Hog",
        "Concealed Kong",
        "Melded Kong",
        "Melded and Concealed Kong",
        "Self-Drawn",
        "Flower Tiles",
    }
)
WAIT_FANS = frozenset({"Edge Wait", "Closed Wait", "Single Wait"})

# The disagreements with the oracle that our rules decide (see docs/testing.md). Deviation
# (1), 明暗杠, is converted in oracle_fans and never reaches the comparison.
DEVIATIONS = {
    "equal_value_arrangement": (
        "the tiles can be arranged in two ways worth the same total; the rules give no"
        " tie-break, and the oracle kept another of the arrangements our calculator weighed"
        " (its fans are exactly those of one of ours)"
    ),
    "wait_on_a_tile_held_four_times": (
        "the oracle counts as a second wait a tile whose four copies are all in the hand;"
        " that tile cannot complete the hand, so the winning tile is the only one that does"
        " and the wait fan counts"
    ),
}


def held_tiles(hand: WinningHand) -> Counter:
    """The tiles of the hand before the win: concealed tiles and melds."""
    held = Counter(hand.concealed)
    for meld in hand.melds:
        held.update(meld.tiles)
    return held


def completing_tiles(hand: WinningHand, *, fifth_copies: bool = False) -> set[str]:
    """The tiles that would complete the hand (the oracle decides what is a win).

    With ``fifth_copies`` a tile whose four copies are already held counts as well, as it
    does for the oracle's own wait analysis.
    """
    held = held_tiles(hand)
    found = set()
    for tile in ALL_TILES:
        if held[tile] >= 4 and not fifth_copies:
            continue
        if is_oracle_win(WinningHand(concealed=hand.concealed, win_tile=tile, melds=hand.melds)):
            found.add(tile)
    return found


def arrangement_fans(
    hand: WinningHand, rules: Rules = SEED_RULES
) -> list[dict[str, tuple[int, int]]]:
    """The fans of every arrangement our calculator weighs for ``hand`` under ``rules``,
    flowers included (``calculator.score_arrangements``)."""
    return [our_fans(scored) for scored in score_arrangements(hand, rules)]


def documented_deviation(
    hand: WinningHand,
    expected: Mapping[str, tuple[int, int]],
    actual: Mapping[str, tuple[int, int]],
    rules: Rules = SEED_RULES,
) -> str | None:
    """Which documented deviation (a key of ``DEVIATIONS``) explains the difference."""
    differing = {
        name for name in set(expected) | set(actual) if expected.get(name) != actual.get(name)
    }
    if not differing:
        return None
    # Equal value: the oracle's fans are exactly those of another arrangement we weighed
    # (and ours those of the one we kept), worth the same. A same-total difference that
    # no arrangement of ours reads (a wrongly chosen wait, say) is not excused.
    if fans_total(expected) == fans_total(actual):
        arrangements = arrangement_fans(hand, rules)
        if expected in arrangements and actual in arrangements:
            return "equal_value_arrangement"
    # Our wait fan where the oracle has none: the oracle saw a second wait on a tile whose
    # four copies are held. Without that fan our arrangement must be worth no more than the
    # oracle's (which took the best one under its reading of the waits).
    extra_waits = (set(actual) - set(expected)) & WAIT_FANS
    if len(extra_waits) == 1 and not set(expected) & WAIT_FANS:
        points, count = actual[next(iter(extra_waits))]
        ours = fans_total(actual)
        if (
            not differing & ARRANGEMENT_FREE_FANS
            and ours - points * count <= fans_total(expected) <= ours
        ):
            real = completing_tiles(hand)
            phantom = completing_tiles(hand, fifth_copies=True) - real
            if real == {hand.win_tile} and phantom:
                return "wait_on_a_tile_held_four_times"
    return None


@dataclass(frozen=True)
class Comparison:
    """Our result against the oracle's for one hand."""

    hand: WinningHand
    expected: dict[str, tuple[int, int]]  # the oracle's fans, in our names
    actual: dict[str, tuple[int, int]]  # ours
    differences: tuple[str, ...]  # one line per fan (or total) that differs
    deviation: str | None  # the documented deviation explaining the differences, if any

    @property
    def agrees(self) -> bool:
        return not self.differences

    @property
    def accepted(self) -> bool:
        return self.agrees or self.deviation is not None

    def report(self) -> str:
        lines = [
            render_hand(self.hand),
            f"  oracle:  {format_fans(self.expected)}",
            f"  ours:    {format_fans(self.actual)}",
            *self.differences,
        ]
        if self.deviation:
            lines.append(f"  documented deviation: {self.deviation}")
        return "\n".join(lines)


def compare(hand: WinningHand, scored, rules: Rules = SEED_RULES) -> Comparison:
    """Compare our ``Scored`` result for ``hand`` (scored under ``rules``) with the oracle's
    fans."""
    expected = oracle_fans(hand, rules)
    actual = our_fans(scored)
    fan_lines = diff_fans(expected, actual)
    total_lines = []
    if scored.total != fans_total(actual):
        total_lines.append(
            f"  total    ours {scored.total}, the sum of our fans {fans_total(actual)}"
        )
    flowers = actual.get("Flower Tiles", (1, 0))[1]
    if scored.total_without_flowers != scored.total - flowers:
        total_lines.append(
            f"  total    ours without flowers {scored.total_without_flowers},"
            f" with {scored.total}, flowers {flowers}"
        )
    deviation = None
    if fan_lines and not total_lines:
        deviation = documented_deviation(hand, expected, actual, rules)
    return Comparison(hand, expected, actual, tuple(fan_lines + total_lines), deviation)


def render_hand(hand: WinningHand) -> str:
    """The hand in referee notation, for reports."""
    return format_hand(hand)
