"""Session-by-session seating modes (``seating.modes``): pure functions, no database."""

import itertools
import random
from collections import Counter

import pytest

from tournament.seating.modes import MODES, seat_session, serpentine_order

PLAYERS = list(range(101, 117))
# A standings fixture: 16 players ranked in a shuffled order, best first.
RANKING = random.Random(7).sample(PLAYERS, len(PLAYERS))
# Four clubs of four players.
CLUBS = {p: "ABCD"[i % 4] for i, p in enumerate(PLAYERS)}


def pair_counts(sessions):
    counts = Counter()
    for session in sessions:
        for table in session:
            for a, b in itertools.combinations(sorted(table), 2):
                counts[a, b] += 1
    return counts


def repeats(history, session):
    """Pairs at one table in ``session`` who already met in ``history``."""
    met = pair_counts(history)
    return sum(met[pair] > 0 for pair in pair_counts([session]))


def group_conflicts(session, groups):
    return sum(
        groups.get(a) is not None and groups.get(a) == groups.get(b)
        for table in session
        for a, b in itertools.combinations(table, 2)
    )


def starts(sessions):
    counts = {}
    for session in sessions:
        for table in session:
            for seat, player in enumerate(table):
                counts.setdefault(player, [0, 0, 0, 0])[seat] += 1
    return counts


def assert_valid(session, players):
    assert all(isinstance(table, tuple) and len(table) == 4 for table in session)
    seated = [p for table in session for p in table]
    assert sorted(seated) == sorted(players)


def quarter_of(player, ranking):
    return ranking.index(player) * 4 // len(ranking)


@pytest.mark.parametrize("mode", MODES)
def test_every_mode_seats_every_player_once_at_tables_of_four(mode):
    session = seat_session(mode, players=PLAYERS, seed=11, ranking=RANKING)
    assert_valid(session, PLAYERS)


@pytest.mark.parametrize("mode", MODES)
def test_same_input_and_seed_give_the_same_seating(mode):
    history = [seat_session("random", players=PLAYERS, seed=3)]
    kwargs = dict(players=PLAYERS, seed=42, ranking=RANKING, history=history, groups=CLUBS)
    assert seat_session(mode, **kwargs) == seat_session(mode, **kwargs)


def test_random_mode_depends_on_the_seed():
    draws = {tuple(seat_session("random", players=PLAYERS, seed=s)) for s in range(5)}
    assert len(draws) == 5


def test_standings_seats_exact_ranks_per_table():
    session = seat_session("standings", players=PLAYERS, seed=5, ranking=RANKING)
    assert [set(table) for table in session] == [set(RANKING[i : i + 4]) for i in (0, 4, 8, 12)]


def test_standings_never_swaps_even_to_avoid_a_repeat():
    previous = seat_session("standings", players=PLAYERS, seed=5, ranking=RANKING)
    session = seat_session(
        "standings", players=PLAYERS, seed=6, ranking=RANKING, history=[previous]
    )
    assert [set(t) for t in session] == [set(t) for t in previous]


def test_serpentine_matches_the_docstring_example():
    ranks = list(range(1, 17))
    expected = [{1, 8, 9, 16}, {2, 7, 10, 15}, {3, 6, 11, 14}, {4, 5, 12, 13}]
    assert [set(t) for t in serpentine_order(ranks)] == expected
    session = seat_session("serpentine", players=ranks, seed=9, ranking=ranks)
    assert [set(t) for t in session] == expected


def test_serpentine_deals_quarters_in_snake_order_for_any_ranking():
    session = seat_session("serpentine", players=PLAYERS, seed=9, ranking=RANKING)
    for t, table in enumerate(session):
        assert sorted(RANKING.index(p) for p in table) == [t, 7 - t, 8 + t, 15 - t]


