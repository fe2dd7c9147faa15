"""Score a winning hand: every MCR fan it earns, with the counting principles applied.

``score(hand)`` tries every shape the tiles allow (four sets and a pair, seven pairs,
thirteen orphans, honours and knitted tiles, knitted straight with a set and a pair) and
every arrangement of the concealed tiles into sets, and keeps the arrangement worth most.
For each arrangement the fans are found in three layers, each memoised because the same
patterns recur from hand to hand:

* the tiles alone (flushes, Upper Tiles, All Simples, …), from two bit masks;
* the chows (Pure Straight, Mixed Triple Chow, and the one-point pairs of chows combined
  under the fifth principle), the suited pungs, the honour pungs;
* the hand itself: concealed pungs, the waits, the kongs and the win conditions.

Then the exclusions (不计) are applied: fans are taken in table order, highest first, and a
fan is not counted when a fan already counted excludes it.

Choices the table leaves open, decided here (docs/scoring.md lists them with the rules):

* Of two arrangements worth the same, the one whose pair is the later tile in table
  order is kept, then the one with more chows; seven pairs only when worth more.
* Edge, closed and single wait count only when the winning tile is the only tile that
  completes the hand; a tile of which the hand holds all four copies cannot, so it is no
  second wait. Where one arrangement reads the winning tile as edge or closed and as
  the pair, the edge or closed wait is kept (the seed: 4556 waiting on 5 is 坎张).
* One melded kong and one concealed kong score as the rules read them
  (``Rules.melded_and_concealed_kong``): Melded Kong and Concealed Kong (3, the seed
  reading), the fan 明暗杠 (5), or Two Melded Kongs and Concealed Kong (6).
* A blessing (``WinningHand.blessing``) counts its fan when the rules play blessings; a
  Heavenly Hand has no winning tile of its own, so its Nine Gates is the nine-gates shape
  among its 14 tiles, whichever the referee wrote as the winning tile.

A hand with flowers under rules without flowers, or with a blessing under rules without
blessings, is refused (``flowers_not_played``, ``blessings_not_played``).
"""

from collections import Counter
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from types import SimpleNamespace

from tournament.core_errors import gettext_noop
from tournament.scoring import _decompose as shapes
from tournament.scoring._decompose import memoised
from tournament.scoring.fans import FAN_BY_KEY, FANS, Fan
from tournament.scoring.hand import (
    BLESSING_NAMES,
    BLESSINGS,
    WIND_TILES,
    HandError,
    WinningHand,
    blessing_error,
    wind_error,
)
from tournament.scoring.rules import SEED_RULES, Rules

__all__ = ["ExcludedFan", "FanCount", "Scored", "clear_caches", "score", "score_arrangements"]


@dataclass(frozen=True)
class FanCount:
    """A counted fan: ``points`` each, ``count`` times."""

    key: str
    name_en: str
    name_zh: str
    points: int
    count: int


@dataclass(frozen=True)
class ExcludedFan:
    """A fan the hand shows but does not count, because the fan ``by_*`` excludes it."""

    key: str
    name_en: str
    name_zh: str
    by_key: str
    by_en: str
    by_zh: str

    @property
    def by(self) -> Fan:
        """The fan that excludes this one."""
        return FAN_BY_KEY[self.by_key]


@dataclass(frozen=True)
class Scored:
    """The fans of a winning hand, its totals and whether it reaches the 8-point minimum."""

    fans: tuple[FanCount, ...]
    total: int
    total_without_flowers: int
    valid: bool
    excluded: tuple[ExcludedFan, ...]
    shape: str


# The calculator names a fan by its index in the table (the 81 and the option fans), which is
# the counting order (highest first): F.all_pungs is the index of the fan keyed "all_pungs".
# A hand's fans are (index, count) pairs and the fans one excludes a bit mask of indices.
_INDEX = {fan.key: index for index, fan in enumerate(FANS)}
F = SimpleNamespace(**_INDEX)
POINTS = tuple(fan.points for fan in FANS)
EXCLUDES = tuple(sum(1 << _INDEX[key] for key in fan.excludes) for fan in FANS)
EXCLUDED_KEYS = tuple(tuple(sorted(_INDEX[key] for key in fan.excludes)) for fan in FANS)


# --- Layer 1: fans of the tiles alone -------------------------------------------------

_SUIT_BITS = (1, 2, 4)
_WIND_BIT, _DRAGON_BIT, _HONOR_BIT = 8, 16, 32
_TERMINAL_BIT, _TERM_OR_HONOR_BIT, _SIMPLE_BIT = 64, 128, 256
_R789, _R456, _R123, _R6789, _R1234 = 512, 1024, 2048, 4096, 8192
_REVERSIBLE_BIT, _GREEN_BIT, _EVEN_BIT = 16384, 32768, 65536
_ANY_SUIT = 7


