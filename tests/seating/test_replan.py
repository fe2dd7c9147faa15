"""Re-planning after a withdrawal or a substitute (``seating.replan``): pure, no database."""

import copy
import itertools
from collections import Counter

import pytest

from tournament.seating.modes import seat_session
from tournament.seating.replan import Replan, replan

# Multiplication in GF(4) = {0, 1, a, a + 1} written 0..3; addition is XOR.
GF4_MUL = [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]


def affine_plane_16x5():
    """16 players x 5 sessions where no two players meet twice: the lines of the affine plane
    of order 4. Player 4x + y + 1 is the point (x, y); sessions are the parallel classes."""
    sessions = [
        [[4 * x + (GF4_MUL[m][x] ^ c) + 1 for x in range(4)] for c in range(4)] for m in range(4)
    ]
    sessions.append([[4 * x + y + 1 for y in range(4)] for x in range(4)])
    return sessions


PUBLISHED = affine_plane_16x5()


def extra_meetings(sessions):
    counts = Counter()
    for session in sessions:
        for table in session:
            for a, b in itertools.combinations(sorted(table), 2):
                counts[a, b] += 1
    return sum(c - 1 for c in counts.values() if c > 1)


def positions(session):
    return {p: (t, k) for t, table in enumerate(session) for k, p in enumerate(table)}


def recount_moved(published, sessions, played):
    moved = 0
    for old, new in zip(published[played:], sessions[played:], strict=True):
        before, after = positions(old), positions(new)
        moved += sum(before[p] != after[p] for p in before.keys() & after.keys())
    return moved


def assert_valid(result, players, n_sessions):
    assert isinstance(result, Replan)
    assert len(result.sessions) == n_sessions
    for session in result.sessions:
        assert all(isinstance(table, tuple) and len(table) == 4 for table in session)
    for session in result.sessions[-1:]:
        assert sorted(p for table in session for p in table) == sorted(players)


def as_tuples(sessions):
    return [[tuple(table) for table in session] for session in sessions]


def test_fixture_has_no_repeat_meeting():
    assert extra_meetings(PUBLISHED) == 0


@pytest.mark.parametrize("played", range(6))
def test_played_sessions_are_returned_unchanged(played):
    published = copy.deepcopy(PUBLISHED)
    players = [p for p in range(1, 17) if p != 6] + [17]
    result = replan(published, played=played, players=players, seed=1)
    assert published == PUBLISHED  # the input is not modified
    assert result.sessions[:played] == as_tuples(PUBLISHED[:played])
    assert len(result.sessions) == len(PUBLISHED)


def test_a_substitute_takes_the_withdrawn_players_seats():
    players = [p for p in range(1, 17) if p != 6] + [17]
    result = replan(PUBLISHED, played=2, players=players, seed=1)
    assert_valid(result, players, 5)
    assert result.moved_seats == 0
    for old, new in zip(PUBLISHED[2:], result.sessions[2:], strict=True):
        assert new == [tuple(17 if p == 6 else p for p in table) for table in old]
    assert extra_meetings(result.sessions) == 0


def test_two_substitutes_move_no_seat():
    players = [p for p in range(1, 17) if p not in (3, 14)] + [20, 21]
    result = replan(PUBLISHED, played=1, players=players, seed=8)
    assert result.moved_seats == 0
    assert extra_meetings(result.sessions) == 0


def random_schedule(n_players, n_sessions):
    history = []
    for seed in range(n_sessions):
        players = list(range(1, n_players + 1))
        history.append(seat_session("random", players=players, seed=seed, history=history))
    return history


def test_a_substitute_is_moved_away_from_their_club():
    published = random_schedule(20, 3)
    assert extra_meetings(published) == 0
    # The substitute 21 shares a club with a player the withdrawn player 6 meets in session 3.
    clubmate = next(p for p in next(t for t in published[2] if 6 in t) if p != 6)
    players = [p for p in range(1, 21) if p != 6] + [21]
    groups = {21: "club", clubmate: "club"}
    result = replan(published, played=1, players=players, seed=1, groups=groups)
    for session in result.sessions[1:]:
        for table in session:
            assert not {21, clubmate} <= set(table)
    assert extra_meetings(result.sessions) == 0
    assert 0 < result.moved_seats <= 4
    assert result.moved_seats == recount_moved(published, result.sessions, 1)


def test_repeat_meetings_come_before_groups():
    # In the affine plane every pair meets exactly once: separating the substitute from a
    # clubmate would make someone meet an opponent twice, so the seats stay.
    clubmate = next(p for p in next(t for t in PUBLISHED[3] if 6 in t) if p != 6)
    players = [p for p in range(1, 17) if p != 6] + [17]
    result = replan(PUBLISHED, played=2, players=players, seed=1, groups={17: "c", clubmate: "c"})
    assert extra_meetings(result.sessions) == 0
    assert result.moved_seats == 0


def test_a_table_removed_16_to_12():
    players = list(range(1, 13))
    result = replan(PUBLISHED, played=2, players=players, seed=3)
    assert_valid(result, players, 5)
    for session in result.sessions[2:]:
        assert len(session) == 3
        assert sorted(p for table in session for p in table) == players
    assert result.moved_seats == recount_moved(PUBLISHED, result.sessions, 2)
    # Each later session loses four players spread over four tables, so at least three
    # players must change table; repeat avoidance may move a few more.
    assert 9 <= result.moved_seats <= 24


def test_a_table_removed_keeps_untouched_tables_whole():
    # Players 13..16 sat together in session 5 only: there, tables 1..3 are kept as they are.
    result = replan(PUBLISHED, played=4, players=list(range(1, 13)), seed=3)
    assert result.sessions[4] == [tuple(table) for table in PUBLISHED[4][:3]]
    assert result.moved_seats == 0


def test_a_table_added_12_to_16():
    published = random_schedule(12, 3)
    players = list(range(1, 17))
    result = replan(published, played=1, players=players, seed=5)
    assert_valid(result, players, 3)
    assert result.sessions[:1] == as_tuples(published[:1])
    for session in result.sessions[1:]:
        assert len(session) == 4
        assert sorted(p for table in session for p in table) == players
    assert extra_meetings(result.sessions) <= extra_meetings(published)
    assert result.moved_seats == recount_moved(published, result.sessions, 1)
    # The four newcomers cannot sit together twice: at least one session mixes them with
    # published players, which moves at least three seats; far fewer than all 24 move.
    assert 3 <= result.moved_seats <= 12


def test_replan_is_deterministic():
    kwargs = dict(played=2, players=list(range(1, 13)), seed=3)
    assert replan(PUBLISHED, **kwargs) == replan(PUBLISHED, **kwargs)


def test_nothing_left_to_replan():
    result = replan(PUBLISHED, played=5, players=list(range(1, 13)), seed=3)
    assert result == Replan(sessions=as_tuples(PUBLISHED), moved_seats=0)


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(played=6, players=list(range(1, 17))),
        dict(played=-1, players=list(range(1, 17))),
        dict(played=2, players=list(range(1, 16))),
        dict(played=2, players=[]),
        dict(played=2, players=[1, 1, 2, 3]),
    ],
)
def test_bad_arguments_raise_value_error(kwargs):
    with pytest.raises(ValueError):
        replan(PUBLISHED, seed=1, **kwargs)


def test_bad_published_table_raises_value_error():
    with pytest.raises(ValueError):
        replan([[[1, 2, 3]]], played=0, players=[1, 2, 3, 4], seed=1)
