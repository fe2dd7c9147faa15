"""session_draw by every method, session_cancel_draw and seat_replace: the draw services."""

from itertools import combinations

import pytest
from django.core.exceptions import ValidationError

from tests.conftest import make_players, make_tournament
from tests.services.errors import codes
from tournament import seating, services
from tournament.language import translated
from tournament.models import Seat, SeatingPlan, Session, Table
from tournament.seating.draw import SEED_MAX, SEED_MIN
from tournament.seating.published import replan_from_input
from tournament.selectors.seating import drawn_tables
from tournament.selectors.withdrawals import SubstituteCount, substitute_count
from tournament.services import draws

METHODS = ["lot", "planned", "random", "standings", "serpentine", "top_tables"]


def tables_of(tournament, number: int) -> list[tuple[int, ...]]:
    """Session ``number``'s tables as drawn, each its players' numbers East..North."""
    return drawn_tables(tournament)[number]


def seated_numbers(session) -> list[int]:
    return sorted(session.seats.values_list("player__number", flat=True))


def pairs(tables) -> set[frozenset[int]]:
    return {frozenset(pair) for table in tables for pair in combinations(table, 2)}


@pytest.fixture
def sixteen(tournament):
    """Players 1..16 in the tournament of the fixtures (4 sessions, seated by lot)."""
    make_players(tournament, 16)
    return tournament


@pytest.fixture
def twin(organiser):
    """A second tournament with the same 16 players, to redraw a draw with its seed."""
    other = make_tournament(creator=organiser, slug="twin-open")
    make_players(other, 16)
    return other


# ---------------------------------------------------------------- every method


@pytest.mark.parametrize("method", METHODS)
def test_every_active_player_is_seated_once_at_tables_of_four(tournament, method):
    make_players(tournament, 16)
    services.player_withdraw(player=tournament.players.get(number=7))
    services.player_save(tournament=tournament, number=17, name="Sub", is_substitute=True)
    services.player_save(tournament=tournament, number=18, name="Spare", is_substitute=True)

    session = services.session_draw(tournament=tournament, number=1, seed=424242, method=method)

    assert (session.number, session.method, session.seed) == (1, method, 424242)
    # 15 active regular players: the lowest substitute fills the fourth table.
    assert seated_numbers(session) == [n for n in range(1, 18) if n != 7]
    assert list(session.tables.values_list("number", flat=True)) == [1, 2, 3, 4]
    for table in session.tables.all():
        assert sorted(table.seats.values_list("seat", flat=True)) == [0, 1, 2, 3]
    assert sorted(session.seats.values_list("lot", flat=True)) == list(range(1, 17))


@pytest.mark.parametrize("method", METHODS)
def test_a_draw_without_a_seed_stores_one_that_redraws_the_same_seats(sixteen, twin, method):
    session = services.session_draw(tournament=sixteen, number=1, method=method)
    assert SEED_MIN <= session.seed <= SEED_MAX

    again = services.session_draw(tournament=twin, number=1, seed=session.seed, method=method)

    assert tables_of(twin, 1) == tables_of(sixteen, 1)
    lots = {(s.table.number, s.seat, s.lot) for s in session.seats.select_related("table")}
    assert {(s.table.number, s.seat, s.lot) for s in again.seats.select_related("table")} == lots


@pytest.mark.parametrize("method", ["random", "standings", "serpentine", "top_tables"])
def test_a_session_mode_stores_what_it_seated_from(sixteen, method):
    services.session_draw(tournament=sixteen, number=1, seed=3, method="lot")
    session = services.session_draw(tournament=sixteen, number=2, seed=9, method=method)
    draw_input = session.draw_input
    assert (draw_input["mode"], draw_input["seed"], draw_input["top"]) == (method, 9, 1)
    assert draw_input["players"] == list(range(1, 17))
    assert draw_input["history"] == [[list(t) for t in tables_of(sixteen, 1)]]
    assert sorted(draw_input["ranking"]) == list(range(1, 17))


@pytest.mark.parametrize("method", ["lot", "planned"])
def test_lot_and_planned_draws_need_no_stored_input(sixteen, method):
    session = services.session_draw(tournament=sixteen, number=1, seed=9, method=method)
    assert session.draw_input is None


def test_the_tournament_method_is_used_when_none_is_given(sixteen):
    services.tournament_update(tournament=sixteen, seating_method="serpentine")
    assert services.session_draw(tournament=sixteen, number=1, seed=1).method == "serpentine"


