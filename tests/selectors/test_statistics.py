"""The statistics of a small tournament agree with its hands, worked out by hand
(``tests/statistics_example.py``), and the ranks after each session with the standings
as they stood then."""

import re
from pathlib import Path

import pytest

from tests.conftest import make_players, make_tournament, make_user
from tests.statistics_example import (
    EXPECTED_BIGGEST,
    EXPECTED_BIGGEST_FANS,
    EXPECTED_CLAIMED,
    EXPECTED_FAN_COUNTS,
    EXPECTED_PLAYERS,
    EXPECTED_RANKS,
    EXPECTED_SESSIONS,
    EXPECTED_TYPED,
    EXPECTED_WINDS,
    EXPECTED_WINS,
    SUBSTITUTE,
    build_example,
)
from tournament import services
from tournament.selectors.lookups import player_by_number
from tournament.selectors.standings import compute_rank_history, rank_history, tournament_standings
from tournament.selectors.statistics import (
    compute_player_statistics,
    compute_tournament_figures,
    player_record,
    tournament_figures,
)


@pytest.fixture
def example(db):
    return build_example()


def player(tournament, number):
    return player_by_number(tournament, number)


def test_each_players_figures_are_those_worked_out_from_the_hands(example):
    for number, expected in EXPECTED_PLAYERS.items():
        figures = player_record(player(example, number)).statistics
        biggest = figures.biggest
        assert (
            figures.hands_played,
            figures.self_drawn,
            figures.discard_wins,
            figures.deal_ins,
            figures.win_rate,
            figures.deal_in_rate,
            figures.average_fan,
            (biggest.settled_fan, biggest.session, biggest.table, biggest.number),
            figures.penalties,
            figures.penalty_points,
        ) == expected, f"player {number}"
        assert figures.wins == figures.self_drawn + figures.discard_wins


def test_the_biggest_hand_of_a_player_names_its_fans_when_typed_or_claimed(example):
    typed = player_record(player(example, 2)).statistics.biggest
    assert (typed.fan, typed.flowers, typed.outcome) == (13, 0, "discard")
    source, keys = EXPECTED_BIGGEST_FANS[(1, 1, 1)]
    assert typed.fans.source == source
    assert [key for key, _count in typed.fans.fans] == keys
    # Player 1's biggest was entered with its total only: no fans to name.
    plain = player_record(player(example, 1)).statistics.biggest
    assert (plain.fan, plain.flowers, plain.outcome, plain.fans) == (8, 2, "self_drawn", None)


def test_a_player_who_never_played_has_no_figures_and_no_rank(example):
    record = player_record(player(example, SUBSTITUTE))
    assert record.statistics.hands_played == 0
    assert record.statistics.biggest is None
    assert (record.statistics.win_rate, record.statistics.average_fan) == ("", "")
    assert record.ranks == ((1, None), (2, None), (3, None))
    assert record.chart is None


def test_the_tournaments_biggest_hands(example):
    figures = tournament_figures(example)
    listed = [
        (win.hand.settled_fan, win.player.number, win.hand.session, win.hand.table, win.hand.number)
        for win in figures.biggest
    ]
    assert listed == EXPECTED_BIGGEST
    for win in figures.biggest:
        where = (win.hand.session, win.hand.table, win.hand.number)
        if where in EXPECTED_BIGGEST_FANS:
            source, keys = EXPECTED_BIGGEST_FANS[where]
            assert (win.hand.fans.source, [k for k, _c in win.hand.fans.fans]) == (source, keys)
        else:
            assert win.hand.fans is None


def test_the_most_frequent_fans_count_typed_hands_then_claims(example):
    stats = tournament_figures(example).statistics
    assert {fan.key: fan.hands for fan in stats.fans} == EXPECTED_FAN_COUNTS
    # The most frequent first; equal counts in the fan table's order (the bigger fan first).
    assert [fan.key for fan in stats.fans][:2] == ["mixed_straight", "concealed_hand"]
    assert [fan.hands for fan in stats.fans] == sorted(EXPECTED_FAN_COUNTS.values(), reverse=True)
    assert (stats.wins, stats.typed_hands, stats.claimed_hands) == (
        EXPECTED_WINS,
        EXPECTED_TYPED,
        EXPECTED_CLAIMED,
    )


def test_wins_by_the_winners_seat_wind(example):
    winds = tournament_figures(example).statistics.winds
    assert {w.wind: (w.self_drawn, w.discard) for w in winds} == EXPECTED_WINDS
    assert [w.wind for w in winds] == ["E", "S", "W", "N"]
    assert sum(w.wins for w in winds) == EXPECTED_WINS