# By suit, the numbers that look the same upside down: no characters, dots 1234589,
# bamboo 245689 (and the white dragon).
_REVERSIBLE_RANKS = ((), (1, 2, 3, 4, 5, 8, 9), (2, 4, 5, 6, 8, 9))


def _tile_properties(tile: int) -> int:
    if tile >= 27:
        bits = _HONOR_BIT | _TERM_OR_HONOR_BIT | (_WIND_BIT if tile < 31 else _DRAGON_BIT)
        if tile == 33:  # white dragon: reversible
            bits |= _REVERSIBLE_BIT
        if tile == 32:  # green dragon
            bits |= _GREEN_BIT
        return bits
    suit, rank = divmod(tile, 9)
    number = rank + 1
    bits = _SUIT_BITS[suit]
    bits |= (_TERMINAL_BIT | _TERM_OR_HONOR_BIT) if number in (1, 9) else _SIMPLE_BIT
    bits |= _R789 if number >= 7 else _R456 if number >= 4 else _R123
    bits |= _R6789 if number >= 6 else 0
    bits |= _R1234 if number <= 4 else 0
    if number in _REVERSIBLE_RANKS[suit]:
        bits |= _REVERSIBLE_BIT
    if suit == 2 and number in (2, 3, 4, 6, 8):
        bits |= _GREEN_BIT
    if number in (2, 4, 6, 8):
        bits |= _EVEN_BIT
    return bits


PROPS = tuple(_tile_properties(t) for t in range(34))
_IS_TOH = tuple(bool(p & _TERM_OR_HONOR_BIT) for p in PROPS)
_IS_FIVE = tuple(t < 27 and t % 9 == 4 for t in range(34))
# By a chow's first tile: the chow holds a one or a nine; the chow holds a five.
_OUTSIDE_CHOW = tuple(t < 27 and t % 9 in (0, 6) for t in range(34))
_FIVES_CHOW = tuple(t < 27 and t % 9 in (2, 3, 4) for t in range(34))

# The fans that every tile of the hand must allow, by the property it must have.
_EVERY_TILE_FANS = (
    (_GREEN_BIT, F.all_green),
    (_TERMINAL_BIT, F.all_terminals),
    (_HONOR_BIT, F.all_honors),
    (_TERM_OR_HONOR_BIT, F.all_terminals_and_honors),
    (_R789, F.upper_tiles),
    (_R456, F.middle_tiles),
    (_R123, F.lower_tiles),
    (_R6789, F.upper_four),
    (_R1234, F.lower_four),
    (_REVERSIBLE_BIT, F.reversible_tiles),
    (_SIMPLE_BIT, F.all_simples),
)


@memoised
def _tile_fans(all_bits: int, any_bits: int) -> tuple[tuple[int, int], ...]:
    """Fans decided by which tiles appear: ``all_bits`` every tile has, ``any_bits`` some has."""
    fans = [fan for bit, fan in _EVERY_TILE_FANS if all_bits & bit]
    suits = (any_bits & _ANY_SUIT).bit_count()
    honors = any_bits & _HONOR_BIT
    if suits == 1:
        fans.append(F.half_flush if honors else F.full_flush)
    if suits == 2:
        fans.append(F.one_voided_suit)
    if suits == 3 and any_bits & _WIND_BIT and any_bits & _DRAGON_BIT:
        fans.append(F.all_types)
    if not honors:
        fans.append(F.no_honors)
    return tuple((fan, 1) for fan in fans)


# --- Layer 2: fans of the chows, of the suited pungs, of the honour pungs ---------------


def _pair_fan(a: int, b: int) -> int:
    """The one-point fan two chows (start tiles a <= b) make together, or -1."""
    if a == b:
        return F.pure_double_chow
    if a % 9 == b % 9:
        return F.mixed_double_chow
    if a // 9 == b // 9:
        if b - a == 3:
            return F.short_straight
        if b - a == 6:
            return F.two_terminal_chows
    return -1


