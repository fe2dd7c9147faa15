"""The statistics core (``tournament.hall.statistics``) on plain rows, without a database."""

import datetime

import pytest

from tournament.hall.statistics import (
    CHART_HEIGHT,
    CallRow,
    DeskFigures,
    HandRow,
    PenaltyRow,
    RulingRow,
    desk_statistics,
    duration_text,
    hand_fans,
    median_seconds,
    one_decimal,
    percent,
    player_statistics,
    rank_chart,
    rank_ticks,
    tournament_statistics,
)
from tournament.scoring.fans import FANS

TABLE = (11, 12, 13, 14)  # the players' keys, P1..P4


def hand(number=1, outcome="discard", winner=0, discarder=1, fan=8, flowers=0, **extra):
    if outcome not in ("discard", "self_drawn"):
        winner = discarder = fan = None
        flowers = 0
    if outcome == "self_drawn":
        discarder = None
    fields = {"session": 1, "table": 1, "players": TABLE} | extra
    return HandRow(
        number=number,
        outcome=outcome,
        winner=winner,
        discarder=discarder,
        fan=fan,
        flowers=flowers,
        **fields,
    )


@pytest.mark.parametrize(
    ("numerator", "denominator", "shown"),
    [
        (1, 3, "0.3"),
        (2, 3, "0.7"),
        (1, 8, "0.1"),  # 0.125: the hundredths do not round the tenths up
        (3, 16, "0.2"),  # 0.1875
        (1, 20, "0.1"),  # 0.05, half up
        (31, 2, "15.5"),
        (5, 1, "5.0"),
        (0, 7, "0.0"),
    ],
)
def test_one_decimal_rounds_half_up_in_integers(numerator, denominator, shown):
    assert one_decimal(numerator, denominator) == shown


def test_percent_of_nothing_is_empty():
    assert percent(1, 6) == "16.7"
    assert percent(2, 6) == "33.3"
    assert percent(0, 0) == ""


def test_hands_played_leave_out_hands_not_played_and_other_players_tables():
    rows = [
        hand(1, "self_drawn", winner=0, fan=8, flowers=3),
        hand(2, "draw"),
        hand(3, "not_played"),
        hand(4, "not_played"),
        # Another table: player 11 is not there.
        hand(1, "discard", winner=0, discarder=1, fan=88, players=(21, 22, 23, 24), table=2),
    ]
    figures = player_statistics(11, rows)
    assert (figures.hands_played, figures.wins, figures.self_drawn) == (2, 1, 1)
    # The fan the settlement pays: 8 + 3 flowers.
    assert (figures.fan_sum, figures.average_fan) == (11, "11.0")
    assert figures.win_rate == "50.0"
    assert figures.biggest.settled_fan == 11


def test_a_deal_in_is_a_discard_someone_else_won_on():
    rows = [
        hand(1, "discard", winner=2, discarder=1),  # 12 dealt in
        hand(2, "self_drawn", winner=2),  # nobody dealt in
        hand(3, "discard", winner=1, discarder=0),  # 12 won
    ]
    figures = player_statistics(12, rows)
    assert (figures.deal_ins, figures.discard_wins, figures.self_drawn) == (1, 1, 0)
    assert (figures.win_rate, figures.deal_in_rate) == ("33.3", "33.3")
    assert player_statistics(11, rows).deal_ins == 1


def test_the_biggest_hand_is_the_earliest_of_equal_ones():
    rows = [
        hand(5, "discard", winner=0, fan=9, flowers=1, session=2),
        hand(9, "self_drawn", winner=0, fan=10, session=1),
        hand(2, "self_drawn", winner=0, fan=8, flowers=2, session=2),
    ]
    biggest = player_statistics(11, rows).biggest
    assert (biggest.session, biggest.number, biggest.settled_fan) == (1, 9, 10)


def test_penalties_cost_three_times_when_paid_to_each_other_player():
    penalties = [
        PenaltyRow(TABLE, 0, "to_each_other", 10),
        PenaltyRow(TABLE, 0, "to_one", 5),
        PenaltyRow(TABLE, 0, "deducted", 20),
        PenaltyRow(TABLE, 1, "deducted", 7),
    ]
    figures = player_statistics(11, [hand(1, "draw")], penalties)
    assert (figures.penalties, figures.penalty_points) == (3, 30 + 5 + 20)
    assert player_statistics(12, [], penalties).penalty_points == 7