def test_the_draw_by_lot_is_the_published_sha256_draw(tournament):
    # Registration numbers with gaps: the lot is drawn on the numbers, not on positions.
    for number in (2, 3, 5, 8, 13, 21, 34, 55):
        services.player_save(tournament=tournament, number=number, name=f"Player {number}")
    session = services.session_draw(tournament=tournament, number=1, seed=20261130)

    expected = {
        (a.player, a.table, a.seat, a.lot)
        for a in seating.draw_by_lot([2, 3, 5, 8, 13, 21, 34, 55], 20261130)
    }
    stored = session.seats.values_list("player__number", "table__number", "seat", "lot")
    assert set(stored) == expected


# ---------------------------------------------------------------- substitutes


def test_substitutes_top_up_the_last_table_lowest_number_first(tournament):
    make_players(tournament, 14)
    for number in (19, 15, 17):  # registered out of order on purpose
        services.player_save(tournament=tournament, number=number, name="Sub", is_substitute=True)
    session = services.session_draw(tournament=tournament, number=1, seed=1)
    assert seated_numbers(session) == [*range(1, 15), 15, 17]


def test_no_substitute_is_seated_when_the_regular_players_fill_the_tables(sixteen):
    services.player_save(tournament=sixteen, number=17, name="Sub", is_substitute=True)
    session = services.session_draw(tournament=sixteen, number=1, seed=1)
    assert seated_numbers(session) == list(range(1, 17))


# ---------------------------------------------------------------- refusals


def refused(**draw) -> ValidationError:
    with pytest.raises(ValidationError) as raised:
        services.session_draw(**draw)
    return raised.value


@pytest.mark.parametrize("number", [0, 5])
def test_a_session_outside_the_tournament_is_refused(sixteen, number):
    error = refused(tournament=sixteen, number=number, seed=1)
    assert codes(error) == {"session_out_of_range"}
    assert "number" in error.error_dict
    assert not Session.objects.exists()


def test_a_session_is_drawn_only_once_and_the_first_draw_stands(sixteen):
    first = services.session_draw(tournament=sixteen, number=1, seed=1)
    seats = tables_of(sixteen, 1)
    error = refused(tournament=sixteen, number=1, seed=2)
    assert codes(error) == {"session_already_drawn"}
    assert "number" in error.error_dict
    assert list(sixteen.sessions.values_list("pk", "seed")) == [(first.pk, 1)]
    assert tables_of(sixteen, 1) == seats


def test_an_unknown_method_is_refused(sixteen):
    error = refused(tournament=sixteen, number=1, seed=1, method="sideways")
    assert codes(error) == {"unknown_method"}
    assert "method" in error.error_dict
    assert not Session.objects.exists()


def test_players_who_cannot_fill_tables_of_four_are_refused(tournament):
    make_players(tournament, 14)
    services.player_save(tournament=tournament, number=15, name="Sub", is_substitute=True)
    error = refused(tournament=tournament, number=1, seed=1)
    assert codes(error) == {"not_multiple_of_four"}
    # The substitute is not counted among the players; with it seated, one is still missing.
    assert error.messages == [
        "14 active players, not counting substitutes, cannot fill tables of four. Register 1 "
        "more substitute to fill the last table. Otherwise, withdraw 2 players so that the "
        "others fill whole tables."
    ]
    assert not Session.objects.exists()


def test_a_tournament_without_active_players_is_refused(tournament):
    (player,) = make_players(tournament, 1)
    services.player_withdraw(player=player)
    assert codes(refused(tournament=tournament, number=1, seed=1)) == {"no_players"}


@pytest.mark.parametrize("top", [0, 5])
def test_top_tables_outside_the_tables_are_refused(sixteen, top):
    error = refused(tournament=sixteen, number=1, seed=1, method="top_tables", top=top)
    assert codes(error) == {"bad_top"}
    assert "top" in error.error_dict
    assert not Session.objects.exists()


@pytest.mark.parametrize("method", ["lot", "planned", "random"])
def test_a_negative_seed_is_refused_beside_the_seed_by_every_method(sixteen, method):
    """Seeds are zero or more (the draw by lot checks it, a check constraint stores it so):
    whatever the method, a negative seed is a bad seed, not a session "already drawn"."""
    error = refused(tournament=sixteen, number=1, seed=-1, method=method)
    assert codes(error) == {"bad_seed"}
    assert "seed" in error.error_dict
    assert not Session.objects.exists()
    assert not SeatingPlan.objects.exists()


# ---------------------------------------------------------------- planned


