"""Re-planning the sessions not yet played after a withdrawal or a substitute joining.

``replan(published, played=..., players=..., seed=...)`` keeps sessions ``[0, played)``
exactly as published and re-plans the later ones for the new list of players.

Algorithm
---------
1. **Start from the published seats.** For every later session, each player present in both
   versions starts at their published table and seat. Players who left (withdrawn) leave an
   empty seat.

   * *Substitutes.* The players who left (by number) are paired with the players who joined
     (by number); a substitute takes the seats of the player they replace in every later
     session. In the common case of one substitute for one withdrawn player nothing else
     changes: 0 seats move (unless the substitute's seats create a repeat meeting or a group
     conflict that a move can remove, see step 2).
   * *Fewer tables* (players removed in a multiple of 4). In every session the tables with
     the most players still present are kept (ties: the lower table number); a kept table keeps
     its number if it still exists, otherwise it takes the lowest number freed by a dropped
     table. The players of dropped tables fill the empty seats, preferring a seat of the same
     wind as their published one.
   * *More tables.* New tables are added after the published ones; players who joined fill
     the empty seats of withdrawn players first, then the new tables.

2. **Local search** over the later sessions, seeded by the published seats: pick a session
   and two of its seats at random (from ``seed``) and swap their players if the cost does not
   go up. The cost, in order of priority (lexicographic weights):

   1. extra meetings: for every pair, the number of times it meets beyond the first, counting
      the played sessions and all later sessions;
   2. group conflicts: pairs of players of one group at one table, in later sessions;
   3. moved seats: players present in both versions whose table or starting seat differs
      from the published one;
   4. starting-seat balance: the sum over players and winds of the squared number of starts.

   When a fixed number of swaps bring no new best, a "kick" makes a few random swaps in one
   session and the descent resumes; the best schedule seen is returned. The search stops
   after a fixed number of swaps or kicks (budgets, never a clock), so the result depends
   only on the input and the seed. Because the published seats are the starting point and
   moving a seat has a cost, seats move only to remove a repeat meeting or a group conflict,
   or to seat players that a dropped table left without a seat.

``moved_seats`` counts (player, session) pairs, in later sessions, of players present in both
versions whose table number or starting seat changed.
"""

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournament.core_errors import gettext_noop
from tournament.seating.errors import SeatingError
from tournament.seating.modes import check_players

Table = tuple[int, int, int, int]

# Swaps tried by the local search at most; swaps without a new best before a kick; kicks
# before it stops; random swaps per kick. Budgets, not time limits: the result is the same
# on every machine.
REPLAN_BUDGET = 200_000
REPLAN_STALL = 3_000
REPLAN_KICKS = 15
KICK_SWAPS = 3


@dataclass(frozen=True)
class Replan:
    """The whole schedule after a re-plan (played sessions unchanged) and the seats moved."""

    sessions: list[list[Table]]
    moved_seats: int


def replan(
    published: Sequence[Sequence[Sequence[int]]],
    *,
    played: int,
    players: Sequence[int],
    seed: int,
    groups: Mapping[int, str] | None = None,
) -> Replan:
    """After a withdrawal or a substitute joining: sessions [0, played) are returned unchanged
    (byte for byte); the later sessions are re-planned for the new ``players`` (a multiple of
    4), keeping as many seats of the published schedule as possible (a player keeps table
    number and starting seat where they can), avoiding repeat meetings (counting the played
    sessions) and group conflicts; ``moved_seats`` counts (player, session) pairs whose table
    or seat changed among players present in both versions. See the module docstring.

    Raises ``ValueError`` when ``played`` is not in 0..len(published), the players are not a
    positive multiple of 4 or repeat a player, or a published table does not hold four
    distinct players.
    """
    players = list(players)
    check_players(players)
    check_played(played, published)
    for session in published:
        seated = [p for table in session for p in table]
        if any(len(table) != 4 for table in session) or len(set(seated)) != len(seated):
            raise SeatingError(
                gettext_noop("Every published table must hold four distinct players."),
                code="bad_published_table",
            )

    kept = [[tuple(table) for table in session] for session in published[:played]]
    later_published = [[list(table) for table in session] for session in published[played:]]
    if not later_published:
        return Replan(sessions=kept, moved_seats=0)

    new_set = set(players)
    left = sorted({p for s in later_published for t in s for p in t} - new_set)
    joined = sorted(new_set - {p for s in later_published for t in s for p in t})
    substitute = dict(zip(left, joined, strict=False))

    start = [_initial_session(session, players, substitute) for session in later_published]
    search = _Search(kept, later_published, start, groups or {}, seed)
    search.run()
    later = [[tuple(table) for table in session] for session in search.tables]
    return Replan(sessions=kept + later, moved_seats=search.moved_total())