def test_a_typed_hand_is_scored_with_the_winners_seat_wind_from_the_rotation():
    typed = "123m456p789sSSSE +E"
    # Hand 1: P2's seat wind is South, so the South pung is a Seat Wind; P3's is West.
    south = hand_fans(hand(1, "discard", winner=1, discarder=0, fan=13, winning_hand=typed))
    west = hand_fans(hand(1, "discard", winner=2, discarder=0, fan=12, winning_hand=typed))
    assert south.source == west.source == "typed"
    assert dict(south.fans) == {
        "mixed_straight": 1,
        "seat_wind": 1,
        "concealed_hand": 1,
        "single_wait": 1,
    }
    assert "seat_wind" not in dict(west.fans)
    assert "pung_of_terminals_or_honors" in dict(west.fans)


def test_flowers_are_not_counted_as_a_fan():
    typed = hand(1, "discard", fan=10, flowers=3, winning_hand="123m456p789s23sEE +4s")
    claimed = hand(1, "discard", fan=12, flowers=2, fan_names="All Pungs, Half Flush, 花牌 ×2")
    assert dict(hand_fans(typed).fans) == {"mixed_straight": 1, "concealed_hand": 1}
    assert dict(hand_fans(claimed).fans) == {"all_pungs": 1, "half_flush": 1}


def test_claimed_fans_are_read_in_either_language_with_their_counts():
    row = hand(1, "discard", fan=8, fan_names="一般高 ×2, Mixed Straight")
    fans = hand_fans(row)
    assert fans.source == "claimed"
    # In the fan table's order, the bigger fan first.
    assert fans.fans == (("mixed_straight", 1), ("pure_double_chow", 2))


def test_a_hand_without_fans_or_with_unreadable_ones_has_none():
    assert hand_fans(hand(1, "discard")) is None
    assert hand_fans(hand(1, "draw")) is None
    assert hand_fans(hand(1, "discard", fan_names="Lucky Seven")) is None
    # A typed hand that no longer reads falls back on the claim.
    fallback = hand(1, "discard", winning_hand="123m", fan_names="All Pungs, Half Flush")
    assert hand_fans(fallback).source == "claimed"


def test_tournament_figures_count_wins_by_seat_wind_and_session():
    rows = [
        # Hand 2: P1 North, P2 East (the dealer), P3 South, P4 West.
        hand(2, "self_drawn", winner=1, fan=8),
        hand(2, "discard", winner=0, discarder=1, fan=10, flowers=1, table=2),
        hand(3, "draw"),
        hand(4, "not_played"),
        hand(1, "discard", winner=3, discarder=0, fan=16, session=2),  # P4 North
    ]
    stats = tournament_statistics(rows)
    winds = {w.wind: (w.self_drawn, w.discard) for w in stats.winds}
    assert winds == {"E": (1, 0), "S": (0, 0), "W": (0, 0), "N": (0, 2)}
    first, second = stats.sessions
    assert (first.tables, first.hands_played, first.wins, first.draws) == (2, 3, 2, 1)
    assert (first.average_fan, first.self_draw_share, first.hands_per_table) == (
        "9.5",
        "50.0",
        "1.5",
    )
    assert (second.session, second.wins, second.average_fan) == (2, 1, "16.0")
    assert [h.settled_fan for h in stats.biggest] == [16, 11, 8]


def test_at_most_ten_biggest_hands_and_twenty_fans():
    rows = [hand(n, "self_drawn", winner=0, fan=8 + n, fan_names=FANS[n].key) for n in range(1, 17)]
    rows += [hand(n, "draw", fan_names="", session=2) for n in range(1, 17)]
    rows += [hand(n, "discard", fan=8, fan_names=FANS[20 + n].key, session=3) for n in range(9)]
    stats = tournament_statistics(rows)
    assert [h.number for h in stats.biggest] == list(range(16, 6, -1))
    # 25 fans once each: the first 20 in the fan table's order.
    assert stats.claimed_hands == 25
    assert [fan.key for fan in stats.fans] == [FANS[i].key for i in [*range(1, 17), 20, 21, 22, 23]]


