"""Whole-tournament table plans: properties, the extra meetings reached for small sizes
(the counting bound, in a few seconds), groups kept apart, the figures."""

import time

import pytest

from tournament.seating.pairings import extra_meetings, lower_bound, meeting_counts, plan_tables
from tournament.seating.schedule import schedule_stats


def assert_valid(schedule, players, sessions):
    assert len(schedule) == sessions
    for session in schedule:
        assert sorted(p for table in session for p in table) == sorted(players)
        for table in session:
            assert isinstance(table, tuple) and len(table) == 4
            assert list(table) == sorted(table)
        assert session == sorted(session, key=lambda t: t[0])


CASES = [(4, 1), (4, 3), (8, 3), (12, 4), (16, 8), (20, 6), (24, 3), (40, 5), (44, 6)]


@pytest.mark.parametrize(("n", "sessions"), CASES)
@pytest.mark.parametrize("seed", [0, 7, 123456789])
def test_valid_and_deterministic(n, sessions, seed):
    players = list(range(1, n + 1))
    first = plan_tables(players, sessions, seed=seed, budget=30_000)
    assert_valid(first, players, sessions)
    assert plan_tables(players, sessions, seed=seed, budget=30_000) == first
    # the order in which players are given does not matter
    assert plan_tables(players[::-1], sessions, seed=seed, budget=30_000) == first


@pytest.mark.parametrize(("n", "sessions"), [(8, 1), (16, 5), (24, 7), (28, 8), (48, 4)])
def test_seed_changes_the_draw(n, sessions):
    players = range(1, n + 1)
    plans = {str(plan_tables(players, sessions, seed=s)) for s in range(5)}
    assert len(plans) == 5


def test_arbitrary_player_numbers():
    players = [101, 7, 55, 3, 999, 42, 18, 64]
    plan = plan_tables(players, 3, seed=1)
    assert_valid(plan, players, 3)


@pytest.mark.parametrize(
    ("n", "sessions", "extra"),
    [(16, 5, 0), (20, 5, 0), (24, 7, 0), (28, 8, 0), (28, 9, 0), (32, 8, 0), (16, 8, 72)],
)
def test_small_targets(n, sessions, extra):
    start = time.perf_counter()
    plan = plan_tables(range(1, n + 1), sessions, seed=2024)
    assert time.perf_counter() - start < 3
    assert_valid(plan, range(1, n + 1), sessions)
    assert extra_meetings(plan) == extra == lower_bound(n, sessions)
    assert schedule_stats(plan).consecutive_repeats == 0


def test_groups_48_by_8():
    groups = {p: f"team {(p - 1) // 4}" for p in range(1, 49)}
    plan = plan_tables(range(1, 49), 8, seed=5, groups=groups)
    assert extra_meetings(plan) == 0
    assert schedule_stats(plan, groups).group_conflicts == 0


@pytest.mark.parametrize(
    ("n", "sessions", "size"), [(32, 6, 4), (28, 5, 4), (16, 4, 4), (32, 8, 8), (36, 8, 9)]
)
def test_groups_on_a_construction(n, sessions, size):
    groups = {p: f"club {p % (n // size)}" for p in range(1, n + 1)}
    plan = plan_tables(range(1, n + 1), sessions, seed=3, groups=groups)
    assert extra_meetings(plan) == 0
    assert schedule_stats(plan, groups).group_conflicts == 0


@pytest.mark.parametrize(
    ("n", "sessions", "played"), [(16, 5, 1), (28, 8, 1), (40, 6, 2), (8, 4, 2)]
)
def test_fixed_sessions_unchanged(n, sessions, played):
    players = list(range(1, n + 1))
    earlier = plan_tables(players, played, seed=99)
    plan = plan_tables(players, sessions, seed=1, fixed=earlier, budget=100_000)
    assert_valid(plan, players, sessions)
    assert plan[:played] == earlier
    assert extra_meetings(plan) == lower_bound(n, sessions)


@pytest.mark.parametrize(("n", "sessions", "played"), [(28, 8, 3), (40, 8, 4), (16, 8, 6)])
def test_replan_with_the_published_sessions_keeps_the_plan(n, sessions, played):
    players = list(range(1, n + 1))
    published = plan_tables(players, sessions, seed=11)
    assert plan_tables(players, sessions, seed=11, fixed=published[:played]) == published


def test_fixed_all_sessions():
    fixed = [[(1, 2, 3, 4), (5, 6, 7, 8)], [(1, 5, 6, 7), (2, 3, 4, 8)]]
    assert plan_tables(range(1, 9), 2, seed=0, fixed=fixed) == fixed


@pytest.mark.parametrize(
    ("n", "sessions", "bound"),
    [(16, 8, 72), (16, 5, 0), (16, 6, 24), (8, 3, 8), (4, 1, 0), (4, 2, 6), (400, 10, 0)],
)
def test_lower_bound(n, sessions, bound):
    assert lower_bound(n, sessions) == bound


def test_figures_on_a_hand_made_schedule():
    schedule = [
        [(1, 2, 3, 4), (5, 6, 7, 8)],
        [(1, 2, 5, 6), (3, 4, 7, 8)],
        [(1, 2, 7, 8), (3, 4, 5, 6)],
    ]
    counts = meeting_counts(schedule)
    assert counts[(1, 2)] == 3 and counts[(3, 4)] == 3 and counts[(1, 5)] == 1
    assert (1, 1) not in counts and len(counts) == 28
    assert extra_meetings(schedule) == 2 + 2 + 2 + 2  # 1-2, 3-4, 5-6, 7-8 meet 3 times
    # {12,34,56,78} in sessions 1 and 2, then again in sessions 2 and 3
    assert schedule_stats(schedule).consecutive_repeats == 4 + 4
    groups = {1: "a", 2: "a", 3: "a", 5: "b", 6: "b"}
    # s1: 1-2, 1-3, 2-3, 5-6; s2: 1-2, 5-6; s3: 1-2, 5-6
    assert schedule_stats(schedule, groups).group_conflicts == 8
    assert schedule_stats(schedule, None).group_conflicts == 0


@pytest.mark.parametrize(
    ("players", "sessions", "message"),
    [
        ([1, 2, 3, 4, 5, 6], 2, "multiple of 4"),
        ([1, 2], 2, "At least 4"),
        ([], 2, "At least 4"),
        ([1, 2, 3, 3], 2, "more than once"),
        ([1, 2, 3, 4], 0, "at least 1"),
    ],
)
def test_bad_input(players, sessions, message):
    with pytest.raises(ValueError, match=message):
        plan_tables(players, sessions, seed=0)


def test_bad_fixed():
    with pytest.raises(ValueError, match="every player"):
        plan_tables(range(1, 9), 3, seed=0, fixed=[[(1, 2, 3, 4), (5, 6, 7, 9)]])
    with pytest.raises(ValueError, match="fixed sessions"):
        plan_tables(range(1, 5), 1, seed=0, fixed=[[(1, 2, 3, 4)], [(1, 2, 3, 4)]])
