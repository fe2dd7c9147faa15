"""Starting-seat balance: order every table's four players as East, South, West, North.

The aim, after who sits with whom: each player starts in each of the four seats ⌊R/4⌋ or
⌈R/4⌉ times, R being the number of sessions the player plays. Who sits together is decided
elsewhere (``pairings.py``); here only the order within each table changes.

The mathematics. Build the bipartite graph whose vertices are the tables (one per table
per session) and the players, with an edge for every seat taken. A starting-seat
assignment is a colouring of the edges with the four seats such that every table sees
each colour exactly once. Cut every player vertex into copies: the player's first four
sessions (in session order) go to copy 1, the next four to copy 2, and so on, so that
every copy has degree at most 4. The graph now has maximum degree 4, and a bipartite graph
of maximum degree Δ has a proper Δ-edge-colouring (König). In it, every table sees the four
seats once, every full copy sees each seat once, and the last copy (R mod 4 sessions) sees
distinct seats, so the player's counts are ⌊R/4⌋ or ⌈R/4⌉: an equitable colouring in the
sense of de Werra. As a bonus, in every block of four sessions a player plays, they start
once in each seat.

The colouring is built edge by edge with alternating-path (Kempe chain) recolouring: to
colour the edge (u, v), take a colour a free at u and b free at v; if a is not free at v,
swap a and b along the a/b path starting at v, which in a bipartite graph never reaches u;
then a is free at both ends. The seed only decides ties (which free colour to try), so the
result is a deterministic function of the tables and the seed.

Played sessions (``fixed``) keep their order as given. The other sessions are coloured as
above and then repaired against the starts already made: a player with two more starts in
seat x than in seat y passes one x start to a table-mate, along an alternating path of
x/y swaps at tables of free sessions, until no such path shortens the imbalance (the
sum over players and seats of the squared counts strictly decreases at every step, so it
stops). Balance is then perfect whenever the played seats allow it in practice, and always
perfect when nothing is fixed (the repair has nothing to do).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable, Sequence

from tournament.core_errors import gettext_noop
from tournament.seating.errors import SeatingError

SEATS = 4

Table = tuple[int, int, int, int]


def _check(tables_by_session: Sequence[Sequence[Sequence[int]]]) -> list[list[tuple[int, ...]]]:
    sessions: list[list[tuple[int, ...]]] = []
    for index, tables in enumerate(tables_by_session):
        seen: set[int] = set()
        session: list[tuple[int, ...]] = []
        for table in tables:
            players = tuple(table)
            if len(players) != SEATS:
                raise SeatingError(
                    gettext_noop(
                        "Session %(number)s: every table needs four players, not %(table)s."
                    ),
                    {"number": index + 1, "table": repr(players)},
                    code="bad_table",
                )
            for player in players:
                if player in seen:
                    raise SeatingError(
                        gettext_noop(
                            "Session %(number)s: player %(player)s is seated more than once."
                        ),
                        {"number": index + 1, "player": repr(player)},
                        code="player_seated_twice",
                    )
                seen.add(player)
            session.append(players)
        sessions.append(session)
    return sessions


def _colour(edges: list[tuple[int, int]], vertex_count: int, rng: random.Random) -> list[int]:
    """Properly colour the edges of a bipartite graph of maximum degree 4 with colours 0..3.

    ``edges`` are (u, v) pairs, u on one side and v on the other (disjoint vertex ids).
    """
    # at[vertex][colour] = the edge of that colour at the vertex, or -1.
    at = [[-1] * SEATS for _ in range(vertex_count)]
    colour = [-1] * len(edges)
    order = list(range(SEATS))
    for e, (u, v) in enumerate(edges):
        rng.shuffle(order)
        a = next(c for c in order if at[u][c] < 0)
        if at[v][a] >= 0:
            b = next(c for c in order if at[v][c] < 0)
            # Walk the a/b path from v: the a-edge at v, then the b-edge at its far end, ...
            path = []
            vertex, want, other = v, a, b
            while at[vertex][want] >= 0:
                edge = at[vertex][want]
                path.append(edge)
                x, y = edges[edge]
                vertex = y if x == vertex else x
                want, other = other, want
            for edge in path:
                x, y = edges[edge]
                at[x][colour[edge]] = -1
                at[y][colour[edge]] = -1
            for edge in path:
                new = b if colour[edge] == a else a
                colour[edge] = new
                x, y = edges[edge]
                at[x][new] = edge
                at[y][new] = edge
        colour[e] = a
        at[u][a] = e
        at[v][a] = e
    return colour


def _repair(
    seated: list[list[list[int]]],
    free: list[tuple[int, int]],
    counts: dict[int, list[int]],
) -> None:
    """Improve the players' seat counts by x/y swaps along alternating paths (in place).

    ``seated[s][t][c]`` is the player in seat c at table t of session s; ``free`` lists the
    (session, table) pairs that may be reordered; ``counts[p][c]`` is p's starts in seat c.
    """
    # where[p][c] = free (session, table) pairs where p starts in seat c.
    where: dict[int, list[set[tuple[int, int]]]] = {
        p: [set() for _ in range(SEATS)] for p in counts
    }
    for s, t in free:
        for c, p in enumerate(seated[s][t]):
            where[p][c].add((s, t))
    players = sorted(counts)
    improved = True
    while improved:
        improved = False
        for p in players:
            for x in range(SEATS):
                for y in range(SEATS):
                    if (
                        x != y
                        and counts[p][x] - counts[p][y] >= 2
                        and _augment(p, x, y, seated, where, counts)
                    ):
                        improved = True


def _augment(
    start: int,
    x: int,
    y: int,
    seated: list[list[list[int]]],
    where: dict[int, list[set[tuple[int, int]]]],
    counts: dict[int, list[int]],
) -> bool:
    """Find and apply a shortest x→y passing path from ``start``; return whether one exists."""
    parent: dict[int, tuple[int, tuple[int, int]] | None] = {start: None}
    queue = deque([start])
    end = None
    gap = counts[start][x] - counts[start][y]
    while queue and end is None:
        p = queue.popleft()
        for s, t in sorted(where[p][x]):
            q = seated[s][t][y]
            if q in parent:
                continue
            parent[q] = (p, (s, t))
            # Passing one x start from ``start`` to q (via the path) lowers the sum of
            # squared counts exactly when their x−y gaps differ by three or more.
            if gap - (counts[q][x] - counts[q][y]) >= 3:
                end = q
                break
            queue.append(q)
    if end is None:
        return False
    q = end
    while parent[q] is not None:
        p, (s, t) = parent[q]
        seated[s][t][x], seated[s][t][y] = q, p
        where[p][x].discard((s, t))
        where[p][y].add((s, t))
        where[q][y].discard((s, t))
        where[q][x].add((s, t))
        q = p
    counts[start][x] -= 1
    counts[start][y] += 1
    counts[end][x] += 1
    counts[end][y] -= 1
    return True


def balance_seats(
    tables_by_session: Sequence[Sequence[Sequence[int]]],
    *,
    seed: int = 0,
    fixed: Iterable[int] = (),
) -> list[list[Table]]:
    """Order each table's four players as East, South, West, North (starting seats P1..P4).

    Every player starts in each seat ⌊R/4⌋ or ⌈R/4⌉ times (R = sessions the player plays),
    and in each block of four consecutive sessions the player plays, once in each seat.
    Sessions whose indices (0-based) are in ``fixed`` keep the order given (played
    sessions); the others are balanced against the starts already made there, perfectly
    whenever the repair finds a way (see the module docstring). Deterministic for the
    tables and ``seed``; the tables (who sits together) and their order do not change.
    Raises ``ValueError`` for a table that is not four players or a player seated twice in
    one session.
    """
    sessions = _check(tables_by_session)
    fixed_set = {int(s) for s in fixed}
    rng = random.Random(seed)

    # Vertices: tables 0..T-1 (the free tables, in order), then player copies.
    edges: list[tuple[int, int]] = []
    edge_player: list[int] = []
    copy_ids: dict[tuple[int, int], int] = {}
    played: dict[int, int] = {}
    free_tables = [
        (s, t)
        for s, tables in enumerate(sessions)
        if s not in fixed_set
        for t in range(len(tables))
    ]
    vertex_count = len(free_tables)
    for table_vertex, (s, t) in enumerate(free_tables):
        for player in sessions[s][t]:
            block = played.get(player, 0)
            played[player] = block + 1
            key = (player, block // SEATS)
            if key not in copy_ids:
                copy_ids[key] = vertex_count
                vertex_count += 1
            edges.append((copy_ids[key], table_vertex))
            edge_player.append(player)
    colours = _colour(edges, vertex_count, rng)

    seated = [[list(table) for table in tables] for tables in sessions]
    for e, (_copy, table_vertex) in enumerate(edges):
        s, t = free_tables[table_vertex]
        seated[s][t][colours[e]] = edge_player[e]

    if fixed_set & set(range(len(sessions))):
        _repair(seated, free_tables, seat_counts(seated))

    return [[(t[0], t[1], t[2], t[3]) for t in tables] for tables in seated]


def seat_counts(schedule: Iterable[Iterable[Sequence[int]]]) -> dict[int, list[int]]:
    """Return, for every player, how many times they start in East, South, West, North."""
    counts: dict[int, list[int]] = {}
    for tables in schedule:
        for table in tables:
            for c, player in enumerate(table):
                counts.setdefault(player, [0] * SEATS)[c] += 1
    return counts


def seat_spread(schedule: Iterable[Iterable[Sequence[int]]]) -> int:
    """Return the largest, over players, of most starts in one seat − fewest in one seat.

    Perfect balance gives 0 when every player plays a multiple of four sessions, else 1.
    An empty schedule gives 0.
    """
    return max((max(c) - min(c) for c in seat_counts(schedule).values()), default=0)
