"""The check-in's services: opening and closing, a player checked in by their link or at
the desk, twice or too late, and the seats of absent players given to substitutes, all or
nothing."""

import pytest
from django.core.exceptions import ValidationError

from tests.conftest import make_players
from tournament import services
from tournament.models import CheckIn, ScheduledSession, Seat


def player(tournament, number):
    return tournament.players.get(number=number)


def test_a_player_checks_in_only_while_the_check_in_is_open(tournament, organiser):
    make_players(tournament, 4)
    with pytest.raises(ValidationError) as refused:
        services.player_check_in(player=player(tournament, 1), number=1)
    assert refused.value.code == "check_in_not_open"
    services.check_in_open(tournament=tournament, number=1)
    services.player_check_in(player=player(tournament, 1), number=1)
    services.check_in_close(tournament=tournament, number=1)
    with pytest.raises(ValidationError) as refused:
        services.player_check_in(player=player(tournament, 2), number=1)
    assert refused.value.code == "check_in_not_open"
    # The desk still ticks a late arrival once the check-in is closed.
    services.player_check_in(player=player(tournament, 2), number=1, ticked_by=organiser)
    assert set(CheckIn.objects.values_list("player__number", "ticked_by")) == {
        (1, None),
        (2, organiser.pk),
    }


def test_the_desk_cannot_tick_before_the_check_in_was_opened(tournament, organiser):
    make_players(tournament, 4)
    with pytest.raises(ValidationError) as refused:
        services.player_check_in(player=player(tournament, 1), number=1, ticked_by=organiser)
    assert refused.value.code == "check_in_not_opened"
    assert not CheckIn.objects.exists()


def test_checking_in_twice_keeps_the_first_check_in(tournament):
    make_players(tournament, 4)
    services.check_in_open(tournament=tournament, number=2)
    first = services.player_check_in(player=player(tournament, 1), number=2)
    again = services.player_check_in(player=player(tournament, 1), number=2)
    assert again.pk == first.pk
    assert CheckIn.objects.count() == 1


def test_a_withdrawn_player_cannot_check_in(tournament):
    make_players(tournament, 4)
    services.check_in_open(tournament=tournament, number=1)
    services.player_withdraw(player=player(tournament, 3))
    with pytest.raises(ValidationError) as refused:
        services.player_check_in(player=player(tournament, 3), number=1)
    assert refused.value.code == "player_withdrawn"


def test_a_closed_session_has_no_check_in_and_sessions_beyond_the_count_none(
    session_in_play, tournament, referee
):
    for table in session_in_play.tables.all():
        services.table_confirm(table=table, user=referee, record_missing_as_not_played=True)
    services.session_close(session=session_in_play)
    with pytest.raises(ValidationError) as refused:
        services.check_in_open(tournament=tournament, number=1)
    assert refused.value.code == "session_closed"
    with pytest.raises(ValidationError) as refused:
        services.check_in_open(tournament=tournament, number=5)
    assert refused.value.code == "no_such_session"
    assert not ScheduledSession.objects.filter(number=5).exists()


def test_closing_a_check_in_never_opened_is_refused(tournament):
    with pytest.raises(ValidationError) as refused:
        services.check_in_close(tournament=tournament, number=1)
    assert refused.value.code == "check_in_not_opened"


def test_opening_again_keeps_when_it_was_first_opened(tournament):
    opened = services.check_in_open(tournament=tournament, number=1).check_in_opened_at
    services.check_in_close(tournament=tournament, number=1)
    again = services.check_in_open(tournament=tournament, number=1)
    assert again.check_in_opened_at == opened
    assert again.check_in_closed_at is None


def test_an_undone_check_in_is_gone(tournament, organiser):
    make_players(tournament, 4)
    services.check_in_open(tournament=tournament, number=1)
    services.player_check_in(player=player(tournament, 1), number=1, ticked_by=organiser)
    services.player_check_in_undo(player=player(tournament, 1), number=1)
    assert not CheckIn.objects.exists()


def test_the_timetable_sets_and_clears_start_times(tournament):
    from datetime import UTC, datetime

    start = datetime(2026, 12, 5, 9, 30, tzinfo=UTC)
    services.session_times_set(tournament=tournament, starts={1: start, 2: None})
    assert dict(ScheduledSession.objects.values_list("number", "starts_at")) == {
        1: start,
        2: None,
    }
    with pytest.raises(ValidationError):
        services.session_times_set(tournament=tournament, starts={9: start})


@pytest.fixture
def drawn_with_substitutes(tournament):
    """16 players and substitutes 17, 18 and 19; session 1 drawn, its check-in open, every
    regular player checked in but 4 and 9; substitutes 17 and 18 checked in."""
    make_players(tournament, 16)
    make_players(tournament, 3, start=17, is_substitute=True)
    session = services.session_draw(tournament=tournament, number=1, seed=5)
    services.check_in_open(tournament=tournament, number=1)
    for number in [*range(1, 17), 17, 18]:
        if number not in (4, 9):
            services.player_check_in(player=player(tournament, number), number=1)
    return session


def test_absent_seats_go_to_the_substitutes_chosen_each_recording_whom_it_replaces(
    tournament, drawn_with_substitutes
):
    session = drawn_with_substitutes
    before = {s.player.number: (s.table_id, s.seat) for s in session.seats.all()}
    given = services.absent_seats_give(
        session=session,
        choices=[
            services.AbsentSeatChoice(
                absent=player(tournament, 4), substitute=player(tournament, 17), withdraw=True
            ),
            services.AbsentSeatChoice(
                absent=player(tournament, 9), substitute=player(tournament, 18)
            ),
        ],
    )
    assert given == 2
    seat = Seat.objects.get(session=session, player__number=17)
    assert (seat.table_id, seat.seat) == before[4]
    assert seat.replaces.number == 4
    assert Seat.objects.get(session=session, player__number=18).replaces.number == 9
    assert not player(tournament, 4).is_active
    assert player(tournament, 9).is_active


def test_absent_seats_refused_change_nothing(tournament, drawn_with_substitutes):
    session = drawn_with_substitutes
    with pytest.raises(ValidationError) as refused:
        services.absent_seats_give(
            session=session,
            choices=[
                services.AbsentSeatChoice(
                    absent=player(tournament, 4), substitute=player(tournament, 17), withdraw=True
                ),
                services.AbsentSeatChoice(
                    absent=player(tournament, 9), substitute=player(tournament, 17)
                ),
            ],
        )
    assert "substitute_9" in refused.value.message_dict
    assert not Seat.objects.filter(session=session, player__number=17).exists()
    assert player(tournament, 4).is_active
    # A seated player cannot take another absent player's seat.
    with pytest.raises(ValidationError) as refused:
        services.absent_seats_give(
            session=session,
            choices=[
                services.AbsentSeatChoice(
                    absent=player(tournament, 4), substitute=player(tournament, 9)
                )
            ],
        )
    assert "already has a seat" in refused.value.message_dict["substitute_4"][0]


def test_a_player_who_checked_in_keeps_the_seat(tournament, drawn_with_substitutes):
    with pytest.raises(ValidationError) as refused:
        services.absent_seats_give(
            session=drawn_with_substitutes,
            choices=[
                services.AbsentSeatChoice(
                    absent=player(tournament, 5), substitute=player(tournament, 17)
                )
            ],
        )
    assert "has checked in" in refused.value.message_dict["substitute_5"][0]
    assert not Seat.objects.filter(player__number=17).exists()
