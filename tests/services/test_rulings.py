"""The referees' desk as its services keep it: calls made once, taken, cancelled, resolved by a
ruling; a ruling's penalty carried by its hand (entered before or after), the revision naming
it; the table not confirmed while a call is open; appeals within their time, decided."""

import datetime
import uuid

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from tests.conftest import make_user
from tests.services.errors import codes
from tournament import services
from tournament.models import Appeal, HandRevision, Penalty, RefereeCall, Seat
from tournament.selectors.desk import desk_version, open_calls, table_calls
from tournament.services import HandEntry, PenaltyEntry


@pytest.fixture
def table(session_in_play):
    return session_in_play.tables.get(number=1)


def seated(table, seat: int):
    return Seat.objects.get(table=table, seat=seat).player


def points(table, number: int) -> tuple[int, int, int, int]:
    return table.hands.get(number=number).points


def test_a_call_sent_twice_with_its_key_is_stored_once(table):
    key = uuid.uuid4()
    before = desk_version(table.session.tournament_id)
    first = services.call_make(table=table, reason="claim", hand=3, key=key, device="t1")
    again = services.call_make(table=table, reason="claim", hand=3, key=key, device="t1")
    assert first.pk == again.pk
    assert RefereeCall.objects.filter(table=table).count() == 1
    assert desk_version(table.session.tournament_id) == before + 1
    assert [each.call.pk for each in open_calls(table.session.tournament)] == [first.pk]


def test_a_call_is_refused_outside_play_and_at_a_confirmed_table(table, session_in_play):
    services.table_confirm(table=table, user=None, record_missing_as_not_played=True)
    with pytest.raises(ValidationError) as refused:
        services.call_make(table=table, reason="foul")
    assert codes(refused.value) == {"table_confirmed"}
    for other in session_in_play.tables.exclude(pk=table.pk):
        services.table_confirm(table=other, user=None, record_missing_as_not_played=True)
    services.session_close(session=session_in_play)
    with pytest.raises(ValidationError) as refused:
        services.call_make(table=table, reason="foul")
    assert codes(refused.value) == {"session_not_in_play"}


def test_a_dispute_names_its_hand_and_a_player_calls_only_at_their_table(table, session_in_play):
    with pytest.raises(ValidationError) as refused:
        services.call_make(table=table, reason="dispute")
    assert codes(refused.value) == {"hand_required"}
    elsewhere = seated(session_in_play.tables.get(number=2), 0)
    with pytest.raises(ValidationError) as refused:
        services.call_make(table=table, reason="foul", player=elsewhere)
    assert codes(refused.value) == {"player_not_at_table"}
    call = services.call_make(table=table, reason="foul", player=seated(table, 2))
    assert call.player == seated(table, 2)


def test_taken_by_one_referee_refused_to_another_then_cancelled(table, referee, tournament):
    call = services.call_make(table=table, reason="count", hand=2)
    services.call_take(call=call, user=referee)
    services.call_take(call=call, user=referee)  # the same referee again: nothing changes
    colleague = make_user("colleague")
    tournament.referees.add(colleague)
    with pytest.raises(ValidationError) as refused:
        services.call_take(call=call, user=colleague)
    assert codes(refused.value) == {"call_taken"}
    call.refresh_from_db()
    assert (call.state, call.taken_by) == ("taken", referee)
    services.call_cancel(call=call, device="t1")
    services.call_cancel(call=call, device="t1")
    call.refresh_from_db()
    assert call.state == "cancelled" and call.ended_at is not None
    assert open_calls(tournament) == []


def test_a_ruling_penalty_settles_an_entered_hand_again(table, referee):
    services.hand_record(table=table, entry=HandEntry(number=1, outcome="draw"))
    call = services.call_make(table=table, reason="foul", hand=1)
    offender = seated(table, 1)
    ruling = services.ruling_give(
        table=table,
        referee=referee,
        call=call,
        decision="P2 claimed a win on a tile that did not complete the hand.",
        offence="false_win",
        penalty_kind="to_each_other",
        penalty_points=10,
        offender=offender,
    )
    assert ruling.hand == 1
    assert points(table, 1) == (10, -30, 10, 10)
    penalty = Penalty.objects.get(hand__table=table, hand__number=1)
    assert (penalty.ruling, penalty.offender, penalty.reason) == (ruling, 1, "False win (错和)")
    revision = HandRevision.objects.get(hand__table=table, hand__number=1)
    assert revision.ruling == ruling
    call.refresh_from_db()
    assert (call.state, call.taken_by) == ("resolved", referee)
    assert set(ruling.players.all()) == {offender}
    # Corrected on the sheet afterwards, the hand keeps the ruling's penalty whatever the
    # form sends.
    hand = table.hands.get(number=1)
    services.hand_record(
        table=table,
        entry=HandEntry(number=1, outcome="draw", version=hand.version, penalties=()),
    )
    assert points(table, 1) == (10, -30, 10, 10)