def test_the_planned_sessions_are_the_published_plan(sixteen):
    for number in (1, 2, 3, 4):
        session = services.session_draw(tournament=sixteen, number=number, method="planned")
    plan = SeatingPlan.objects.get(tournament=sixteen)
    assert {s.seed for s in sixteen.sessions.all()} == {plan.seed}
    assert [tables_of(sixteen, n) for n in (1, 2, 3, 4)] == [
        [tuple(t) for t in tables] for tables in plan.sessions
    ]
    assert (plan.replans, plan.fixed_sessions, plan.reproducible) == (0, 0, True)
    assert session.seats.count() == 16
    assert plan.first_players == plan.players == list(range(1, 17))
    assert plan.replan_inputs == []


def test_a_plan_keeps_its_seed_and_accepts_it_again(sixteen):
    services.session_draw(tournament=sixteen, number=1, seed=777, method="planned")
    error = refused(tournament=sixteen, number=2, seed=778, method="planned")
    assert codes(error) == {"plan_seed_fixed"}
    assert "seed" in error.error_dict
    assert not sixteen.sessions.filter(number=2).exists()
    assert (
        services.session_draw(tournament=sixteen, number=2, seed=777, method="planned").seed == 777
    )


def test_a_withdrawal_after_session_1_re_plans_the_sessions_to_come(sixteen):
    services.session_draw(tournament=sixteen, number=1, seed=31, method="planned")
    first = tables_of(sixteen, 1)
    services.player_withdraw(player=sixteen.players.get(number=5))
    services.player_save(tournament=sixteen, number=17, name="Sub", is_substitute=True)

    second = services.session_draw(tournament=sixteen, number=2, method="planned")

    plan = SeatingPlan.objects.get(tournament=sixteen)
    assert plan.replans == 1
    assert not plan.reproducible
    assert tables_of(sixteen, 1) == first
    assert [tuple(t) for t in plan.sessions[0]] == first
    assert plan.players == [n for n in range(1, 18) if n != 5]
    assert second.seed == plan.seed == 31
    assert seated_numbers(second) == [n for n in range(1, 18) if n != 5]
    assert tables_of(sixteen, 2) == [tuple(t) for t in plan.sessions[1]]
    assert pairs(tables_of(sixteen, 2)).isdisjoint(pairs(first))


def test_a_re_plan_keeps_the_first_players_and_the_input_that_reproduces_it(sixteen):
    services.session_draw(tournament=sixteen, number=1, seed=31, method="planned")
    published = SeatingPlan.objects.get(tournament=sixteen).sessions
    services.player_withdraw(player=sixteen.players.get(number=5))
    services.player_save(tournament=sixteen, number=17, name="Sub", is_substitute=True)
    services.session_draw(tournament=sixteen, number=2, method="planned")
    after_first = SeatingPlan.objects.get(tournament=sixteen).sessions
    services.player_withdraw(player=sixteen.players.get(number=9))
    services.player_save(tournament=sixteen, number=18, name="Spare", is_substitute=True)
    services.session_draw(tournament=sixteen, number=3, method="planned")

    plan = SeatingPlan.objects.get(tournament=sixteen)
    assert plan.first_players == list(range(1, 17))
    assert plan.replans == len(plan.replan_inputs) == 2
    first, second = plan.replan_inputs
    # Each input holds the sessions drawn as drawn, then the schedule before it.
    assert first["schedule"] == published
    assert (first["played"], first["seed"]) == (1, 31)
    assert first["players"] == [n for n in range(1, 18) if n != 5]
    assert second["schedule"][:2] == [[list(t) for t in tables_of(sixteen, n)] for n in (1, 2)]
    assert second["schedule"][2:] == after_first[2:]
    assert second["players"] == [n for n in range(1, 19) if n not in (5, 9)]
    # Run again, the last input gives the schedule as it stands.
    assert replan_from_input(second).sessions == plan.sessions
    assert replan_from_input(first).sessions == after_first


def test_a_plan_after_sessions_drawn_another_way_keeps_them(sixteen):
    services.session_draw(tournament=sixteen, number=1, seed=3, method="lot")
    services.session_draw(tournament=sixteen, number=2, seed=3, method="planned")
    plan = SeatingPlan.objects.get(tournament=sixteen)
    assert plan.fixed_sessions == 1
    assert [tuple(t) for t in plan.sessions[0]] == tables_of(sixteen, 1)


def test_a_plan_needs_the_sessions_drawn_before_it_in_order(sixteen):
    services.session_draw(tournament=sixteen, number=2, seed=3, method="lot")
    error = refused(tournament=sixteen, number=1, seed=3, method="planned")
    assert codes(error) == {"plan_needs_sessions_in_order"}
    assert not SeatingPlan.objects.exists()


