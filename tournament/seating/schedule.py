"""Whole-tournament schedules: who sits together (``pairings.py``), then starting seats.

``plan_schedule`` plans the tables of every session at once (``plan_tables``), orders each
table East, South, West, North so that starting seats are balanced (``balance_seats``), and
recounts the schedule's figures (``ScheduleStats``: extra meetings, group conflicts, seat
spread, ...) from the final schedule (``schedule_stats``), so what is reported is what is
printed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from itertools import combinations

from tournament.seating.pairings import lower_bound, plan_tables
from tournament.seating.seats import balance_seats, seat_spread

Table = tuple[int, int, int, int]


@dataclass(frozen=True)
class ScheduleStats:
    """The figures of a schedule, in the order they are optimised.

    ``extra_meetings``: over all pairs of players, meetings beyond the first.
    ``max_meetings``: the most times any pair meets (0 when nobody meets).
    ``group_conflicts``: over all tables, pairs of players of the same group at the table.
    ``seat_spread``: over players, most starts in one seat − fewest (perfect: 0 or 1).
    ``lower_bound``: the counting bound on extra meetings, max(0, N·(3R − N + 1)/2).
    ``consecutive_repeats``: pairs meeting in a session and again in the next one.
    """

    extra_meetings: int
    max_meetings: int
    group_conflicts: int
    seat_spread: int
    lower_bound: int
    consecutive_repeats: int

    def as_dict(self) -> dict[str, int]:
        """The figures in the order above (the command-line output's ``stats``)."""
        return asdict(self)


@dataclass(frozen=True)
class Schedule:
    """A planned schedule: ``sessions[s][t]`` is table t+1 of session s+1, East first."""

    seed: int
    players: tuple[int, ...]
    sessions: tuple[tuple[Table, ...], ...]
    stats: ScheduleStats


def schedule_stats(
    sessions: Iterable[Iterable[Sequence[int]]],
    groups: Mapping[int, str] | None = None,
) -> ScheduleStats:
    """Recount the figures of any schedule (tables in seat order; groups by player)."""
    sessions = [[tuple(table) for table in tables] for tables in sessions]
    groups = groups or {}
    meetings: Counter = Counter()
    players: set[int] = set()
    conflicts = 0
    consecutive = 0
    previous: set[tuple[int, int]] = set()
    for tables in sessions:
        # Each session's pairs in one list, counted in bulk: a 1,000-player schedule has
        # thousands of pairs a session, and its page recounts them when a session is drawn.
        pairs = [pair for table in tables for pair in combinations(sorted(table), 2)]
        for table in tables:
            players.update(table)
        meetings.update(pairs)
        if groups:
            conflicts += sum(
                1 for a, b in pairs if a in groups and b in groups and groups[a] == groups[b]
            )
        current = set(pairs)
        consecutive += len(current & previous)
        previous = current
    return ScheduleStats(
        extra_meetings=sum(count - 1 for count in meetings.values()),
        max_meetings=max(meetings.values(), default=0),
        group_conflicts=conflicts,
        seat_spread=seat_spread(sessions),
        lower_bound=lower_bound(len(players), len(sessions)),
        consecutive_repeats=consecutive,
    )


def plan_schedule(
    players: int | Iterable[int],
    sessions: int,
    *,
    seed: int,
    groups: Mapping[int, str] | None = None,
    fixed: Sequence[Sequence[Sequence[int]]] = (),
) -> Schedule:
    """Plan ``sessions`` sessions for ``players`` (a count N for players 1..N, or numbers).

    ``fixed`` are sessions already played, tables in seat order: they come first in the
    schedule, unchanged (seats included), and the seats of the other sessions are balanced
    against the starts made in them (see ``seats.balance_seats``).
    """
    if isinstance(players, int):
        players = range(1, players + 1)
    roster = tuple(players)
    fixed_sessions = [[tuple(table) for table in tables] for tables in fixed]
    tables = plan_tables(roster, sessions, seed=seed, groups=groups, fixed=fixed_sessions)
    tables = [list(session) for session in tables]
    if len(tables) == sessions - len(fixed_sessions):
        tables = fixed_sessions + tables
    elif fixed_sessions:
        # The planner returned the played sessions too: keep them exactly as played.
        tables[: len(fixed_sessions)] = fixed_sessions
    seated = balance_seats(tables, seed=seed, fixed=range(len(fixed_sessions)))
    return Schedule(
        seed=seed,
        players=roster,
        sessions=tuple(tuple(session) for session in seated),
        stats=schedule_stats(seated, groups),
    )