def test_a_ruling_penalty_waits_for_its_hand(table, referee):
    for number in (1, 2, 3):
        services.hand_record(table=table, entry=HandEntry(number=number, outcome="draw"))
    services.ruling_give(
        table=table,
        referee=referee,
        hand=4,
        decision="Late by five minutes.",
        offence="lateness",
        penalty_kind="deducted",
        penalty_points=10,
        offender=seated(table, 3),
    )
    services.hand_record(
        table=table,
        entry=HandEntry(
            number=4,
            outcome="self_drawn",
            winner=0,
            fan=8,
            penalties=[
                PenaltyEntry(offender=2, kind="to_one", points=5, reason="x", beneficiary=0)
            ],
        ),
    )
    # 16 from each for the self-draw; P3 pays P1 5; P4 loses 10 to the deduction.
    assert points(table, 4) == (53, -16, -21, -26)
    # Confirming with hands missing that a ruling gave a penalty in is refused.
    services.ruling_give(
        table=table,
        referee=referee,
        hand=9,
        decision="Slow play after a warning.",
        offence="procedural",
        penalty_kind="deducted",
        penalty_points=5,
        offender=seated(table, 0),
    )
    with pytest.raises(ValidationError) as refused:
        services.table_confirm(table=table, user=None, record_missing_as_not_played=True)
    assert "ruled_hand_missing" in codes(refused.value)


def test_a_penalty_the_hand_cannot_take_saves_nothing(table, referee):
    services.hand_record(
        table=table, entry=HandEntry(number=1, outcome="self_drawn", winner=1, fan=8)
    )
    with pytest.raises(ValidationError) as refused:
        services.ruling_give(
            table=table,
            referee=referee,
            hand=1,
            decision="False win by the winner.",
            offence="false_win",
            penalty_kind="to_each_other",
            penalty_points=10,
            offender=seated(table, 1),
        )
    assert codes(refused.value) == {"penalty_refused_by_hand"}
    assert not table.rulings.exists()
    assert points(table, 1) == (-16, 48, -16, -16)


def test_a_ruling_checks_its_fields(table, referee, session_in_play):
    elsewhere = seated(session_in_play.tables.get(number=2), 0)
    with pytest.raises(ValidationError) as refused:
        services.ruling_give(
            table=table,
            referee=referee,
            decision="",
            offence="other",
            penalty_kind="to_one",
            penalty_points=0,
            offender=seated(table, 0),
            beneficiary=seated(table, 0),
        )
    assert codes(refused.value) >= {"required", "bad_points"}
    with pytest.raises(ValidationError) as refused:
        services.ruling_give(table=table, referee=referee, decision="Warned.", players=[elsewhere])
    assert codes(refused.value) == {"player_not_at_table"}


def test_an_open_call_blocks_the_confirmation_until_resolved(table, referee):
    call = services.call_make(table=table, reason="dispute", hand=1)
    with pytest.raises(ValidationError) as refused:
        services.table_confirm(table=table, user=None, record_missing_as_not_played=True)
    assert codes(refused.value) == {"call_open"}
    services.ruling_give(table=table, referee=referee, call=call, decision="The hand stands.")
    services.table_confirm(table=table, user=None, record_missing_as_not_played=True)
    table.refresh_from_db()
    assert table.is_confirmed
    assert [c.state for c in table_calls(table)] == ["resolved"]


def test_an_appeal_changes_the_penalty_of_a_confirmed_table(table, referee, organiser):
    services.hand_record(table=table, entry=HandEntry(number=1, outcome="draw"))
    ruling = services.ruling_give(
        table=table,
        referee=referee,
        hand=1,
        decision="Exposed P1's tiles.",
        offence="exposed_tiles",
        penalty_kind="to_one",
        penalty_points=20,
        offender=seated(table, 2),
        beneficiary=seated(table, 0),
    )
    assert points(table, 1) == (20, 0, -20, 0)
    services.table_confirm(table=table, user=None, record_missing_as_not_played=True)
    appeal = services.appeal_lodge(ruling=ruling, user=referee, grounds="Only one tile shown.")
    with pytest.raises(ValidationError) as refused:
        services.appeal_lodge(ruling=ruling, user=referee, grounds="Again.")
    assert codes(refused.value) == {"appealed_already"}
    services.appeal_decide(
        appeal=appeal,
        user=organiser,
        decision="changed",
        reasons="One tile: 5 points.",
        penalty_kind="to_one",
        penalty_points=5,
        offender=seated(table, 2),
        beneficiary=seated(table, 0),
    )
    appeal.refresh_from_db()
    assert appeal.decision == Appeal.CHANGED
    assert appeal.previous["penalty_points"] == 20
    assert points(table, 1) == (5, 0, -5, 0)
    table.refresh_from_db()
    assert table.is_confirmed
    assert Seat.objects.get(table=table, seat=2).score == -5
    with pytest.raises(ValidationError) as refused:
        services.appeal_decide(appeal=appeal, user=organiser, decision="upheld")
    assert codes(refused.value) == {"appeal_decided"}