def check_played(played: object, sessions: Sequence) -> None:
    """Raise ``SeatingError`` unless ``played`` is a whole number from 0 to ``len(sessions)``."""
    if not (isinstance(played, int) and 0 <= played <= len(sessions)):
        raise SeatingError(
            gettext_noop("played must be from 0 to %(sessions)s, not %(played)s."),
            {"sessions": len(sessions), "played": repr(played)},
            code="bad_played",
        )


def _initial_session(
    session: list[list[int]], players: list[int], substitute: dict[int, int]
) -> list[list[int]]:
    new_set = set(players)
    n_old, n_new = len(session), len(players) // 4
    seated_old = {p for table in session for p in table}
    newcomers = [p for p in sorted(players) if p not in seated_old]

    def present(t: int) -> int:
        return sum(p in new_set for p in session[t])

    if n_new <= n_old:
        kept = sorted(sorted(range(n_old), key=lambda t: (-present(t), t))[:n_new])
    else:
        kept = list(range(n_old))
    free = [t for t in range(n_new) if t not in kept]
    number = {}
    for t in kept:
        number[t] = t if t < n_new else free.pop(0)

    tables: list[list[int | None]] = [[None] * 4 for _ in range(n_new)]
    for t in kept:
        tables[number[t]] = [p if p in new_set else None for p in session[t]]
    # Substitutes take the seats of the players they replace.
    waiting = set(newcomers)
    for t in kept:
        for k, p in enumerate(session[t]):
            sub = substitute.get(p)
            if sub in waiting:
                tables[number[t]][k] = sub
                waiting.discard(sub)
    holes = [(t, k) for t in range(n_new) for k in range(4) if tables[t][k] is None]
    displaced = [(p, k) for t in range(n_old) if t not in number for k, p in enumerate(session[t])]
    for p, k in displaced:
        if p not in new_set:
            continue
        hole = next((h for h in holes if h[1] == k), holes[0])
        holes.remove(hole)
        tables[hole[0]][hole[1]] = p
    for p in newcomers:
        if p in waiting:
            t, k = holes.pop(0)
            tables[t][k] = p
    return tables  # type: ignore[return-value]


def _key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