def test_serpentine_swaps_within_quarters_to_avoid_repeats():
    ranks = list(range(1, 17))
    snake = [tuple(t) for t in serpentine_order(ranks)]
    session = seat_session("serpentine", players=ranks, seed=9, ranking=ranks, history=[snake])
    assert_valid(session, ranks)
    for table in session:
        assert sorted(quarter_of(p, ranks) for p in table) == [0, 1, 2, 3]
    assert repeats([snake], session) == 0


def test_serpentine_swaps_within_quarters_to_separate_groups():
    ranks = list(range(1, 17))
    # Ranks 1 and 8 (table 1 of the snake) and 2 and 7 (table 2) share a club.
    clubs = {1: "X", 8: "X", 2: "Y", 7: "Y"}
    session = seat_session("serpentine", players=ranks, seed=9, ranking=ranks, groups=clubs)
    for table in session:
        assert sorted(quarter_of(p, ranks) for p in table) == [0, 1, 2, 3]
    assert group_conflicts(session, clubs) == 0


def literal_serpentine(ranking, history, groups):
    """The docstring's steepest descent, spelled out: every swap of two same-quarter players
    is scored against the whole session, the best strict improvement is made (ties: closest
    tables, then quarter, then tables in order), until none helps. Tables unoriented."""
    n = len(ranking) // 4
    met, last = pair_counts(history), pair_counts(history[-1:])
    w_group = 6 * n + 1
    w_met = (6 * n + 1) * w_group

    def cost(tables):
        total = 0
        for table in tables:
            for a, b in itertools.combinations(sorted(table), 2):
                total += met[a, b] * w_met + last[a, b]
                total += w_group * (groups.get(a) is not None and groups.get(a) == groups.get(b))
        return total

    tables = serpentine_order(ranking)
    while True:
        current, best = cost(tables), None
        for q in range(4):
            for ti, tj in itertools.combinations(range(n), 2):
                tables[ti][q], tables[tj][q] = tables[tj][q], tables[ti][q]
                delta = cost(tables) - current
                tables[ti][q], tables[tj][q] = tables[tj][q], tables[ti][q]
                if delta < 0 and (best is None or (delta, tj - ti, q, ti, tj) < best):
                    best = (delta, tj - ti, q, ti, tj)
        if best is None:
            return [set(table) for table in tables]
        _, _, q, ti, tj = best
        tables[ti][q], tables[tj][q] = tables[tj][q], tables[ti][q]


@pytest.mark.parametrize("trial", range(12))
def test_serpentine_makes_the_swaps_a_literal_steepest_descent_makes(trial):
    rng = random.Random(trial)
    players = list(range(1, 4 * rng.randint(2, 7) + 1))
    history = []
    for _ in range(rng.randint(1, 4)):
        order = rng.sample(players, len(players))
        history.append([order[i : i + 4] for i in range(0, len(order), 4)])
    groups = {p: rng.choice("ABC") for p in players if rng.random() < 0.4}
    ranking = rng.sample(players, len(players))
    session = seat_session(
        "serpentine", players=players, seed=trial, ranking=ranking, history=history, groups=groups
    )
    assert [set(table) for table in session] == literal_serpentine(ranking, history, groups)


@pytest.mark.parametrize("top", [1, 2, 4])
def test_top_tables_are_seated_by_standings(top):
    history = [seat_session("random", players=PLAYERS, seed=1)]
    session = seat_session(
        "top_tables", players=PLAYERS, seed=2, ranking=RANKING, history=history, top=top
    )
    assert_valid(session, PLAYERS)
    for t in range(top):
        assert set(session[t]) == set(RANKING[4 * t : 4 * t + 4])


def test_top_tables_seat_the_rest_avoiding_repeats():
    # Every serpentine table holds one of ranks 1-4, so ranks 5-16 can avoid each other.
    history = [seat_session("serpentine", players=PLAYERS, seed=1, ranking=RANKING)]
    session = seat_session("top_tables", players=PLAYERS, seed=2, ranking=RANKING, history=history)
    assert repeats(history, session[1:]) == 0


