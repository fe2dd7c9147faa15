"""hand_record, table_confirm and table_reopen: settlement stored, nothing half-saved."""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from tests.services.errors import codes
from tournament import services
from tournament.models import Hand, Penalty, TableReopening
from tournament.services import PenaltyEntry


@pytest.fixture
def table(session_in_play):
    return session_in_play.tables.get(number=1)


def test_self_drawn_win_stores_each_seats_points(table):
    hand = services.hand_record(
        table=table,
        entry=services.HandEntry(number=1, outcome="self_drawn", winner=1, fan=10, flowers=2),
    )
    assert hand.points == (-20, 60, -20, -20)
    assert hand.deducted == 0


def test_discard_win_charges_the_discarder_the_fan(table):
    hand = services.hand_record(
        table=table,
        entry=services.HandEntry(
            number=2, outcome="discard", winner=0, discarder=3, fan=8, flowers=1
        ),
    )
    assert hand.points == (33, -8, -8, -17)


def test_false_win_penalty_is_paid_to_each_other_player(table):
    hand = services.hand_record(
        table=table,
        entry=services.HandEntry(
            number=3,
            outcome="draw",
            penalties=[
                PenaltyEntry(offender=2, kind="to_each_other", points=10, reason="False win")
            ],
        ),
    )
    assert hand.points == (10, 10, -30, 10)
    assert hand.penalties.get().reason == "False win"


def test_deducted_penalty_leaves_the_table(table):
    hand = services.hand_record(
        table=table,
        entry=services.HandEntry(
            number=4,
            outcome="not_played",
            penalties=[PenaltyEntry(offender=0, kind="deducted", points=20, reason="Lateness")],
        ),
    )
    assert hand.points == (-20, 0, 0, 0)
    assert hand.deducted == 20


@pytest.mark.parametrize(
    ("fields", "code", "field"),
    [
        ({"outcome": "self_drawn", "winner": 0, "fan": 7}, "fan_below_minimum", "fan"),
        (
            {"outcome": "discard", "winner": 1, "discarder": 1, "fan": 8},
            "discarder_is_winner",
            "discarder",
        ),
        (
            {"outcome": "self_drawn", "winner": 0, "fan": 8, "flowers": 9},
            "flowers_out_of_range",
            "flowers",
        ),
    ],
)
def test_invalid_hand_is_refused_with_its_field_and_saves_nothing(table, fields, code, field):
    with pytest.raises(ValidationError) as raised:
        services.hand_record(table=table, entry=services.HandEntry(number=1, **fields))
    assert field in raised.value.error_dict
    assert code in codes(raised.value)
    assert not Hand.objects.exists()


def test_an_unknown_outcome_is_refused_in_the_site_words(table):
    with pytest.raises(ValidationError) as raised:
        services.hand_record(table=table, entry=services.HandEntry(number=1, outcome="won"))
    assert raised.value.messages == ["Unknown outcome or penalty kind."]
    assert codes(raised.value) == {"invalid"}
    assert not Hand.objects.exists()


def test_hand_number_outside_1_to_16_is_refused(table):
    with pytest.raises(ValidationError) as raised:
        services.hand_record(table=table, entry=services.HandEntry(number=17, outcome="draw"))
    assert "hand_out_of_range" in codes(raised.value)


def test_a_hand_entered_twice_is_refused_and_the_first_entry_kept(table):
    services.hand_record(
        table=table, entry=services.HandEntry(number=5, outcome="self_drawn", winner=0, fan=8)
    )
    with pytest.raises(ValidationError) as raised:
        services.hand_record(table=table, entry=services.HandEntry(number=5, outcome="draw"))
    assert "hand_already_entered" in codes(raised.value)
    assert Hand.objects.get(table=table, number=5).outcome == "self_drawn"


