"""Whole-tournament schedules: plan_schedule's properties and a recount of its figures."""

from collections import Counter
from itertools import combinations, pairwise

import pytest

from tournament.seating.pairings import lower_bound
from tournament.seating.schedule import Schedule, ScheduleStats, plan_schedule, schedule_stats


def recount(sessions, groups=None):
    """An independent recount of the figures (written apart from schedule_stats)."""
    groups = groups or {}
    pairs = Counter()
    seats = {}
    conflicts = 0
    for tables in sessions:
        for table in tables:
            for seat, player in enumerate(table):
                seats.setdefault(player, Counter())[seat] += 1
            for a, b in combinations(table, 2):
                pairs[frozenset((a, b))] += 1
                if groups.get(a) is not None and groups.get(a) == groups.get(b):
                    conflicts += 1
    consecutive = 0
    for before, after in pairwise(sessions):
        met = {frozenset(p) for t in before for p in combinations(t, 2)}
        consecutive += sum(1 for t in after for p in combinations(t, 2) if frozenset(p) in met)
    n = len(seats)
    r = len(sessions)
    return {
        "extra_meetings": sum(c - 1 for c in pairs.values()),
        "max_meetings": max(pairs.values(), default=0),
        "group_conflicts": conflicts,
        "seat_spread": max(
            max(c[s] for s in range(4)) - min(c[s] for s in range(4)) for c in seats.values()
        ),
        "lower_bound": max(0, n * (3 * r - n + 1) // 2),
        "consecutive_repeats": consecutive,
    }


def check_schedule(schedule, players, sessions):
    assert isinstance(schedule, Schedule)
    assert len(schedule.sessions) == sessions
    for tables in schedule.sessions:
        seated = [p for table in tables for p in table]
        assert sorted(seated) == sorted(players)
        assert all(isinstance(table, tuple) and len(table) == 4 for table in tables)


@pytest.mark.parametrize(
    ("n", "r", "seed"), [(4, 1, 0), (8, 3, 1), (16, 5, 2), (20, 5, 3), (32, 8, 4), (12, 9, 5)]
)
def test_properties(n, r, seed):
    schedule = plan_schedule(n, r, seed=seed)
    players = list(range(1, n + 1))
    assert schedule.players == tuple(players)
    assert schedule.seed == seed
    check_schedule(schedule, players, r)
    assert schedule.stats.as_dict() == recount(schedule.sessions)
    assert schedule.stats.seat_spread == (0 if r % 4 == 0 else 1)
    assert schedule.stats.extra_meetings >= schedule.stats.lower_bound


def test_deterministic():
    a = plan_schedule(24, 6, seed=123)
    b = plan_schedule(24, 6, seed=123)
    assert a == b


def test_player_numbers_and_groups():
    players = [3, 10, 11, 20, 21, 40, 41, 42]
    groups = {3: "A", 10: "A", 11: "B", 20: "B", 21: "C", 40: "C"}
    schedule = plan_schedule(players, 4, seed=8, groups=groups)
    check_schedule(schedule, players, 4)
    assert schedule.stats.as_dict() == recount(schedule.sessions, groups)


def test_fixed_sessions_stay_as_played():
    played = plan_schedule(16, 2, seed=1).sessions
    schedule = plan_schedule(16, 6, seed=2, fixed=played)
    assert schedule.sessions[:2] == played
    check_schedule(schedule, list(range(1, 17)), 6)
    assert schedule.stats.as_dict() == recount(schedule.sessions)


def test_schedule_stats_by_hand():
    # Two sessions of 8 players: 1-2-3-4 meet twice (6 extra), then consecutive repeats 6.
    sessions = [[(1, 2, 3, 4), (5, 6, 7, 8)], [(2, 3, 4, 1), (5, 7, 6, 8)]]
    groups = {1: "X", 2: "X", 5: "Y", 6: "Y", 7: "Y"}
    stats = schedule_stats(sessions, groups)
    assert stats == ScheduleStats(
        extra_meetings=12,
        max_meetings=2,
        group_conflicts=2 * (1 + 3),
        seat_spread=2,  # players 5 and 8 start East, North twice
        lower_bound=lower_bound(8, 2),
        consecutive_repeats=12,
    )
    assert lower_bound(16, 8) == 72
    assert lower_bound(16, 5) == 0
    assert schedule_stats([]).as_dict()["max_meetings"] == 0