def test_random_avoids_repeats_when_possible():
    history = []
    for seed in range(4):
        session = seat_session("random", players=PLAYERS, seed=seed, history=history)
        assert_valid(session, PLAYERS)
        # 16 players can meet 3 new opponents in each of 5 sessions (the affine plane).
        assert repeats(history, session) == 0
        history.append(session)


def test_random_separates_groups_when_possible():
    for seed in range(3):
        session = seat_session("random", players=PLAYERS, seed=seed, groups=CLUBS)
        assert group_conflicts(session, CLUBS) == 0


def test_random_puts_repeats_before_groups():
    history = [seat_session("random", players=PLAYERS, seed=0, groups=CLUBS)]
    session = seat_session("random", players=PLAYERS, seed=1, history=history, groups=CLUBS)
    assert repeats(history, session) == 0
    assert group_conflicts(session, CLUBS) == 0


def rotated_history(tables, sessions):
    """Each table's players rotate one seat per session: player i never starts at seat
    (i + sessions) % 4, so each has a different least used seat."""
    return [
        [tuple(table[(k - h) % 4] for k in range(4)) for table in tables] for h in range(sessions)
    ]


@pytest.mark.parametrize("mode", ["standings", "serpentine", "top_tables"])
def test_each_player_gets_the_seat_they_started_in_least(mode):
    tables = [RANKING[i : i + 4] for i in (0, 4, 8, 12)]
    history = rotated_history(tables, 3)
    if mode == "serpentine":
        # The snake's tables mix the history's tables: check the weaker, always-true claim.
        session = seat_session(mode, players=PLAYERS, seed=4, ranking=RANKING, history=history)
        counts = starts(history)
        for table in session:
            excess = [counts[p][seat] - min(counts[p]) for seat, p in enumerate(table)]
            # Four players, each of whom has one unused seat among four.
            assert sum(excess) <= 2
        return
    session = seat_session(mode, players=PLAYERS, seed=4, ranking=RANKING, history=history)
    if mode == "top_tables":
        session = session[:1]
        history = [h[:1] for h in history]
    for counts in starts([*history, session]).values():
        assert counts == [1, 1, 1, 1]


def test_random_sessions_keep_starting_seats_nearly_balanced():
    history = []
    for seed in range(8):
        history.append(seat_session("random", players=PLAYERS, seed=seed, history=history))
    for counts in starts(history).values():
        assert max(counts) - min(counts) <= 2
    # Over 8 sessions most players start exactly twice in every seat.
    assert sum(counts == [2, 2, 2, 2] for counts in starts(history).values()) >= 8


def test_first_session_seats_follow_the_seed_not_the_ranking():
    east = {
        seat_session("standings", players=PLAYERS, seed=s, ranking=RANKING)[0][0] for s in range(8)
    }
    assert len(east) > 1


@pytest.mark.parametrize(
    ("mode", "kwargs"),
    [
        ("random", dict(players=PLAYERS[:15])),
        ("random", dict(players=[])),
        ("random", dict(players=[*PLAYERS[:15], PLAYERS[0]])),
        ("lottery", dict(players=PLAYERS)),
        ("standings", dict(players=PLAYERS)),
        ("standings", dict(players=PLAYERS, ranking=RANKING[:12])),
        ("serpentine", dict(players=PLAYERS, ranking=[*RANKING[:15], 999])),
        ("random", dict(players=PLAYERS, ranking=RANKING[:4])),
        ("top_tables", dict(players=PLAYERS, ranking=RANKING, top=0)),
        ("top_tables", dict(players=PLAYERS, ranking=RANKING, top=5)),
        ("random", dict(players=PLAYERS, history=[[(101, 102, 103)]])),
    ],
)
def test_bad_arguments_raise_value_error(mode, kwargs):
    with pytest.raises(ValueError):
        seat_session(mode, seed=1, **kwargs)
