"""What the selectors say of withdrawn players and substitutes: the seats withdrawn players
still hold, the substitutes who have sat at a table against the federation's limit, the
player pages' planned sessions, and why a draw is refused."""

import pytest

from tests.conftest import make_players
from tournament import seating, services
from tournament.models import SeatingPlan
from tournament.selectors.overview import tournament_overview
from tournament.selectors.referees import session_referee_tables
from tournament.selectors.seating import (
    player_planned_sessions,
    players_for_draw,
    session_seats_by_name,
    session_tables,
)
from tournament.selectors.withdrawals import (
    SubstituteCount,
    substitute_count,
    substitute_limit_warning,
    withdrawn_seated,
)


@pytest.fixture
def drawn(tournament):
    """Players 1..16 drawn by lot into session 1 (not open); substitutes 17, 18 and 19."""
    make_players(tournament, 16)
    make_players(tournament, 3, start=17, is_substitute=True)
    return services.session_draw(tournament=tournament, number=1, seed=5)


def player(tournament, number):
    return tournament.players.get(number=number)


def give_seat(session, number, to):
    seat = session.seats.get(player__number=number)
    return services.seat_replace(seat=seat, player=player(session.tournament, to))


# ---------------------------------------------------------------- withdrawn players seated


def test_the_withdrawn_players_still_seated_are_listed_by_table(drawn, django_assert_num_queries):
    tournament = drawn.tournament
    for number in (12, 3):
        services.player_withdraw(player=player(tournament, number))
    tables = {n: drawn.seats.get(player__number=n).table.number for n in (3, 12)}

    with django_assert_num_queries(1):
        seated = withdrawn_seated(drawn)

    expected = sorted((tables[n], drawn.seats.get(player__number=n).seat, n) for n in (3, 12))
    assert [(each.table, each.player.number) for each in seated] == [
        (table, n) for table, _seat, n in expected
    ]


def test_a_seat_given_to_a_substitute_is_no_longer_held_by_the_withdrawn_player(drawn):
    services.player_withdraw(player=player(drawn.tournament, 3))
    give_seat(drawn, 3, 17)
    assert withdrawn_seated(drawn) == []


def test_the_seat_lists_mark_withdrawn_players_until_their_seat_is_given_away(drawn):
    tournament = drawn.tournament
    services.player_withdraw(player=player(tournament, 3))

    marked = [s.player.number for s in session_seats_by_name(drawn) if s.player.withdrawn]
    assert marked == [3]
    tables = session_tables(drawn)
    assert [s.player.number for t in tables for s in t.seats if s.player.withdrawn] == [3]

    give_seat(drawn, 3, 17)
    tables = session_tables(drawn)
    assert not any(s.player.withdrawn for t in tables for s in t.seats)
    (replaced,) = [s for t in tables for s in t.seats if s.replaces]
    assert (replaced.player.number, replaced.replaces.number) == (17, 3)


def test_the_referees_lists_mark_withdrawn_players(drawn):
    services.session_open(session=drawn)
    services.player_withdraw(player=player(drawn.tournament, 3))
    rows = session_referee_tables(drawn)
    marked = [(p.number, p.name) for row in rows for p in row.players if p.withdrawn]
    assert marked == [(3, "Player 3")]
    assert sum(len(row.players) for row in rows) == 16


def test_the_overview_counts_the_withdrawn_players_seated_in_each_session(drawn):
    tournament = drawn.tournament
    services.player_withdraw(player=player(tournament, 3))
    services.player_withdraw(player=player(tournament, 4))
    give_seat(drawn, 4, 17)
    overview = tournament_overview(tournament)
    assert [(s.number, s.withdrawn_seated) for s in overview.sessions] == [(1, 1)]


# ---------------------------------------------------------------- the substitute limit


def test_substitutes_count_once_they_hold_a_seat_played_or_not(drawn, django_assert_num_queries):
    tournament = drawn.tournament
    assert substitute_count(tournament).seated == 0
    give_seat(drawn, 3, 17)
    give_seat(drawn, 4, 18)
    # A second seat of the same substitute counts once.
    second = services.session_draw(tournament=tournament, number=2, seed=6)
    seat = second.seats.exclude(player__number__in=(17, 18)).first()
    services.seat_replace(seat=seat, player=player(tournament, 17))

    with django_assert_num_queries(1):
        count = substitute_count(tournament)

    assert count == SubstituteCount(seated=2, limit=3)
    assert count.beyond_limit == 0
    assert tournament_overview(tournament).substitutes == count


def test_a_substitute_whose_seat_went_back_no_longer_counts(drawn):
    give_seat(drawn, 3, 17)
    give_seat(drawn, 17, 3)
    assert substitute_count(drawn.tournament).seated == 0


