"""The paper fallback's data: the 16 rows of a blank score sheet, checked against the rules'
table of seats (no database), and the sheets and penalty record read for a session."""

import pytest

from tests.conftest import make_players
from tests.markdown_tables import split_row
from tournament import services
from tournament.seating import session_schedule
from tournament.selectors.paper import (
    PENALTY_RECORD_MIN_BLANK,
    PENALTY_RECORD_ROWS,
    PaperPlayer,
    PenaltyLine,
    PenaltyRecord,
    paper_rows,
    session_penalty_record,
    session_score_sheets,
)

# Copied verbatim from mcr-competition-rules.md section 2: who sits in which physical seat at
# the first hand of each round, and the dealers of hands 1-16.
DIGEST_ROUND_TABLE = """
  | 1 East | P1 | P2 | P3 | P4 |
  | 2 South | P2 | P1 | P4 | P3 |
  | 3 West | P3 | P4 | P2 | P1 |
  | 4 North | P4 | P3 | P1 | P2 |
"""
DIGEST_DEALERS = "P1 P2 P3 P4 · P2 P1 P4 P3 · P3 P4 P2 P1 · P4 P3 P1 P2"
WINDS = ["E", "S", "W", "N"]
SEATS = ["P1", "P2", "P3", "P4"]


def digest_hands():
    """(hand, prevalent wind, dealer "Pn", {"Pn": seat wind}) for hands 1-16, worked out from
    the digest's words: the player in the East seat deals the round's first hand, the deal
    passes to the next seat counter-clockwise (E, S, W, N), the dealer is East and South,
    West, North follow counter-clockwise from the dealer."""
    hands = []
    for round_index, line in enumerate(DIGEST_ROUND_TABLE.strip().splitlines()):
        in_seat = split_row(line)[1:]  # the player in the E, S, W, N seat
        for hand_in_round in range(4):
            dealer_seat = hand_in_round
            winds = {player: WINDS[(seat - dealer_seat) % 4] for seat, player in enumerate(in_seat)}
            hands.append(
                (
                    round_index * 4 + hand_in_round + 1,
                    WINDS[round_index],
                    in_seat[dealer_seat],
                    winds,
                )
            )
    return hands


def row_facts(row):
    return (
        row.number,
        row.slot.prevalent_wind,
        row.dealer_label,
        dict(zip(SEATS, row.slot.seat_winds, strict=True)),
    )


def test_the_digest_reading_gives_the_digest_dealers():
    assert [dealer for _n, _w, dealer, _s in digest_hands()] == DIGEST_DEALERS.replace(
        "·", " "
    ).split()


def test_the_sixteen_rows_agree_with_the_rules_table():
    rows = paper_rows((None, None, None, None))
    assert [row_facts(row) for row in rows] == digest_hands()


def test_the_rows_are_the_rotation_of_the_tablets_and_cards():
    rows = paper_rows((None, None, None, None))
    assert [row.slot for row in rows] == list(session_schedule())


def test_each_row_names_the_dealer_of_the_seat_that_deals():
    players = tuple(PaperPlayer(number, f"Player {number}") for number in (7, 3, 12, 5))
    rows = paper_rows(players)
    by_seat = dict(zip(SEATS, (7, 3, 12, 5), strict=True))
    assert [row.dealer.number for row in rows] == [
        by_seat[dealer] for _n, _w, dealer, _s in digest_hands()
    ]
    # The dealer's own seat wind is East on every row.
    assert all(row.slot.seat_winds[SEATS.index(row.dealer_label)] == "E" for row in rows)


def test_a_blank_sheet_names_no_dealer():
    assert {row.dealer for row in paper_rows((None,) * 4)} == {None}


def test_the_rows_that_open_a_round_are_where_the_players_move():
    rows = paper_rows((None,) * 4)
    assert [row.number for row in rows if row.opens_round] == [5, 9, 13]


def test_a_player_with_a_chinese_name_prints_both():
    assert PaperPlayer(1, "Li Wei", "李伟").display_name == "Li Wei (李伟)"
    assert PaperPlayer(2, "Anna").display_name == "Anna"


# ---------------------------------------------------------------- read for a session


@pytest.fixture
def drawn(tournament):
    make_players(tournament, 12, team="Club")
    return services.session_draw(tournament=tournament, number=1, seed=7)


def seated(session):
    """(table, seat) -> player number, read from the stored seats."""
    return {
        (seat.table.number, seat.seat): seat.player.number
        for seat in session.seats.select_related("table", "player")
    }


def test_the_sheets_carry_each_tables_players_by_starting_seat(drawn):
    sheets = session_score_sheets(drawn)
    assert [sheet.table for sheet in sheets] == [1, 2, 3]
    printed = {
        (sheet.table, seat): player.number
        for sheet in sheets
        for seat, player in enumerate(sheet.players)
    }
    assert printed == seated(drawn)
    assert {player.team for sheet in sheets for player in sheet.players} == {"Club"}


