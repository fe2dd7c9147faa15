"""session_open, session_close and session_reopen: a drawn session's play, from start to end."""

import pytest
from django.core.exceptions import ValidationError

from tests.conftest import make_players
from tests.services.errors import codes
from tournament import services
from tournament.models import Session, Table


@pytest.fixture
def drawn(tournament):
    """Session 1 drawn for 16 players (4 tables), not opened yet."""
    make_players(tournament, 16)
    return services.session_draw(tournament=tournament, number=1, seed=20261130)


def stored(session) -> Session:
    return Session.objects.get(pk=session.pk)


def confirm(session, *tables, user=None):
    for table in session.tables.filter(number__in=tables):
        services.table_confirm(table=table, user=user, record_missing_as_not_played=True)


def test_a_drawn_session_is_neither_open_nor_closed(drawn):
    assert (drawn.opened_at, drawn.closed_at, drawn.status) == (None, None, "drawn")


def test_opening_a_session_puts_it_in_play(drawn):
    services.session_open(session=drawn)
    session = stored(drawn)
    assert session.opened_at is not None
    assert session.is_in_play
    assert session.status == "in_play"


def test_opening_twice_keeps_the_first_opening_time(drawn):
    opened_at = services.session_open(session=drawn).opened_at
    again = services.session_open(session=stored(drawn))
    assert again.opened_at == opened_at
    assert stored(drawn).opened_at == opened_at


def withdraw_seated(session, *numbers):
    """Withdraw players ``numbers`` after the draw: their seats stay theirs until given away."""
    for number in numbers:
        services.player_withdraw(player=session.tournament.players.get(number=number))
    return {n: session.seats.get(player__number=n).table.number for n in numbers}


def test_opening_is_refused_while_a_withdrawn_player_holds_a_seat(drawn):
    tables = withdraw_seated(drawn, 3)
    with pytest.raises(ValidationError) as raised:
        services.session_open(session=drawn)
    assert codes(raised.value) == {"withdrawn_seated"}
    assert raised.value.messages == [
        f"A withdrawn player still holds a seat in session 1: 3 Player 3 at table {tables[3]}. "
        "Give the seat to a substitute (Change seats), or open the session confirming that "
        "they are playing after all."
    ]
    assert stored(drawn).opened_at is None


def test_the_refusal_names_every_withdrawn_player_with_their_table(drawn):
    tables = withdraw_seated(drawn, 9, 2)
    with pytest.raises(ValidationError) as raised:
        services.session_open(session=drawn)
    # By table, then seat: as the organiser walks the room.
    listed = sorted([(tables[2], 2), (tables[9], 9)])
    players = ", ".join(f"{n} Player {n} at table {t}" for t, n in listed)
    assert raised.value.messages == [
        f"Withdrawn players still hold seats in session 1: {players}. Give their seats to "
        "substitutes (Change seats), or open the session confirming that they are playing "
        "after all."
    ]
    assert stored(drawn).opened_at is None


def test_the_organiser_may_confirm_that_they_are_playing_after_all(drawn):
    withdraw_seated(drawn, 3)
    services.session_open(session=drawn, playing_after_all=True)
    assert stored(drawn).status == "in_play"


def test_opening_is_allowed_once_the_seat_is_given_to_a_substitute(drawn):
    tournament = drawn.tournament
    withdraw_seated(drawn, 3)
    sub = services.player_save(tournament=tournament, number=17, name="Sub", is_substitute=True)
    services.seat_replace(seat=drawn.seats.get(player__number=3), player=sub)
    services.session_open(session=drawn)
    assert stored(drawn).status == "in_play"


def test_a_reinstated_player_no_longer_stops_the_opening(drawn):
    withdraw_seated(drawn, 3)
    services.player_reinstate(player=drawn.tournament.players.get(number=3))
    services.session_open(session=drawn)
    assert stored(drawn).status == "in_play"


def test_a_withdrawal_after_the_opening_does_not_undo_it(session_in_play):
    opened_at = stored(session_in_play).opened_at
    withdraw_seated(session_in_play, 3)
    services.session_open(session=stored(session_in_play))
    assert stored(session_in_play).opened_at == opened_at


def test_a_closed_session_cannot_be_opened(session_in_play, organiser):
    confirm(session_in_play, 1, 2, 3, 4, user=organiser)
    services.session_close(session=session_in_play)
    with pytest.raises(ValidationError) as raised:
        services.session_open(session=stored(session_in_play))
    assert codes(raised.value) == {"session_closed"}
    assert stored(session_in_play).status == "closed"


def test_closing_is_refused_while_tables_are_not_confirmed_and_names_them(
    session_in_play, organiser
):
    confirm(session_in_play, 2, user=organiser)
    with pytest.raises(ValidationError) as raised:
        services.session_close(session=session_in_play)
    assert codes(raised.value) == {"tables_not_confirmed"}
    assert raised.value.messages == ["Tables not confirmed yet: 1, 3, 4."]
    assert stored(session_in_play).closed_at is None