def _triple_fan(a: int, b: int, c: int) -> int:
    """The fan three chows (start tiles a <= b <= c) make together, or -1."""
    suits = (a // 9, b // 9, c // 9)
    ranks = (a % 9, b % 9, c % 9)
    if suits[0] == suits[1] == suits[2]:
        if a == b == c:
            return F.pure_triple_chow
        if ranks == (0, 3, 6):
            return F.pure_straight
        if b - a == c - b and b - a in (1, 2):
            return F.pure_shifted_chows
        return -1
    if len(set(suits)) == 3:
        ordered = sorted(ranks)
        if ordered == [0, 3, 6]:
            return F.mixed_straight
        if ordered[0] == ordered[2]:
            return F.mixed_triple_chow
        if ordered[1] == ordered[0] + 1 and ordered[2] == ordered[1] + 1:
            return F.mixed_shifted_chows
    return -1


_PAIR_FAN = {(a, b): _pair_fan(a, b) for a in range(27) for b in range(a, 27)}
_TRIPLE_FAN = {
    (a, b, c): _triple_fan(a, b, c)
    for a in range(27)
    for b in range(a, 27)
    for c in range(b, 27)
    if a % 9 < 7 and b % 9 < 7 and c % 9 < 7
}

# Fans that come with a bigger one and are shown as excluded by it (for the explanation).
_IMPLIED = {
    F.quadruple_chow: (F.pure_triple_chow, F.pure_double_chow),
    F.four_pure_shifted_chows: (F.pure_shifted_chows,),
    F.pure_terminal_chows: (F.pure_double_chow, F.two_terminal_chows),
    F.three_suited_terminal_chows: (F.mixed_double_chow, F.two_terminal_chows),
    F.pure_triple_chow: (F.pure_double_chow,),
    F.pure_straight: (F.short_straight,),
    F.mixed_triple_chow: (F.mixed_double_chow,),
    F.four_pure_shifted_pungs: (F.pure_shifted_pungs,),
    F.triple_pung: (F.double_pung,),
}


def _with_implied(fans: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    extra = [(i, 1) for fan, _ in fans for i in _IMPLIED.get(fan, ())]
    merged: dict[int, int] = {}
    for fan, count in fans + extra:
        merged[fan] = max(merged.get(fan, 0), count)
    return tuple(merged.items())


def _pairs_of_chows(chows: tuple[int, ...], used: tuple[int, ...]) -> list[tuple[int, int]]:
    """One-point fans among chows, each chow joining the combinations at most once (套算一次).

    ``used`` are chows already combined into a bigger fan: they are not combined with each
    other again, but a free chow may combine once with one of them. The pairs taken form a
    forest (no chow joins a group it already belongs to); higher-ranked fans are taken first.
    """
    group = list(range(len(chows)))

    def find(i: int) -> int:
        while group[i] != i:
            i = group[i]
        return i

    for i in used[1:]:
        group[find(i)] = find(used[0])
    edges = sorted(
        (fan, i, j)
        for i, j in combinations(range(len(chows)), 2)
        if (fan := _PAIR_FAN[(chows[i], chows[j])]) >= 0
    )
    counts: dict[int, int] = {}
    for fan, i, j in edges:
        ri, rj = find(i), find(j)
        if ri != rj:
            group[ri] = rj
            counts[fan] = counts.get(fan, 0) + 1
    return list(counts.items())


@memoised
def _chow_fans(chows: tuple[int, ...], pair: int) -> tuple[tuple[int, int], ...]:
    """Fans of the chows (start tiles, sorted) of an arrangement, with its pair.

    The pair matters only to the two terminal-chow fans, and only when it is a five: the
    caller gives -1 for any other pair, so the memo holds fewer keys.
    """
    fans: list[tuple[int, int]] = []
    n = len(chows)
    if n == 4:
        fans = _four_chow_fans(chows, pair)
    if not fans and n >= 3:
        best = -1
        for trio in combinations(range(n), 3):
            fan = _TRIPLE_FAN[tuple(chows[i] for i in trio)]
            if fan < 0:
                continue
            rest = _pairs_of_chows(chows, trio)
            value = POINTS[fan] + sum(POINTS[f] * c for f, c in rest)
            if value > best:
                best = value
                fans = [(fan, 1), *rest]
    if not fans and n >= 2:
        fans = _pairs_of_chows(chows, ())
    return _with_implied(fans)


def _four_chow_fans(chows: tuple[int, ...], pair: int) -> list[tuple[int, int]]:
    a, b, c, d = chows
    if a // 9 == d // 9:
        if a == d:
            return [(F.quadruple_chow, 1)]
        step = b - a
        if step in (1, 2) and c - b == step and d - c == step:
            return [(F.four_pure_shifted_chows, 1)]
        if a == b and c == d and a % 9 == 0 and c % 9 == 6 and pair == a + 4:
            return [(F.pure_terminal_chows, 1)]
        return []
    if pair < 27 and pair % 9 == 4:
        # Three-Suited Terminal Chows: 123 and 789 in two suits, a pair of fives in the third.
        suits = sorted({a // 9, b // 9, c // 9, d // 9})
        if len(suits) == 2 and pair // 9 not in suits:
            wanted = sorted(9 * s + r for s in suits for r in (0, 6))
            if list(chows) == wanted:
                return [(F.three_suited_terminal_chows, 1)]
    return []


@memoised
def _pung_fans(pungs: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """Fans of the suited pungs and kongs (tiles, sorted) of an arrangement."""
    fans: list[tuple[int, int]] = []
    n = len(pungs)
    if n == 4 and pungs[0] // 9 == pungs[3] // 9 and pungs[3] - pungs[0] == 3:
        fans = [(F.four_pure_shifted_pungs, 1)]
    if not fans and n >= 3:
        best = -1
        for trio in combinations(range(n), 3):
            a, b, c = (pungs[i] for i in trio)
            fan = _pung_trio_fan(a, b, c)
            if fan < 0:
                continue
            value = POINTS[fan]
            rest = []
            # The fourth pung, if any, makes a Double Pung with one of the three.
            if any(pungs[i] % 9 in (a % 9, b % 9, c % 9) for i in range(n) if i not in trio):
                rest = [(F.double_pung, 1)]
                value += POINTS[F.double_pung]
            if value > best:
                best = value
                fans = [(fan, 1), *rest]
    if not fans and n >= 2:
        doubles = sum(k >= 2 for k in Counter(t % 9 for t in pungs).values())
        if doubles:
            fans = [(F.double_pung, doubles)]
    return _with_implied(fans)


def _pung_trio_fan(a: int, b: int, c: int) -> int:
    if a // 9 == b // 9 == c // 9:
        return F.pure_shifted_pungs if b - a == 1 and c - b == 1 else -1
    if len({a // 9, b // 9, c // 9}) == 3:
        ranks = sorted((a % 9, b % 9, c % 9))
        if ranks[0] == ranks[2]:
            return F.triple_pung
        if ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1:
            return F.mixed_shifted_pungs
    return -1


# The fans of the wind pungs and of the dragon pungs, by (how many, whether the pair is of
# the same kind); the first fan listed is the one that counts each of those pungs.
_WIND_FANS = {
    (4, False): (F.big_four_winds, F.big_three_winds),
    (3, True): (F.little_four_winds, F.big_three_winds),
    (3, False): (F.big_three_winds,),
}
_DRAGON_FANS = {
    (3, False): (F.big_three_dragons, F.two_dragon_pungs),
    (2, True): (F.little_three_dragons, F.two_dragon_pungs, F.dragon_pung),
    (2, False): (F.two_dragon_pungs, F.dragon_pung),
    (1, True): (F.dragon_pung,),
    (1, False): (F.dragon_pung,),
}

# Honour pungs: (fans, pungs of terminals or honours still counted, per-pung exclusions).
HonorResult = tuple[tuple[tuple[int, int], ...], int, tuple[int, ...]]


@memoised
def _honor_fans(honors: tuple[int, ...], pair: int, seat: int, prevalent: int) -> HonorResult:
    """Wind and dragon fans of the honour pungs (tiles, sorted); ``seat``/``prevalent`` tiles."""
    winds = [t for t in honors if t < 31]
    dragons = [t for t in honors if t >= 31]
    wind_fans = _WIND_FANS.get((len(winds), 27 <= pair < 31), ())
    dragon_fans = _DRAGON_FANS.get((len(dragons), pair >= 31), ())
    fans = [(fan, 1) for fan in wind_fans + dragon_fans]
    if seat in winds:
        fans.append((F.seat_wind, 1))
    if prevalent in winds:
        fans.append((F.prevalent_wind, 1))
    poth = 0
    poth_excluded = []
    for t in winds:
        if wind_fans:
            poth_excluded.append(wind_fans[0])
        elif t == seat:
            poth_excluded.append(F.seat_wind)
        elif t == prevalent:
            poth_excluded.append(F.prevalent_wind)
        else:
            poth += 1
    poth_excluded += dragon_fans[:1] * len(dragons)
    return tuple(fans), poth, tuple(poth_excluded)


# --- Layer 3: the hand ------------------------------------------------------------------


def _resolve(fans: list[tuple[int, int]]) -> int:
    """Total of the fans counted once the exclusions are applied."""
    excluded = 0
    total = 0
    for fan, count in sorted(fans):
        if not excluded >> fan & 1:
            excluded |= EXCLUDES[fan]
            total += POINTS[fan] * count
    return total


class _Hand:
    """What is known of a hand before its concealed tiles are arranged."""

    __slots__ = (
        "all_bits",
        "concealed_13",
        "concealed_kongs",
        "counts",
        "every",
        "fixed_pungs",
        "heavenly",
        "kong_tiles",
        "mask",
        "meld_chows",
        "melds",
        "prevalent",
        "seat",
        "self_drawn",
        "static",
        "unique_wait",
        "win",
    )


_WIND_TILE = {wind: 27 + i for i, wind in enumerate(WIND_TILES)}


def _prepare(hand: WinningHand, rules: Rules) -> _Hand:
    index = shapes.TILE_INDEX
    h = _Hand()
    h.heavenly = hand.blessing == "heavenly"
    counts = [0] * 34
    tiles = [index[tile] for tile in hand.concealed]
    for t in tiles:
        counts[t] += 1
    h.concealed_13 = counts[:]
    win = index[hand.win_tile]
    counts[win] += 1
    present = {*tiles, win}
    h.mask = sum(1 << t for t in present)
    meld_chows: list[int] = []
    meld_pungs: list[int] = []
    kong_tiles: list[int] = []
    concealed_kongs = 0
    every = counts[:] if hand.melds else counts  # every tile of the hand, a kong as three
    for meld in hand.melds:
        first = min(index[t] for t in meld.tiles)
        if meld.kind == "chow":
            meld_chows.append(first)
            for t in (first, first + 1, first + 2):
                every[t] += 1
                present.add(t)
            continue
        every[first] += 3
        present.add(first)
        if meld.kind == "pung":
            meld_pungs.append(first)
        else:
            kong_tiles.append(first)
            concealed_kongs += bool(meld.concealed)
    exposed = len(hand.melds) - concealed_kongs
    all_bits = -1
    any_bits = 0
    hogs = 0
    for t in present:
        bits = PROPS[t]
        all_bits &= bits
        any_bits |= bits
        if every[t] == 4:
            hogs += 1
    h.all_bits = all_bits
    h.counts = counts
    h.every = every
    h.melds = len(hand.melds)
    h.meld_chows = meld_chows
    h.kong_tiles = kong_tiles
    h.fixed_pungs = tuple(sorted(meld_pungs + kong_tiles))
    h.concealed_kongs = concealed_kongs
    h.win = win
    h.self_drawn = self_drawn = hand.self_drawn
    h.seat = _WIND_TILE[hand.seat_wind]
    h.prevalent = _WIND_TILE[hand.prevalent_wind]
    h.unique_wait = None
    # Last Tile: declared, or certain because the other three copies are in the winner's
    # own exposed sets (they are on the table, so the winning tile is the fourth).
    fourth = hand.fourth_tile or every[win] - counts[win] == 3
    melded_kongs = len(kong_tiles) - concealed_kongs
    # The reading only changes one melded and one concealed kong: the memo keeps one key
    # for every other hand.
    reading = rules.melded_and_concealed_kong if melded_kongs == concealed_kongs == 1 else 3
    blessing = _INDEX[BLESSINGS[hand.blessing]] if hand.blessing else -1
    static = _tile_fans(all_bits, any_bits) + _condition_fans(
        self_drawn,
        exposed,
        hand.last_tile,
        hand.kong,
        fourth,
        melded_kongs,
        concealed_kongs,
        reading,
        blessing,
    )
    if hogs:
        static += ((F.tile_hog, hogs),)
    h.static = static
    return h


@memoised
def _condition_fans(
    self_drawn: bool,
    exposed: int,
    last_tile: bool,
    kong: bool,
    fourth: bool,
    melded_kongs: int,
    concealed_kongs: int,
    reading: int,
    blessing: int,
) -> tuple[tuple[int, int], ...]:
    """Fans of the win conditions, of concealment, of the kongs (one melded and one
    concealed read as ``reading`` points) and the ``blessing`` fan (an index, or -1)."""
    fans = [] if blessing < 0 else [(blessing, 1)]
    if self_drawn:
        fans.append((F.self_drawn, 1))
    if not exposed:
        fans.append((F.fully_concealed_hand if self_drawn else F.concealed_hand, 1))
    elif exposed == 4 and not self_drawn:
        fans.append((F.melded_hand, 1))
    if last_tile:
        fans.append((F.last_tile_draw if self_drawn else F.last_tile_claim, 1))
    if kong:
        fans.append((F.out_with_replacement_tile if self_drawn else F.robbing_the_kong, 1))
    if fourth:
        fans.append((F.last_tile, 1))
    kongs = melded_kongs + concealed_kongs
    if kongs >= 3:
        fans += [(F.four_kongs, 1), (F.three_kongs, 1)] if kongs == 4 else [(F.three_kongs, 1)]
    else:
        kinds = (melded_kongs, concealed_kongs)
        fans += [
            (fan, 1) for fan in _KONG_FANS.get(kinds) or _MIXED_KONGS.get((*kinds, reading), ())
        ]
    return tuple(fans)


# The fans of one or two kongs, by (melded kongs, concealed kongs).
_KONG_FANS = {
    (1, 0): (F.melded_kong,),
    (0, 1): (F.concealed_kong,),
    (2, 0): (F.two_melded_kongs, F.melded_kong),
    (0, 2): (F.two_concealed_kongs, F.concealed_kong),
}
# One melded and one concealed kong, by the points the rules read them at.
_MIXED_KONGS = {
    # The seed table has no fan for the pair: each kong counts alone.
    (1, 1, 3): (F.melded_kong, F.concealed_kong),
    # The fan 明暗杠, which excludes the two single-kong fans.
    # (Each kong's fan is listed too, to be shown as excluded by it.)
    (1, 1, 5): (F.melded_and_concealed_kong, F.melded_kong, F.concealed_kong),
    # The melded kong and the concealed kong read as two melded kongs, plus the concealed.
    (1, 1, 6): (F.two_melded_kongs, F.melded_kong, F.concealed_kong),
}


def _unique_wait(h: _Hand) -> bool:
    """Whether the winning tile is the only tile that completes the hand.

    A tile of which the hand already holds all four copies (concealed or in its own sets)
    cannot complete it, so it does not count as a second wait.
    """
    if h.unique_wait is None:
        win = h.win
        mask = h.mask if h.concealed_13[win] else h.mask & ~(1 << win)
        waits = shapes.all_waits(h.concealed_13, h.melds, mask)
        waits.discard(win)
        every, kongs = h.every, h.kong_tiles
        # Every copy of a tile held (concealed, in a set, or a kong's fourth) but the winner.
        h.unique_wait = all(every[t] + (t in kongs) >= 4 for t in waits)
    return h.unique_wait


def _is_nine_gates(h: _Hand) -> bool:
    if h.melds:
        return False
    if h.heavenly:
        # No winning tile of its own: 1112345678999 and any tile of the suit among the 14.
        c = h.counts
        return any(
            sum(c[base : base + 9]) == 14
            and all(n >= need for n, need in zip(c[base : base + 9], _NINE_GATES, strict=True))
            for base in (0, 9, 18)
        )
    c = h.concealed_13
    return any(c[base : base + 9] == _NINE_GATES for base in (0, 9, 18))


_NINE_GATES = [3, 1, 1, 1, 1, 1, 1, 1, 3]


def _arrangement_fans(
    h: _Hand,
    chows: tuple[int, ...],
    concealed_chows: tuple[int, ...],
    concealed_pungs: tuple[int, ...],
    pair: int,
    knitted: tuple[int, ...] = (),
    nine_gates: bool = False,
) -> tuple[list[tuple[int, int]], tuple[int, ...]]:
    """Every fan an arrangement shows (before exclusions), the win tile placed at best.

    Also returns, for each pung of terminals or honours not counted because a bigger fan
    counts that pung (a Dragon Pung, a wind fan, Nine Gates), the fan that takes it.
    """
    fans = list(h.static)
    if len(chows) >= 2:
        fans += _chow_fans(chows, pair if _IS_FIVE[pair] else -1)
    pungs = h.fixed_pungs
    if concealed_pungs:
        pungs = tuple(sorted(pungs + concealed_pungs)) if pungs else concealed_pungs
    poth = 0
    per_set: tuple[int, ...] = ()
    if pungs:
        if pungs[-1] >= 27:
            honors = tuple(t for t in pungs if t >= 27)
            suited = pungs[: len(pungs) - len(honors)]
            honor_fans, poth, per_set = _honor_fans(honors, pair, h.seat, h.prevalent)
            fans += honor_fans
        else:
            suited = pungs
        if len(suited) >= 2:
            fans += _pung_fans(suited)
        for t in suited:
            if _IS_TOH[t]:
                poth += 1
    if nine_gates:
        # Nine Gates always holds a pung of ones or nines: that one pung is part of it.
        fans.append((F.nine_gates, 1))
        poth -= 1
        per_set = (*per_set, F.nine_gates)
    if poth:
        fans.append((F.pung_of_terminals_or_honors, poth))

    win = h.win
    # Where the winning tile can sit: a chow or the pair keeps a concealed pung concealed
    # even when the tile was discarded; the wait fans need the tile to be the only wait.
    wait = -1
    in_other = pair == win or (win in knitted)
    for start in concealed_chows:
        if start <= win <= start + 2 and start // 9 == win // 9:
            in_other = True
            if wait != F.edge_wait:
                if win - start == 1:
                    wait = F.closed_wait
                elif (win - start == 2 and start % 9 == 0) or (win == start and start % 9 == 6):
                    wait = F.edge_wait
    if wait < 0 and pair == win:
        wait = F.single_wait
    concealed = len(concealed_pungs) + h.concealed_kongs
    if not h.self_drawn and not in_other and win in concealed_pungs:
        concealed -= 1
    if concealed >= 2:
        fans.append((_CONCEALED_PUNGS[concealed], 1))
    if wait >= 0 and _unique_wait(h):
        fans.append((wait, 1))

    if knitted:
        fans.append((F.knitted_straight, 1))
        if chows and pair < 27:
            fans.append((F.all_chows, 1))
        return fans, per_set
    if not chows:
        fans.append((F.all_pungs, 1))
        if h.all_bits & _EVEN_BIT:
            fans.append((F.all_even_pungs, 1))
    elif len(chows) == 4 and pair < 27:
        fans.append((F.all_chows, 1))
    if _IS_TOH[pair] and all(_OUTSIDE_CHOW[c] for c in chows) and all(_IS_TOH[t] for t in pungs):
        fans.append((F.outside_hand, 1))
    elif _IS_FIVE[pair] and all(_FIVES_CHOW[c] for c in chows) and all(_IS_FIVE[t] for t in pungs):
        fans.append((F.all_fives, 1))
    return fans, per_set


_CONCEALED_PUNGS = {2: F.two_concealed_pungs, 3: F.three_concealed_pungs, 4: F.four_concealed_pungs}

# (shape, fans shown, per-pung exclusions, preference among arrangements worth the same)
Candidate = tuple[str, list[tuple[int, int]], tuple[int, ...], tuple[int, ...]]


def _candidates(h: _Hand) -> list[Candidate]:
    """Every arrangement of the hand in every shape it allows, with the fans it shows."""
    out: list[Candidate] = []
    counts = h.counts
    if not h.melds:
        if shapes.is_thirteen_orphans(counts, h.mask):
            return [("thirteen_orphans", [*h.static, (F.thirteen_orphans, 1)], (), ())]
        if shapes.is_honors_and_knitted(counts, h.mask):
            # With all seven honours the hand is Greater, which includes Lesser.
            fans = [*h.static, (F.lesser_honors_and_knitted_tiles, 1)]
            if all(counts[t] for t in range(27, 34)):
                fans.append((F.greater_honors_and_knitted_tiles, 1))
            if sum(counts[:27]) == 9:
                fans.append((F.knitted_straight, 1))
            return [("honors_and_knitted", fans, (), ())]
        if shapes.is_seven_pairs(counts):
            fans = [*h.static, (F.seven_pairs, 1)]
            pairs = [t for t in range(34) if counts[t]]
            if (
                len(pairs) == 7
                and pairs[6] - pairs[0] == 6
                and pairs[0] // 9 == pairs[6] // 9
                and pairs[6] < 27
            ):
                fans.append((F.seven_shifted_pairs, 1))
            out.append(("seven_pairs", fans, (), (-1, 0)))
    meld_chows = tuple(h.meld_chows)
    if h.melds <= 1 and sum(counts) == 14 - 3 * h.melds:
        for pattern, rest in shapes.knitted_straight_rests(counts, h.mask):
            for c_chows, c_pungs, pair in shapes.standard_arrangements(tuple(rest)):
                chows = tuple(sorted(meld_chows + c_chows))
                fans, per_set = _arrangement_fans(h, chows, c_chows, c_pungs, pair, pattern)
                out.append(("knitted_straight", fans, per_set, (pair, len(chows))))
    nine_gates = _is_nine_gates(h)
    for c_chows, c_pungs, pair in shapes.standard_arrangements(tuple(counts)):
        chows = tuple(sorted(meld_chows + c_chows))
        fans, per_set = _arrangement_fans(h, chows, c_chows, c_pungs, pair, (), nine_gates)
        out.append(("standard", fans, per_set, (pair, len(chows))))
    return out


def _prepared(hand: WinningHand, rules: Rules) -> _Hand:
    if error := _not_played(hand, rules):
        raise error
    try:
        return _prepare(hand, rules)
    except KeyError:
        raise _unreadable(hand) from None


def _not_played(hand: WinningHand, rules: Rules) -> HandError | None:
    """The error for a hand that declares what ``rules`` do not play, or None."""
    if hand.flowers and not rules.flowers:
        return HandError(
            "flowers_not_played",
            gettext_noop("this tournament plays without flowers; the hand has %(flowers)s"),
            {"flowers": hand.flowers},
        )
    if hand.blessing is not None and not rules.blessings:
        return blessing_error(hand) or HandError(
            "blessings_not_played",
            gettext_noop(
                "this tournament does not play the blessings (Heavenly, Earthly and Human "
                "Hand); the hand declares %(blessing)s"
            ),
            {"blessing": BLESSING_NAMES[hand.blessing]},
        )
    return None


def _unreadable(hand: WinningHand) -> HandError:
    """The error for a hand ``_prepare`` cannot read: an unknown wind or tile.

    The codes are notation's (``validate`` reports the same problems first).
    """
    if error := wind_error(hand) or blessing_error(hand):
        return error
    tiles = [*hand.concealed, hand.win_tile, *(t for meld in hand.melds for t in meld.tiles)]
    unknown = next((t for t in tiles if t not in shapes.TILE_INDEX), None)
    return HandError(
        "unknown_tile", gettext_noop("%(tile)s is not a tile"), {"tile": repr(unknown)}
    )


def score(hand: WinningHand, rules: Rules = SEED_RULES) -> Scored:
    """Score a winning hand under ``rules`` (the seed reading by default): its fans, totals,
    exclusions and shape.

    The hand is assumed structurally valid (see ``notation``). Raises ``HandError`` with
    code ``not_a_winning_hand`` when the tiles form no winning shape, and with
    ``unknown_tile``, ``invalid_seat_wind``, ``invalid_prevalent_wind`` or
    ``invalid_blessing`` (codes of ``notation.ERROR_CODES``) for a tile, wind or blessing it
    cannot read; with ``flowers_not_played`` or ``blessings_not_played`` for flowers or a
    blessing the rules do not play. Of several arrangements the one worth most is kept.
    """
    candidates = _candidates(_prepared(hand, rules))
    if not candidates:
        raise HandError(
            "not_a_winning_hand",
            gettext_noop(
                "the tiles do not form four sets and a pair, seven pairs, thirteen orphans, "
                "honors and knitted tiles or a knitted straight"
            ),
        )
    # Worth most, then preferred (see the module's docstring); of two alike, the first found.
    shape, fans, per_set, _ = max(candidates, key=lambda c: (_resolve(c[1]), c[3]))
    return _scored(shape, tuple(sorted(fans)), per_set, hand.flowers, rules.minimum_fan)


def score_arrangements(hand: WinningHand, rules: Rules = SEED_RULES) -> list[Scored]:
    """Every arrangement ``score`` weighs for ``hand``, each scored as if it were kept.

    For tests: ``score(hand)`` is one of these, one worth most. The list is empty when the
    tiles form no winning shape; errors are those of ``score``. Not memoised beyond what
    ``score`` memoises, and not meant for the hot path.
    """
    return [
        _scored(shape, tuple(sorted(fans)), per_set, hand.flowers, rules.minimum_fan)
        for shape, fans, per_set, _ in _candidates(_prepared(hand, rules))
    ]


def clear_caches() -> None:
    """Empty every memo of the calculator and of the shape search (``_decompose``).

    Scoring is the same with or without them; tests clear them to check that a result does
    not depend on what was scored before.
    """
    for namespace in (globals(), vars(shapes)):
        for value in namespace.values():
            if hasattr(value, "cache_clear"):
                value.cache_clear()


@memoised
def _scored(
    shape: str,
    fans: tuple[tuple[int, int], ...],
    per_set: tuple[int, ...],
    flowers: int,
    minimum: int,
) -> Scored:
    """The Scored of an arrangement; its ``fans`` sorted, so that the memo finds them."""
    counted, total, excluded = _counted(fans, per_set)
    if flowers:
        counted = (*counted, _fan_count(F.flower_tiles, flowers))
    return Scored(
        fans=counted,
        total=total + flowers,
        total_without_flowers=total,
        valid=total >= minimum,
        excluded=excluded,
        shape=shape,
    )


@memoised
def _counted(
    fans: tuple[tuple[int, int], ...], per_set: tuple[int, ...]
) -> tuple[tuple[FanCount, ...], int, tuple[ExcludedFan, ...]]:
    """Counted fans (highest first), their total and the fans excluded, with by whom."""
    counted: list[tuple[int, int]] = []
    excluded: list[tuple[int, int]] = []
    excluded_by: dict[int, int] = {}
    # The table is in order of points, highest first, so fan order is the counting order.
    for fan, count in sorted(dict(fans).items()):
        by = excluded_by.get(fan)
        if by is None:
            counted.append((fan, count))
            for other in EXCLUDED_KEYS[fan]:
                excluded_by.setdefault(other, fan)
        else:
            excluded.append((fan, by))
    # Pungs of terminals or honours that a wind, dragon or Nine Gates fan already counts.
    if per_set and F.pung_of_terminals_or_honors not in excluded_by:
        for by in dict.fromkeys(per_set):
            excluded.append((F.pung_of_terminals_or_honors, excluded_by.get(by, by)))
    if not counted:
        counted.append((F.chicken_hand, 1))
    return (
        tuple(_fan_count(f, c) for f, c in counted),
        sum(POINTS[f] * c for f, c in counted),
        tuple(_excluded_fan(f, by) for f, by in excluded),
    )


@cache  # a few hundred fans and counts at most
def _fan_count(fan: int, count: int) -> FanCount:
    f = FANS[fan]
    return FanCount(f.key, f.name_en, f.name_zh, f.points, count)


@cache  # 85 × 85 pairs at most
def _excluded_fan(fan: int, by: int) -> ExcludedFan:
    f, b = FANS[fan], FANS[by]
    return ExcludedFan(f.key, f.name_en, f.name_zh, b.key, b.name_en, b.name_zh)