def test_correction_with_a_stale_version_is_refused(table):
    hand = services.hand_record(table=table, entry=services.HandEntry(number=1, outcome="draw"))
    services.hand_record(
        table=table,
        entry=services.HandEntry(
            number=1, outcome="self_drawn", winner=2, fan=9, version=hand.version
        ),
    )
    with pytest.raises(ValidationError) as raised:
        # A second tablet still holding version 1 must not overwrite the correction.
        services.hand_record(
            table=table, entry=services.HandEntry(number=1, outcome="draw", version=hand.version)
        )
    assert "hand_changed_meanwhile" in codes(raised.value)
    stored = Hand.objects.get(table=table, number=1)
    assert (stored.outcome, stored.winner, stored.version) == ("self_drawn", 2, 2)


def test_correction_replaces_the_penalties(table):
    hand = services.hand_record(
        table=table,
        entry=services.HandEntry(
            number=1,
            outcome="draw",
            penalties=[PenaltyEntry(offender=1, kind="deducted", points=10, reason="Lateness")],
        ),
    )
    corrected = services.hand_record(
        table=table,
        entry=services.HandEntry(
            number=1,
            outcome="draw",
            penalties=[
                PenaltyEntry(offender=3, kind="to_one", points=5, reason="Exposed", beneficiary=0)
            ],
            version=hand.version,
        ),
    )
    assert corrected.points == (5, 0, 0, -5)
    assert [(p.offender, p.kind) for p in Penalty.objects.all()] == [(3, "to_one")]


def test_penalised_false_winner_cannot_win_the_same_hand(table):
    with pytest.raises(ValidationError) as raised:
        services.hand_record(
            table=table,
            entry=services.HandEntry(
                number=1,
                outcome="self_drawn",
                winner=2,
                fan=8,
                penalties=[
                    PenaltyEntry(offender=2, kind="to_each_other", points=10, reason="False win")
                ],
            ),
        )
    assert "penalised_player_cannot_win" in codes(raised.value)
    assert not Penalty.objects.exists()


def test_hands_cannot_be_entered_before_the_session_opens(tournament):
    from tests.conftest import make_players

    make_players(tournament, 4)
    session = services.session_draw(tournament=tournament, number=1, seed=1)
    with pytest.raises(ValidationError) as raised:
        services.hand_record(
            table=session.tables.get(), entry=services.HandEntry(number=1, outcome="draw")
        )
    assert "session_not_open" in codes(raised.value)


def test_confirm_needs_every_hand_or_time_called(table, referee):
    services.hand_record(table=table, entry=services.HandEntry(number=1, outcome="draw"))
    with pytest.raises(ValidationError) as raised:
        services.table_confirm(table=table, user=referee)
    assert "hands_missing" in codes(raised.value)
    services.table_confirm(table=table, user=referee, record_missing_as_not_played=True)
    table.refresh_from_db()
    assert table.confirmed_by == referee
    assert list(table.hands.values_list("outcome", flat=True).distinct().order_by("outcome")) == [
        "draw",
        "not_played",
    ]
    assert table.hands.count() == 16


def test_confirmed_table_is_locked_until_an_organiser_reopens_it(table, referee, organiser):
    services.table_confirm(table=table, user=referee, record_missing_as_not_played=True)
    hand = table.hands.get(number=1)
    with pytest.raises(ValidationError) as raised:
        services.hand_record(
            table=table, entry=services.HandEntry(number=1, outcome="draw", version=hand.version)
        )
    assert "table_confirmed" in codes(raised.value)
    with pytest.raises(ValidationError):
        services.table_reopen(table=table, user=organiser, reason="  ")
    services.table_reopen(table=table, user=organiser, reason="Hand 1 fan was 12, not 8")
    assert TableReopening.objects.get().reason == "Hand 1 fan was 12, not 8"
    services.hand_record(
        table=table, entry=services.HandEntry(number=1, outcome="draw", version=hand.version)
    )


def test_database_refuses_points_that_do_not_balance(table):
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.create(
            table=table, number=1, outcome="self_drawn", winner=0, fan=8, points_p1=48
        )


def test_database_refuses_a_second_hand_with_the_same_number(table):
    Hand.objects.create(table=table, number=1, outcome="draw")
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.create(table=table, number=1, outcome="draw")


def test_database_refuses_a_win_without_fan(table):
    # The tournament's minimum (8 unless its rules say otherwise) is the hand service's.
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.create(table=table, number=1, outcome="self_drawn", winner=0, fan=0)