def test_the_sessions_figures(example):
    sessions = tournament_figures(example).statistics.sessions
    assert {
        s.session: (
            s.tables,
            s.hands_played,
            s.wins,
            s.self_drawn,
            s.draws,
            s.hands_per_table,
            s.average_fan,
            s.self_draw_share,
        )
        for s in sessions
    } == EXPECTED_SESSIONS


def test_the_rank_after_each_session_is_the_standings_rank_at_that_time(db):
    standings_then = {}

    def remember(tournament, number):
        rows = tournament_standings(tournament)
        standings_then[number] = {row.player.number: row.rank for row in rows}

    tournament = build_example(on_session_end=remember)
    history = rank_history(tournament)
    assert history.sessions == (1, 2, 3)
    assert history.ranked == (8, 8, 8)
    for number in range(1, 9):
        ranks = history.of(player(tournament, number).pk)
        assert tuple(rank for _session, rank in ranks) == EXPECTED_RANKS[number]
        assert [standings_then[s][number] for s in (1, 2, 3)] == list(EXPECTED_RANKS[number])
    assert all(standings_then[s][SUBSTITUTE] is None for s in (1, 2, 3))


def test_a_correction_is_in_the_figures_at_once(example):
    before = tournament_figures(example).statistics
    assert before.biggest[0].settled_fan == 88
    table = example.sessions.get(number=3).tables.get(number=1)
    hand = table.hands.get(number=2)
    # The draw at session 3 table 1 becomes a self-drawn 88 + 2 for player 6 (P4).
    services.hand_record(
        table=table,
        entry=services.HandEntry(
            number=2, outcome="self_drawn", winner=3, fan=88, flowers=2, version=hand.version
        ),
    )
    after = tournament_figures(example)
    top = after.biggest[0]
    assert (top.hand.settled_fan, top.player.number, top.hand.session) == (90, 6, 3)
    assert after.statistics.wins == EXPECTED_WINS + 1
    assert player_record(player(example, 6)).statistics.biggest.settled_fan == 90


def test_the_computations_read_a_fixed_number_of_queries(example, django_assert_num_queries):
    # Every seat, every hand, the biggest hands' winners.
    with django_assert_num_queries(3):
        compute_tournament_figures(example)
    # The sessions published, the seats of the player's tables with their players, then the
    # hands of those tables with their penalties: the same for every player.
    first, second = player(example, 1), player(example, 2)
    with django_assert_num_queries(2 + 1):
        compute_player_statistics(first)
    with django_assert_num_queries(2 + 1):
        compute_player_statistics(second)
    # The players, every seat result.
    with django_assert_num_queries(2):
        compute_rank_history(example)


def test_the_worked_example_of_the_docs_is_what_the_page_computes(example):
    text = " ".join((Path(__file__).parents[2] / "docs" / "statistics.md").read_text().split())
    found = re.search(
        r"Hands played (\d+); wins (\d+), both on a discard; deal-ins (\d+); win rate \d+ of \d+ "
        r"= ([\d.]+) %; deal-in rate ([\d.]+) %; average fan \(12 \+ 19\) / 2 = ([\d.]+); "
        r"biggest hand (\d+) fan \(16 \+ 3 flowers\), session (\d+), table (\d+), hand (\d+); "
        r"penalties (\d+)",
        text,
    )
    assert found, "the worked example's sentence"
    figures = player_record(player(example, 5)).statistics
    big = figures.biggest
    assert found.groups() == tuple(
        str(value)
        for value in (
            figures.hands_played,
            figures.discard_wins,
            figures.deal_ins,
            figures.win_rate,
            figures.deal_in_rate,
            figures.average_fan,
            big.settled_fan,
            big.session,
            big.table,
            big.number,
            figures.penalties,
        )
    )
    assert figures.self_drawn == 0


def test_a_hand_with_two_penalties_counts_once_and_both_penalties(db):
    organiser = make_user("host")
    tournament = make_tournament(creator=organiser, slug="two-penalties")
    make_players(tournament, 4)
    session = services.session_draw(tournament=tournament, number=1, seed=1)
    services.session_open(session=session)
    table = session.tables.get()
    late = services.PenaltyEntry(offender=1, kind="deducted", points=10, reason="Lateness")
    loud = services.PenaltyEntry(offender=1, kind="deducted", points=20, reason="Noise")
    services.hand_record(
        table=table,
        entry=services.HandEntry(
            number=1, outcome="self_drawn", winner=1, fan=8, penalties=[late, loud]
        ),
    )
    services.hand_record(table=table, entry=services.HandEntry(number=2, outcome="draw"))
    offender = table.seats.get(seat=1).player
    figures = compute_player_statistics(player(tournament, offender.number))
    assert (figures.hands_played, figures.self_drawn, figures.fan_sum) == (2, 1, 8)
    assert (figures.penalties, figures.penalty_points) == (2, 10 + 20)
