"""table_confirm bound to the review the players checked: the review carries the version of
the sheet it shows (``sheet_version``), and a confirmation is refused once a hand, a penalty
or a seat changed since."""

import uuid

import pytest
from django.core.exceptions import ValidationError

from tests.services.errors import codes
from tournament import services
from tournament.models import Player, Seat
from tournament.selectors.sheets import sheet_version, table_sheet
from tournament.services import HandEntry, PenaltyEntry


@pytest.fixture
def table(session_in_play):
    """Table 1 with hands 1 and 2 entered (a self-drawn 8, a draw)."""
    table = session_in_play.tables.get(number=1)
    services.hand_record(
        table=table, entry=HandEntry(number=1, outcome="self_drawn", winner=1, fan=8)
    )
    services.hand_record(table=table, entry=HandEntry(number=2, outcome="draw"))
    return table


def reviewed(table) -> str:
    """The version the review page of ``table`` shows now."""
    return sheet_version(table_sheet(table))


def confirm(table, version):
    return services.table_confirm(
        table=table,
        user=None,
        record_missing_as_not_played=True,
        initials=["AB", "CD", "EF", "GH"],
        version=version,
    )


def assert_refused_unconfirmed(table, version, hands: int) -> None:
    with pytest.raises(ValidationError) as refused:
        confirm(table, version)
    assert codes(refused.value) == {"sheet_changed"}
    assert "Check the sheet as it is now" in refused.value.messages[0]
    table.refresh_from_db()
    assert not table.is_confirmed
    assert table.confirmed_initials == []
    # No hand recorded as not played: nothing of the confirmation was done.
    assert table.hands.count() == hands


def test_the_review_shown_is_confirmed(table):
    confirm(table, reviewed(table))
    table.refresh_from_db()
    assert table.is_confirmed
    assert table.confirmed_initials == ["AB", "CD", "EF", "GH"]
    assert table.hands.count() == 16


def test_a_self_drawn_88_saved_after_the_review_refuses_its_confirmation(table):
    # The audit's case: another client saves a hand while the players check the review.
    version = reviewed(table)
    services.hand_record(
        table=table,
        entry=HandEntry(
            number=3, outcome="self_drawn", winner=2, fan=88, submission_key=uuid.uuid4()
        ),
    )
    assert_refused_unconfirmed(table, version, hands=3)
    # Reviewed again, the sheet as it is now is confirmed.
    confirm(table, reviewed(table))
    table.refresh_from_db()
    assert table.is_confirmed
    assert table.hands.get(number=3).fan == 88


def correct_hand_1(table, **fields):
    hand = table.hands.get(number=1)
    entry = {"outcome": "self_drawn", "winner": 1, "fan": 8, **fields}
    services.hand_record(table=table, entry=HandEntry(number=1, version=hand.version, **entry))


CHANGES = {
    "a hand corrected": lambda table: correct_hand_1(table, fan=16),
    "a penalty added": lambda table: correct_hand_1(
        table,
        penalties=[PenaltyEntry(offender=0, kind="deducted", points=10, reason="Lateness")],
    ),
    "two players swapped seats": lambda table: services.table_seats_swap(
        table=table, first=0, second=2
    ),
}


@pytest.mark.parametrize("change", CHANGES.values(), ids=CHANGES.keys())
def test_any_change_of_the_sheet_after_the_review_refuses_its_confirmation(table, change):
    version = reviewed(table)
    change(table)
    assert reviewed(table) != version
    assert_refused_unconfirmed(table, version, hands=2)


def test_a_seat_given_to_a_substitute_after_the_review_refuses_its_confirmation(
    session_in_play,
):
    # An empty table (time called before its first hand), its seat given meanwhile.
    table = session_in_play.tables.get(number=2)
    version = reviewed(table)
    substitute = services.player_save(
        tournament=session_in_play.tournament, number=17, name="Sub", is_substitute=True
    )
    services.seat_replace(seat=Seat.objects.get(table=table, seat=3), player=substitute)
    assert_refused_unconfirmed(table, version, hands=0)
    assert Player.objects.get(seats__table=table, seats__seat=3) == substitute


def test_the_version_does_not_move_with_what_the_review_does_not_show(table, session_in_play):
    # A hand at another table, the extra time of this one: the players' review still holds.
    version = reviewed(table)
    services.hand_record(
        table=session_in_play.tables.get(number=2), entry=HandEntry(number=1, outcome="draw")
    )
    services.table_extra_time(table=table, minutes=5)
    confirm(table, version)
    table.refresh_from_db()
    assert table.is_confirmed


def test_a_confirmation_without_a_version_from_a_page_is_refused(table):
    # A page always sends its version: one sent without (an old page) is shown again.
    assert_refused_unconfirmed(table, "", hands=2)


def test_a_script_confirming_without_a_version_is_not_checked(table):
    # No review was shown (time called by a command): nothing to compare.
    services.table_confirm(table=table, user=None, record_missing_as_not_played=True)
    table.refresh_from_db()
    assert table.is_confirmed


def test_a_stale_version_is_refused_before_the_other_checks(table):
    # Told first that the sheet changed: the missing hands they were told of may be entered.
    version = reviewed(table)
    services.hand_record(table=table, entry=HandEntry(number=3, outcome="draw"))
    with pytest.raises(ValidationError) as refused:
        services.table_confirm(table=table, user=None, version=version)
    assert codes(refused.value) == {"sheet_changed"}