def test_time_called_cannot_hide_a_hand_forgotten_in_the_middle(table, referee):
    for number in (1, 2, 4):
        services.hand_record(table=table, entry=services.HandEntry(number=number, outcome="draw"))
    with pytest.raises(ValidationError) as raised:
        services.table_confirm(table=table, user=referee, record_missing_as_not_played=True)
    assert "hands_missing_in_between" in codes(raised.value)
    assert "Hands 3 are missing" in str(raised.value)
    table.refresh_from_db()
    assert not table.is_confirmed
    assert table.hands.count() == 3


def test_a_correction_keeps_what_the_hand_was(table, referee):
    hand = services.hand_record(
        table=table,
        entry=services.HandEntry(
            number=1,
            outcome="draw",
            penalties=[PenaltyEntry(offender=1, kind="deducted", points=10, reason="Lateness")],
        ),
        user=referee,
    )
    services.hand_record(
        table=table,
        entry=services.HandEntry(
            number=1, outcome="self_drawn", winner=0, fan=8, version=hand.version
        ),
    )
    revision = hand.revisions.get()
    assert revision.version == 1
    assert revision.previous["points"] == [0, -10, 0, 0]
    assert revision.previous["penalties"][0]["reason"] == "Lateness"
    assert revision.previous["entered_by"] == "referee"


# The calculator's disputes are the service's rules, whichever path enters the hand.

DISCARD_WIN = {"outcome": "discard", "winner": 0, "discarder": 2, "flowers": 0}
TEN_FAN_HAND = "123m456p789s23sEE +4s"  # the calculator scores it 10 fan without flowers


def test_a_fan_the_winning_hand_disputes_is_refused_with_the_calculators_result(table):
    with pytest.raises(services.HandRefused) as raised:
        services.hand_record(
            table=table,
            entry=services.HandEntry(number=1, fan=30, winning_hand=TEN_FAN_HAND, **DISCARD_WIN),
        )
    assert codes(raised.value) == {"fan_disputed"}
    assert raised.value.scored.total_without_flowers == 10
    assert "10 fan" in raised.value.message_dict["fan"][0]
    assert not Hand.objects.exists()


def test_an_impossible_claim_is_refused_even_with_the_right_total(table):
    with pytest.raises(services.HandRefused) as raised:
        services.hand_record(
            table=table,
            entry=services.HandEntry(
                number=1, fan=89, fan_names="Big Four Winds, Chicken Hand", **DISCARD_WIN
            ),
        )
    assert codes(raised.value) == {"claim_disputed"}
    assert not raised.value.claim_check.agrees
    assert not Hand.objects.exists()


def test_an_unknown_fan_name_is_refused_whatever_the_override(table):
    with pytest.raises(ValidationError) as raised:
        services.hand_record(
            table=table,
            entry=services.HandEntry(
                number=1, fan=8, fan_names="Lucky Seven", keep_referee_figure=True, **DISCARD_WIN
            ),
        )
    assert codes(raised.value) == {"unknown_fan"}
    assert "fan_names" in raised.value.error_dict
    assert not Hand.objects.exists()


def test_every_error_of_a_hand_is_reported_at_once(table):
    with pytest.raises(services.HandRefused) as raised:
        services.hand_record(
            table=table,
            entry=services.HandEntry(
                number=1,
                outcome="discard",
                winner=0,
                discarder=0,
                fan=30,
                winning_hand=TEN_FAN_HAND,
            ),
        )
    assert codes(raised.value) == {"discarder_is_winner", "fan_disputed"}


def test_keeping_the_referees_figure_stores_it_and_says_so(table):
    hand = services.hand_record(
        table=table,
        entry=services.HandEntry(
            number=1,
            fan=30,
            winning_hand=TEN_FAN_HAND,
            fan_names="Big Four Winds, Chicken Hand",
            keep_referee_figure=True,
            **DISCARD_WIN,
        ),
    )
    assert (hand.fan, hand.computed_fan, hand.referee_figure_kept) == (30, 10, True)
    assert hand.points == (54, -8, -38, -8)  # 30 + 8 from the discarder, 8 from each other