def test_blank_sheets_keep_the_tables_and_leave_out_the_players(drawn):
    sheets = session_score_sheets(drawn, blank=True)
    assert [sheet.table for sheet in sheets] == [1, 2, 3]
    assert {player for sheet in sheets for player in sheet.players} == {None}
    assert all(len(sheet.rows) == 16 for sheet in sheets)


def test_one_table_only(drawn):
    assert [sheet.table for sheet in session_score_sheets(drawn, table=2)] == [2]
    assert session_score_sheets(drawn, table=9) == []


def test_a_substitute_in_a_withdrawn_players_seat_is_on_the_sheet(drawn, tournament):
    substitute = services.player_save(
        tournament=tournament, number=20, name="Stand-in", is_substitute=True
    )
    seat = drawn.seats.select_related("table").get(player__number=4)
    services.player_withdraw(player=seat.player)
    services.seat_replace(seat=seat, player=substitute)
    (sheet,) = session_score_sheets(drawn, table=seat.table.number)
    assert sheet.players[seat.seat].name == "Stand-in"


def record_penalty(session, table_number, hand, **penalty):
    table = session.tables.get(number=table_number)
    return services.hand_record(
        table=table,
        entry=services.HandEntry(
            number=hand, outcome="draw", penalties=[services.PenaltyEntry(**penalty)]
        ),
    )


def test_the_penalty_record_lists_the_sessions_penalties_first(drawn):
    services.session_open(session=drawn)
    record_penalty(drawn, 3, 2, offender=1, kind="deducted", points=20, reason="Lateness")
    record_penalty(
        drawn, 1, 5, offender=3, kind="to_one", points=5, beneficiary=0, reason="Showed tiles"
    )
    record = session_penalty_record(drawn)
    players = seated(drawn)
    assert [
        (line.table, line.hand, line.offender_label, line.player.number, line.reason)
        for line in record.lines
    ] == [
        (1, 5, "P4", players[(1, 3)], "Showed tiles"),
        (3, 2, "P2", players[(3, 1)], "Lateness"),
    ]
    assert [(line.kind, line.points, line.beneficiary_label) for line in record.lines] == [
        ("to_one", 5, "P1"),
        ("deducted", 20, ""),
    ]
    assert record.blank_rows == PENALTY_RECORD_ROWS - 2


def test_a_blank_penalty_record_has_only_blank_rows(drawn):
    services.session_open(session=drawn)
    record_penalty(drawn, 1, 1, offender=0, kind="deducted", points=10, reason="Lateness")
    record = session_penalty_record(drawn, blank=True)
    assert record.lines == []
    assert record.blank_rows == PENALTY_RECORD_ROWS


def test_blank_rows_follow_however_many_penalties_are_recorded(drawn):
    services.session_open(session=drawn)
    table = drawn.tables.get(number=1)
    lateness = services.PenaltyEntry(offender=0, kind="deducted", points=5, reason="Foul")
    for hand in range(1, 8):
        services.hand_record(
            table=table,
            entry=services.HandEntry(number=hand, outcome="draw", penalties=[lateness] * 4),
        )
    record = session_penalty_record(drawn)
    assert len(record.lines) == 28
    # 28 entered and 4 blank rows: two pages, the second with 4 entered and 20 blank.
    assert [(len(page.lines), len(page.blanks)) for page in record.pages] == [(24, 0), (4, 20)]


@pytest.mark.parametrize(
    "entered, rows",
    [
        (0, [(0, 24)]),
        (20, [(20, 4)]),
        (21, [(21, 3), (0, 24)]),
        (44, [(24, 0), (20, 4)]),
        (45, [(24, 0), (21, 3), (0, 24)]),
    ],
)
def test_the_penalty_record_fills_whole_pages_leaving_blank_rows(entered, rows):
    line = PenaltyLine(
        table=1,
        hand=1,
        offender=0,
        player=None,
        kind="deducted",
        points=5,
        beneficiary=None,
        reason="Foul",
    )
    record = PenaltyRecord(lines=[line] * entered)
    pages = record.pages
    assert [(len(page.lines), len(page.blanks)) for page in pages] == rows
    assert [(page.number, page.count) for page in pages] == [
        (n, len(rows)) for n in range(1, len(rows) + 1)
    ]
    assert sum(len(page.lines) for page in pages) == entered
    assert record.blank_rows == PENALTY_RECORD_ROWS * len(rows) - entered
    assert all(len(page.lines) + len(page.blanks) == PENALTY_RECORD_ROWS for page in pages)
    assert len(pages[-1].blanks) >= PENALTY_RECORD_MIN_BLANK


def test_penalties_of_other_sessions_are_not_listed(drawn, tournament):
    services.session_open(session=drawn)
    record_penalty(drawn, 1, 1, offender=0, kind="deducted", points=10, reason="Lateness")
    for each in drawn.tables.all():
        services.table_confirm(table=each, user=None, record_missing_as_not_played=True)
    services.session_close(session=drawn)
    second = services.session_draw(tournament=tournament, number=2, seed=8)
    assert session_penalty_record(second).lines == []