def test_a_session_closes_once_every_table_is_confirmed(session_in_play, organiser):
    confirm(session_in_play, 1, 2, 3, 4, user=organiser)
    closed_at = services.session_close(session=session_in_play).closed_at
    session = stored(session_in_play)
    assert session.closed_at == closed_at is not None
    assert session.status == "closed"
    assert not session.is_in_play


def test_closing_twice_keeps_the_first_closing_time(session_in_play, organiser):
    confirm(session_in_play, 1, 2, 3, 4, user=organiser)
    closed_at = services.session_close(session=session_in_play).closed_at
    assert services.session_close(session=stored(session_in_play)).closed_at == closed_at


def test_reopening_a_closed_session_puts_it_back_in_play(session_in_play, organiser):
    opened_at = session_in_play.opened_at
    confirm(session_in_play, 1, 2, 3, 4, user=organiser)
    services.session_close(session=session_in_play)

    services.session_reopen(session=stored(session_in_play))

    session = stored(session_in_play)
    assert (session.closed_at, session.opened_at) == (None, opened_at)
    assert session.is_in_play
    # The tables stay confirmed: reopening the session unlocks nothing at the tables.
    assert not session.tables.filter(confirmed_at__isnull=True).exists()
    assert services.session_open(session=session).opened_at == opened_at


def test_reopening_a_session_in_play_changes_nothing(session_in_play):
    services.session_reopen(session=session_in_play)
    session = stored(session_in_play)
    assert (session.opened_at, session.closed_at) == (session_in_play.opened_at, None)


# table_extra_time: an organiser's extra minutes for one table.


def extra_minutes(session, number: int = 1) -> int:
    return session.tables.values_list("extra_minutes", flat=True).get(number=number)


def test_extra_time_is_given_to_one_table_only(session_in_play):
    table = session_in_play.tables.get(number=2)
    assert services.table_extra_time(table=table, minutes=10).extra_minutes == 10
    assert [extra_minutes(session_in_play, n) for n in (1, 2, 3, 4)] == [0, 10, 0, 0]


@pytest.mark.parametrize("minutes", [0, 1, 240])
def test_extra_time_replaces_what_the_table_had(session_in_play, minutes):
    table = session_in_play.tables.get(number=1)
    services.table_extra_time(table=table, minutes=15)
    services.table_extra_time(table=table, minutes=minutes)
    assert extra_minutes(session_in_play) == minutes


def test_extra_time_may_be_given_before_the_session_opens(drawn):
    services.table_extra_time(table=drawn.tables.get(number=1), minutes=5)
    assert extra_minutes(drawn) == 5


@pytest.mark.parametrize("minutes", [-1, 241, 1000, "10", None, 10.0, True])
def test_extra_time_is_a_whole_number_from_0_to_240(session_in_play, minutes):
    table = session_in_play.tables.get(number=1)
    services.table_extra_time(table=table, minutes=5)
    with pytest.raises(ValidationError) as raised:
        services.table_extra_time(table=table, minutes=minutes)
    assert codes(raised.value) == {"bad_extra_minutes"}
    assert raised.value.message_dict == {
        "minutes": ["Extra minutes are a whole number from 0 to 240."]
    }
    assert extra_minutes(session_in_play) == 5


def test_extra_time_is_refused_once_the_session_is_closed(session_in_play, organiser):
    table = Table.objects.select_related("session").get(session=session_in_play, number=1)
    confirm(session_in_play, 1, 2, 3, 4, user=organiser)
    services.session_close(session=session_in_play)
    # The caller's copy of the table still shows the session open: the service reads it again.
    assert table.session.closed_at is None
    with pytest.raises(ValidationError) as raised:
        services.table_extra_time(table=table, minutes=10)
    assert codes(raised.value) == {"session_closed"}
    assert extra_minutes(session_in_play) == 0


# ---------------------------------------------------------------- table device links


def test_revoking_a_sessions_device_links_raises_its_version(session_in_play):
    assert services.device_links_revoke(session=session_in_play).device_links_version == 2
    assert stored(session_in_play).device_links_version == 2


def test_each_revocation_counts_even_from_a_stale_copy(session_in_play):
    stale = Session.objects.get(pk=session_in_play.pk)
    services.device_links_revoke(session=session_in_play)
    assert services.device_links_revoke(session=stale).device_links_version == 3


def test_revoking_a_sessions_links_leaves_the_other_sessions_and_the_tables(tournament):
    make_players(tournament, 16)
    first = services.session_draw(tournament=tournament, number=1, seed=1)
    second = services.session_draw(tournament=tournament, number=2, seed=2)
    services.device_links_revoke(session=first)
    assert stored(second).device_links_version == 1
    assert set(Table.objects.values_list("device_link_version", flat=True)) == {1}


def test_revoking_one_tables_device_link_raises_its_version_only(session_in_play):
    table = session_in_play.tables.get(number=2)
    assert services.device_link_revoke(table=table).device_link_version == 2
    versions = dict(session_in_play.tables.values_list("number", "device_link_version"))
    assert versions == {1: 1, 2: 2, 3: 1, 4: 1}
    assert stored(session_in_play).device_links_version == 1
