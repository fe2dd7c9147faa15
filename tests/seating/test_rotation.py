import dataclasses
from collections import Counter
from pathlib import Path

import pytest

from tests.markdown_tables import split_row, table_rows
from tests.purity import assert_imports_no_django
from tournament.seating import ROUND_SEATING, WINDS, HandSlot, session_schedule

REPO_ROOT = Path(__file__).resolve().parents[2]
SEATING_DOC = REPO_ROOT / "docs" / "seating.md"

# Copied verbatim from mcr-competition-rules.md section 2, so the code is checked against
# the rules as written rather than against a restatement of the code.
DIGEST_DEALERS = "P1 P2 P3 P4 · P2 P1 P4 P3 · P3 P4 P2 P1 · P4 P3 P1 P2"
DIGEST_ROUND_TABLE = """
  | 1 East | P1 | P2 | P3 | P4 |
  | 2 South | P2 | P1 | P4 | P3 |
  | 3 West | P3 | P4 | P2 | P1 |
  | 4 North | P4 | P3 | P1 | P2 |
"""


def starting_seat(name):
    """'P1'..'P4' -> 0..3."""
    assert name in {"P1", "P2", "P3", "P4"}
    return int(name[1]) - 1


def markdown_table(header):
    """Rows (lists of cells) of the table in docs/seating.md whose header row is `header`."""
    return table_rows(SEATING_DOC, header)


def rounds():
    schedule = session_schedule()
    return [schedule[start : start + 4] for start in range(0, 16, 4)]


def test_session_has_sixteen_hands_numbered_in_order():
    assert [slot.number for slot in session_schedule()] == list(range(1, 17))


def test_winds_are_east_south_west_north():
    assert WINDS == ("E", "S", "W", "N")


def test_dealers_follow_the_digest_sequence():
    expected = [starting_seat(name) for name in DIGEST_DEALERS.replace("·", " ").split()]
    assert len(expected) == 16
    assert [slot.dealer for slot in session_schedule()] == expected


def test_round_seating_matches_the_digest_table():
    expected = [
        tuple(starting_seat(name) for name in split_row(line)[1:])
        for line in DIGEST_ROUND_TABLE.strip().splitlines()
    ]
    assert len(expected) == 4
    assert list(ROUND_SEATING) == expected


@pytest.mark.parametrize("round_number", [1, 2, 3, 4])
def test_prevalent_wind_is_the_wind_of_the_round(round_number):
    hands = rounds()[round_number - 1]
    assert {slot.prevalent_wind for slot in hands} == {WINDS[round_number - 1]}


@pytest.mark.parametrize("round_number", [1, 2, 3, 4])
def test_physical_seats_follow_the_round_seating_and_do_not_change_within_a_round(
    round_number,
):
    seating = ROUND_SEATING[round_number - 1]
    for slot in rounds()[round_number - 1]:
        for physical, player in zip(WINDS, seating, strict=True):
            assert slot.physical_seats[player] == physical


@pytest.mark.parametrize("round_number", [1, 2, 3, 4])
def test_each_player_deals_once_per_round(round_number):
    dealers = [slot.dealer for slot in rounds()[round_number - 1]]
    assert sorted(dealers) == [0, 1, 2, 3]


@pytest.mark.parametrize("round_number", [1, 2, 3, 4])
def test_deal_passes_counter_clockwise_starting_from_the_east_seat(round_number):
    dealer_seats = [slot.physical_seats[slot.dealer] for slot in rounds()[round_number - 1]]
    assert dealer_seats == ["E", "S", "W", "N"]


@pytest.mark.parametrize("player", [0, 1, 2, 3])
def test_each_player_sits_in_each_physical_seat_once_per_session(player):
    seats = [hands[0].physical_seats[player] for hands in rounds()]
    assert sorted(seats) == sorted(WINDS)


@pytest.mark.parametrize("slot", session_schedule(), ids=lambda slot: f"hand{slot.number}")
def test_seat_winds_are_a_permutation_and_the_dealer_is_east(slot):
    assert sorted(slot.seat_winds) == sorted(WINDS)
    assert sorted(slot.physical_seats) == sorted(WINDS)
    assert slot.seat_winds[slot.dealer] == "E"


@pytest.mark.parametrize("slot", session_schedule(), ids=lambda slot: f"hand{slot.number}")
def test_seat_winds_run_south_west_north_counter_clockwise_from_the_dealer(slot):
    dealer_seat = WINDS.index(slot.physical_seats[slot.dealer])
    for player in range(4):
        steps = (WINDS.index(slot.physical_seats[player]) - dealer_seat) % 4
        assert slot.seat_winds[player] == WINDS[steps]


def test_hand_two_puts_the_first_dealer_on_north_wind():
    slot = session_schedule()[1]
    assert slot == HandSlot(
        number=2,
        prevalent_wind="E",
        dealer=1,
        seat_winds=("N", "E", "S", "W"),
        physical_seats=("E", "S", "W", "N"),
    )


def test_hand_slots_are_immutable():
    with pytest.raises(dataclasses.FrozenInstanceError):
        session_schedule()[0].dealer = 3


def test_schedule_table_in_the_doc_matches_the_code():
    rows = markdown_table("| hand | prevalent wind | dealer | P1 | P2 | P3 | P4 |")
    assert len(rows) == 16
    documented = [
        (
            int(number),
            prevalent,
            starting_seat(dealer),
            tuple(cell.split("/")[0] for cell in cells),
            tuple(cell.split("/")[1] for cell in cells),
        )
        for number, prevalent, dealer, *cells in rows
    ]
    assert documented == [
        (s.number, s.prevalent_wind, s.dealer, s.seat_winds, s.physical_seats)
        for s in session_schedule()
    ]


def test_round_seating_table_in_the_doc_matches_the_code():
    rows = markdown_table("| round | East seat | South seat | West seat | North seat |")
    assert len(rows) == 4
    assert [int(row[0]) for row in rows] == [1, 2, 3, 4]
    assert [tuple(starting_seat(name) for name in row[1:]) for row in rows] == list(ROUND_SEATING)


def test_importing_seating_does_not_import_django():
    assert_imports_no_django("tournament.seating")


def test_schedule_counts_every_seat_wind_four_times_per_player():
    for player in range(4):
        winds = Counter(slot.seat_winds[player] for slot in session_schedule())
        assert winds == {"E": 4, "S": 4, "W": 4, "N": 4}
