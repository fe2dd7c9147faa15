"""The demo tournament of ``setup_demo``: its state, and points exactly as the core settles them.

``fixtures/build_demo.py`` plays the demo through the services; these tests make sure the
stored fixture was not edited by hand into something the scoring core would not produce.
"""

import io

import pytest
from django.core.management import call_command

from tournament import scoring, services
from tournament.models import Hand, Penalty, Tournament
from tournament.seating import HANDS_PER_SESSION

DEMO_SLUG = "demo-open-2026"


@pytest.fixture
def demo(db, settings):
    settings.DEBUG = True  # as make run sets up the demo: the command refuses on a real server
    call_command("setup_demo", stdout=io.StringIO())
    return Tournament.objects.get(slug=DEMO_SLUG)


def test_demo_has_sixteen_active_players(demo):
    assert demo.players.count() == 16
    assert not demo.players.filter(withdrawn_at__isnull=False).exists()
    assert sorted(demo.players.values_list("number", flat=True)) == list(range(1, 17))


def test_session_one_is_closed_with_four_full_confirmed_tables(demo):
    session = demo.sessions.get(number=1)
    assert session.status == "closed"
    tables = list(session.tables.order_by("number"))
    assert [t.number for t in tables] == [1, 2, 3, 4]
    for table in tables:
        assert table.is_confirmed
        numbers = list(table.hands.order_by("number").values_list("number", flat=True))
        assert numbers == list(range(1, HANDS_PER_SESSION + 1))
        assert table.seats.count() == 4


def test_session_two_is_in_play_with_some_hands_and_no_table_confirmed(demo):
    session = demo.sessions.get(number=2)
    assert session.status == "in_play"
    tables = list(session.tables.order_by("number"))
    assert len(tables) == 4
    assert not any(t.is_confirmed for t in tables)
    entered = [t.hands.count() for t in tables]
    assert 0 < sum(entered) < 4 * HANDS_PER_SESSION
    for table in tables:
        # Hands are entered in order: 1..n with no gap.
        numbers = list(table.hands.order_by("number").values_list("number", flat=True))
        assert numbers == list(range(1, len(numbers) + 1))


def test_sessions_three_and_four_are_not_drawn(demo):
    assert demo.session_count == 4
    assert sorted(demo.sessions.values_list("number", flat=True)) == [1, 2]


def test_every_player_sits_once_per_drawn_session(demo):
    for session in demo.sessions.all():
        players = sorted(session.seats.values_list("player__number", flat=True))
        assert players == list(range(1, 17))


def test_every_stored_hand_has_the_points_the_core_settles(demo):
    hands = list(Hand.objects.filter(table__session__tournament=demo).prefetch_related("penalties"))
    assert len(hands) > 64
    for hand in hands:
        settlement = scoring.settle_hand(services.stored_hand_result(hand))
        assert hand.points == settlement.points, f"{hand}"
        assert hand.deducted == settlement.deducted, f"{hand}"


def test_the_demo_uses_wins_draws_and_each_kind_of_penalty(demo):
    outcomes = set(Hand.objects.values_list("outcome", flat=True))
    assert {"self_drawn", "discard", "draw"} <= outcomes
    kinds = set(Penalty.objects.values_list("kind", flat=True))
    assert {"to_each_other", "deducted"} <= kinds


def test_every_table_sums_to_minus_its_deducted_penalties(demo):
    tables_with_deductions = 0
    for session in demo.sessions.all():
        for table in session.tables.all():
            total = sum(sum(hand.points) for hand in table.hands.all())
            deducted = sum(
                Penalty.objects.filter(hand__table=table, kind="deducted").values_list(
                    "points", flat=True
                )
            )
            assert total == -deducted, f"{table}"
            tables_with_deductions += deducted > 0
    assert tables_with_deductions >= 1


def test_a_table_in_play_waits_for_a_referee_on_the_desk(demo):
    from tournament.selectors.desk import open_calls

    (waiting,) = open_calls(demo)
    call = waiting.call
    assert (call.table.session.number, call.table.number) == (2, 2)
    assert (call.reason, call.hand, call.state) == ("count", 7, "called")
    assert not call.table.hands.filter(number=7).exists()
