"""Session-by-session seating modes, for organisers who seat each session from the standings.

``seat_session(mode, ...)`` returns one session's tables; each table is a tuple of four player
numbers ordered by starting seat East, South, West, North. The result is a deterministic
function of the arguments (the seed included): no clock, no time cutoff, only iteration
budgets.

Modes
-----
``"random"``
    A seeded shuffle improved by a local search (swap two players of different tables, keep
    the swap if the cost does not go up) with fixed iteration budgets (at most
    ``RANDOM_BUDGET`` swaps, and it stops after ``RANDOM_STALL`` swaps in a row without a
    strict improvement). The cost, in order of
    priority: meetings already played (each pair at a table costs the number of times it met
    in ``history``), then players of the same group at a table (pairs), then pairs that met in
    the very last session of ``history``.
``"standings"`` (高高碰)
    ``ranking[0:4]`` at table 1, ``ranking[4:8]`` at table 2, and so on. The promise is the
    exact ranks per table, so nothing is ever swapped to avoid a repeat or a group: here
    "where it can" means nowhere.
``"serpentine"`` (蛇形)
    With ``T`` tables the ranking is cut into four quarters of ``T`` players. Table ``t``
    (1-based) gets the ``t``-th player of quarter 1, the ``(T + 1 - t)``-th of quarter 2, the
    ``t``-th of quarter 3 and the ``(T + 1 - t)``-th of quarter 4 (quarters 1 and 3 are dealt
    1..T, quarters 2 and 4 are dealt T..1). Worked example, 16 players, ranks 1..16, T = 4::

        table 1: ranks 1, 8,  9, 16
        table 2: ranks 2, 7, 10, 15
        table 3: ranks 3, 6, 11, 14
        table 4: ranks 4, 5, 12, 13

    Every table's rank sum is the same (34 here). The promise is "one player of each quarter
    at every table", so where the snake would seat together players who already met (or
    players of one group), two players *of the same quarter* at different tables may be
    swapped. Swaps are made by steepest descent from the snake: only a swap that strictly
    lowers the cost (meetings already played, then groups, then meeting the previous
    session's opponents) is made, the best one first (ties: the closest tables), until no swap
    helps. Without repeats or group conflicts the result is exactly the snake.
``"top_tables"``
    For a final session: the ``top`` best tables are seated by standings (ranks 1-4 at
    table 1, ...), the other players are seated by ``"random"`` (with repeat and group
    avoidance) at the remaining tables, listed after the top tables.

Starting seats
--------------
Every mode then orders each table's four players East, South, West, North to balance the
starting seats, counting each player's starts in ``history`` (every table there lists its
players East..North). For each table the 24 permutations are tried and the best is kept: the
one that gives the fewest players a seat they have started in more often than their least
used seat (counted as the sum, over the four players, of starts in the given seat minus
starts in their least used seat), then the smallest worst excess; ties are broken by an order
of the permutations drawn from the seed. So a player gets a seat they started in least
whenever the table allows it.
"""

import itertools
import random
from collections.abc import Mapping, Sequence

from tournament.core_errors import gettext_noop
from tournament.seating.errors import SeatingError
from tournament.seating.pairings import meeting_counts
from tournament.seating.seats import seat_counts

MODES = ("random", "standings", "serpentine", "top_tables")

# Swaps tried by the "random" mode's local search at most, and swaps in a row without a strict
# improvement before it stops. Budgets, not time limits, so that the same input and seed give
# the same seating on every machine.
RANDOM_BUDGET = 50_000
RANDOM_STALL = 10_000

_PERMUTATIONS = tuple(itertools.permutations(range(4)))

Table = tuple[int, int, int, int]


