"""table_sheet_record: a whole sheet entered at once stores what the same hands entered one
by one store, checked by the same rules, all or nothing, in statements per table, not per hand."""

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.services.errors import codes
from tournament import services
from tournament.models import Hand, Penalty
from tournament.server.rehearsal import planned_hands
from tournament.services import PenaltyEntry
from tournament.services.tables import table_seating_key

DISCARD_WIN = {"outcome": "discard", "winner": 0, "discarder": 2, "flowers": 0}
TEN_FAN_HAND = "123m456p789s23sEE +4s"  # the calculator scores it 10 fan without flowers

# A sheet with what a referee can write: every result, flowers, penalties of each kind, a
# typed winning hand, fans claimed, a figure the calculator disputes and the referee keeps;
# time called after hand 14.
SHEET = [
    services.HandEntry(number=1, outcome="self_drawn", winner=1, fan=10, flowers=2),
    services.HandEntry(number=2, outcome="discard", winner=0, discarder=3, fan=8, flowers=1),
    services.HandEntry(
        number=3,
        outcome="draw",
        penalties=[PenaltyEntry(offender=2, kind="to_each_other", points=10, reason="False win")],
    ),
    services.HandEntry(
        number=4,
        outcome="discard",
        winner=3,
        discarder=1,
        fan=12,
        penalties=[
            PenaltyEntry(offender=0, kind="deducted", points=20, reason="Lateness"),
            PenaltyEntry(offender=1, kind="to_one", points=10, reason="Exposed", beneficiary=2),
        ],
    ),
    services.HandEntry(number=5, fan=10, winning_hand=TEN_FAN_HAND, **DISCARD_WIN),
    services.HandEntry(
        number=6,
        fan=30,
        winning_hand=TEN_FAN_HAND,
        fan_names="Big Four Winds, Chicken Hand",
        keep_referee_figure=True,
        **DISCARD_WIN,
    ),
    *(
        services.HandEntry(number=n, outcome="self_drawn", winner=n % 4, fan=8 + n)
        for n in range(7, 15)
    ),
]

HAND_FIELDS = (
    "number",
    "outcome",
    "winner",
    "discarder",
    "fan",
    "flowers",
    "fan_names",
    "winning_hand",
    "computed_fan",
    "referee_figure_kept",
    "points_p1",
    "points_p2",
    "points_p3",
    "points_p4",
    "deducted",
    "version",
    "entered_by",
)


def stored(table):
    """The table's hands, penalties, seats' results and confirmation, as plain values."""
    table.refresh_from_db()
    return {
        "hands": list(table.hands.order_by("number").values_list(*HAND_FIELDS)),
        "penalties": list(
            Penalty.objects.filter(hand__table=table)
            .order_by("hand__number", "pk")
            .values_list("hand__number", "offender", "kind", "points", "beneficiary", "reason")
        ),
        "results": list(
            table.seats.order_by("seat").values_list(
                "seat", "score", "place", "table_points_twelfths", "hands_won"
            )
        ),
        "hands_entered": table.hands_entered,
        "confirmed": (table.confirmed_at is not None, table.confirmed_by_id),
    }


@pytest.fixture
def tables(session_in_play):
    return list(session_in_play.tables.order_by("number"))


def test_a_sheet_stores_what_the_same_hands_entered_one_by_one_store(tables, referee):
    one_by_one, at_once = tables[0], tables[1]
    for entry in SHEET:
        services.hand_record(table=one_by_one, entry=entry, user=referee)
    services.table_confirm(table=one_by_one, user=referee, record_missing_as_not_played=True)
    services.table_sheet_record(
        table=at_once, entries=SHEET, user=referee, record_missing_as_not_played=True
    )
    expected = stored(one_by_one)
    assert stored(at_once) == expected
    # The two hands time cut are there, not played, and the table has its result.
    assert expected["hands"][-1][:2] == (16, "not_played")
    assert expected["hands_entered"] == 16
    assert expected["confirmed"] == (True, referee.pk)
    assert {place for _seat, _score, place, _points, _won in expected["results"]} <= {1, 2, 3, 4}
    # The hands each seat won (hands 2, 5, 6, 8 and 12 to P1; 1, 9, 13 to P2; ...).
    assert [won for *_, won in expected["results"]] == [5, 3, 2, 3]


def test_a_rehearsal_table_settles_as_one_by_one(tables, referee):
    hands = planned_hands(seed=3, session=1, table=1)
    entries = [services.HandEntry(**hand) for hand in hands]
    cut = len(entries) < 16
    for entry in entries:
        services.hand_record(table=tables[2], entry=entry, user=referee)
    services.table_confirm(table=tables[2], user=referee, record_missing_as_not_played=cut)
    services.table_sheet_record(
        table=tables[3], entries=entries, user=referee, record_missing_as_not_played=cut
    )
    assert stored(tables[3]) == stored(tables[2])


def test_every_hand_and_penalty_has_its_history_naming_who_entered_it(tables, referee):
    services.table_sheet_record(
        table=tables[0], entries=SHEET, user=referee, record_missing_as_not_played=True
    )
    hands = Hand.history.filter(table=tables[0])
    assert hands.count() == 16
    assert set(hands.values_list("history_type", "history_user")) == {("+", referee.pk)}
    penalties = Penalty.history.filter(hand__table=tables[0])
    assert penalties.count() == 3
    assert set(penalties.values_list("history_type", "history_user")) == {("+", referee.pk)}