def test_the_override_is_recorded_only_when_something_was_disputed(table):
    hand = services.hand_record(
        table=table,
        entry=services.HandEntry(
            number=1, fan=10, winning_hand=TEN_FAN_HAND, keep_referee_figure=True, **DISCARD_WIN
        ),
    )
    assert (hand.computed_fan, hand.referee_figure_kept) == (10, False)


def test_a_correction_keeps_whether_the_figure_was_kept_in_the_revision(table, referee):
    hand = services.hand_record(
        table=table,
        entry=services.HandEntry(
            number=1, fan=30, winning_hand=TEN_FAN_HAND, keep_referee_figure=True, **DISCARD_WIN
        ),
    )
    corrected = services.hand_record(
        table=table,
        entry=services.HandEntry(
            number=1, fan=10, winning_hand=TEN_FAN_HAND, version=hand.version, **DISCARD_WIN
        ),
        user=referee,
    )
    assert corrected.referee_figure_kept is False
    previous = corrected.revisions.get().previous
    assert (previous["fan"], previous["referee_figure_kept"]) == (30, True)


def test_a_penalty_needs_its_reason(table):
    with pytest.raises(ValidationError) as raised:
        services.hand_record(
            table=table,
            entry=services.HandEntry(
                number=1,
                outcome="draw",
                penalties=[PenaltyEntry(offender=0, kind="deducted", points=10, reason=" ")],
            ),
        )
    assert codes(raised.value) == {"penalty_reason_required"}
    assert "penalties" in raised.value.error_dict
    assert not Hand.objects.exists()


def test_a_hand_has_at_most_eight_penalties(table):
    nine = [
        PenaltyEntry(offender=n % 4, kind="deducted", points=5, reason="Foul") for n in range(9)
    ]
    with pytest.raises(ValidationError) as raised:
        services.hand_record(
            table=table, entry=services.HandEntry(number=1, outcome="draw", penalties=nine)
        )
    assert codes(raised.value) == {"too_many_penalties"}
    hand = services.hand_record(
        table=table, entry=services.HandEntry(number=1, outcome="draw", penalties=nine[:8])
    )
    assert hand.deducted == 40


def test_unknown_fan_names_do_not_hide_a_disputed_fan(table):
    with pytest.raises(services.HandRefused) as raised:
        services.hand_record(
            table=table,
            entry=services.HandEntry(
                number=1, fan=30, fan_names="Lucky Seven", winning_hand=TEN_FAN_HAND, **DISCARD_WIN
            ),
        )
    assert codes(raised.value) == {"unknown_fan", "fan_disputed"}


def test_a_hand_entered_twice_is_refused_with_the_calculators_result(table):
    services.hand_record(
        table=table,
        entry=services.HandEntry(number=1, fan=10, winning_hand=TEN_FAN_HAND, **DISCARD_WIN),
    )
    with pytest.raises(services.HandRefused) as raised:
        services.hand_record(
            table=table,
            entry=services.HandEntry(number=1, fan=10, winning_hand=TEN_FAN_HAND, **DISCARD_WIN),
        )
    assert codes(raised.value) == {"hand_already_entered"}
    assert raised.value.scored.total_without_flowers == 10
    assert Hand.objects.count() == 1


# The winning hand is read against the sheet: winds from the schedule, flowers from the form.

SOUTH_PUNG_HAND = "123m456p789sSSSE +E"


def test_winds_of_the_winning_hand_come_from_the_schedule(session_in_play):
    table = session_in_play.tables.get(number=2)
    # Hand 5 is the first of the South round; P2 deals, so P2's seat wind is East.
    scored = services.score_winning_hand(
        text=SOUTH_PUNG_HAND, number=5, winner=1, outcome="discard"
    )
    names = {f.name_en for f in scored.fans}
    assert "Prevalent Wind" in names and "Seat Wind" not in names
    hand = services.hand_record(
        table=table,
        entry=services.HandEntry(
            number=5,
            outcome="discard",
            winner=1,
            discarder=0,
            fan=scored.total_without_flowers,
            winning_hand=SOUTH_PUNG_HAND,
        ),
    )
    assert (hand.computed_fan, hand.winning_hand) == (scored.total_without_flowers, SOUTH_PUNG_HAND)
    # In hand 1 (East round) the same tiles score no Prevalent Wind.
    east = services.score_winning_hand(text=SOUTH_PUNG_HAND, number=1, winner=1, outcome="discard")
    assert "Prevalent Wind" not in {f.name_en for f in east.fans}