def test_a_plan_cannot_keep_a_session_that_seated_a_withdrawn_player(sixteen):
    services.session_draw(tournament=sixteen, number=1, seed=3, method="lot")
    services.player_withdraw(player=sixteen.players.get(number=5))
    services.player_save(tournament=sixteen, number=17, name="Sub", is_substitute=True)
    error = refused(tournament=sixteen, number=2, seed=3, method="planned")
    assert codes(error) == {"plan_roster_changed"}
    assert not SeatingPlan.objects.exists()


def test_a_plan_cannot_keep_a_session_that_left_out_a_player_registered_since(sixteen):
    services.session_draw(tournament=sixteen, number=1, seed=3, method="lot")
    for number in range(17, 21):
        services.player_save(tournament=sixteen, number=number, name=f"Late {number}")
    error = refused(tournament=sixteen, number=2, seed=3, method="planned")
    assert codes(error) == {"plan_roster_changed"}
    assert "do not seat every active player" in error.message_dict["number"][0]
    assert not SeatingPlan.objects.exists()
    # A session-by-session method seats them.
    services.session_draw(tournament=sixteen, number=2, seed=3, method="random")
    assert sorted(p for table in tables_of(sixteen, 2) for p in table) == list(range(1, 21))


def test_what_the_seating_core_refuses_is_a_form_error_in_the_reader_words(sixteen, monkeypatch):
    # No draw the service lets through reaches a refusal of the core today; one that did
    # would be shown in the core's words through gettext, never as a server error.
    def refuse(*args, **kwargs):
        raise seating.SeatingError("A player is listed more than once.", code="duplicate_player")

    monkeypatch.setattr(draws.modes, "seat_session", refuse)
    monkeypatch.setattr(translated, "gettext", lambda text: f"«{text}»")
    error = refused(tournament=sixteen, number=1, seed=3, method="random")
    assert error.messages == ["«A player is listed more than once.»"]
    assert codes(error) == {"duplicate_player"}
    assert not Session.objects.exists()


# ---------------------------------------------------------------- session_cancel_draw


def test_a_cancelled_draw_leaves_no_session_table_or_seat_and_can_be_redrawn(sixteen):
    session = services.session_draw(tournament=sixteen, number=1, seed=1)
    services.session_cancel_draw(session=session)
    assert not Session.objects.exists()
    assert not Table.objects.exists()
    assert not Seat.objects.exists()

    again = services.session_draw(tournament=sixteen, number=1, seed=2)
    assert again.seed == 2
    assert seated_numbers(again) == list(range(1, 17))


def test_a_cancelled_planned_session_is_redrawn_from_the_same_plan(sixteen):
    session = services.session_draw(tournament=sixteen, number=1, seed=31, method="planned")
    published = tables_of(sixteen, 1)
    services.session_cancel_draw(session=session)
    services.session_draw(tournament=sixteen, number=1, method="planned")
    assert tables_of(sixteen, 1) == published
    assert SeatingPlan.objects.get(tournament=sixteen).replans == 0


def test_a_draw_with_a_hand_entered_cannot_be_cancelled(session_in_play):
    seats = tables_of(session_in_play.tournament, 1)
    services.hand_record(
        table=session_in_play.tables.get(number=3),
        entry=services.HandEntry(number=1, outcome="draw"),
    )
    with pytest.raises(ValidationError) as raised:
        services.session_cancel_draw(session=session_in_play)
    assert codes(raised.value) == {"session_has_hands"}
    assert Session.objects.filter(pk=session_in_play.pk).exists()
    assert tables_of(session_in_play.tournament, 1) == seats


# ---------------------------------------------------------------- seat_replace


@pytest.fixture
def drawn(sixteen):
    """Session 1 drawn by lot for players 1..16; substitutes 17 and 18 are not seated."""
    services.player_save(tournament=sixteen, number=17, name="Sub", is_substitute=True)
    services.player_save(tournament=sixteen, number=18, name="Spare", is_substitute=True)
    return services.session_draw(tournament=sixteen, number=1, seed=5)


def seat_of(session, number: int) -> Seat:
    return Seat.objects.get(session=session, player__number=number)


def player(session, number: int):
    return session.tournament.players.get(number=number)