def test_a_regular_player_never_counts_as_a_substitute(drawn):
    services.player_withdraw(player=player(drawn.tournament, 3))
    give_seat(drawn, 3, 17)
    services.session_cancel_draw(session=drawn)
    assert substitute_count(drawn.tournament).seated == 0


def test_seating_a_substitute_beyond_the_limit_is_warned_of(drawn):
    tournament = drawn.tournament
    services.tournament_update(tournament=tournament, substitute_limit=2)
    give_seat(drawn, 3, 17)
    give_seat(drawn, 4, 18)

    warning = substitute_limit_warning(tournament, [player(tournament, 19)])

    assert warning == (
        "Seating 19 Player 19 brings the substitutes who have sat at a table to 3: "
        "the federation counts only 2 substitutes."
    )


def test_a_limit_of_one_is_said_in_the_singular(drawn):
    tournament = drawn.tournament
    services.tournament_update(tournament=tournament, substitute_limit=1)
    give_seat(drawn, 3, 17)
    newcomers = [player(tournament, 19), player(tournament, 18), player(tournament, 5)]
    assert substitute_limit_warning(tournament, newcomers) == (
        "Seating 18 Player 18, 19 Player 19 brings the substitutes who have sat at a table "
        "to 3: the federation counts only 1 substitute."
    )


def test_no_warning_within_the_limit_for_a_regular_player_or_a_substitute_seen_before(
    drawn, django_assert_num_queries
):
    tournament = drawn.tournament
    services.tournament_update(tournament=tournament, substitute_limit=1)
    assert substitute_limit_warning(tournament, [player(tournament, 17)]) == ""
    give_seat(drawn, 3, 17)
    # Substitute 17 has sat already: seating it again adds nobody the federation counts.
    assert substitute_limit_warning(tournament, [player(tournament, 17)]) == ""
    regular = [player(tournament, 5)]
    with django_assert_num_queries(0):
        assert substitute_limit_warning(tournament, regular) == ""


# ---------------------------------------------------------------- the player pages


@pytest.fixture
def planned(tournament):
    """Players 1..16 on the whole-tournament plan, session 1 drawn."""
    services.tournament_update(tournament=tournament, seating_method="planned")
    make_players(tournament, 16)
    services.session_draw(tournament=tournament, number=1, seed=777)
    return tournament


def planned_opponents(tournament, number):
    return {
        row.session: [opponent.number if opponent else None for _label, opponent in row.opponents]
        for row in player_planned_sessions(player(tournament, number))
    }


def test_a_withdrawn_player_has_no_planned_sessions(planned):
    assert len(player_planned_sessions(player(planned, 5))) == 3
    services.player_withdraw(player=player(planned, 5))
    assert player_planned_sessions(player(planned, 5)) == []


def test_a_withdrawn_opponent_is_a_seat_to_be_filled(planned):
    plan = SeatingPlan.objects.get(tournament=planned)
    (table,) = [t for t in plan.sessions[1] if 5 in t]
    other = next(n for n in table if n != 5)
    services.player_withdraw(player=player(planned, 5))

    opponents = planned_opponents(planned, other)

    # Each planned session: the plan's table without the player, player 5 left unnamed.
    expected = {}
    for session, tables in enumerate(plan.sessions[1:], start=2):
        (own,) = [t for t in tables if other in t]
        expected[session] = [None if n == 5 else n for n in own if n != other]
    assert opponents == expected
    assert opponents[2].count(None) == 1


# ---------------------------------------------------------------- why a draw is refused


@pytest.mark.parametrize(
    ("regular", "substitutes", "message"),
    [
        (
            15,
            0,
            "15 active players, not counting substitutes, cannot fill tables of four. Register "
            "1 more substitute to fill the last table. Otherwise, withdraw 3 players so that "
            "the others fill whole tables.",
        ),
        (
            13,
            1,
            "13 active players, not counting substitutes, cannot fill tables of four. Register "
            "2 more substitutes to fill the last table. Otherwise, withdraw 1 player so that "
            "the others fill whole tables.",
        ),
        (
            1,
            0,
            "1 active player, not counting substitutes, cannot fill tables of four. Register "
            "3 more substitutes to fill the last table.",
        ),
    ],
)
def test_a_refused_draw_counts_players_without_the_substitutes(
    tournament, regular, substitutes, message
):
    make_players(tournament, regular)
    make_players(tournament, substitutes, start=100, is_substitute=True)
    # A withdrawn substitute is not among them either.
    services.player_withdraw(player=make_players(tournament, 1, start=200, is_substitute=True)[0])
    with pytest.raises(seating.DrawError) as refused:
        players_for_draw(tournament)
    assert refused.value.message == message
    assert refused.value.code == "not_multiple_of_four"