def seat_session(
    mode: str,
    *,
    players: Sequence[int],
    seed: int,
    history: Sequence[Sequence[Sequence[int]]] = (),
    ranking: Sequence[int] = (),
    groups: Mapping[int, str] | None = None,
    top: int = 1,
) -> list[Table]:
    """One session's tables, each ordered East..North (starting seats).

    ``history`` lists the previous sessions, each a list of tables of four players ordered
    East..North. ``ranking`` lists all ``players``, best first (required by every mode but
    ``"random"``, which ignores it). ``groups`` maps a player to a group name (team, club,
    country); players missing from it belong to no group. ``top`` is the number of tables
    seated by standings in ``"top_tables"``.

    Raises ``ValueError`` for an unknown mode, a player count that is not a positive multiple
    of 4, repeated players, a ranking that is not a permutation of the players, ``top``
    outside 1..number of tables, or a history table that does not hold four players.
    """
    if mode not in MODES:
        raise SeatingError(
            gettext_noop("Unknown seating mode %(mode)s; expected one of %(modes)s."),
            {"mode": repr(mode), "modes": ", ".join(MODES)},
            code="unknown_mode",
        )
    players = list(players)
    check_players(players)
    _check_history(history)
    n_tables = len(players) // 4
    if mode != "random" or ranking:
        _check_ranking(ranking, players)
    ranking = list(ranking)
    groups = dict(groups or {})
    costs = _PairCosts(history, groups, n_tables)

    if mode == "random":
        tables = _random_tables(players, costs, random.Random(f"{seed}:random:tables"))
    elif mode == "standings":
        tables = [ranking[4 * t : 4 * t + 4] for t in range(n_tables)]
    elif mode == "serpentine":
        tables = _serpentine_tables(ranking, costs)
    else:
        if not (isinstance(top, int) and 1 <= top <= n_tables):
            raise SeatingError(
                gettext_noop(
                    "top must be a whole number from 1 to %(tables)s (the number of tables), "
                    "not %(top)s."
                ),
                {"tables": n_tables, "top": repr(top)},
                code="bad_top",
            )
        tables = [ranking[4 * t : 4 * t + 4] for t in range(top)]
        rest = ranking[4 * top :]
        if rest:
            tables += _random_tables(rest, costs, random.Random(f"{seed}:top_tables:tables"))

    return orient_tables(tables, history=history, seed=seed)


def orient_tables(
    tables: Sequence[Sequence[int]],
    *,
    history: Sequence[Sequence[Sequence[int]]] = (),
    seed: int = 0,
) -> list[Table]:
    """Order every table East..North so each player gets a seat they have started in least.

    Starts are counted in ``history`` (tables ordered East..North). See the module docstring
    for the exact rule; deterministic for a given seed.
    """
    starts = seat_counts(history)
    rng = random.Random(f"{seed}:seats")
    result = []
    for table in tables:
        table = list(table)
        counts = [starts.get(p, (0, 0, 0, 0)) for p in table]
        order = list(_PERMUTATIONS)
        rng.shuffle(order)
        best_key = None
        best_perm = order[0]
        for perm in order:
            # perm[i] is the seat given to table[i].
            excess = [counts[i][perm[i]] - min(counts[i]) for i in range(4)]
            key = (sum(excess), max(excess))
            if best_key is None or key < best_key:
                best_key, best_perm = key, perm
        seated = [0, 0, 0, 0]
        for i, seat in enumerate(best_perm):
            seated[seat] = table[i]
        result.append(tuple(seated))
    return result


# --- checks -------------------------------------------------------------------------------


def check_players(players: list[int]) -> None:
    if not players or len(players) % 4:
        raise SeatingError(
            gettext_noop("The number of players must be a positive multiple of 4, not %(count)s."),
            {"count": len(players)},
            code="bad_player_count",
        )
    if len(set(players)) != len(players):
        raise SeatingError(
            gettext_noop("A player is listed more than once."), code="duplicate_player"
        )


def _check_ranking(ranking: Sequence[int], players: list[int]) -> None:
    if len(ranking) != len(players) or set(ranking) != set(players):
        raise SeatingError(
            gettext_noop("The ranking must list every player exactly once, best first."),
            code="bad_ranking",
        )


def _check_history(history: Sequence[Sequence[Sequence[int]]]) -> None:
    for session in history:
        for table in session:
            if len(table) != 4:
                raise SeatingError(
                    gettext_noop("A table in the history does not hold four players: %(table)s."),
                    {"table": repr(table)},
                    code="bad_history_table",
                )


# --- costs --------------------------------------------------------------------------------


class _PairCosts:
    """The cost of seating two players at one table, in lexicographic order by weights:
    times they met in ``history``, then same group, then met in the last session."""

    def __init__(
        self, history: Sequence[Sequence[Sequence[int]]], groups: dict[int, str], n_tables: int
    ) -> None:
        self.groups = groups
        pairs = 6 * n_tables  # pairs seated together in one session
        self.w_group = pairs + 1
        self.w_met = (pairs + 1) * self.w_group
        # near[a][b]: the cost of a and b having met, for the pairs that have (a few per
        # player), looked up from either side.
        self.near: dict[int, dict[int, int]] = {}
        last = meeting_counts(history[-1:])
        for (a, b), times in meeting_counts(history).items():
            cost = times * self.w_met + last.get((a, b), 0)
            self.near.setdefault(a, {})[b] = cost
            self.near.setdefault(b, {})[a] = cost

    def pair(self, a: int, b: int) -> int:
        near = self.near.get(a)
        cost = near.get(b, 0) if near else 0
        group = self.groups.get(a)
        if group is not None and group == self.groups.get(b):
            cost += self.w_group
        return cost

    def table(self, table: Sequence[int]) -> int:
        return sum(self.pair(a, b) for a, b in itertools.combinations(table, 2))

    def others(self, player: int, table: Sequence[int], skip: int) -> int:
        """Cost of ``player`` with the table's players other than the one at index ``skip``."""
        return sum(self.pair(player, q) for i, q in enumerate(table) if i != skip)


