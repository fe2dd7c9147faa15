"""Seeded random legal winning hands, for the differential test and the benchmark.

``hand_at(i)`` is hand number i of the seeded sample, the same whatever the sample size;
``sample(n)`` is the first n. The generators (``GENERATORS``) cover every hand shape and
every win condition, plus biased generators aimed at the rare fans; ``WEIGHTS`` says how
often each one runs. Every generated hand is legal (``is_legal_shape``) and a win for the
reference calculator (``reference.oracle``), which also tells its shape.

No Django here: the benchmark imports this module outside the test run.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from reference.oracle import OracleNotWin, is_oracle_win, oracle_fans
from tournament.scoring.hand import (
    ALL_TILES,
    DRAGON_TILES,
    HONOR_TILES,
    WIND_TILES,
    Meld,
    WinningHand,
)

DEFAULT_SEED = 20240501

SHAPES = (
    "four_sets_and_a_pair",
    "seven_pairs",
    "thirteen_orphans",
    "lesser_honors_and_knitted",
    "greater_honors_and_knitted",
    "knitted_straight",
)
CONDITIONS = (
    "self_drawn",
    "discard",
    "fourth_tile",
    "last_tile_draw",
    "last_tile_claim",
    "replacement_tile",
    "robbing_the_kong",
)

SUITS = ("m", "p", "s")
TERMINALS = tuple(f"{rank}{suit}" for suit in SUITS for rank in (1, 9))
ORPHANS = TERMINALS + HONOR_TILES
GREEN_TILES = ("2s", "3s", "4s", "6s", "8s", "F")
REVERSIBLE_TILES = (
    *("1p", "2p", "3p", "4p", "5p", "8p", "9p"),
    *("2s", "4s", "5s", "6s", "8s", "9s"),
    "P",
)
KNITTED_GROUPS = ((1, 4, 7), (2, 5, 8), (3, 6, 9))
_ORDER = {tile: position for position, tile in enumerate(ALL_TILES)}


def _tile_order(tile: str) -> int:
    return _ORDER[tile]


def _rank(tile: str) -> int | None:
    return int(tile[0]) if len(tile) == 2 else None


@dataclass(frozen=True)
class Generated:
    """A generated hand, the generator that made it and its shape (as the oracle scored it)."""

    hand: WinningHand
    generator: str
    shape: str
    index: int = -1

    @property
    def conditions(self) -> tuple[str, ...]:
        return conditions_of(self.hand)


def conditions_of(hand: WinningHand) -> tuple[str, ...]:
    found = ["self_drawn" if hand.self_drawn else "discard"]
    if hand.fourth_tile:
        found.append("fourth_tile")
    if hand.last_tile:
        found.append("last_tile_draw" if hand.self_drawn else "last_tile_claim")
    if hand.kong:
        found.append("replacement_tile" if hand.self_drawn else "robbing_the_kong")
    return tuple(found)


def tile_counts(hand: WinningHand) -> Counter:
    counts = Counter(hand.concealed)
    counts[hand.win_tile] += 1
    for meld in hand.melds:
        counts.update(meld.tiles)
    return counts


def is_legal_shape(hand: WinningHand) -> bool:
    """14 tiles (a kong counting 3), at most 4 copies of a tile, real melds."""
    size = len(hand.concealed) + 1 + 3 * len(hand.melds)
    if size != 14 or max(tile_counts(hand).values()) > 4:
        return False
    for meld in hand.melds:
        tiles = sorted(meld.tiles, key=_tile_order)
        if meld.kind == "chow":
            ranks = [_rank(tile) for tile in tiles]
            if None in ranks or len({t[1] for t in tiles}) != 1:
                return False
            if ranks != list(range(ranks[0], ranks[0] + 3)):
                return False
        elif len(set(tiles)) != 1 or len(tiles) != (4 if meld.kind == "kong" else 3):
            return False
        if meld.concealed and meld.kind != "kong":
            return False
    return True


class _Retry(Exception):
    """The random choice broke a rule (for example a fifth copy): draw again."""


def _tile(rank: int, suit: str) -> str:
    return f"{rank}{suit}"


def _chow(rank: int, suit: str) -> tuple[str, str, str]:
    return (_tile(rank, suit), _tile(rank + 1, suit), _tile(rank + 2, suit))


def _pung(tile: str) -> tuple[str, str, str]:
    return (tile, tile, tile)


def _is_pung(tiles: tuple[str, ...]) -> bool:
    return tiles[0] == tiles[1]


# ----- win conditions -------------------------------------------------------------------


@dataclass(frozen=True)
class _Odds:
    """How often each condition is tried (each only where it is legal)."""

    self_drawn: float = 0.45
    replacement: float = 0.35
    robbing: float = 0.25
    fourth: float = 0.2
    last: float = 0.12


def _flowers(rng: random.Random) -> int:
    return rng.choices(range(9), weights=(40, 15, 12, 9, 7, 6, 5, 3, 3))[0]


def _finish(
    rng: random.Random,
    concealed: list[str],
    win_tile: str,
    melds: Iterable[Meld],
    odds: _Odds = _Odds(),
) -> WinningHand:
    """Add legal win conditions, winds and flowers to a winning set of tiles.

    ``concealed`` excludes ``win_tile``. Out with replacement tile needs a kong; robbing
    the kong is a discard win and needs the winning tile to be the only copy in the hand
    and melds, and is never combined with the last tile (no kong is declared once the wall
    is empty). The fourth tile needs no other copy in the concealed hand. It is always set
    when the three other copies are in the hand's exposed melds (all in sight, so the
    winning tile is the fourth; the oracle counts Last Tile then even without the flag).
    It may be set with robbing the kong: the robbed kong holds the other three.
    """
    melds = tuple(melds)
    self_drawn = rng.random() < odds.self_drawn
    in_concealed = concealed.count(win_tile)
    in_melds = sum(meld.tiles.count(win_tile) for meld in melds)
    kong = False
    if self_drawn:
        if any(meld.kind == "kong" for meld in melds) and rng.random() < odds.replacement:
            kong = True
    elif in_concealed == 0 and in_melds == 0 and rng.random() < odds.robbing:
        kong = True
    robbed = kong and not self_drawn
    fourth = in_melds == 3 or (in_concealed == 0 and rng.random() < odds.fourth)
    last = not robbed and rng.random() < odds.last
    return WinningHand(
        concealed=tuple(sorted(concealed, key=_tile_order)),
        win_tile=win_tile,
        melds=melds,
        self_drawn=self_drawn,
        fourth_tile=fourth,
        kong=kong,
        last_tile=last,
        seat_wind=rng.choice(WIND_TILES),
        prevalent_wind=rng.choice(WIND_TILES),
        flowers=_flowers(rng),
    )


# ----- four sets and a pair ---------------------------------------------------------------


def _check_copies(tiles: Iterable[str]) -> Counter:
    counts = Counter(tiles)
    if counts and max(counts.values()) > 4:
        raise _Retry
    return counts


def _build_sets(
    rng: random.Random,
    sets: list[tuple[str, ...]],
    pair: str | None,
    *,
    extra: tuple[str, ...] = (),
    exposure: float | None = None,
    kong_rate: float | None = None,
    kongs: int = 0,
    concealed_only: bool = False,
    odds: _Odds = _Odds(),
) -> WinningHand:
    """Turn sets (3 tiles each), a pair and extra concealed tiles into a winning hand.

    Each set is left concealed, exposed (claimed), or for a pung turned into a kong
    (exposed or concealed) when the fourth copy is free. ``kongs`` forces that many of
    the pungs to be kongs; ``concealed_only`` allows concealed kongs only.
    """
    sets = list(sets)
    rng.shuffle(sets)
    counts = _check_copies(
        [tile for tiles in sets for tile in tiles] + ([pair, pair] if pair else []) + list(extra)
    )
    if exposure is None:
        exposure = rng.choice((0.0, 0.0, 0.2, 0.4, 0.6, 0.9, 1.0))
    if kong_rate is None:
        kong_rate = rng.choice((0.0, 0.0, 0.1, 0.25, 0.6))
    free_pungs = [i for i, tiles in enumerate(sets) if _is_pung(tiles) and counts[tiles[0]] == 3]
    if len(free_pungs) < kongs:
        raise _Retry
    forced = set(rng.sample(free_pungs, kongs))
    melds: list[Meld] = []
    concealed: list[str] = list(extra) + ([pair, pair] if pair else [])
    for i, tiles in enumerate(sets):
        if i in forced or (i in free_pungs and rng.random() < kong_rate):
            hidden = concealed_only or rng.random() < 0.5
            claimed = None if hidden else rng.randint(1, 3)
            melds.append(Meld("kong", (tiles[0],) * 4, concealed=hidden, claimed_from=claimed))
        elif not concealed_only and rng.random() < exposure:
            if _is_pung(tiles):
                melds.append(Meld("pung", tiles, claimed_from=rng.randint(1, 3)))
            else:
                melds.append(Meld("chow", tiles, claimed_from=1))
        else:
            concealed.extend(tiles)
    win_tile = rng.choice(concealed)
    concealed.remove(win_tile)
    return _finish(rng, concealed, win_tile, melds, odds)


def _random_set(rng: random.Random, suits: str, honors: bool, chow_rate: float):
    if suits and rng.random() < chow_rate:
        return _chow(rng.randint(1, 7), rng.choice(suits))
    pool = [_tile(rank, suit) for suit in suits for rank in range(1, 10)]
    if honors:
        pool += list(HONOR_TILES)
    return _pung(rng.choice(pool))


def _random_pair(rng: random.Random, suits: str, honors: bool) -> str:
    pool = [_tile(rank, suit) for suit in suits for rank in range(1, 10)]
    if honors:
        pool += list(HONOR_TILES)
    return rng.choice(pool)


def _random_flavour(rng: random.Random) -> tuple[str, bool, float]:
    """Which suits, whether honors, and the share of chows, for a plain random hand."""
    suits, honors = rng.choice(
        (
            ("mps", True),
            ("mps", True),
            ("mps", False),
            ("mp", True),
            ("ps", False),
            ("s", True),
            ("m", False),
        )
    )
    return suits, honors, rng.choice((0.0, 0.3, 0.6, 0.8, 1.0))


def _random_sets(rng: random.Random, count: int, suits="mps", honors=True, chow_rate=0.6):
    return [_random_set(rng, suits, honors, chow_rate) for _ in range(count)]


def gen_random_regular(rng: random.Random) -> WinningHand:
    suits, honors, chow_rate = _random_flavour(rng)
    sets = _random_sets(rng, 4, suits, honors, chow_rate)
    return _build_sets(rng, sets, _random_pair(rng, suits, honors))


def gen_perturbed(rng: random.Random) -> WinningHand:
    """A random hand with one concealed tile swapped, kept only if it still wins.

    The swaps give hands whose tiles can be arranged in several ways, and winning tiles
    with several possible waits, which the constructed generators rarely produce.
    """
    base = gen_random_regular(rng)
    tiles = list(base.concealed)
    for _ in range(40):
        position = rng.randrange(len(tiles))
        old = tiles[position]
        rank = _rank(old)
        if rank is not None and rng.random() < 0.8:
            new_rank = min(9, max(1, rank + rng.choice((-2, -1, 1, 2))))
            new = _tile(new_rank, old[1])
        else:
            new = rng.choice(ALL_TILES)
        trial = [*tiles[:position], new, *tiles[position + 1 :]]
        candidate = _finish(rng, trial, base.win_tile, base.melds)
        if is_legal_shape(candidate) and is_oracle_win(candidate):
            return candidate
    return base


# ----- special shapes -------------------------------------------------------------------


def _from_tiles(rng: random.Random, tiles: list[str], odds: _Odds = _Odds()) -> WinningHand:
    """All 14 tiles concealed: pick the winning tile among them."""
    _check_copies(tiles)
    tiles = list(tiles)
    win_tile = rng.choice(tiles)
    tiles.remove(win_tile)
    return _finish(rng, tiles, win_tile, (), odds)


def _seven_pairs(rng: random.Random, pairs: list[str]) -> WinningHand:
    return _from_tiles(rng, [tile for tile in pairs for _ in range(2)])


def gen_seven_pairs(rng: random.Random) -> WinningHand:
    suits, honors, _ = _random_flavour(rng)
    pool = [_tile(rank, suit) for suit in suits for rank in range(1, 10)]
    if honors:
        pool += list(HONOR_TILES)
    pairs = rng.sample(pool, 7)
    if rng.random() < 0.2:  # four of a kind as two pairs (Tile Hog)
        pairs[0] = pairs[1]
    return _seven_pairs(rng, pairs)


def gen_thirteen_orphans(rng: random.Random) -> WinningHand:
    return _from_tiles(rng, [*ORPHANS, rng.choice(ORPHANS)])


def _knitted_tiles(rng: random.Random) -> list[str]:
    suits = rng.sample(SUITS, 3)
    return [
        _tile(rank, suit)
        for group, suit in zip(KNITTED_GROUPS, suits, strict=True)
        for rank in group
    ]


def gen_lesser_honors_and_knitted(rng: random.Random) -> WinningHand:
    honors = rng.choice((5, 6))
    tiles = rng.sample(_knitted_tiles(rng), 14 - honors) + rng.sample(HONOR_TILES, honors)
    return _from_tiles(rng, tiles)


def gen_greater_honors_and_knitted(rng: random.Random) -> WinningHand:
    return _from_tiles(rng, rng.sample(_knitted_tiles(rng), 7) + list(HONOR_TILES))


def gen_knitted_straight(rng: random.Random) -> WinningHand:
    _, honors, chow_rate = _random_flavour(rng)
    sets = [_random_set(rng, "mps", rng.random() < 0.5, chow_rate)]
    return _build_sets(
        rng, sets, _random_pair(rng, "mps", honors or rng.random() < 0.3), extra=_knitted_tiles(rng)
    )


# ----- biased generators for the rare fans ------------------------------------------------


def gen_big_four_winds(rng):
    return _build_sets(rng, [_pung(w) for w in WIND_TILES], _random_pair(rng, "mps", True))


def gen_big_three_dragons(rng):
    sets = [_pung(d) for d in DRAGON_TILES] + _random_sets(rng, 1)
    return _build_sets(rng, sets, _random_pair(rng, "mps", True))


def gen_all_green(rng):
    options = [("2s", "3s", "4s")] + [_pung(tile) for tile in GREEN_TILES]
    sets = [rng.choice(options) for _ in range(4)]
    return _build_sets(rng, sets, rng.choice(GREEN_TILES))


def gen_nine_gates(rng):
    suit = rng.choice(SUITS)
    base = [_tile(rank, suit) for rank in (1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9)]
    if rng.random() < 0.85:
        return _finish(rng, base, _tile(rng.randint(1, 9), suit), ())
    # the extra tile already in the hand: a Full Flush that is not Nine Gates, or is,
    # depending on the winning tile
    return _from_tiles(rng, [*base, _tile(rng.randint(1, 9), suit)])


def gen_four_kongs(rng):
    sets = _random_sets(rng, 4, chow_rate=0.0)
    return _build_sets(rng, sets, _random_pair(rng, "mps", True), kongs=4)


def gen_seven_shifted_pairs(rng):
    suit, start = rng.choice(SUITS), rng.randint(1, 3)
    return _seven_pairs(rng, [_tile(rank, suit) for rank in range(start, start + 7)])


def gen_all_terminals(rng):
    sets = [_pung(tile) for tile in rng.sample(TERMINALS, 4)]
    return _build_sets(rng, sets, rng.choice(TERMINALS))


def gen_little_four_winds(rng):
    winds = rng.sample(WIND_TILES, 4)
    sets = [_pung(w) for w in winds[:3]] + _random_sets(rng, 1)
    return _build_sets(rng, sets, winds[3])


def gen_little_three_dragons(rng):
    dragons = rng.sample(DRAGON_TILES, 3)
    sets = [_pung(d) for d in dragons[:2]] + _random_sets(rng, 2)
    return _build_sets(rng, sets, dragons[2])


def gen_all_honors(rng):
    if rng.random() < 0.25:
        return _seven_pairs(rng, list(HONOR_TILES))
    tiles = rng.sample(HONOR_TILES, 5)
    return _build_sets(rng, [_pung(tile) for tile in tiles[:4]], tiles[4])


def gen_four_concealed_pungs(rng):
    sets = _random_sets(rng, 4, chow_rate=0.0)
    return _build_sets(
        rng, sets, _random_pair(rng, "mps", True), concealed_only=True, kong_rate=0.15
    )


def gen_pure_terminal_chows(rng):
    suit = rng.choice(SUITS)
    sets = [_chow(1, suit), _chow(1, suit), _chow(7, suit), _chow(7, suit)]
    return _build_sets(rng, sets, _tile(5, suit))


def gen_quadruple_chow(rng):
    chow = _chow(rng.randint(1, 7), rng.choice(SUITS))
    return _build_sets(rng, [chow] * 4, _random_pair(rng, "mps", True))


def gen_four_pure_shifted_pungs(rng):
    suit, start = rng.choice(SUITS), rng.randint(1, 6)
    sets = [_pung(_tile(rank, suit)) for rank in range(start, start + 4)]
    return _build_sets(rng, sets, _random_pair(rng, "mps", True))


def _shifted_chows(rng, count: int) -> list[tuple[str, str, str]]:
    step = rng.choice((1, 2))
    suit = rng.choice(SUITS)
    start = rng.randint(1, 7 - step * (count - 1))
    return [_chow(start + step * i, suit) for i in range(count)]


def gen_four_pure_shifted_chows(rng):
    return _build_sets(rng, _shifted_chows(rng, 4), _random_pair(rng, "mps", True))


def gen_three_kongs(rng):
    sets = _random_sets(rng, 3, chow_rate=0.0) + _random_sets(rng, 1)
    return _build_sets(rng, sets, _random_pair(rng, "mps", True), kongs=3)


def gen_all_terminals_and_honors(rng):
    if rng.random() < 0.25:
        return _seven_pairs(rng, rng.sample(ORPHANS, 7))
    tiles = rng.sample(ORPHANS, 5)
    return _build_sets(rng, [_pung(tile) for tile in tiles[:4]], tiles[4])


def gen_all_even_pungs(rng):
    evens = [_tile(rank, suit) for suit in SUITS for rank in (2, 4, 6, 8)]
    tiles = rng.sample(evens, 5)
    return _build_sets(rng, [_pung(tile) for tile in tiles[:4]], tiles[4])


def gen_full_flush(rng):
    suit = rng.choice(SUITS)
    if rng.random() < 0.2:
        return _seven_pairs(rng, rng.sample([_tile(r, suit) for r in range(1, 10)], 7))
    sets = _random_sets(rng, 4, suit, False, rng.choice((0.4, 0.7, 1.0)))
    return _build_sets(rng, sets, _random_pair(rng, suit, False))


def gen_pure_triple_chow(rng):
    chow = _chow(rng.randint(1, 7), rng.choice(SUITS))
    return _build_sets(rng, [chow] * 3 + _random_sets(rng, 1), _random_pair(rng, "mps", True))


def gen_pure_shifted_pungs(rng):
    suit, start = rng.choice(SUITS), rng.randint(1, 7)
    sets = [_pung(_tile(rank, suit)) for rank in range(start, start + 3)] + _random_sets(rng, 1)
    return _build_sets(rng, sets, _random_pair(rng, "mps", True))


def _ranged(rng, low: int, high: int, pairs_too: bool = True):
    """A hand whose suited tiles all have ranks low..high (no honors)."""
    tiles = [_tile(rank, suit) for suit in SUITS for rank in range(low, high + 1)]
    if pairs_too and rng.random() < 0.15:
        return _seven_pairs(rng, rng.sample(tiles, 7))
    sets = []
    for _ in range(4):
        if high - low >= 2 and rng.random() < 0.6:
            sets.append(_chow(rng.randint(low, high - 2), rng.choice(SUITS)))
        else:
            sets.append(_pung(rng.choice(tiles)))
    return _build_sets(rng, sets, rng.choice(tiles))


def gen_upper_tiles(rng):
    return _ranged(rng, 7, 9)


def gen_middle_tiles(rng):
    return _ranged(rng, 4, 6)


def gen_lower_tiles(rng):
    return _ranged(rng, 1, 3)


def gen_upper_four(rng):
    return _ranged(rng, 6, 9)


def gen_lower_four(rng):
    return _ranged(rng, 1, 4)


def gen_pure_straight(rng):
    suit = rng.choice(SUITS)
    sets = [_chow(1, suit), _chow(4, suit), _chow(7, suit), *_random_sets(rng, 1)]
    return _build_sets(rng, sets, _random_pair(rng, "mps", True))


def gen_three_suited_terminal_chows(rng):
    a, b, c = rng.sample(SUITS, 3)
    sets = [_chow(1, a), _chow(7, a), _chow(1, b), _chow(7, b)]
    return _build_sets(rng, sets, _tile(5, c))


def gen_pure_shifted_chows(rng):
    sets = _shifted_chows(rng, 3) + _random_sets(rng, 1)
    return _build_sets(rng, sets, _random_pair(rng, "mps", True))


def gen_all_fives(rng):
    sets = []
    for _ in range(4):
        suit = rng.choice(SUITS)
        if rng.random() < 0.7:
            sets.append(_chow(rng.randint(3, 5), suit))
        else:
            sets.append(_pung(_tile(5, suit)))
    return _build_sets(rng, sets, _tile(5, rng.choice(SUITS)))


def gen_triple_pung(rng):
    rank = rng.randint(1, 9)
    sets = [_pung(_tile(rank, suit)) for suit in SUITS] + _random_sets(rng, 1)
    return _build_sets(rng, sets, _random_pair(rng, "mps", True))


def gen_three_concealed_pungs(rng):
    sets = _random_sets(rng, 3, chow_rate=0.0)
    exposed = _random_sets(rng, 1)
    hand = _build_sets(
        rng, sets, _random_pair(rng, "mps", True), concealed_only=True, kong_rate=0.15
    )
    # expose the fourth set: put it in the melds
    tiles = exposed[0]
    kind = "pung" if _is_pung(tiles) else "chow"
    meld = Meld(kind, tiles, claimed_from=1 if kind == "chow" else rng.randint(1, 3))
    _check_copies(list(tile_counts(hand).elements()) + list(tiles))
    return _finish(rng, list(hand.concealed), hand.win_tile, (*hand.melds, meld))


def gen_big_three_winds(rng):
    winds = rng.sample(WIND_TILES, 4)
    sets = [_pung(w) for w in winds[:3]] + _random_sets(rng, 1, honors=False)
    pair = _random_pair(rng, "mps", False) if rng.random() < 0.7 else rng.choice(DRAGON_TILES)
    return _build_sets(rng, sets, pair)


def gen_mixed_straight(rng):
    suits = rng.sample(SUITS, 3)
    sets = [
        _chow(start, suit) for start, suit in zip((1, 4, 7), suits, strict=True)
    ] + _random_sets(rng, 1)
    return _build_sets(rng, sets, _random_pair(rng, "mps", True))


def gen_reversible_tiles(rng):
    chows = [_chow(1, "p"), _chow(2, "p"), _chow(3, "p"), _chow(4, "s")]
    sets = [
        rng.choice(chows) if rng.random() < 0.5 else _pung(rng.choice(REVERSIBLE_TILES))
        for _ in range(4)
    ]
    if rng.random() < 0.15:
        return _seven_pairs(rng, rng.sample(REVERSIBLE_TILES, 7))
    return _build_sets(rng, sets, rng.choice(REVERSIBLE_TILES))


def gen_mixed_triple_chow(rng):
    start = rng.randint(1, 7)
    sets = [_chow(start, suit) for suit in SUITS] + _random_sets(rng, 1)
    return _build_sets(rng, sets, _random_pair(rng, "mps", True))


def gen_mixed_shifted_pungs(rng):
    start = rng.randint(1, 7)
    suits = rng.sample(SUITS, 3)
    sets = [_pung(_tile(start + i, suit)) for i, suit in enumerate(suits)]
    return _build_sets(rng, [*sets, *_random_sets(rng, 1)], _random_pair(rng, "mps", True))


def gen_mixed_shifted_chows(rng):
    start = rng.randint(1, 5)
    suits = rng.sample(SUITS, 3)
    sets = [_chow(start + i, suit) for i, suit in enumerate(suits)]
    return _build_sets(rng, [*sets, *_random_sets(rng, 1)], _random_pair(rng, "mps", True))


def gen_chicken_hand(rng):
    """Mostly exposed simples in three suits with an honor pair: often no fan at all."""
    suits = list(SUITS)
    rng.shuffle(suits)
    sets = []
    for suit in [*suits, rng.choice(SUITS)]:
        if rng.random() < 0.6:
            sets.append(_chow(rng.randint(2, 6), suit))
        else:
            sets.append(_pung(_tile(rng.randint(2, 8), suit)))
    odds = _Odds(self_drawn=0.1, robbing=0.05, fourth=0.05, last=0.03)
    pair = rng.choice(HONOR_TILES)
    return _build_sets(rng, sets, pair, exposure=rng.choice((0.5, 0.75)), kong_rate=0, odds=odds)


def gen_two_dragon_pungs(rng):
    dragons = rng.sample(DRAGON_TILES, 2)
    sets = [_pung(d) for d in dragons] + _random_sets(rng, 2, honors=False)
    return _build_sets(rng, sets, _random_pair(rng, "mps", rng.random() < 0.5))


def gen_kongs(rng):
    """Two kongs, one or both concealed, or both melded."""
    sets = _random_sets(rng, 2, chow_rate=0.0) + _random_sets(rng, 2)
    return _build_sets(rng, sets, _random_pair(rng, "mps", True), kongs=2, kong_rate=0.0)


def gen_melded_hand(rng):
    sets = _random_sets(rng, 4, chow_rate=rng.choice((0.3, 0.7)))
    odds = _Odds(self_drawn=0.15)
    return _build_sets(
        rng, sets, _random_pair(rng, "mps", True), exposure=1.0, kong_rate=0.0, odds=odds
    )


def gen_all_types(rng):
    suits = rng.sample(SUITS, 3)
    sets = [
        rng.choice((_chow(rng.randint(1, 7), suit), _pung(_tile(rng.randint(1, 9), suit))))
        for suit in suits
    ]
    sets.append(_pung(rng.choice(WIND_TILES if rng.random() < 0.5 else DRAGON_TILES)))
    pair = rng.choice(DRAGON_TILES) if sets[-1][0] in WIND_TILES else rng.choice(WIND_TILES)
    return _build_sets(rng, sets, pair)


def gen_tile_hog(rng):
    suit, rank = rng.choice(SUITS), rng.randint(3, 7)
    tile = _tile(rank, suit)
    sets = [_pung(tile), _chow(rank - rng.randint(0, 2), suit), *_random_sets(rng, 2)]
    return _build_sets(rng, sets, _random_pair(rng, "mps", True), kong_rate=0.0)


def gen_double_pung(rng):
    rank = rng.randint(1, 9)
    a, b = rng.sample(SUITS, 2)
    sets = [_pung(_tile(rank, a)), _pung(_tile(rank, b)), *_random_sets(rng, 2)]
    return _build_sets(rng, sets, _random_pair(rng, "mps", True))


def gen_outside_hand(rng):
    sets = []
    for _ in range(4):
        suit = rng.choice(SUITS)
        sets.append(rng.choice((_chow(1, suit), _chow(7, suit), _pung(rng.choice(ORPHANS)))))
    return _build_sets(rng, sets, rng.choice(ORPHANS))


GENERATORS: dict[str, Callable[[random.Random], WinningHand]] = {
    "random": gen_random_regular,
    "perturbed": gen_perturbed,
    "seven_pairs": gen_seven_pairs,
    "thirteen_orphans": gen_thirteen_orphans,
    "lesser_honors_and_knitted": gen_lesser_honors_and_knitted,
    "greater_honors_and_knitted": gen_greater_honors_and_knitted,
    "knitted_straight": gen_knitted_straight,
    "big_four_winds": gen_big_four_winds,
    "big_three_dragons": gen_big_three_dragons,
    "all_green": gen_all_green,
    "nine_gates": gen_nine_gates,
    "four_kongs": gen_four_kongs,
    "seven_shifted_pairs": gen_seven_shifted_pairs,
    "all_terminals": gen_all_terminals,
    "little_four_winds": gen_little_four_winds,
    "little_three_dragons": gen_little_three_dragons,
    "all_honors": gen_all_honors,
    "four_concealed_pungs": gen_four_concealed_pungs,
    "pure_terminal_chows": gen_pure_terminal_chows,
    "quadruple_chow": gen_quadruple_chow,
    "four_pure_shifted_pungs": gen_four_pure_shifted_pungs,
    "four_pure_shifted_chows": gen_four_pure_shifted_chows,
    "three_kongs": gen_three_kongs,
    "all_terminals_and_honors": gen_all_terminals_and_honors,
    "all_even_pungs": gen_all_even_pungs,
    "full_flush": gen_full_flush,
    "pure_triple_chow": gen_pure_triple_chow,
    "pure_shifted_pungs": gen_pure_shifted_pungs,
    "upper_tiles": gen_upper_tiles,
    "middle_tiles": gen_middle_tiles,
    "lower_tiles": gen_lower_tiles,
    "pure_straight": gen_pure_straight,
    "three_suited_terminal_chows": gen_three_suited_terminal_chows,
    "pure_shifted_chows": gen_pure_shifted_chows,
    "all_fives": gen_all_fives,
    "triple_pung": gen_triple_pung,
    "three_concealed_pungs": gen_three_concealed_pungs,
    "upper_four": gen_upper_four,
    "lower_four": gen_lower_four,
    "big_three_winds": gen_big_three_winds,
    "mixed_straight": gen_mixed_straight,
    "reversible_tiles": gen_reversible_tiles,
    "mixed_triple_chow": gen_mixed_triple_chow,
    "mixed_shifted_pungs": gen_mixed_shifted_pungs,
    "mixed_shifted_chows": gen_mixed_shifted_chows,
    "chicken_hand": gen_chicken_hand,
    "two_dragon_pungs": gen_two_dragon_pungs,
    "kongs": gen_kongs,
    "melded_hand": gen_melded_hand,
    "all_types": gen_all_types,
    "tile_hog": gen_tile_hog,
    "double_pung": gen_double_pung,
    "outside_hand": gen_outside_hand,
}

# How many hands in each cycle of the schedule each generator gets: every generator has a
# fixed minimum share, the plain random ones the most.
WEIGHTS: dict[str, int] = {name: 1 for name in GENERATORS}
WEIGHTS.update(
    random=30,
    perturbed=8,
    seven_pairs=5,
    thirteen_orphans=2,
    lesser_honors_and_knitted=2,
    greater_honors_and_knitted=2,
    knitted_straight=4,
    kongs=2,
    chicken_hand=2,
)


def _schedule() -> tuple[str, ...]:
    """One cycle of generator names, the heavy ones spread out across the cycle."""
    slots: list[tuple[float, str]] = []
    for name, weight in WEIGHTS.items():
        slots.extend(((i + 0.5) / weight, name) for i in range(weight))
    return tuple(name for _, name in sorted(slots, key=lambda slot: slot[0]))


SCHEDULE = _schedule()


def shape_from_fans(fans: Mapping[str, tuple[int, int]]) -> str:
    """The hand shape the oracle chose, read from its fans (a hand that is both seven
    pairs and four sets and a pair counts as the one the oracle scored)."""
    if "Thirteen Orphans" in fans:
        return "thirteen_orphans"
    if "Greater Honors and Knitted Tiles" in fans:
        return "greater_honors_and_knitted"
    if "Lesser Honors and Knitted Tiles" in fans:
        return "lesser_honors_and_knitted"
    if "Knitted Straight" in fans:
        return "knitted_straight"
    if "Seven Pairs" in fans or "Seven Shifted Pairs" in fans:
        return "seven_pairs"
    return "four_sets_and_a_pair"


def generate(name: str, rng: random.Random, index: int = -1) -> Generated:
    """One legal winning hand from the named generator (the oracle confirms the win)."""
    for _ in range(500):
        try:
            hand = GENERATORS[name](rng)
        except _Retry:
            continue
        if not is_legal_shape(hand):
            raise AssertionError(f"generator {name} built an illegal hand: {hand}")
        try:
            fans = oracle_fans(hand)
        except OracleNotWin:
            continue
        return Generated(hand=hand, generator=name, shape=shape_from_fans(fans), index=index)
    raise AssertionError(f"generator {name} found no winning hand in 500 tries")


def hand_at(index: int, seed: int = DEFAULT_SEED) -> Generated:
    """The hand number ``index`` of the seeded sample: the same whatever the sample size."""
    name = SCHEDULE[index % len(SCHEDULE)]
    return generate(name, random.Random(f"{seed}:{index}"), index)


def sample(count: int, seed: int = DEFAULT_SEED) -> list[Generated]:
    return [hand_at(index, seed) for index in range(count)]
