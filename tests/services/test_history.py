"""Every change to tournament data is kept: who made it (an account or a table's tablet), when,
and the values before and after, whichever service made it, cascaded deletions included.

Services that are given the user record it themselves; the others name the user of the
request being served (``HistoryRequestMiddleware``), which ``serving`` stands in for here.
"""

from contextlib import contextmanager

import pytest
from django.test import RequestFactory
from simple_history.models import HistoricalRecords

from tests.conftest import make_players, make_user
from tournament import services
from tournament.history import audit
from tournament.models import (
    Hand,
    Penalty,
    Player,
    Seat,
    Session,
    Table,
    TableReopening,
    Tournament,
)

DEVICE = "table 1 · 1a2b3c4d"


@contextmanager
def serving(user, *, device_link: str = ""):
    """As during a request of ``user`` (through a table device link when given), as the
    middleware and the table pages set it up."""
    request = RequestFactory().post("/")
    request.user = user
    request.device_link = device_link
    HistoricalRecords.context.request = request
    try:
        yield
    finally:
        del HistoricalRecords.context.request


def latest(model, **filters):
    return model.history.filter(**filters).order_by("-history_id").first()


def changes(record) -> dict:
    """field -> (before, after) of a '~' record against the record before it."""
    delta = record.diff_against(record.prev_record)
    return {change.field: (change.old, change.new) for change in delta.changes}


def win(table, number, **fields):
    user, device = fields.pop("user", None), fields.pop("device", "")
    entry = services.HandEntry(
        number=number,
        outcome=fields.pop("outcome", "self_drawn"),
        winner=fields.pop("winner", 0),
        fan=fields.pop("fan", 8),
        **fields,
    )
    return services.hand_record(table=table, entry=entry, user=user, device=device)


# ------------------------------------------------------------------ tournaments


def test_a_new_tournament_is_kept_with_its_creator_and_accounts(organiser, referee, tournament):
    created, accounts, referee_added = tournament.history.order_by("history_id")
    assert (created.history_type, created.history_user) == ("+", organiser)
    assert created.name == "Spring Open"
    assert (accounts.history_type, accounts.history_user) == ("~", organiser)
    assert [row.user for row in accounts.organisers.all()] == [organiser]
    # The fixture adds the referee with the plain m2m call: kept too, as a change.
    assert [row.user for row in referee_added.referees.all()] == [referee]


def test_settings_and_the_referee_list_change_in_one_record_with_who(
    tournament, organiser, referee
):
    colleague = make_user("colleague")
    with serving(organiser):
        services.tournament_update(
            tournament=tournament, name="Spring Open 2027", referees=[referee, colleague]
        )
    record = latest(Tournament, id=tournament.pk)
    assert (record.history_type, record.history_user) == ("~", organiser)
    diff = changes(record)
    assert diff["name"] == ("Spring Open", "Spring Open 2027")
    before, after = diff["referees"]
    assert [row["user"] for row in before] == [referee.pk]
    assert sorted(row["user"] for row in after) == sorted([referee.pk, colleague.pk])
    assert "organisers" not in diff


def test_removing_a_referee_is_kept(tournament, organiser, referee):
    with serving(organiser):
        services.tournament_update(tournament=tournament, referees=[])
    before, after = changes(latest(Tournament, id=tournament.pk))["referees"]
    assert ([row["user"] for row in before], after) == ([referee.pk], [])


# ---------------------------------------------------------------------- players


def test_a_player_edit_is_kept_with_before_and_after(tournament, organiser):
    player = services.player_save(tournament=tournament, number=1, name="Alice")
    with serving(organiser):
        services.player_save(tournament=tournament, player=player, name="Alice Wong", team="Ox")
    record = latest(Player, id=player.pk)
    assert (record.history_type, record.history_user) == ("~", organiser)
    # The first and last names split from the name follow it.
    assert changes(record) == {
        "name": ("Alice", "Alice Wong"),
        "first_name": ("", "Alice"),
        "last_name": ("Alice", "Wong"),
        "team": ("", "Ox"),
    }


