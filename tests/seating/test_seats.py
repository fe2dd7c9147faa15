"""Starting-seat balance (``seating.seats``): every player starts in each seat ⌊R/4⌋ or
⌈R/4⌉ times, on any schedule, without changing who sits together."""

import random
import time

import pytest

from tournament.seating.seats import balance_seats, seat_counts, seat_spread


def random_tables(n, sessions, seed):
    """A schedule of random tables (unordered), the way a naive per-session draw makes it."""
    rng = random.Random(seed)
    schedule = []
    for _ in range(sessions):
        players = list(range(1, n + 1))
        rng.shuffle(players)
        schedule.append([tuple(players[i : i + 4]) for i in range(0, n, 4)])
    return schedule


def perfect(schedule):
    """Every player's counts are ⌊R/4⌋ or ⌈R/4⌉, R counted from the schedule itself."""
    for counts in seat_counts(schedule).values():
        played = sum(counts)
        if sorted(counts) != sorted([played // 4 + (1 if i < played % 4 else 0) for i in range(4)]):
            return False
    return True


def same_tables(a, b):
    return [[frozenset(t) for t in s] for s in a] == [[frozenset(t) for t in s] for s in b]


def test_random_schedules_are_balanced_perfectly():
    rng = random.Random(2024)
    for case in range(250):
        n = 4 * rng.randint(1, 16)
        sessions = rng.randint(1, 12)
        tables = random_tables(n, sessions, case)
        seated = balance_seats(tables, seed=case)
        assert same_tables(tables, seated)
        assert perfect(seated), (n, sessions, case)
        assert seat_spread(seated) == (0 if sessions % 4 == 0 else 1)


@pytest.mark.parametrize("sessions", range(1, 13))
def test_same_four_every_session(sessions):
    # The adversarial case: four players always together, plus a second such table.
    tables = [[(1, 2, 3, 4), (8, 7, 6, 5)] for _ in range(sessions)]
    seated = balance_seats(tables, seed=sessions)
    assert same_tables(tables, seated)
    assert perfect(seated)


def test_every_block_of_four_sessions_uses_each_seat_once():
    tables = random_tables(24, 9, 5)
    seated = balance_seats(tables, seed=1)
    for block in (seated[0:4], seated[4:8]):
        for counts in seat_counts(block).values():
            assert counts == [1, 1, 1, 1]


def test_players_missing_sessions_are_balanced_on_their_own_count():
    # Players 1..12 in every session; 13..16 and 17..20 take turns (a bye table).
    rng = random.Random(7)
    schedule = []
    for s in range(10):
        extra = list(range(13, 17)) if s % 2 else list(range(17, 21))
        players = list(range(1, 13)) + extra
        rng.shuffle(players)
        schedule.append([tuple(players[i : i + 4]) for i in range(0, 16, 4)])
    seated = balance_seats(schedule, seed=3)
    assert same_tables(schedule, seated)
    assert perfect(seated)


def test_deterministic_and_seed_dependent():
    tables = random_tables(32, 8, 11)
    assert balance_seats(tables, seed=4) == balance_seats(tables, seed=4)
    assert balance_seats(tables, seed=4) != balance_seats(tables, seed=5)


def test_output_shape():
    tables = random_tables(8, 3, 1)
    seated = balance_seats(tables)
    assert isinstance(seated, list)
    assert all(isinstance(table, tuple) and len(table) == 4 for s in seated for table in s)


def test_fixed_sessions_keep_their_seats():
    rng = random.Random(99)
    for case in range(60):
        n = 4 * rng.randint(1, 12)
        sessions = rng.randint(2, 10)
        played = rng.randint(1, sessions - 1)
        tables = random_tables(n, sessions, case)
        # Played sessions seated in some arbitrary order, not necessarily balanced.
        given = [[tuple(rng.sample(t, 4)) for t in s] for s in tables[:played]]
        seated = balance_seats(given + tables[played:], seed=case, fixed=range(played))
        assert seated[:played] == given
        assert same_tables(tables, seated)


def test_fixed_whole_blocks_then_perfect():
    # After a balanced multiple of four sessions, the rest can always be made perfect.
    for case in range(40):
        tables = random_tables(20, 4 + case % 7, case)
        first = balance_seats(tables[:4], seed=case)
        seated = balance_seats(first + tables[4:], seed=case, fixed=range(4))
        assert seated[:4] == first
        assert perfect(seated)


def test_fixed_repair_balances_what_the_played_seats_allow():
    # Session 1 played with everybody's seats given; the repair must balance the rest.
    tables = random_tables(16, 8, 3)
    first = balance_seats(tables[:1], seed=0)
    seated = balance_seats(first + tables[1:], seed=0, fixed=[0])
    assert seated[0] == first[0]
    counts = seat_counts(seated)
    imbalanced = sum(1 for c in counts.values() if max(c) - min(c) > 0)
    # 8 sessions: perfect is 2 per seat. Most players get there; never worse than 1 off.
    assert imbalanced <= 4
    assert seat_spread(seated) <= 2


def test_bad_tables_are_refused():
    with pytest.raises(ValueError, match="four players"):
        balance_seats([[(1, 2, 3)]])
    with pytest.raises(ValueError, match="more than once"):
        balance_seats([[(1, 2, 3, 4), (4, 5, 6, 7)]])


def test_spread_of_empty_and_unbalanced():
    assert seat_spread([]) == 0
    assert seat_spread([[(1, 2, 3, 4)]] * 3) == 3


def test_fast_on_400_players_10_sessions():
    tables = random_tables(400, 10, 0)
    start = time.perf_counter()
    seated = balance_seats(tables, seed=0)
    assert time.perf_counter() - start < 1.0
    assert perfect(seated)
