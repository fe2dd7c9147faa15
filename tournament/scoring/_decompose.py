"""Tile indices, hand shapes and waits for the fan calculator (private).

Tiles are integers 0..33 in ``hand.ALL_TILES`` order: 0–8 characters, 9–17 dots, 18–26
bamboo (suit = index // 9, rank = index % 9, rank 0 is the one), 27–30 winds E S W N,
31–33 dragons C F P. A hand's concealed part is a list of 34 counts.

Sets never cross a suit, so the concealed part is split per *group*: the three suits (nine
ranks each) and the seven honours (one tile each, pungs and pairs only). Each group's
arrangements and waits depend only on its own counts and are memoised on them (a suit's on
the suit and its counts, in tile indices);
a whole hand's arrangements are then a product of a few cached lists.
"""

from functools import lru_cache
from itertools import product

from tournament.scoring.hand import ALL_TILES

TILE_INDEX: dict[str, int] = {tile: index for index, tile in enumerate(ALL_TILES)}
TERMINALS_AND_HONORS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)

# Limit on each memo: enough for every pattern a session sees.
MEMO_LIMIT = 50_000
memoised = lru_cache(maxsize=MEMO_LIMIT)


def _search(c: list[int], i: int, chows: list, pungs: list, pair: int, out: set) -> None:
    n = len(c)
    while i < n and not c[i]:
        i += 1
    if i == n:
        out.add((tuple(chows), tuple(pungs), pair))
        return
    k = c[i]
    if k >= 3:
        c[i] = k - 3
        pungs.append(i)
        _search(c, i, chows, pungs, pair, out)
        pungs.pop()
        c[i] = k
    if k >= 2 and pair < 0:
        c[i] = k - 2
        _search(c, i, chows, pungs, i, out)
        c[i] = k
    if i + 2 < n and c[i + 1] and c[i + 2]:
        c[i] = k - 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        chows.append(i)
        _search(c, i, chows, pungs, pair, out)
        chows.pop()
        c[i] = k
        c[i + 1] += 1
        c[i + 2] += 1


@memoised
def is_complete(counts: tuple[int, ...]) -> bool:
    """Whether a group splits into sets, plus one pair when its size is 2 mod 3."""
    size = sum(counts)
    if size % 3 == 0:
        return _sets_only(list(counts))
    if size % 3 == 1:
        return False
    # Every set's ranks sum to 0 mod 3, so the pair's rank p has 2p = total (mod 3).
    total = sum(r * c for r, c in enumerate(counts))
    for p in range(2 * total % 3, len(counts), 3):
        if counts[p] >= 2:
            c = list(counts)
            c[p] -= 2
            if _sets_only(c):
                return True
    return False


def _sets_only(c: list[int]) -> bool:
    # At the lowest rank left, c % 3 tiles must start chows (three chows use the same
    # tiles as three pungs), the rest make pungs.
    n = len(c)
    for r in range(n):
        x = c[r]
        if x < 0:
            return False
        k = x % 3
        if k:
            if r + 2 >= n:
                return False
            c[r + 1] -= k
            c[r + 2] -= k
    return True


@memoised
def group_waits(counts: tuple[int, ...]) -> tuple[int, ...]:
    """Ranks whose addition makes the group complete (sets, plus a pair if 2 mod 3).

    By shape only: a rank the group already holds four times is included when a fifth
    copy would complete it (the caller removes tiles that cannot be drawn).
    """
    waits = []
    cs = list(counts)
    n = len(cs)
    for r in range(n):
        # Only a tile next to the group's tiles (or a lone tile's pair) can help.
        if n > 1 and not any(cs[max(0, r - 2) : r + 3]):
            continue
        cs[r] += 1
        if is_complete(tuple(cs)):
            waits.append(r)
        cs[r] -= 1
    return tuple(waits)


_NO_TILES = (0,) * 9

# A hand arrangement: (chow start tiles, pung tiles, pair tile), tile indices, sorted.
Arrangement = tuple[tuple[int, ...], tuple[int, ...], int]


@memoised
def _suit_arrangements(base: int, group: tuple[int, ...]) -> tuple[Arrangement, ...]:
    """Every way to split one suit into chows, pungs and (when its size is 2 mod 3) a pair,
    in tile indices (``base`` = index of the suit's one)."""
    size = sum(group)
    if size % 3 == 1:
        return ()
    out: set = set()
    _search(list(group), 0, [], [], -1, out)
    return tuple(
        (
            tuple(base + r for r in chows),
            tuple(base + r for r in pungs),
            base + pair if pair >= 0 else -1,
        )
        for chows, pungs, pair in sorted(out)
        if (pair >= 0) == (size % 3 == 2)
    )


@memoised
def standard_arrangements(counts: tuple[int, ...]) -> tuple[Arrangement, ...]:
    """All splits of the concealed tiles (a multiple of 3 plus 2) into sets and one pair."""
    per_suit = []
    pairs = 0
    for base in (0, 9, 18):
        group = counts[base : base + 9]
        if group == _NO_TILES:
            continue
        options = _suit_arrangements(base, group)
        if not options:
            return ()
        if options[0][2] >= 0:
            pairs += 1
        per_suit.append(options)
    honor_pungs: list[int] = []
    pair = -1
    for t in range(27, 34):
        c = counts[t]
        if c == 3:
            honor_pungs.append(t)
        elif c == 2:
            pairs += 1
            pair = t
        elif c:
            return ()
    if pairs != 1:
        return ()
    result: list[Arrangement] = []
    for combo in product(*per_suit):
        chows: list[int] = []
        pungs: list[int] = []
        combo_pair = pair
        for c, p, q in combo:
            chows += c
            pungs += p
            if q >= 0:
                combo_pair = q
        result.append((tuple(chows), (*pungs, *honor_pungs), combo_pair))
    return tuple(result)