def test_a_substitute_takes_a_seat_and_the_seat_remembers_the_drawn_player(drawn):
    seat = seat_of(drawn, 3)
    where = (seat.table_id, seat.seat, seat.lot)

    replaced = services.seat_replace(seat=seat, player=player(drawn, 17))

    stored = Seat.objects.get(pk=seat.pk)
    assert (replaced.player.number, replaced.replaces.number) == (17, 3)
    assert (stored.player.number, stored.replaces.number) == (17, 3)
    assert (stored.table_id, stored.seat, stored.lot) == where
    assert not Seat.objects.filter(session=drawn, player__number=3).exists()


def test_a_second_replacement_still_remembers_the_player_the_lot_seated(drawn):
    seat = seat_of(drawn, 3)
    services.seat_replace(seat=seat, player=player(drawn, 17))
    services.seat_replace(seat=seat, player=player(drawn, 18))
    stored = Seat.objects.get(pk=seat.pk)
    assert (stored.player.number, stored.replaces.number) == (18, 3)


def test_giving_the_seat_back_to_the_drawn_player_clears_the_replacement(drawn):
    seat = seat_of(drawn, 3)
    services.seat_replace(seat=seat, player=player(drawn, 17))
    services.seat_replace(seat=seat, player=player(drawn, 3))
    stored = Seat.objects.get(pk=seat.pk)
    assert (stored.player.number, stored.replaces) == (3, None)


def test_a_seat_at_a_table_that_started_cannot_change(drawn):
    services.session_open(session=drawn)
    seat = seat_of(drawn, 3)
    services.hand_record(table=seat.table, entry=services.HandEntry(number=1, outcome="draw"))
    with pytest.raises(ValidationError) as raised:
        services.seat_replace(seat=seat, player=player(drawn, 17))
    assert codes(raised.value) == {"table_has_hands"}
    assert Seat.objects.get(pk=seat.pk).player.number == 3


def test_a_seat_at_a_table_without_hands_can_change_while_others_play(drawn):
    services.session_open(session=drawn)
    seat = seat_of(drawn, 3)
    other = drawn.tables.exclude(pk=seat.table_id).first()
    services.hand_record(table=other, entry=services.HandEntry(number=1, outcome="draw"))
    assert services.seat_replace(seat=seat, player=player(drawn, 17)).player.number == 17


def test_a_withdrawn_player_cannot_take_a_seat(drawn):
    substitute = player(drawn, 17)
    services.player_withdraw(player=substitute)
    with pytest.raises(ValidationError) as raised:
        services.seat_replace(seat=seat_of(drawn, 3), player=substitute)
    assert codes(raised.value) == {"player_not_active"}
    assert "player" in raised.value.error_dict
    assert seat_of(drawn, 3).replaces is None


def test_a_player_of_another_tournament_cannot_take_a_seat(drawn, other_tournament):
    (stranger,) = make_players(other_tournament, 1, start=40)
    with pytest.raises(ValidationError) as raised:
        services.seat_replace(seat=seat_of(drawn, 3), player=stranger)
    assert codes(raised.value) == {"player_not_active"}
    assert seat_of(drawn, 3).replaces is None


def test_a_player_already_seated_cannot_take_a_second_seat(drawn):
    with pytest.raises(ValidationError) as raised:
        services.seat_replace(seat=seat_of(drawn, 3), player=player(drawn, 4))
    assert codes(raised.value) == {"player_already_seated"}
    assert "player" in raised.value.error_dict
    assert seat_of(drawn, 3).replaces is None
    assert Seat.objects.filter(session=drawn, player__number=4).count() == 1


# ---------------------------------------------------------------- the substitute limit


def test_a_substitute_beyond_the_limit_still_takes_the_seat(drawn):
    """The federation's limit is a warning, never a refusal: the seat is given."""
    tournament = drawn.tournament
    services.tournament_update(tournament=tournament, substitute_limit=1)
    services.seat_replace(seat=seat_of(drawn, 3), player=player(drawn, 17))
    assert substitute_count(tournament) == SubstituteCount(seated=1, limit=1)

    services.seat_replace(seat=seat_of(drawn, 4), player=player(drawn, 18))

    assert seat_of(drawn, 18).replaces.number == 4
    count = substitute_count(tournament)
    assert (count.seated, count.limit, count.beyond_limit) == (2, 1, 1)


def test_a_draw_seating_a_substitute_beyond_the_limit_is_made(tournament):
    make_players(tournament, 15)
    services.player_save(tournament=tournament, number=16, name="Sub", is_substitute=True)
    services.tournament_update(tournament=tournament, substitute_limit=0)

    session = services.session_draw(tournament=tournament, number=1, seed=5)

    assert 16 in seated_numbers(session)
    assert substitute_count(tournament).beyond_limit == 1
