"""Schedules in which no two players meet twice, built from finite geometry.

Every function here returns *sessions* over the players ``0 .. n-1``: a list of sessions,
each a list of tables, each a tuple of four player indices. Callers relabel the players
(the draw by lot) and pick sessions; nothing here is random.

Constructions (``construction(n)`` picks the one giving the most sessions for ``n``):

* **Transversal design**, ``n = 4q`` with ``q`` a prime power: players ``(x, k)`` with
  ``x`` in GF(q) and ``k = 0..3``; in session ``m`` (``m`` in GF(q)) table ``a`` holds
  ``(a + m·c_k, k)`` for four distinct constants ``c_k``. Players ``(x, k)`` and ``(y, l)``
  with ``k != l`` share a table in session ``m`` exactly when ``x - y = m·(c_k - c_l)``:
  for one ``m`` only. Players with the same ``k`` never meet, so when 4 divides ``q`` one
  more session seats each class ``k`` in tables of four: ``q + 1`` sessions.
* **Affine plane of order 4** for 16 players: points GF(4)², tables the lines; its five
  parallel classes are five sessions in which every pair meets exactly once.
* **28 players, 9 sessions** (a resolvable 2-(28, 4, 1) design): players ``Z9 × {0,1,2}``
  plus one fixed player ∞; one base session developed mod 9. The base session covers every
  "difference class" of pairs exactly once (pure differences ±d within a row, mixed
  differences between two rows, ∞ with each row), so in the 9 translates every pair meets
  exactly once.
* **24 players, 7 sessions** (a resolvable 4-GDD of type 3^8): players ``Z7 × {0,1,2}``
  plus three fixed players ∞0, ∞1, ∞2; one base session developed mod 7. The groups (never
  meeting) are the columns ``{(x,0), (x,1), (x,2)}`` and the three ∞; every other pair
  meets exactly once.

The two base sessions were found by :func:`find_base_session` (an exhaustive search, first
solution in a fixed order) and are kept as constants; the tests re-verify them.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

Session = list[tuple[int, ...]]
Schedule = list[Session]


# --- finite fields -------------------------------------------------------------------


def prime_power(q: int) -> tuple[int, int] | None:
    """``(p, e)`` with ``q = p**e`` and ``p`` prime, or ``None``."""
    if q < 2:
        return None
    p = 2
    while p * p <= q and q % p:
        p += 1
    if q % p:
        p = q  # q itself is prime
    e, r = 0, q
    while r % p == 0:
        r //= p
        e += 1
    return (p, e) if r == 1 else None


class GF:
    """The field with ``q = p**e`` elements, elements coded as ints ``0 .. q-1``.

    An element is the polynomial whose coefficients are the base-``p`` digits of its code
    (lowest digit = constant term); products are reduced modulo the first monic
    irreducible polynomial of degree ``e`` in code order. ``0`` and ``1`` are the field's
    zero and one.
    """

    def __init__(self, q: int) -> None:
        pe = prime_power(q)
        if pe is None:
            raise ValueError(f"{q} is not a prime power")
        self.q = q
        self.p, self.e = pe
        p, e = pe
        digits = [self._digits(v) for v in range(q)]
        self.add = [
            [self._code([(a + b) % p for a, b in zip(da, db, strict=True)]) for db in digits]
            for da in digits
        ]
        self.neg = [self._code([(-a) % p for a in d]) for d in digits]
        modulus = self._irreducible() if e > 1 else None
        self.mul = [[self._mul(da, db, modulus) for db in digits] for da in digits]

    def _digits(self, v: int) -> list[int]:
        out = []
        for _ in range(self.e):
            out.append(v % self.p)
            v //= self.p
        return out

    def _code(self, digits: list[int]) -> int:
        v = 0
        for d in reversed(digits):
            v = v * self.p + d
        return v

    def _polymul(self, a: list[int], b: list[int]) -> list[int]:
        out = [0] * (len(a) + len(b) - 1)
        for i, x in enumerate(a):
            if x:
                for j, y in enumerate(b):
                    out[i + j] = (out[i + j] + x * y) % self.p
        return out

    def _reduce(self, a: list[int], modulus: list[int]) -> list[int]:
        # the remainder of a by the monic modulus of degree d (coefficients lowest first)
        a = a[:]
        d = len(modulus) - 1
        for i in range(len(a) - 1, d - 1, -1):
            c = a[i]
            if c:
                for j in range(d + 1):
                    a[i - d + j] = (a[i - d + j] - c * modulus[j]) % self.p
        return (a + [0] * d)[:d]

    def _irreducible(self) -> list[int]:
        p, e = self.p, self.e
        for low in range(p**e):
            cand = [*self._digits(low), 1]
            if cand[0] == 0:
                continue
            if all(self._has_no_factor(cand, d) for d in range(1, e // 2 + 1)):
                return cand
        raise AssertionError("no irreducible polynomial")  # pragma: no cover

    def _has_no_factor(self, poly: list[int], degree: int) -> bool:
        # try every monic polynomial of this degree as a divisor
        for low in range(self.p**degree):
            div = [*[(low // self.p**i) % self.p for i in range(degree)], 1]
            if not any(self._reduce(poly, div)):
                return False
        return True

    def _mul(self, da: list[int], db: list[int], modulus: list[int] | None) -> int:
        if modulus is None:
            return (da[0] * db[0]) % self.p
        return self._code(self._reduce(self._polymul(da, db), modulus))


@lru_cache(maxsize=32)
def field(q: int) -> GF:
    return GF(q)


# --- constructions -------------------------------------------------------------------


def sorted_session(tables: Iterable[Iterable[int]]) -> Session:
    """A session in normal form: each table sorted, tables sorted by their first player."""
    return sorted(tuple(sorted(t)) for t in tables)


def transversal(q: int) -> Schedule:
    """``q`` (or ``q + 1`` when 4 divides ``q``) sessions for ``4q`` players; player
    ``(x, k)`` is index ``k·q + x``."""
    f = field(q)
    if q < 4:
        raise ValueError("the transversal construction needs q >= 4")
    c = (0, 1, 2, 3)  # four distinct field elements
    sessions = []
    for m in range(q):
        shift = [f.mul[m][ck] for ck in c]
        tables = [tuple(k * q + f.add[a][shift[k]] for k in range(4)) for a in range(q)]
        sessions.append(sorted_session(tables))
    if q % 4 == 0:
        sessions.append(
            sorted_session(
                [
                    tuple(k * q + x for x in range(j, j + 4))
                    for k in range(4)
                    for j in range(0, q, 4)
                ]
            )
        )
    return sessions


def affine_plane_4() -> Schedule:
    """The five parallel classes of AG(2, 4); point ``(x, y)`` is index ``4x + y``."""
    f = field(4)
    sessions = []
    for slope in range(4):  # lines y = slope·x + b
        tables = [tuple(4 * x + f.add[f.mul[slope][x]][b] for x in range(4)) for b in range(4)]
        sessions.append(sorted_session(tables))
    sessions.append(sorted_session([tuple(4 * x + y for y in range(4)) for x in range(4)]))
    return sessions


# Base sessions: finite point (x, row) and fixed point ("inf", j).
_BASE_24 = (
    ((0, 0), (1, 0), (3, 0), (6, 1)),
    ((2, 0), (3, 1), (0, 2), ("inf", 0)),
    ((4, 0), (1, 2), (5, 2), (6, 2)),
    ((5, 0), (2, 1), (4, 2), ("inf", 1)),
    ((6, 0), (1, 1), (2, 2), ("inf", 2)),
    ((0, 1), (4, 1), (5, 1), (3, 2)),
)
_BASE_28 = (
    ((0, 0), (1, 0), (3, 0), (0, 1)),
    ((2, 0), (5, 1), (0, 2), (2, 2)),
    ((4, 0), (8, 0), (6, 1), (5, 2)),
    ((5, 0), (4, 2), (7, 2), (8, 2)),
    ((6, 0), (7, 1), (1, 2), ("inf", 0)),
    ((7, 0), (2, 1), (3, 1), (3, 2)),
    ((1, 1), (4, 1), (8, 1), (6, 2)),
)


def develop(base, modulus: int, rows: int) -> Schedule:
    """Translate a base session by ``0 .. modulus-1``; ``(x, r)`` is index ``r·modulus + x``,
    ``("inf", j)`` is ``rows·modulus + j`` (fixed by the translation)."""

    def index(point, shift: int) -> int:
        x, r = point
        if x == "inf":
            return rows * modulus + r
        return r * modulus + (x + shift) % modulus

    return [
        sorted_session([tuple(index(pt, s) for pt in block) for block in base])
        for s in range(modulus)
    ]


def resolvable_28() -> Schedule:
    return develop(_BASE_28, 9, 3)


def gdd_24() -> Schedule:
    return develop(_BASE_24, 7, 3)


def find_base_session(modulus: int, rows: int, fixed: int, column_groups: bool):
    """Exhaustive search for a base session over ``Z_modulus × rows`` plus ``fixed`` fixed
    points whose blocks cover every allowed difference class of pairs at most once (exactly
    once when the counts match). With ``column_groups`` the pairs ``(x, r), (x, s)`` are
    forbidden (a GDD with the columns as groups); fixed points never meet each other.
    Returns the first solution in lexicographic order, or ``None``."""
    pts = [(x, r) for r in range(rows) for x in range(modulus)] + [("inf", j) for j in range(fixed)]

    def key(p, q):
        (x, r), (y, s) = p, q
        if x == "inf" and y == "inf":
            return None
        if x == "inf":
            return ("i", r, s)
        if y == "inf":
            return ("i", s, r)
        if r == s:
            d = (y - x) % modulus
            return ("p", r, min(d, modulus - d))
        if r > s:
            (x, r), (y, s) = (y, s), (x, r)
        d = (y - x) % modulus
        if d == 0 and column_groups:
            return None
        return ("m", r, s, d)

    size = len(pts)
    keys = [[key(pts[i], pts[j]) if i != j else None for j in range(size)] for i in range(size)]
    used: set = set()
    free = set(range(size))
    blocks: list[tuple[int, ...]] = []

    def fits(new):
        return None not in new and not any(k in used for k in new) and len(set(new)) == len(new)

    def rec() -> bool:
        if not free:
            return True
        a = min(free)
        rest = sorted(free - {a})
        for b in rest:
            kb = [keys[a][b]]
            if not fits(kb):
                continue
            used.update(kb)
            for c in rest:
                kc = [keys[a][c], keys[b][c]]
                if c <= b or not fits(kc):
                    continue
                used.update(kc)
                for d in rest:
                    kd = [keys[a][d], keys[b][d], keys[c][d]]
                    if d <= c or not fits(kd):
                        continue
                    used.update(kd)
                    free.difference_update((a, b, c, d))
                    blocks.append((a, b, c, d))
                    if rec():
                        return True
                    blocks.pop()
                    free.update((a, b, c, d))
                    used.difference_update(kd)
                used.difference_update(kc)
            used.difference_update(kb)
        return False

    if not rec():
        return None
    return tuple(tuple(pts[i] for i in block) for block in blocks)


@lru_cache(maxsize=64)
def _construction(n: int) -> tuple[tuple[tuple[int, ...], ...], ...] | None:
    best: Schedule | None = None
    if n == 16:
        best = affine_plane_4()
    elif n == 24:
        best = gdd_24()
    elif n == 28:
        best = resolvable_28()
    if n % 4 == 0 and n // 4 >= 4 and prime_power(n // 4):
        cand = transversal(n // 4)
        if best is None or len(cand) > len(best):
            best = cand
    if best is None:
        return None
    return tuple(tuple(s) for s in best)


def construction(n: int) -> Schedule | None:
    """The construction with the most sessions for ``n`` players (no pair meets twice), or
    ``None`` when none is known here."""
    found = _construction(n)
    return None if found is None else [list(s) for s in found]


def max_sessions(n: int) -> int:
    """How many sessions :func:`construction` gives for ``n`` players (0 if none)."""
    found = _construction(n)
    return 0 if found is None else len(found)
