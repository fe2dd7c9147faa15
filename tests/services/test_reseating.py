"""table_seats_swap: players who sat in each other's seats, the hands following the players.

The check is a re-entry: table 1 enters six hands with two players in each other's seats and
is then corrected; table 2 (four other players) is corrected before any hand and enters the
same hands, player for player. Every player's result must then be their counterpart's.
"""

import dataclasses

import pytest
from django.core.exceptions import ValidationError

from tests.conftest import make_players
from tests.services.errors import codes
from tournament import seating, services
from tournament.models import HandRevision, Seat, SeatingPlan
from tournament.scoring import notation
from tournament.selectors.activity import ActivityLog
from tournament.services import HandEntry, PenaltyEntry
from tournament.services.tables import table_seating_key

HAND_5 = seating.session_schedule()[4]


def straight_with_wind_pung(wind: str) -> str:
    """A self-drawn pure straight with a pung of ``wind``: its fans depend on the winner's
    seat wind."""
    return f"123456789m1s{wind * 3} +1s"


def tiles_count(text: str, seat_wind: str) -> int:
    hand = notation.parse_hand(text)
    return notation.score_hand(
        dataclasses.replace(
            hand, self_drawn=True, seat_wind=seat_wind, prevalent_wind=HAND_5.prevalent_wind
        )
    ).total_without_flowers


# In the game the winner of hand 5 sat in P3 (where the correction puts them), with a pung
# of P3's seat wind, and the players declared the fan the tiles give there.
HAND_5_TILES = straight_with_wind_pung(HAND_5.seat_winds[2])
HAND_5_FAN = tiles_count(HAND_5_TILES, HAND_5.seat_winds[2])


def hands_by_player(players) -> list[HandEntry]:
    """Six hands, the winner, discarder and penalties given as players (``players`` in the
    order of their seats as drawn at table 1, or their counterparts at table 2)."""
    a, b, c, d = players
    return [
        HandEntry(number=1, outcome="self_drawn", winner=a, fan=8, flowers=1),
        HandEntry(number=2, outcome="discard", winner=b, discarder=c, fan=12),
        HandEntry(number=3, outcome="draw"),
        HandEntry(
            number=4,
            outcome="discard",
            winner=c,
            discarder=a,
            fan=16,
            penalties=[PenaltyEntry(offender=d, kind="to_each_other", points=10, reason="x")],
        ),
        HandEntry(
            number=5,
            outcome="self_drawn",
            winner=a,
            fan=HAND_5_FAN,
            winning_hand=HAND_5_TILES,
            # Entered with the players in the wrong seats, the sheet counts the tiles at P1's
            # seat wind: the referee keeps the figure the table agreed.
            keep_referee_figure=True,
        ),
        HandEntry(
            number=6,
            outcome="discard",
            winner=a,
            discarder=d,
            fan=8,
            penalties=[
                PenaltyEntry(offender=b, kind="to_one", points=5, reason="y", beneficiary=c)
            ],
        ),
    ]


def at_seats(entry: HandEntry, seat_of: dict) -> HandEntry:
    """``entry`` with its players replaced by their seats (``seat_of``)."""

    def seat(player):
        return None if player is None else seat_of[player]

    return dataclasses.replace(
        entry,
        winner=seat(entry.winner),
        discarder=seat(entry.discarder),
        penalties=[
            dataclasses.replace(p, offender=seat(p.offender), beneficiary=seat(p.beneficiary))
            for p in entry.penalties
        ],
    )


def seated(table) -> list:
    return [s.player for s in Seat.objects.filter(table=table).order_by("seat")]


def results(table) -> list[tuple[int, int, int]]:
    """(score, place, table points in twelfths) by seat."""
    return [
        (s.score, s.place, s.table_points_twelfths)
        for s in Seat.objects.filter(table=table).order_by("seat")
    ]


@pytest.fixture
def tables(session_in_play):
    return session_in_play.tables.get(number=1), session_in_play.tables.get(number=2)


def test_the_hands_follow_their_players_as_a_re_entry_in_the_right_seats(tables, organiser):
    wrong, right = tables
    # Table 1: the players of P1 and P3 sat in each other's seat; the hands were entered by
    # the seats as drawn, then the seats are put right.
    drawn = seated(wrong)
    for entry in hands_by_player(drawn):
        services.hand_record(
            table=wrong, entry=at_seats(entry, {p: i for i, p in enumerate(drawn)})
        )
    hand_5 = wrong.hands.get(number=5)
    assert hand_5.referee_figure_kept and hand_5.computed_fan != HAND_5_FAN
    swap = services.table_seats_swap(table=wrong, first=0, second=2, user=organiser)
    # Hand 5's tiles now give the fan declared: no hand is newly disputed.
    assert (swap.hands, swap.disputed) == (6, ())
    assert seated(wrong) == [drawn[2], drawn[1], drawn[0], drawn[3]]
    # Table 2 is put right before its first hand, then plays the same hands, player for
    # player: its P3 is table 1's drawn P1, and so on.
    others = seated(right)
    services.table_seats_swap(table=right, first=0, second=2, user=organiser)
    right_seats = {p: i for i, p in enumerate(seated(right))}
    for entry in hands_by_player(others):
        services.hand_record(
            table=right,
            entry=at_seats(dataclasses.replace(entry, keep_referee_figure=False), right_seats),
        )
    assert results(wrong) == results(right)
    for number in range(1, 7):
        corrected = wrong.hands.get(number=number)
        reentered = right.hands.get(number=number)
        assert corrected.points == reentered.points
        assert (corrected.winner, corrected.discarder) == (reentered.winner, reentered.discarder)
        assert [(p.offender, p.beneficiary) for p in corrected.penalties.all()] == [
            (p.offender, p.beneficiary) for p in reentered.penalties.all()
        ]
    # Hand 5's tiles are counted again at its winner's true seat wind: now they agree.
    hand_5 = wrong.hands.get(number=5)
    assert (hand_5.computed_fan, hand_5.referee_figure_kept) == (HAND_5_FAN, False)


