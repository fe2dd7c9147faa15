"""The figures the public and registration pages show, read in a fixed number of queries."""

import pytest

from tests.conftest import make_players
from tournament import services
from tournament.selectors.overview import tournament_overview
from tournament.selectors.seating import session_tables
from tournament.selectors.withdrawals import registration_summary, unconfirmed_table_count


def confirm(session, table_number, user):
    table = session.tables.get(number=table_number)
    services.table_confirm(table=table, user=user, record_missing_as_not_played=True)


# ---------------------------------------------------------------- the overview


def test_overview_counts_each_sessions_tables_and_confirmed_tables(organiser, session_in_play):
    tournament = session_in_play.tournament
    services.session_draw(tournament=tournament, number=2, seed=2)
    confirm(session_in_play, 3, organiser)

    overview = tournament_overview(tournament)

    assert [(s.number, s.table_count, s.confirmed_count) for s in overview.sessions] == [
        (1, 4, 1),
        (2, 4, 0),
    ]


def test_overview_counts_only_active_players(tournament):
    make_players(tournament, 5)
    services.player_withdraw(player=tournament.players.get(number=2))
    overview = tournament_overview(tournament)
    assert overview.active_players == 4
    assert overview.sessions == []


def test_unconfirmed_tables_are_counted_across_sessions(organiser, session_in_play):
    services.session_draw(tournament=session_in_play.tournament, number=2, seed=2)
    confirm(session_in_play, 1, organiser)
    assert unconfirmed_table_count(session_in_play.tournament) == 7


# ---------------------------------------------------------------- the player list


def test_registration_summary_when_substitutes_fill_the_last_table(tournament):
    make_players(tournament, 7)
    make_players(tournament, 3, start=8, is_substitute=True)
    services.player_withdraw(player=tournament.players.get(number=7))

    summary = registration_summary(tournament)

    # Six regular players and two of the three substitutes fill two tables.
    assert (summary.active, summary.substitutes, summary.withdrawn) == (9, 3, 1)
    assert summary.draw_ready is True
    assert summary.draw_problem == ""
    assert summary.table_count == 2
    assert summary.spare_substitutes == 1


def test_registration_summary_says_why_the_draw_is_refused(tournament):
    make_players(tournament, 3)
    summary = registration_summary(tournament)
    assert summary.draw_ready is False
    assert summary.draw_problem == (
        "3 active players, not counting substitutes, cannot fill tables of four. "
        "Register 1 more substitute to fill the last table."
    )
    assert (summary.table_count, summary.spare_substitutes) == (0, 0)


@pytest.mark.parametrize("players", [4, 40])
def test_registration_summary_reads_two_queries(tournament, django_assert_num_queries, players):
    make_players(tournament, players)
    with django_assert_num_queries(2):  # the counts, the players a draw would seat
        registration_summary(tournament)


# ---------------------------------------------------------------- the seating page


def test_session_tables_list_tables_by_number_and_seats_east_to_north(session_in_play):
    tables = session_tables(session_in_play)
    assert [t.number for t in tables] == [1, 2, 3, 4]
    for seated in tables:
        assert [seat.seat for seat in seated.seats] == [0, 1, 2, 3]
        assert {seat.table for seat in seated.seats} == {seated.number}


def test_session_tables_show_whom_a_substitute_replaces(session_in_play):
    tournament = session_in_play.tournament
    (substitute,) = make_players(tournament, 1, start=17, is_substitute=True)
    seat = session_in_play.seats.get(table__number=2, seat=1)
    replaced = seat.player
    services.seat_replace(seat=seat, player=substitute)

    seated = session_tables(session_in_play)[1]

    assert seated.seats[1].player.number == substitute.number
    assert seated.seats[1].player.is_substitute
    assert seated.seats[1].replaces.number == replaced.number


@pytest.mark.parametrize("players", [8, 32])
def test_session_tables_read_one_query(tournament, django_assert_num_queries, players):
    make_players(tournament, players)
    session = services.session_draw(tournament=tournament, number=1, seed=5)
    with django_assert_num_queries(1):  # the seats with their tables and players
        tables = session_tables(session)
        names = [seat.player.name for t in tables for seat in t.seats]
        replaced = [seat.replaces for t in tables for seat in t.seats]
    assert len(names) == players
    assert replaced == [None] * players
