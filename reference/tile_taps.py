"""The taps a referee makes on the tile picker to enter a winning hand, planned from the hand.

The browser tests and the picker's benchmark (bench/tile_picker_bench.py) tap these plans in
a real browser, then check that the hand the picker wrote is the hand planned: so a plan is
only ever counted if the picker really builds the hand with it.

A plan is what a referee who knows the picker does: the claimed sets first (one tap on
*Claimed*, then one tap per set on its lowest tile), the concealed kongs, then the tiles in
the hand in groups (a chow, a pung or a pair is one tap), each kind of group in one run so
that the mode is chosen once; the group holding the winning tile comes last, so that the
picker takes its tile as the winning tile, a pair, a pung or a tile rather than a chow when
it can: a chow's winning tile is tapped on the hand (the picker never guesses which of its
three it is).
Then the conditions: one tap per flag, per wind that is not East, and one tap on the flower
that says how many (the n-th flower sets n). Hands with no sets (seven pairs, thirteen
orphans, the knitted hands) are tapped as pairs, or tile by tile.

No Django here: the benchmark imports this module outside the test run.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass

from tournament.scoring.hand import ALL_TILES, HONOR_TILES, Meld, WinningHand

_ORDER = {tile: index for index, tile in enumerate(ALL_TILES)}
MODES = ("tile", "pair", "chow", "pung", "kong")


@dataclass(frozen=True)
class Tap:
    """One tap: ``kind`` is the picker's control, ``value`` what it says.

    mode (value: tile, pair, chow, pung, kong), claimed (the toggle), tile (value: its code),
    win (value: "group:index" of the tile in the hand), flag (self, kong, fourth, last),
    seat and wind (E S W N), flower (value: 1 to 8, the count).
    """

    kind: str
    value: str = ""


@dataclass(frozen=True)
class Group:
    kind: str  # tile, pair, chow, pung, kong
    tiles: tuple[str, ...]
    claimed: bool = False


def _sorted(tiles) -> list[str]:
    return sorted(tiles, key=_ORDER.__getitem__)


def _chow_of(tile: str) -> tuple[str, str, str] | None:
    if tile in HONOR_TILES or int(tile[0]) > 7:
        return None
    rank, suit = int(tile[0]), tile[1]
    return (tile, f"{rank + 1}{suit}", f"{rank + 2}{suit}")


def _sets(counts: Counter, needed: int) -> list[Group] | None:
    """``needed`` chows and pungs using every tile of ``counts``, pungs tried first."""
    if needed == 0:
        return [] if not +counts else None
    first = _sorted(+counts)[0]
    if counts[first] >= 3:
        counts[first] -= 3
        rest = _sets(counts, needed - 1)
        counts[first] += 3
        if rest is not None:
            return [Group("pung", (first,) * 3), *rest]
    chow = _chow_of(first)
    if chow and all(counts[tile] >= 1 for tile in chow):
        counts.subtract(chow)
        rest = _sets(counts, needed - 1)
        counts.update(chow)
        if rest is not None:
            return [Group("chow", chow), *rest]
    return None


def _hand_groups(tiles: list[str]) -> list[Group]:
    """The tiles in the hand (the winning tile among them) as few groups as taps allow."""
    counts = Counter(tiles)
    if len(tiles) % 3 == 2:
        for pair in _sorted(tile for tile in counts if counts[tile] >= 2):
            counts[pair] -= 2
            sets = _sets(counts, len(tiles) // 3)
            counts[pair] += 2
            if sets is not None:
                return [*sets, Group("pair", (pair, pair))]
    if all(count % 2 == 0 for count in counts.values()):
        return [
            Group("pair", (tile, tile))
            for tile in _sorted(counts)
            for _ in range(counts[tile] // 2)
        ]
    return [Group("tile", (tile,)) for tile in _sorted(tiles)]


def groups_of(hand: WinningHand) -> tuple[list[Group], tuple[int, int]]:
    """The groups in the order they are tapped, and where the winning tile is among them."""
    claimed = [
        Group(meld.kind, tuple(_sorted(meld.tiles)), True)
        for meld in hand.melds
        if not meld.concealed
    ]
    kongs = [Group("kong", tuple(meld.tiles)) for meld in hand.melds if meld.concealed]
    in_hand = _hand_groups([*hand.concealed, hand.win_tile])
    # The kinds in runs, the run holding the winning tile last, the group holding it last of
    # its run: preferably a group whose last tile it is, so that no tap marks it.
    holding = [g for g in in_hand if hand.win_tile in g.tiles]
    # A chow's winning tile is always tapped (the picker does not guess which of the three).
    last = next((g for g in holding if g.kind != "chow"), holding[0])
    kinds = [kind for kind in MODES if any(g.kind == kind for g in in_hand) and kind != last.kind]
    ordered = [g for kind in kinds for g in in_hand if g.kind == kind]
    same_kind = [g for g in in_hand if g.kind == last.kind]
    same_kind.remove(last)
    ordered += [*same_kind, last]
    groups = [*claimed, *kongs, *ordered]
    # Any copy of the winning tile in its group will do: the last, which needs no tap.
    position = len(last.tiles) - 1 - last.tiles[::-1].index(hand.win_tile)
    return groups, (len(groups) - 1, position)


def plan(hand: WinningHand, *, on_sheet: bool = False) -> list[Tap]:
    """The taps that enter ``hand`` in the picker. On a sheet, what the sheet knows (self-
    drawn, the winds) is not tapped in the picker; the flowers are, as on the calculator."""
    groups, (win_group, win_index) = groups_of(hand)
    taps: list[Tap] = []
    mode, claimed = "tile", False
    for group in groups:
        if group.claimed != claimed:
            taps.append(Tap("claimed"))
            claimed = group.claimed
        if group.kind != mode:
            taps.append(Tap("mode", group.kind))
            mode = group.kind
        taps.append(Tap("tile", group.tiles[0]))
    if groups[win_group].kind == "chow":
        taps.append(Tap("win", f"{win_group}:{win_index}"))
    flags = {"self": hand.self_drawn and not on_sheet, "kong": hand.kong}
    flags |= {"fourth": hand.fourth_tile, "last": hand.last_tile}
    taps += [Tap("flag", name) for name, on in flags.items() if on]
    if not on_sheet:
        if hand.seat_wind != "E":
            taps.append(Tap("seat", hand.seat_wind))
        if hand.prevalent_wind != "E":
            taps.append(Tap("wind", hand.prevalent_wind))
    if hand.flowers:
        taps.append(Tap("flower", str(hand.flowers)))
    return taps


def as_picked(hand: WinningHand) -> WinningHand:
    """``hand`` as the picker can write it: the picker does not ask whom a set was claimed
    from (it changes no fan), and writes the claimed sets before the concealed kongs. Two
    hands are the same hand for the picker when their ``as_picked`` are equal."""
    melds = sorted(
        (Meld(meld.kind, meld.tiles, meld.concealed) for meld in hand.melds),
        key=lambda meld: (meld.concealed, meld.kind, [_ORDER[tile] for tile in meld.tiles]),
    )
    return dataclasses.replace(hand, melds=tuple(melds))


def selector(tap: Tap) -> str:
    """The CSS selector, inside the picker, of the control ``tap`` taps."""
    if tap.kind == "win":
        group, index = tap.value.split(":")
        return f'.hand-tile[data-group="{group}"][data-index="{index}"]'
    return {
        "mode": f'[data-mode="{tap.value}"]',
        "claimed": "[data-exposed]",
        "tile": f'[data-tile="{tap.value}"]',
        "flag": f'[data-flag="{tap.value}"]:not([hidden])',
        "seat": f'[data-seat="{tap.value}"]',
        "wind": f'[data-wind="{tap.value}"]',
        "flower": f'[data-flower="{tap.value}"]',
    }[tap.kind]