class _Search:
    def __init__(
        self,
        played: list[list[Table]],
        published: list[list[list[int]]],
        tables: list[list[list[int]]],
        groups: Mapping[int, str],
        seed: int,
    ) -> None:
        self.tables = tables
        self.groups = groups
        self.rng = random.Random(f"{seed}:replan")
        self.old = [
            {p: (t, k) for t, table in enumerate(session) for k, p in enumerate(table)}
            for session in published
        ]
        self.met: dict[tuple[int, int], int] = {}
        self.starts: dict[int, list[int]] = {}
        for session in played + tables:
            for table in session:
                for k, p in enumerate(table):
                    self.starts.setdefault(p, [0, 0, 0, 0])[k] += 1
                for i in range(4):
                    for j in range(i + 1, 4):
                        key = _key(table[i], table[j])
                        self.met[key] = self.met.get(key, 0) + 1
        n_sessions = len(played) + len(tables)
        self.w_moved = 8 * n_sessions + 16
        self.w_group = 4 * self.w_moved
        self.w_extra = 16 * self.w_group

    def same(self, a: int, b: int) -> int:
        g = self.groups.get(a)
        return int(g is not None and g == self.groups.get(b))

    def moved(self, s: int, p: int, t: int, k: int) -> int:
        old = self.old[s].get(p)
        return int(old is not None and old != (t, k))

    def seat_delta(self, p: int, k_from: int, k_to: int) -> int:
        if k_from == k_to:
            return 0
        counts = self.starts[p]
        return 2 * (counts[k_to] - counts[k_from]) + 2

    def delta(self, s: int, t1: int, k1: int, t2: int, k2: int) -> int:
        tab = self.tables[s]
        a, b = tab[t1][k1], tab[t2][k2]
        extra = group = 0
        if t1 != t2:
            met, same = self.met, self.same
            for here, k, out, come in ((tab[t1], k1, a, b), (tab[t2], k2, b, a)):
                for i, x in enumerate(here):
                    if i == k:
                        continue
                    if met.get(_key(out, x), 0) >= 2:
                        extra -= 1
                    if met.get(_key(come, x), 0) >= 1:
                        extra += 1
                    group += same(come, x) - same(out, x)
        moved = (
            self.moved(s, a, t2, k2)
            - self.moved(s, a, t1, k1)
            + self.moved(s, b, t1, k1)
            - self.moved(s, b, t2, k2)
        )
        seats = self.seat_delta(a, k1, k2) + self.seat_delta(b, k2, k1)
        return extra * self.w_extra + group * self.w_group + moved * self.w_moved + seats

    def swap(self, s: int, t1: int, k1: int, t2: int, k2: int) -> None:
        tab = self.tables[s]
        a, b = tab[t1][k1], tab[t2][k2]
        if t1 != t2:
            for here, k, out, come in ((tab[t1], k1, a, b), (tab[t2], k2, b, a)):
                for i, x in enumerate(here):
                    if i == k:
                        continue
                    self.met[_key(out, x)] -= 1
                    key = _key(come, x)
                    self.met[key] = self.met.get(key, 0) + 1
        self.starts[a][k1] -= 1
        self.starts[a][k2] += 1
        self.starts[b][k2] -= 1
        self.starts[b][k1] += 1
        tab[t1][k1], tab[t2][k2] = b, a

    def figures(self) -> tuple[int, int, int, int]:
        """Extra meetings, group conflicts, moved seats and the seat-balance term, recounted."""
        extra = sum(c - 1 for c in self.met.values() if c > 1)
        group = moved = 0
        for s, session in enumerate(self.tables):
            for t, table in enumerate(session):
                for i in range(4):
                    moved += self.moved(s, table[i], t, i)
                    group += sum(self.same(table[i], table[j]) for j in range(i + 1, 4))
        seats = sum(c * c for counts in self.starts.values() for c in counts)
        return extra, group, moved, seats

    def total(self) -> int:
        """The cost of the current later sessions, from scratch (the sum the deltas track)."""
        extra, group, moved, seats = self.figures()
        return extra * self.w_extra + group * self.w_group + moved * self.w_moved + seats

    def propose(self) -> tuple[int, int, int, int, int]:
        rng = self.rng
        seats = 4 * len(self.tables[0])
        x = rng.randrange(seats)
        y = rng.randrange(seats - 1)
        if y >= x:
            y += 1
        return (rng.randrange(len(self.tables)), *divmod(x, 4), *divmod(y, 4))

    def run(self) -> None:
        if self.figures()[:3] == (0, 0, 0):
            # No repeat, no group conflict, no seat moved: nothing the search could improve
            # but the seat balance, which never outweighs keeping published seats.
            return
        cost = self.total()
        best_cost, best = cost, [[list(t) for t in s] for s in self.tables]
        stall = kicks = 0
        for _ in range(REPLAN_BUDGET):
            move = self.propose()
            d = self.delta(*move)
            if d <= 0:
                self.swap(*move)
                cost += d
            if cost < best_cost:
                best_cost, best = cost, [[list(t) for t in s] for s in self.tables]
                stall = 0
                continue
            stall += 1
            if stall >= REPLAN_STALL:
                kicks += 1
                if kicks > REPLAN_KICKS:
                    break
                # Kick: a few random swaps in one session, whatever they cost, then descend
                # again; the best schedule seen is kept.
                s = self.rng.randrange(len(self.tables))
                for _ in range(KICK_SWAPS):
                    move = (s, *self.propose()[1:])
                    cost += self.delta(*move)
                    self.swap(*move)
                stall = 0
        self.tables = best

    def moved_total(self) -> int:
        return sum(
            self.moved(s, p, t, k)
            for s, session in enumerate(self.tables)
            for t, table in enumerate(session)
            for k, p in enumerate(table)
        )