# --- modes --------------------------------------------------------------------------------


def _random_tables(players: list[int], costs: _PairCosts, rng: random.Random) -> list[list[int]]:
    order = sorted(players)
    rng.shuffle(order)
    tables = [order[4 * t : 4 * t + 4] for t in range(len(order) // 4)]
    if len(tables) < 2:
        return tables
    total = sum(costs.table(t) for t in tables)
    n = len(tables)
    stall = 0
    for _ in range(RANDOM_BUDGET):
        if total == 0:
            break
        ti = rng.randrange(n)
        tj = rng.randrange(n - 1)
        if tj >= ti:
            tj += 1
        i, j = rng.randrange(4), rng.randrange(4)
        a, b = tables[ti][i], tables[tj][j]
        delta = (
            costs.others(b, tables[ti], i)
            - costs.others(a, tables[ti], i)
            + costs.others(a, tables[tj], j)
            - costs.others(b, tables[tj], j)
        )
        if delta <= 0:
            tables[ti][i], tables[tj][j] = b, a
            total += delta
        stall = 0 if delta < 0 else stall + 1
        if stall >= RANDOM_STALL:
            break
    return tables


def serpentine_order(ranking: Sequence[int]) -> list[list[int]]:
    """The snake deal of the module docstring, without any swap (quarter order per table)."""
    n_tables = len(ranking) // 4
    tables = []
    for t in range(n_tables):
        back = n_tables - 1 - t
        tables.append(
            [
                ranking[t],
                ranking[n_tables + back],
                ranking[2 * n_tables + t],
                ranking[3 * n_tables + back],
            ]
        )
    return tables


def _serpentine_tables(ranking: list[int], costs: _PairCosts) -> list[list[int]]:
    # tables[t][q] is the player of quarter q at table t; swaps exchange tables[ti][q] and
    # tables[tj][q], so every table keeps one player per quarter.
    tables = serpentine_order(ranking)
    n = len(tables)
    # own[t][q]: what the player of quarter q costs with the rest of table t. Costs are never
    # negative, so a swap can only lower the total if one of the two players it moves costs
    # something where they sit. The search keeps, for each such player, their best swap, and
    # after a swap rescans only what the two changed tables can affect: it makes the same swaps
    # as a scan of every pair of tables would, in a fraction of the time.
    own = [[costs.others(table[q], table, q) for q in range(4)] for table in tables]

    def swap_key(q: int, ti: int, tj: int) -> tuple | None:
        delta = (
            costs.others(tables[tj][q], tables[ti], q)
            - own[ti][q]
            + costs.others(tables[ti][q], tables[tj], q)
            - own[tj][q]
        )
        if delta >= 0:
            return None
        low, high = (ti, tj) if ti < tj else (tj, ti)
        return (delta, high - low, q, low, high)

    def best_swap(t: int, q: int, partners) -> tuple | None:
        keys = [swap_key(q, t, u) for u in partners if u != t]
        return min((key for key in keys if key is not None), default=None)

    best = {(t, q): best_swap(t, q, range(n)) for t in range(n) for q in range(4) if own[t][q]}
    for _ in range(16 * n * n + 16):
        found = min((key for key in best.values() if key is not None), default=None)
        if found is None:
            break
        _, _, q, ti, tj = found
        tables[ti][q], tables[tj][q] = tables[tj][q], tables[ti][q]
        changed = (ti, tj)
        for t in changed:
            own[t] = [costs.others(tables[t][r], tables[t], r) for r in range(4)]
        for (t, r), key in best.items():
            if t in changed:
                continue
            if key is not None and (key[3] in changed or key[4] in changed):
                best[t, r] = best_swap(t, r, range(n))
            else:
                fresh = best_swap(t, r, changed)
                if fresh is not None and (key is None or fresh < key):
                    best[t, r] = fresh
        for t in changed:
            for r in range(4):
                if own[t][r]:
                    best[t, r] = best_swap(t, r, range(n))
                else:
                    best.pop((t, r), None)
    return tables