@pytest.mark.parametrize(
    ("ranked", "ticks"),
    [
        (1, (1,)),
        (4, (1, 2, 3, 4)),
        (8, (1, 2, 4, 6, 8)),
        (12, (1, 5, 12)),
        (30, (1, 10, 20, 30)),
        (1000, (1, 200, 400, 600, 800, 1000)),
        (999, (1, 200, 400, 600, 800, 999)),
    ],
)
def test_the_rank_axis_labels_one_round_steps_and_the_last_rank(ranked, ticks):
    assert rank_ticks(ranked) == ticks


def test_the_rank_chart_puts_rank_one_on_top_and_one_point_per_ranked_session():
    chart = rank_chart([(1, 8), (2, 1), (3, None), (4, 4)], ranked=8)
    assert [(p.session, p.rank) for p in chart.points] == [(1, 8), (2, 1), (4, 4)]
    by_session = {p.session: p for p in chart.points}
    assert by_session[2].y == chart.top
    assert by_session[1].y == chart.bottom
    assert chart.top < by_session[4].y < chart.bottom
    # Sessions left to right, evenly; the line broken where there is no rank.
    xs = [x for _session, x in chart.session_ticks]
    assert xs == sorted(xs) and xs[0] == chart.left and xs[-1] == chart.right
    assert len(chart.lines) == 1 and chart.lines[0].count(",") == 2
    assert chart.bottom < CHART_HEIGHT


def test_the_rank_chart_of_one_session_and_of_a_thousand_players():
    alone = rank_chart([(1, 3)], ranked=4)
    assert len(alone.points) == 1 and alone.lines == ()
    assert alone.left < alone.points[0].x < alone.right
    big = rank_chart([(s, 1000 - 30 * s) for s in range(1, 31)], ranked=1000)
    assert len(big.points) == 30
    ys = [p.y for p in big.points]
    assert ys == sorted(ys, reverse=True)  # a better rank each session: the line climbs
    assert all(big.top <= y <= big.bottom for y in ys)


# ------------------------------------------------------------------ the referees' desk


def at(clock: str) -> datetime.datetime:
    """A moment of the first day, "10:02:00" or "14:00:10.900000"."""
    return datetime.datetime.fromisoformat(f"2026-12-07T{clock}+00:00")


def test_the_desks_figures_by_session_worked_by_hand():
    calls = [
        # Taken after 2 minutes, resolved after 10.
        CallRow(1, at("10:00:00"), at("10:02:00"), at("10:10:00")),
        # Resolved by a ruling after 3 min 30 s, nobody having taken it first: its wait is
        # until then.
        CallRow(1, at("10:05:00"), None, at("10:08:30")),
        # Taken after 1 min 15 s, not resolved yet.
        CallRow(1, at("10:20:00"), at("10:21:15"), None),
        # Cancelled before anyone took it: made, no wait.
        CallRow(1, at("10:30:00"), None, None),
        # Taken after 10.5 s: 11 s, half rounded up.
        CallRow(2, at("14:00:00.400000"), at("14:00:10.900000"), None),
    ]
    rulings = [
        RulingRow(1, True),
        RulingRow(1, True),
        RulingRow(1, False),
        RulingRow(3, False),
    ]
    assert desk_statistics(calls, rulings) == (
        # Waits 120, 210, 75 s: the median 120 s. Resolved in 600 and 210 s: 405 s.
        DeskFigures(1, 4, 2, 120, 405, 3, 2),
        DeskFigures(2, 1, 0, 11, None, 0, 0),
        # A ruling given without a call.
        DeskFigures(3, 0, 0, None, None, 1, 0),
    )
    first, second, third = desk_statistics(calls, rulings)
    assert (first.wait_text, first.resolution_text) == ("2:00", "6:45")
    assert (second.wait_text, second.resolution_text) == ("0:11", "")
    assert third.wait_text == ""


@pytest.mark.parametrize(
    ("seconds", "median"),
    [
        ([], None),
        ([7], 7),
        ([10, 15], 13),  # 12.5, half up
        ([30, 10, 20], 20),
        ([0.4, 0.5], 0),  # 0.45
        ([1.4999, 1.5001], 2),  # 1.5
    ],
)
def test_the_median_in_whole_seconds_half_up(seconds, median):
    assert median_seconds([datetime.timedelta(seconds=s) for s in seconds]) == median


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(None, ""), (0, "0:00"), (59, "0:59"), (245, "4:05"), (3600, "1:00:00"), (3750, "1:02:30")],
)
def test_durations_as_a_clock_writes_them(seconds, text):
    assert duration_text(seconds) == text