def standard_waits(counts: list[int]) -> set[int]:
    """Tiles completing a concealed part of 3k+1 tiles into sets and one pair."""
    # Exactly one group is one tile short of complete (size 1 mod 3), or two groups each
    # hold a pair (size 2 mod 3) and the tile completes one of them; the rest are complete.
    incomplete = []
    for base in (0, 9, 18):
        group = tuple(counts[base : base + 9])
        size = sum(group)
        if size % 3:
            incomplete.append((base, group, size % 3))
        elif size and not is_complete(group):
            return set()
    for t in range(27, 34):
        c = counts[t]
        if c % 3:
            incomplete.append((t, (c,), c % 3))
    waits: set[int] = set()
    if len(incomplete) == 1:
        base, group, size = incomplete[0]
        if size == 1:
            waits.update(base + r for r in group_waits(group))
    elif len(incomplete) == 2:
        (b1, g1, s1), (b2, g2, s2) = incomplete
        if s1 == 2 and s2 == 2:
            if is_complete(g2):
                waits.update(b1 + r for r in group_waits(g1))
            if is_complete(g1):
                waits.update(b2 + r for r in group_waits(g2))
    return waits


# Knitted patterns: for each assignment of the rank groups 147, 258, 369 to the three
# suits, the nine tiles of the knitted straight.
KNITTED_PATTERNS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sorted(
            9 * suit + rank
            for suit, start in zip(range(3), perm, strict=True)
            for rank in (start, start + 3, start + 6)
        )
    )
    for perm in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
)


TERMINALS_AND_HONORS_MASK = sum(1 << t for t in TERMINALS_AND_HONORS)
HONORS_MASK = sum(1 << t for t in range(27, 34))
KNITTED_MASKS = tuple(sum(1 << t for t in pattern) for pattern in KNITTED_PATTERNS)


def is_thirteen_orphans(counts: list[int], mask: int) -> bool:
    return mask == TERMINALS_AND_HONORS_MASK and sum(counts) == 14


def is_seven_pairs(counts: list[int]) -> bool:
    return sum(counts) == 14 and all(c % 2 == 0 for c in counts)


def is_honors_and_knitted(counts: list[int], mask: int) -> bool:
    """Fourteen different tiles: honours plus suited tiles of one knitted pattern."""
    if mask.bit_count() != 14 or sum(counts) != 14:
        return False
    suited = mask & ~HONORS_MASK
    return any(suited & ~pattern == 0 for pattern in KNITTED_MASKS)


def knitted_straight_rests(counts: list[int], mask: int) -> list[tuple[tuple[int, ...], list[int]]]:
    """For each knitted straight the concealed tiles hold: (its nine tiles, the rest)."""
    out = []
    for pattern, bits in zip(KNITTED_PATTERNS, KNITTED_MASKS, strict=True):
        if mask & bits == bits:
            rest = list(counts)
            for t in pattern:
                rest[t] -= 1
            out.append((pattern, rest))
    return out


def all_waits(counts: list[int], melds: int, mask: int) -> set[int]:
    """Every tile that completes a concealed part of 13 − 3·melds tiles, in any shape.

    ``mask`` has bit t set when ``counts`` holds the tile t.
    """
    waits = standard_waits(counts)
    distinct = mask.bit_count()
    if melds == 0 and distinct <= 7:
        # Seven pairs: six pairs (a four counts as two) and one odd tile.
        odd = [t for t in range(34) if counts[t] % 2]
        if len(odd) == 1 and sum(counts) == 13:
            waits.add(odd[0])
    if melds == 0 and mask & ~TERMINALS_AND_HONORS_MASK == 0 and distinct >= 12:
        # Thirteen orphans: all thirteen once, or twelve with one of them twice.
        if distinct == 13:
            waits.update(TERMINALS_AND_HONORS)
        elif max(counts) == 2 and sum(counts) == 13:
            waits.update(t for t in TERMINALS_AND_HONORS if not counts[t])
    if melds == 0 and distinct == 13 and sum(counts) == 13:
        # Honours and knitted tiles: thirteen different tiles, the fourteenth any other fit.
        suited = mask & ~HONORS_MASK
        for pattern, bits in zip(KNITTED_PATTERNS, KNITTED_MASKS, strict=True):
            if suited & ~bits == 0:
                waits.update(t for t in (*pattern, *range(27, 34)) if not counts[t])
    if melds <= 1 and distinct >= 8:
        for pattern, bits in zip(KNITTED_PATTERNS, KNITTED_MASKS, strict=True):
            missing = bits & ~mask
            if missing & (missing - 1):
                continue  # two or more of the nine are missing
            rest = list(counts)
            for t in pattern:
                if rest[t]:
                    rest[t] -= 1
            if not missing:
                waits.update(standard_waits(rest))
            elif standard_arrangements(tuple(rest)):
                waits.add(missing.bit_length() - 1)
    return waits