def test_each_hand_keeps_its_entry_before_as_a_revision(tables, organiser):
    table, _other = tables
    services.hand_record(
        table=table, entry=HandEntry(number=1, outcome="discard", winner=0, discarder=2, fan=8)
    )
    services.hand_record(table=table, entry=HandEntry(number=2, outcome="draw"))
    services.table_seats_swap(table=table, first=0, second=2, user=organiser)
    revisions = HandRevision.objects.filter(hand__table=table).order_by("hand__number")
    assert [(r.hand.number, r.previous["winner"], r.previous["discarder"]) for r in revisions] == [
        (1, 0, 2),
        (2, None, None),
    ]
    assert list(table.hands.values_list("number", "winner", "discarder", "version")) == [
        (1, 2, 0, 2),
        (2, None, None, 2),
    ]


def test_the_activity_log_names_the_swap(tables, organiser):
    table, _other = tables
    services.hand_record(table=table, entry=HandEntry(number=1, outcome="draw"))
    services.table_seats_swap(table=table, first=1, second=3, user=organiser)
    log = ActivityLog(table.session.tournament)
    swapped = [a for a in log if "players swapped seats" in a.action]
    # The two seats and the hand, each by the organiser.
    assert len(swapped) == 3
    assert {a.who for a in swapped} == {organiser.get_username()}


def test_the_draw_still_reads_as_published(tables, organiser):
    from tournament.selectors.seating import drawn_tables

    table, _other = tables
    tournament = table.session.tournament
    before = drawn_tables(tournament, [1], as_drawn=True)
    services.table_seats_swap(table=table, first=0, second=3, user=organiser)
    assert drawn_tables(tournament, [1], as_drawn=True) == before


@pytest.mark.parametrize(("first", "second", "code"), [(1, 1, "same_seat"), (0, 4, "unknown_seat")])
def test_two_seats_of_the_table_are_needed(tables, organiser, first, second, code):
    table, _other = tables
    with pytest.raises(ValidationError) as refused:
        services.table_seats_swap(table=table, first=first, second=second, user=organiser)
    assert codes(refused.value) == {code}


def test_a_confirmed_table_is_reopened_first(tables, organiser):
    table, _other = tables
    services.table_confirm(table=table, user=organiser, record_missing_as_not_played=True)
    drawn = seated(table)
    with pytest.raises(ValidationError) as refused:
        services.table_seats_swap(table=table, first=0, second=1, user=organiser)
    assert codes(refused.value) == {"table_confirmed"}
    assert seated(table) == drawn


def test_a_swap_sent_twice_is_made_once(tables, organiser):
    table, _other = tables
    page = table_seating_key(table)
    services.table_seats_swap(table=table, first=0, second=1, user=organiser, seating=page)
    swapped = seated(table)
    with pytest.raises(ValidationError) as refused:
        services.table_seats_swap(table=table, first=0, second=1, user=organiser, seating=page)
    assert codes(refused.value) == {"seating_changed"}
    assert seated(table) == swapped


def test_a_hand_entered_on_a_page_from_before_the_swap_is_refused(tables, organiser):
    table, _other = tables
    page = table_seating_key(table)
    services.table_seats_swap(table=table, first=0, second=2, user=organiser)
    entry = HandEntry(number=1, outcome="self_drawn", winner=0, fan=8, seating=page)
    with pytest.raises(ValidationError) as refused:
        services.hand_record(table=table, entry=entry)
    assert codes(refused.value) == {"seating_changed"}
    assert not table.hands.exists()
    services.hand_record(
        table=table, entry=dataclasses.replace(entry, seating=table_seating_key(table))
    )
    assert table.hands.get().winner == 0


def test_a_hand_whose_tiles_no_longer_give_its_fan_is_named(tables, organiser):
    table, _other = tables
    # Entered in the right seats (the tiles agree with the fan), then wrongly "corrected".
    text = straight_with_wind_pung(HAND_5.seat_winds[0])
    fan = tiles_count(text, HAND_5.seat_winds[0])
    services.hand_record(
        table=table,
        entry=HandEntry(number=5, outcome="self_drawn", winner=0, fan=fan, winning_hand=text),
    )
    swap = services.table_seats_swap(table=table, first=0, second=2, user=organiser)
    hand = table.hands.get(number=5)
    assert hand.computed_fan == tiles_count(text, HAND_5.seat_winds[2]) != fan
    assert (swap.disputed, hand.fan, hand.referee_figure_kept) == ((5,), fan, True)


def test_a_planned_tournament_draws_its_next_session_as_planned_after_a_swap(tournament, organiser):
    make_players(tournament, 16)
    first = services.session_draw(tournament=tournament, number=1, seed=5, method="planned")
    services.session_open(session=first)
    services.table_seats_swap(table=first.tables.get(number=1), first=0, second=3, user=organiser)
    services.session_draw(tournament=tournament, number=2, seed=5, method="planned")
    plan = SeatingPlan.objects.get(tournament=tournament)
    assert (plan.replans, plan.moved_seats, plan.reproducible) == (0, 0, True)
    drawn = [
        tuple(s.player.number for s in t.seats.order_by("seat"))
        for t in tournament.sessions.get(number=2).tables.order_by("number")
    ]
    assert drawn == [tuple(players) for players in plan.sessions[1]]