def test_a_withdrawal_and_a_reinstatement_are_kept(tournament, organiser):
    (player,) = make_players(tournament, 1)
    with serving(organiser):
        services.player_withdraw(player=player)
        withdrawn = latest(Player, id=player.pk)
        services.player_reinstate(player=player)
    reinstated = latest(Player, id=player.pk)
    assert withdrawn.history_user == reinstated.history_user == organiser
    before, after = changes(withdrawn)["withdrawn_at"]
    assert before is None and after is not None
    assert changes(reinstated)["withdrawn_at"] == (after, None)


def test_an_import_keeps_each_player_it_creates(tournament, organiser):
    from tournament.players.player_import import state_fingerprint, stored_players

    rows = [{"number": 1, "name": "Alice"}, {"number": 2, "name": "Bo"}]
    with serving(organiser):
        services.players_import(
            tournament=tournament,
            rows=rows,
            fingerprint=state_fingerprint(stored_players(tournament), rows),
        )
    kept = Player.history.filter(tournament_id=tournament.pk, history_type="+")
    assert sorted(kept.values_list("name", "history_user")) == [
        ("Alice", organiser.pk),
        ("Bo", organiser.pk),
    ]


# ------------------------------------------------------------------------ draws


@pytest.fixture
def drawn(tournament):
    make_players(tournament, 16)
    services.player_save(tournament=tournament, number=17, name="Substitute", is_substitute=True)
    return services.session_draw(tournament=tournament, number=1, seed=5)


def test_a_draw_keeps_its_session_tables_and_seats(drawn, organiser):
    assert Session.history.filter(id=drawn.pk, history_type="+").count() == 1
    assert Table.history.filter(session_id=drawn.pk, history_type="+").count() == 4
    assert Seat.history.filter(session_id=drawn.pk, history_type="+").count() == 16


def test_a_cancelled_draw_stays_in_the_history(drawn, organiser):
    seats = {seat.pk: (seat.player_id, seat.table_id) for seat in drawn.seats.all()}
    tables = set(drawn.tables.values_list("pk", flat=True))
    session_id = drawn.pk
    with serving(organiser):
        services.session_cancel_draw(session=drawn)
    assert not Session.objects.filter(pk=session_id).exists()
    session = latest(Session, id=session_id)
    assert (session.history_type, session.history_user) == ("-", organiser)
    assert session.history_change_reason == audit.DRAW_CANCELLED
    assert (session.number, session.seed) == (1, 5)
    gone_tables = Table.history.filter(history_type="-", session_id=session_id)
    assert set(gone_tables.values_list("id", flat=True)) == tables
    gone_seats = Seat.history.filter(history_type="-", session_id=session_id)
    assert {row.id: (row.player_id, row.table_id) for row in gone_seats} == seats
    assert {row.history_change_reason for row in [*gone_tables, *gone_seats]} == {
        audit.DRAW_CANCELLED
    }
    assert {row.history_user for row in [*gone_tables, *gone_seats]} == {organiser}


def test_a_seat_given_to_a_substitute_is_kept(drawn, tournament, organiser):
    seat = drawn.seats.select_related("player").get(player__number=3)
    substitute = tournament.players.get(number=17)
    with serving(organiser):
        services.player_withdraw(player=seat.player)
        services.seat_replace(seat=seat, player=substitute)
    record = latest(Seat, id=seat.pk)
    assert (record.history_type, record.history_user) == ("~", organiser)
    drawn_player = tournament.players.get(number=3).pk
    assert changes(record) == {
        "player": (drawn_player, substitute.pk),
        "replaces": (None, drawn_player),
    }


# --------------------------------------------------------------------- sessions


def test_opening_closing_and_reopening_a_session_are_kept(drawn, organiser):
    with serving(organiser):
        services.session_open(session=drawn)
        opened = latest(Session, id=drawn.pk)
        for table in drawn.tables.all():
            services.table_confirm(table=table, user=organiser, record_missing_as_not_played=True)
        services.session_close(session=drawn)
        closed = latest(Session, id=drawn.pk)
        services.session_reopen(session=Session.objects.get(pk=drawn.pk))
    reopened = latest(Session, id=drawn.pk)
    assert {opened.history_user, closed.history_user, reopened.history_user} == {organiser}
    assert changes(opened)["opened_at"][0] is None
    assert changes(closed)["closed_at"][0] is None
    assert changes(reopened)["closed_at"][1] is None


