"""Every construction is a set of sessions in which no two players meet twice."""

from itertools import combinations

import pytest

from tournament.seating import _constructions as c


def assert_design(n: int, schedule, sessions: int) -> int:
    """Each session a partition of 0..n-1 into tables of four; no pair twice. Returns the
    number of pairs that meet."""
    assert len(schedule) == sessions
    seen: set[tuple[int, int]] = set()
    for session in schedule:
        assert sorted(p for table in session for p in table) == list(range(n))
        for table in session:
            assert len(table) == 4
            for pair in combinations(sorted(table), 2):
                assert pair not in seen, pair
                seen.add(pair)
    return len(seen)


@pytest.mark.parametrize(
    ("q", "expected"),
    [(2, (2, 1)), (4, (2, 2)), (9, (3, 2)), (12, None), (13, (13, 1)), (27, (3, 3)), (1, None)],
)
def test_prime_power(q, expected):
    assert c.prime_power(q) == expected


@pytest.mark.parametrize("q", [2, 3, 4, 5, 7, 8, 9, 16, 25, 27, 32, 49])
def test_field_axioms(q):
    f = c.field(q)
    elements = range(q)
    for a in elements:
        assert f.add[a][0] == a and f.mul[a][1] == a and f.mul[a][0] == 0
        assert f.add[a][f.neg[a]] == 0
        if a:
            assert sum(1 for b in elements if f.mul[a][b] == 1) == 1  # one inverse
    for a in elements:
        for b in elements:
            assert f.mul[a][b] == f.mul[b][a] and f.add[a][b] == f.add[b][a]
    # associativity and distributivity on a sample
    sample = list(elements)[:7]
    for a in sample:
        for b in sample:
            for x in sample:
                assert f.mul[f.mul[a][b]][x] == f.mul[a][f.mul[b][x]]
                assert f.mul[a][f.add[b][x]] == f.add[f.mul[a][b]][f.mul[a][x]]


@pytest.mark.parametrize("q", [4, 5, 7, 8, 9, 11, 13, 16, 25])
def test_transversal(q):
    sessions = q + 1 if q % 4 == 0 else q
    met = assert_design(4 * q, c.transversal(q), sessions)
    # every pair from different classes meets (exactly once)
    assert met >= 6 * q * q


def test_affine_plane_every_pair_once():
    assert assert_design(16, c.affine_plane_4(), 5) == 120


def test_resolvable_28_every_pair_once():
    assert assert_design(28, c.resolvable_28(), 9) == 28 * 27 // 2


def test_gdd_24_every_pair_but_groups_once():
    assert assert_design(24, c.gdd_24(), 7) == 24 * 21 // 2


def test_base_session_search_reproduces_gdd_24():
    assert c.find_base_session(7, 3, 3, column_groups=True) == c._BASE_24


@pytest.mark.parametrize(
    ("n", "sessions"),
    [(16, 5), (20, 5), (24, 7), (28, 9), (32, 9), (36, 9), (52, 13), (64, 17), (100, 25)],
)
def test_construction_choice(n, sessions):
    assert c.max_sessions(n) == sessions
    assert_design(n, c.construction(n), sessions)


@pytest.mark.parametrize("n", [4, 8, 12, 40, 48, 200, 400])
def test_no_construction(n):
    assert c.construction(n) is None
    assert c.max_sessions(n) == 0
