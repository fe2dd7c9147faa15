"""Whole-tournament table plans: who sits with whom in every session.

``plan_tables`` decides the tables of four for all sessions at once, optimising in this
order (each level matters more than all the ones below it):

1. extra meetings (a pair at one table more than once): 0 when possible, otherwise as near
   as it can get to the counting bound :func:`lower_bound`;
2. group conflicts (two players of the same group at one table);
3. consecutive repeats (a pair at one table in two consecutive sessions).

Starting seats are not decided here: ``seats.py`` balances them on top of this plan.

How: a construction from finite geometry (``_constructions``) when one fits the number of
players, relabelled by a seeded random permutation (the draw by lot) and with its sessions
picked and ordered at random; otherwise, and for sessions beyond what the construction
gives, a seeded greedy seating repaired by a local search (``_search``). Everything random
comes from ``random.Random(seed)``; the work is bounded by ``budget`` (evaluated moves),
never by time, so the same arguments give the same plan on every machine.

Figures of a schedule (sessions → tables → players), beside the others that
``schedule.schedule_stats`` counts (group conflicts, consecutive repeats, ...):

* :func:`meeting_counts`: pair ``(a, b)`` with ``a < b`` → number of sessions in which they
  share a table (pairs that never meet are absent);
* :func:`extra_meetings`: sum over pairs of ``max(0, count - 1)``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations

from tournament.core_errors import gettext_noop
from tournament.seating import _constructions, _search
from tournament.seating.errors import SeatingError

Schedule = list[list[tuple[int, ...]]]

__all__ = [
    "extra_meetings",
    "lower_bound",
    "meeting_counts",
    "plan_tables",
]


# --- figures -----------------------------------------------------------------------------


def meeting_counts(schedule: Iterable[Iterable[Iterable[int]]]) -> dict[tuple[int, int], int]:
    """Pairs ``(a, b)``, ``a < b``, that share a table at least once → how many times."""
    counts: dict[tuple[int, int], int] = {}
    for session in schedule:
        for table in session:
            for a, b in combinations(sorted(table), 2):
                counts[(a, b)] = counts.get((a, b), 0) + 1
    return counts


def extra_meetings(schedule: Iterable[Iterable[Iterable[int]]]) -> int:
    """Sum over pairs of ``max(0, meetings - 1)``."""
    return sum(c - 1 for c in meeting_counts(schedule).values() if c > 1)


def lower_bound(n: int, sessions: int) -> int:
    """The counting bound on extra meetings: each player has ``3R`` table-mates in ``R``
    sessions but only ``n - 1`` distinct ones, so at least ``n·(3R - n + 1)/2`` meetings
    are repeats (0 when that is negative)."""
    return max(0, n * (3 * sessions - n + 1) // 2)


# --- planning ----------------------------------------------------------------------------


def _check(players: Sequence[int], sessions: int) -> None:
    if isinstance(sessions, bool) or not isinstance(sessions, int) or sessions < 1:
        raise SeatingError(
            gettext_noop("The number of sessions must be at least 1, not %(sessions)s."),
            {"sessions": repr(sessions)},
            code="bad_session_count",
        )
    n = len(players)
    if n < 4:
        raise SeatingError(
            gettext_noop("At least 4 players are needed, not %(count)s."),
            {"count": n},
            code="too_few_players",
        )
    if n % 4:
        raise SeatingError(
            gettext_noop(
                "The number of players must be a multiple of 4: %(count)s players "
                "(%(more)s more needed)."
            ),
            {"count": n, "more": 4 - n % 4},
            code="bad_player_count",
        )
    if len(set(players)) != n:
        seen: set[int] = set()
        dupes = sorted({p for p in players if p in seen or seen.add(p)})
        raise SeatingError(
            gettext_noop("Players appear more than once: %(players)s."),
            {"players": repr(dupes)},
            code="duplicate_player",
        )


def _fixed_indices(
    fixed: Sequence[Sequence[Sequence[int]]], index: Mapping[int, int], sessions: int
) -> list[list[list[int]]]:
    if len(fixed) > sessions:
        raise SeatingError(
            gettext_noop("%(fixed)s fixed sessions given for a plan of %(sessions)s sessions."),
            {"fixed": len(fixed), "sessions": sessions},
            code="too_many_fixed_sessions",
        )
    out = []
    n = len(index)
    for number, session in enumerate(fixed, start=1):
        tables = [list(t) for t in session]
        seated = [p for t in tables for p in t]
        if any(len(t) != 4 for t in tables):
            raise SeatingError(
                gettext_noop("Fixed session %(number)s has a table that is not of four players."),
                {"number": number},
                code="bad_fixed_table",
            )
        if len(seated) != n or set(seated) != set(index):
            raise SeatingError(
                gettext_noop("Fixed session %(number)s does not seat every player exactly once."),
                {"number": number},
                code="bad_fixed_session",
            )
        out.append([[index[p] for p in t] for t in tables])
    return out


def _group_ids(order: Sequence[int], groups: Mapping[int, str] | None) -> list[int]:
    """Group number per player index; players without a group get distinct negative ids."""
    if not groups:
        return [-1 - i for i in range(len(order))]
    names = sorted({str(groups[p]) for p in order if p in groups})
    number = {name: i for i, name in enumerate(names)}
    return [number[str(groups[p])] if p in groups else -1 - i for i, p in enumerate(order)]


def _pack_groups(spare: list[tuple[int, ...]], perm: list[int], group: list[int]) -> list[int]:
    """A relabelling that puts each group (in pieces no larger than a block) into the blocks
    of ``spare``, a partition of the structure indices into sets that never meet in the
    sessions used (tables of an unused session, or the classes of the transversal design).
    Groups are packed largest first (first fit); the order of players within a group and of
    equal groups follows ``perm`` (already shuffled)."""
    members: dict[int, list[int]] = {}
    for p in perm:
        members.setdefault(group[p], []).append(p)
    size = max(len(b) for b in spare)
    chunks = []
    for g, ps in members.items():
        step = 1 if g < 0 else size
        chunks += [ps[i : i + step] for i in range(0, len(ps), step)]
    chunks.sort(key=len, reverse=True)  # stable: ties keep the shuffled order
    free = [list(t) for t in spare]
    result = [0] * len(perm)
    leftovers: list[int] = []
    for chunk in chunks:
        for slots in free:
            if len(slots) >= len(chunk):
                for p in chunk:
                    result[slots.pop()] = p
                break
        else:
            leftovers += chunk
    for p in leftovers:
        for slots in free:
            if slots:
                result[slots.pop()] = p
                break
    return result


def _spare_partitions(
    n: int, structure: list[list[tuple[int, ...]]], chosen_ids: list[int]
) -> list[list[tuple[int, ...]]]:
    """Partitions of the structure indices into blocks whose members never meet in the
    chosen sessions: each unused session, and for ``n = 4q`` the four classes ``k·q + x``
    of the transversal design (checked, so harmless for other constructions)."""
    met = set()
    for i in chosen_ids:
        for t in structure[i]:
            met.update(combinations(sorted(t), 2))
    candidates = [structure[i] for i in range(len(structure)) if i not in chosen_ids][:1]
    q = n // 4
    classes = [tuple(range(k * q, (k + 1) * q)) for k in range(4)]
    if not any(pair in met for block in classes for pair in combinations(block, 2)):
        candidates.append(classes)
    return candidates


def _from_construction(
    n: int,
    sessions: int,
    fixed: list[list[list[int]]],
    group: list[int],
    rng: random.Random,
    budget: int,
) -> list[list[list[int]]] | None:
    """Sessions from a construction, relabelled at random (or so that one construction
    session is ``fixed[0]``), or ``None``. May hold fewer sessions than asked."""
    structure = _constructions.construction(n)
    if structure is None:
        return None
    order = list(range(len(structure)))
    rng.shuffle(order)
    chosen = [structure[i] for i in order[: sessions + (1 if fixed else 0)]]
    if fixed:
        # relabel so that the first chosen session is exactly fixed[0] (any partition into
        # tables of four is the image of any other under some relabelling)
        first = [list(t) for t in fixed[0]]
        rng.shuffle(first)
        perm = [0] * n
        for src, dst in zip(chosen[0], first, strict=True):
            dst = dst[:]
            rng.shuffle(dst)
            for i, p in zip(src, dst, strict=True):
                perm[i] = p
        rest = chosen[1:]
        return [[[perm[i] for i in t] for t in s] for s in rest]
    perm = list(range(n))
    rng.shuffle(perm)
    if any(g >= 0 for g in group):
        # try the drawn choice of sessions, and the same with the construction's last
        # session (the extra session of the transversal design) left out, with each spare
        # partition; keep the relabelling with the fewest group conflicts (first on ties)
        orders = [order]
        last = len(structure) - 1
        if last in order[: len(chosen)] and len(structure) > sessions:
            orders.append([i for i in order if i != last] + [last])
        best_conflicts = None
        for candidate in orders:
            used = candidate[: len(chosen)]
            for spare in _spare_partitions(n, structure, used):
                packed = _pack_groups(spare, perm, group)
                conflicts = sum(
                    1
                    for i in used
                    for t in structure[i]
                    for a, b in combinations(t, 2)
                    if group[packed[a]] == group[packed[b]]
                )
                if best_conflicts is None or conflicts < best_conflicts:
                    best_conflicts, best_perm, best_used = conflicts, packed, used
        if best_conflicts is not None:
            perm = best_perm
            chosen = [structure[i] for i in best_used]
        grouped = [group[p] for p in perm]  # group of the player at structure index i
        better = _search.relabel_for_groups(
            [[list(t) for t in s] for s in chosen], n, grouped, rng, budget // 4
        )
        perm = [perm[i] for i in better]
    return [[[perm[i] for i in t] for t in s] for s in chosen]


def _aligned(
    players: Sequence[int],
    sessions: int,
    seed: int,
    groups: Mapping[int, str] | None,
    budget: int,
    fixed: Sequence[Sequence[Sequence[int]]],
) -> Schedule | None:
    """When every fixed session is a session of the plan made without ``fixed`` (typically:
    the sessions played so far of the published plan), that plan with the fixed sessions
    moved to the front, provided it still reaches the bound on extra meetings."""
    full = plan_tables(players, sessions, seed=seed, groups=groups, budget=budget)
    wanted = [_constructions.sorted_session(s) for s in fixed]
    remaining = list(full)
    for session in wanted:
        if session not in remaining:
            return None
        remaining.remove(session)
    result = wanted + remaining
    if extra_meetings(result) > lower_bound(len(players), sessions):
        return None
    return result


def plan_tables(
    players: Sequence[int],
    sessions: int,
    *,
    seed: int,
    groups: Mapping[int, str] | None = None,
    budget: int = 2_000_000,
    fixed: Sequence[Sequence[Sequence[int]]] = (),
) -> Schedule:
    """Tables of four for every session (sessions → tables → 4 players, sorted ascending;
    tables sorted by their smallest player); deterministic for (players, sessions, seed,
    groups, budget, fixed). ``fixed`` = the first ``len(fixed)`` sessions already played:
    returned unchanged (in the same normal form), and counted in the meetings the remaining
    sessions must avoid.

    ``groups`` maps a player to a group name (team, club, country); players it omits belong
    to no group, and entries for other players are ignored. ``budget`` bounds the local
    search, in evaluated swaps (about a microsecond or a few each). The order of
    ``players`` does not matter.

    Raises ``ValueError`` for fewer than 4 players, a number of players that is not a
    multiple of 4, duplicate players, fewer than 1 session, or malformed ``fixed``
    sessions.
    """
    _check(players, sessions)
    order = sorted(players)
    n = len(order)
    index = {p: i for i, p in enumerate(order)}
    fixed_idx = _fixed_indices(fixed, index, sessions)
    if fixed_idx and len(fixed_idx) < sessions:
        aligned = _aligned(players, sessions, seed, groups, budget, fixed)
        if aligned is not None:
            return aligned
    group = _group_ids(order, groups)
    rng = random.Random(seed)
    f = len(fixed_idx)
    plan: list[list[list[int]]] = [[t[:] for t in s] for s in fixed_idx]
    if f < sessions:
        plan += _from_construction(n, sessions - f, fixed_idx, group, rng, budget) or []
        # sessions beyond the construction: seeded greedy
        meet = [[0] * n for _ in range(n)]
        for s in plan:
            for t in s:
                for a, b in combinations(t, 2):
                    meet[a][b] += 1
                    meet[b][a] += 1
        while len(plan) < sessions:
            where_prev = None
            if plan:  # each player's table in the previous session
                where_prev = [0] * n
                for ti, t in enumerate(plan[-1]):
                    for p in t:
                        where_prev[p] = ti
            plan.append(_search.greedy_session(n, meet, group, where_prev, rng))
        search = _search.Search(n, plan, group, f, rng)
        target = lower_bound(n, sessions) * search.we
        if search.cost() > target:
            plan = search.run(budget, target, quiet=max(20_000, budget // 20))
    return [_constructions.sorted_session([order[i] for i in t] for t in s) for s in plan]