def test_extra_time_is_kept(drawn, organiser):
    table = drawn.tables.get(number=2)
    with serving(organiser):
        services.table_extra_time(table=table, minutes=15)
    record = latest(Table, id=table.pk)
    assert record.history_user == organiser
    assert changes(record) == {"extra_minutes": (0, 15)}


def test_revoking_device_links_is_kept(drawn, organiser):
    table = drawn.tables.get(number=1)
    with serving(organiser):
        services.device_link_revoke(table=table)
        services.device_links_revoke(session=drawn)
        services.device_links_revoke(session=drawn)
    record = latest(Table, id=table.pk)
    assert record.history_user == organiser
    assert changes(record) == {"device_link_version": (1, 2)}
    assert table.device_link_version == 2
    record = latest(Session, id=drawn.pk)
    assert changes(record) == {"device_links_version": (2, 3)}
    assert drawn.device_links_version == 3


def test_giving_tables_to_a_referee_is_kept_per_table_that_changes(drawn, organiser, referee):
    with serving(organiser):
        services.tables_assign(session=drawn, referee=referee, tables=[1, 2])
        services.tables_assign(session=drawn, referee=referee, tables=[2, 3])
    kept = Table.history.filter(session_id=drawn.pk, history_type="~").order_by("number")
    assert [(row.number, row.referee_id, row.history_user) for row in kept] == [
        (1, referee.pk, organiser),
        (2, referee.pk, organiser),
        (3, referee.pk, organiser),
    ]


def test_a_new_draw_keeps_the_referees_it_copies(drawn, tournament, organiser, referee):
    services.tables_assign(session=drawn, referee=referee, tables=[1])
    with audit.acting(user=organiser):
        second = services.session_draw(tournament=tournament, number=2, seed=6, method="lot")
    # The tables are drawn with the referees they keep: one history row each, by the drawer.
    table = second.tables.get(number=1)
    (created,) = Table.history.filter(id=table.pk)
    assert (created.history_type, created.history_user, created.referee_id) == (
        "+",
        organiser,
        referee.pk,
    )
    seats = Seat.history.filter(table_id=table.pk)
    assert [(row.history_type, row.history_user) for row in seats] == [("+", organiser)] * 4


# ------------------------------------------------------------------------ hands


@pytest.fixture
def table(drawn):
    services.session_open(session=drawn)
    return drawn.tables.select_related("session").get(number=1)


FALSE_WIN = services.PenaltyEntry(offender=2, kind="to_each_other", points=10, reason="False win")


def test_a_hand_its_correction_and_its_penalties_are_kept_with_the_referee(table, referee):
    hand = win(table, 1, user=referee, penalties=[FALSE_WIN])
    created = latest(Hand, id=hand.pk)
    assert (created.history_type, created.history_user, created.fan) == ("+", referee, 8)
    penalty = latest(Penalty, hand_id=hand.pk)
    assert (penalty.history_type, penalty.history_user, penalty.points) == ("+", referee, 10)

    colleague = make_user("colleague")
    win(table, 1, user=colleague, fan=12, version=hand.version)
    corrected = latest(Hand, id=hand.pk)
    assert (corrected.history_type, corrected.history_user) == ("~", colleague)
    diff = changes(corrected)
    assert diff["fan"] == (8, 12)
    assert diff["points_p1"] == (created.points_p1, corrected.points_p1)
    # The penalty was not entered again: the correction deleted it, and that is kept.
    gone = latest(Penalty, hand_id=hand.pk)
    assert (gone.history_type, gone.history_user, gone.id) == ("-", colleague, penalty.id)


def test_a_hand_entered_through_a_table_device_link_names_the_device(table):
    hand = win(table, 1, device=DEVICE, penalties=[FALSE_WIN])
    record = latest(Hand, id=hand.pk)
    assert (record.history_user, record.history_device) == (None, DEVICE)
    assert latest(Penalty, hand_id=hand.pk).history_device == DEVICE