def test_appeals_end_the_set_time_after_the_session_closes(table, referee, session_in_play):
    ruling = services.ruling_give(table=table, referee=referee, decision="Warned for time.")
    for other in session_in_play.tables.all():
        services.table_confirm(table=other, user=None, record_missing_as_not_played=True)
    services.session_close(session=session_in_play)
    session_in_play.refresh_from_db()
    late = session_in_play.closed_at + datetime.timedelta(minutes=31)
    with pytest.raises(ValidationError) as refused:
        services.appeal_lodge(ruling=ruling, user=referee, grounds="No warning.", now=late)
    assert codes(refused.value) == {"appeal_too_late"}
    on_time = session_in_play.closed_at + datetime.timedelta(minutes=29)
    appeal = services.appeal_lodge(ruling=ruling, user=referee, grounds="No.", now=on_time)
    assert appeal.lodged_at <= timezone.now()


def test_a_sheet_entered_whole_from_paper_carries_the_rulings_penalties(table, referee):
    services.ruling_give(
        table=table,
        referee=referee,
        hand=2,
        decision="Late after the break.",
        offence="lateness",
        penalty_kind="deducted",
        penalty_points=20,
        offender=seated(table, 1),
    )
    services.table_sheet_record(
        table=table,
        entries=[HandEntry(number=n, outcome="draw") for n in range(1, 17)],
        user=referee,
    )
    assert points(table, 2) == (0, -20, 0, 0)
    assert Penalty.objects.get(hand__table=table).ruling is not None


def test_a_ruling_sent_twice_with_its_key_counts_its_penalty_once(table, referee, session_in_play):
    services.hand_record(table=table, entry=HandEntry(number=1, outcome="draw"))
    key = uuid.uuid4()
    given = {
        "table": table,
        "referee": referee,
        "hand": 1,
        "decision": "False win.",
        "offence": "false_win",
        "penalty_kind": "to_each_other",
        "penalty_points": 10,
        "offender": seated(table, 1),
        "key": key,
    }
    first = services.ruling_give(**given)
    again = services.ruling_give(**given)
    assert first.pk == again.pk
    assert points(table, 1) == (10, -30, 10, 10)
    other = session_in_play.tables.get(number=2)
    with pytest.raises(ValidationError) as refused:
        services.ruling_give(**{**given, "table": other, "offender": seated(other, 1)})
    assert codes(refused.value) == {"ruling_key_reused"}


def test_a_player_a_ruling_penalised_keeps_their_seat(table, referee, tournament):
    late = seated(table, 3)
    services.ruling_give(
        table=table,
        referee=referee,
        hand=1,
        decision="Late by ten minutes.",
        offence="lateness",
        penalty_kind="deducted",
        penalty_points=10,
        offender=late,
    )
    substitute = services.player_save(
        tournament=tournament, number=99, name="Sub", is_substitute=True
    )
    with pytest.raises(ValidationError) as refused:
        services.seat_replace(seat=Seat.objects.get(table=table, seat=3), player=substitute)
    assert codes(refused.value) == {"player_in_a_ruling"}
    assert seated(table, 3) == late


def test_a_session_a_referee_was_called_in_is_not_taken_back_to_drawn(table, session_in_play):
    services.call_make(table=table, reason="time")
    with pytest.raises(ValidationError) as refused:
        services.session_open_undo(session=session_in_play)
    assert codes(refused.value) == {"undo_refused"}
    assert "a referee was called" in refused.value.messages[0]


def test_seats_changed_raise_the_desks_version(table, session_in_play):
    before = desk_version(table.session.tournament_id)
    services.table_seats_swap(table=table, first=0, second=1, user=None)
    assert desk_version(table.session.tournament_id) == before + 1


def test_a_ruling_names_only_an_offence_the_tournament_presets(table, organiser):
    tournament = table.session.tournament
    given = {"table": table, "referee": organiser, "decision": "Counted before taking the tile."}
    with pytest.raises(ValidationError) as refused:
        services.ruling_give(offence="tile_not_taken", **given)
    assert codes(refused.value) == {"bad_offence"}
    # Named in words, as another offence, it is recorded.
    other = services.ruling_give(offence="other", offence_text="Counted too soon", **given)
    assert other.offence_text == "Counted too soon"
    services.rules_change(
        tournament=tournament,
        user=organiser,
        penalty_presets=services.profile_options("ema")["penalty_presets"],
    )
    ruling = services.ruling_give(offence="tile_not_taken", **given)
    assert ruling.offence_text == "Counted the hand before taking the winning tile"