def test_a_refused_hand_is_named_and_nothing_is_stored(tables, referee):
    entries = [
        SHEET[0],
        services.HandEntry(number=2, outcome="discard", winner=0, fan=8),
        SHEET[2],
        services.HandEntry(number=4, outcome="self_drawn", winner=0, fan=30, winning_hand="x"),
        services.HandEntry(number=17, outcome="draw"),
        services.HandEntry(number=3, outcome="draw"),
    ]
    with pytest.raises(ValidationError) as raised:
        services.table_sheet_record(
            table=tables[0], entries=entries, user=referee, record_missing_as_not_played=True
        )
    messages = raised.value.messages
    assert "Hand 2: Choose who discarded the winning tile." in messages
    assert any(message.startswith("Hand 4: ") for message in messages)
    assert "Hand 17: A hand number is 1 to 16." in messages
    assert "Hand 3: Hand 3 is on the sheet twice: keep one." in messages
    assert not any(message.startswith("Hand 1:") for message in messages)
    assert {"discarder_required", "hand_out_of_range", "hand_on_sheet_twice"} <= codes(raised.value)
    # In the order of the sheet.
    assert [message.split(":")[0] for message in messages][:1] == ["Hand 2"]
    assert stored(tables[0])["hands"] == []
    assert stored(tables[0])["confirmed"] == (False, None)


def test_a_figure_the_calculator_disputes_is_refused_unless_kept(tables, referee):
    entry = services.HandEntry(number=1, fan=30, winning_hand=TEN_FAN_HAND, **DISCARD_WIN)
    with pytest.raises(ValidationError) as raised:
        services.table_sheet_record(
            table=tables[0], entries=[entry], user=referee, record_missing_as_not_played=True
        )
    assert codes(raised.value) == {"fan_disputed"}
    assert raised.value.messages[0].startswith("Hand 1: The winning hand scores 10 fan")


def test_missing_hands_refuse_the_whole_sheet_unless_time_was_called(tables, referee):
    with pytest.raises(ValidationError) as raised:
        services.table_sheet_record(table=tables[0], entries=SHEET[:3], user=referee)
    assert codes(raised.value) == {"hands_missing"}
    assert Hand.objects.filter(table=tables[0]).count() == 0
    with pytest.raises(ValidationError) as raised:
        services.table_sheet_record(
            table=tables[0],
            entries=[SHEET[0], SHEET[2]],
            user=referee,
            record_missing_as_not_played=True,
        )
    assert codes(raised.value) == {"hands_missing_in_between"}
    assert Hand.objects.filter(table=tables[0]).count() == 0


def test_a_started_or_confirmed_table_is_refused(tables, referee):
    services.hand_record(table=tables[0], entry=SHEET[0], user=referee)
    with pytest.raises(ValidationError) as raised:
        services.table_sheet_record(table=tables[0], entries=SHEET[1:], user=referee)
    assert codes(raised.value) == {"sheet_already_started"}
    services.table_sheet_record(
        table=tables[1], entries=SHEET, user=referee, record_missing_as_not_played=True
    )
    with pytest.raises(ValidationError) as raised:
        services.table_sheet_record(table=tables[1], entries=SHEET, user=referee)
    assert codes(raised.value) == {"table_confirmed"}


def test_what_the_model_refuses_is_named_with_its_hand(tables, referee):
    entries = [
        SHEET[0],
        services.HandEntry(number=2, outcome="draw"),
        services.HandEntry(number=3, outcome="self_drawn", winner=0, fan=8, fan_names="x" * 501),
    ]
    with pytest.raises(ValidationError) as raised:
        services.table_sheet_record(
            table=tables[0], entries=entries, user=referee, record_missing_as_not_played=True
        )
    assert all(message.startswith("Hand 3: ") for message in raised.value.messages)
    assert Hand.objects.filter(table=tables[0]).count() == 0


def test_a_sheet_entered_on_a_page_that_showed_other_seats_is_refused(tables, referee):
    shown = table_seating_key(tables[0])
    services.table_seats_swap(table=tables[0], first=0, second=1, user=referee)
    stale = services.HandEntry(number=1, outcome="draw", seating=shown)
    with pytest.raises(ValidationError) as raised:
        services.table_sheet_record(
            table=tables[0], entries=[stale], user=referee, record_missing_as_not_played=True
        )
    assert codes(raised.value) == {"seating_changed"}
    assert Hand.objects.filter(table=tables[0]).count() == 0
    now = services.HandEntry(number=1, outcome="draw", seating=table_seating_key(tables[0]))
    services.table_sheet_record(
        table=tables[0], entries=[now], user=referee, record_missing_as_not_played=True
    )
    assert Hand.objects.filter(table=tables[0]).count() == 16


def test_a_correction_or_a_forms_key_is_not_a_sheets_hand(tables, referee):
    with pytest.raises(TypeError):
        services.table_sheet_record(
            table=tables[0],
            entries=[services.HandEntry(number=1, outcome="draw", version=1)],
            user=referee,
        )


def queries(table, entries, user) -> int:
    with CaptureQueriesContext(connection) as captured:
        services.table_sheet_record(
            table=table, entries=entries, user=user, record_missing_as_not_played=True
        )
    return len(captured)


def test_the_statements_do_not_grow_with_the_hands(tables, referee):
    def sheet(hands: int):
        return [
            services.HandEntry(number=n, outcome="self_drawn", winner=n % 4, fan=8)
            for n in range(1, hands + 1)
        ]

    # 4 entered and 12 cut by time, 10 entered and 6 cut, 15 and 1: the same statements.
    cut = {
        queries(table, sheet(hands), referee)
        for table, hands in zip(tables[:3], (4, 10, 15), strict=True)
    }
    assert len(cut) == 1
    # A full sheet: the same, but for the hands cut and the results stored again for them.
    assert queries(tables[3], sheet(16), referee) < cut.pop() <= 25