def test_a_hand_saved_during_a_tablets_request_names_the_device_not_the_account(table, referee):
    """A tablet's request may carry a logged-in account without rights at the table: the
    hand is the link's, as ``entering_user`` says."""
    with serving(referee, device_link=DEVICE):
        hand = win(table, 1, device=DEVICE)
    record = latest(Hand, id=hand.pk)
    assert (record.history_user, record.history_device) == (None, DEVICE)


def test_a_confirmation_is_kept_with_the_hands_not_played(table, referee):
    win(table, 1, user=referee)
    services.table_confirm(table=table, user=referee, record_missing_as_not_played=True)
    record = latest(Table, id=table.pk)
    assert (record.history_type, record.history_user) == ("~", referee)
    before, after = changes(record)["confirmed_at"]
    assert before is None and after is not None
    not_played = Hand.history.filter(table_id=table.pk, outcome="not_played")
    assert not_played.count() == 15
    assert {(row.history_user, row.history_change_reason) for row in not_played} == {
        (referee, audit.TIME_CALLED)
    }


def test_a_confirmation_through_a_tablet_names_the_device(table):
    with serving(make_user("someone"), device_link=DEVICE):
        services.table_confirm(table=table, user=None, record_missing_as_not_played=True)
    record = latest(Table, id=table.pk)
    assert (record.history_user, record.history_device) == (None, DEVICE)


def test_a_reopening_is_kept_with_its_reason(table, referee, organiser):
    services.table_confirm(table=table, user=referee, record_missing_as_not_played=True)
    services.table_reopen(table=table, user=organiser, reason="Hand 2 was a win")
    reopening = latest(TableReopening, table_id=table.pk)
    assert (reopening.history_type, reopening.history_user) == ("+", organiser)
    assert reopening.reason == "Hand 2 was a win"
    record = latest(Table, id=table.pk)
    assert record.history_user == organiser
    assert changes(record)["confirmed_at"][1] is None


# --------------------------------------------------------------------- deletions


def test_every_row_deleted_in_cascade_is_kept(table, referee):
    """Deleting a session (as deleting a tournament does) keeps each of its rows: the
    session, its tables and seats, the hands and their penalties."""
    for number in (1, 2):
        win(table, number, user=referee, penalties=[FALSE_WIN])
    session, session_id, table_id = table.session, table.session_id, table.pk
    with audit.acting(user=referee):
        session.delete()
    assert Hand.history.filter(table_id=table_id, history_type="-").count() == 2
    assert Penalty.history.filter(history_type="-").count() == 2
    assert Seat.history.filter(session_id=session_id, history_type="-").count() == 16
    assert Table.history.filter(session_id=session_id, history_type="-").count() == 4
    assert Session.history.get(id=session_id, history_type="-").history_user == referee


def test_a_deleted_tournament_leaves_its_history(table, tournament, organiser):
    win(table, 1, user=organiser)
    tournament_id, table_id = tournament.pk, table.pk
    with serving(organiser):
        services.tournament_delete(tournament=tournament, confirm_slug=tournament.slug)
    record = latest(Tournament, id=tournament_id)
    assert (record.history_type, record.history_user) == ("-", organiser)
    assert record.history_change_reason == audit.TOURNAMENT_DELETED
    assert Player.history.filter(tournament_id=tournament_id, history_type="-").count() == 17
    assert Hand.history.filter(table_id=table_id, history_type="-").count() == 1


# ------------------------------------------------------------------------ actors


def test_without_a_request_or_an_actor_no_one_is_named(tournament):
    (player,) = make_players(tournament, 1)
    record = latest(Player, id=player.pk)
    assert (record.history_user, record.history_device) == (None, "")


def test_acting_blocks_nest(organiser):
    with audit.acting(user=organiser, reason=audit.DRAW_CANCELLED):
        with audit.acting(device=DEVICE):
            actor = audit.current_actor()
        assert audit.current_actor().device == ""
    assert (actor.user, actor.device, actor.reason) == (organiser, DEVICE, audit.DRAW_CANCELLED)
    assert audit.current_actor() == audit.Actor()