def test_a_typed_seat_wind_that_contradicts_the_sheet_is_refused(session_in_play):
    # Hand 1: P1 deals, so P1 is East; the referee typed seat=S.
    with pytest.raises(ValidationError) as raised:
        services.score_winning_hand(
            text=SOUTH_PUNG_HAND + " | seat=S", number=1, winner=0, outcome="discard"
        )
    assert "winning_hand_contradicts_sheet" in str(raised.value.error_dict["winning_hand"][0].code)
    # Typing what the sheet says is fine.
    services.score_winning_hand(
        text=SOUTH_PUNG_HAND + " | seat=E wind=E", number=1, winner=0, outcome="discard"
    )


def test_flowers_in_the_hand_must_agree_with_the_flowers_field(session_in_play):
    with pytest.raises(ValidationError):
        services.score_winning_hand(
            text=SOUTH_PUNG_HAND + " | flowers=2",
            number=1,
            winner=0,
            outcome="discard",
            flowers=0,
        )


def test_fans_are_claimed_only_for_a_win(table):
    with pytest.raises(services.HandRefused) as raised:
        services.hand_record(
            table=table,
            entry=services.HandEntry(number=1, outcome="draw", fan_names="Chicken Hand"),
        )
    assert codes(raised.value) == {"fans_without_win"}
    assert "fan_names" in raised.value.error_dict
    assert not Hand.objects.exists()


def test_confirm_stores_the_players_initials_by_seat_stripped(table, referee):
    services.table_confirm(
        table=table,
        user=referee,
        record_missing_as_not_played=True,
        initials=[" AB ", "cd", "", "王明"],
    )
    table.refresh_from_db()
    assert table.confirmed_initials == ["AB", "cd", "", "王明"]


@pytest.mark.parametrize("given", [(), ["", " ", "", ""]])
def test_confirm_without_initials_stores_none(table, referee, given):
    services.table_confirm(
        table=table, user=referee, record_missing_as_not_played=True, initials=given
    )
    table.refresh_from_db()
    assert table.is_confirmed
    assert table.confirmed_initials == []


@pytest.mark.parametrize(
    "given",
    [["ABCDE", "B", "C", "D"], ["A", "B", "C"], ["A", "B", "C", "D", "E"], "ABCD", [1, 2, 3, 4]],
)
def test_bad_initials_are_refused_and_nothing_is_confirmed(table, referee, given):
    services.hand_record(table=table, entry=services.HandEntry(number=1, outcome="draw"))
    with pytest.raises(ValidationError) as raised:
        services.table_confirm(
            table=table, user=referee, record_missing_as_not_played=True, initials=given
        )
    assert set(raised.value.error_dict) == {"initials"}
    assert codes(raised.value) == {"bad_initials"}
    table.refresh_from_db()
    assert not table.is_confirmed
    assert table.confirmed_initials == []
    assert table.hands.count() == 1


def test_missing_hands_and_bad_initials_are_refused_together(table, referee):
    with pytest.raises(ValidationError) as raised:
        services.table_confirm(table=table, user=referee, initials=["ABCDE", "", "", ""])
    assert set(raised.value.error_dict) == {"record_missing_as_not_played", "initials"}
    assert codes(raised.value) == {"hands_missing", "bad_initials"}


def test_reopen_clears_the_players_initials_for_the_next_confirmation(table, referee, organiser):
    initials = ["AB", "CD", "EF", "GH"]
    services.table_confirm(
        table=table, user=referee, record_missing_as_not_played=True, initials=initials
    )
    services.table_reopen(table=table, user=organiser, reason="Hand 3 was a win")
    table.refresh_from_db()
    assert table.confirmed_initials == []
    services.table_confirm(table=table, user=referee)
    table.refresh_from_db()
    assert table.is_confirmed
    assert table.confirmed_initials == []
