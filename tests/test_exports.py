"""The standings workbook, checked against numbers worked out by hand.

The scenario (``standings_scenario``) is shared with the standings page tests. Seven
regular players and one substitute (number 8) play two sessions; the seeds fix the draw,
which the fixture asserts before entering any hand. Every expected figure below is worked
out in the comments from the scoring rules, not recomputed with the code under test.
"""

import datetime
import io
from fractions import Fraction

import openpyxl
import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.utils import timezone, translation

from tournament import services
from tournament.exports import workbook
from tournament.models import Session, Table
from tournament.selectors.standings import team_standings, tournament_standings

SEED_1 = 123456789
SEED_2 = 987654321

PLAYERS = [
    # number, name, Chinese name, team, country, substitute
    (1, "Alice Martin", "", "Dragons", "FRA", False),
    (2, "Bo Li", "李波", "Dragons", "CHN", False),
    (3, "Chen Jing", "陈静", "Tigers", "CHN", False),
    (4, "Dana Novak", "", "Tigers", "CZE", False),
    (5, "Eve Sato", "佐藤惠", "", "JPN", False),
    (6, "Fu Hao", "傅浩", "", "CHN", False),
    (7, "Gao Ming", "高明", "", "CHN", False),
    (8, "Hui Zhang", "张慧", "", "CHN", True),
]

# The draw by lot is deterministic for a seed (docs/seating.md): number -> (table, seat).
SEATS_1 = {5: (1, 0), 2: (1, 1), 8: (1, 2), 6: (1, 3), 4: (2, 0), 3: (2, 1), 7: (2, 2), 1: (2, 3)}
SEATS_2 = {7: (1, 0), 3: (1, 1), 8: (1, 2), 5: (1, 3), 2: (2, 0), 6: (2, 1), 4: (2, 2), 1: (2, 3)}

# Session 1, table 1 (5, 2, 8, 6):
#   hand 1: 5 self-draws 8 fan           -> 5 +48, 2 -16, 8 -16, 6 -16
#   hand 2: 2 wins on 8's discard, 10 fan + 1 flower (F = 11)
#                                         -> 2 +35, 8 -19, 5 -8, 6 -8
#   hand 3: draw; 6 false win, 10 to each -> 6 -30, others +10
#   scores 5: 50, 2: 29, 8: -25, 6: -54 -> places 1, 2, 3, 4 -> table points 4, 2, 1, 0
# Session 1, table 2 (4, 3, 7, 1):
#   hand 1: 4 self-draws 8 fan; hand 2: 3 self-draws 8 fan
#   scores 4: 32, 3: 32, 7: -32, 1: -32 -> two tied 1st, two tied 3rd -> 3, 3, 1/2, 1/2
# Session 2, table 1 (7, 3, 8, 5): hand 1 not played, 5 loses 10 for lateness (deducted)
#   scores 0, 0, 0, -10 -> three tied 1st share 4 + 2 + 1 = 7/3 each; 5 gets 0
# Session 2, table 2 (2, 6, 4, 1), NOT confirmed: hand 1: 1 wins on 2's discard, 8 fan
#   -> 1 +32, 2 -16, 6 -8, 4 -8 -> 1: 4; 6 and 4 tied 2nd: (2 + 1)/2 = 3/2; 2: 0
#
# Totals (table points, score, places, sessions, best session):
#   3: 3 + 7/3 = 16/3,  32 + 0 = 32,   [2, 0, 0, 0], 2, 32   rank 1
#   4: 3 + 3/2 = 9/2,   32 - 8 = 24,   [1, 1, 0, 0], 2, 32   rank 2
#   1: 1/2 + 4 = 9/2,  -32 + 32 = 0,   [1, 0, 1, 0], 2, 32   rank 3 (less score than 4)
#   5: 4 + 0 = 4,       50 - 10 = 40,  [1, 0, 0, 1], 2, 50   rank 4
#   7: 1/2 + 7/3 = 17/6, -32 + 0 = -32, [1, 0, 1, 0], 2, 0   rank 5
#   2: 2 + 0 = 2,       29 - 16 = 13,  [0, 1, 0, 1], 2, 29   rank 6
#   6: 0 + 3/2 = 3/2,  -54 - 8 = -62,  [0, 1, 0, 1], 2, -8   rank 7
#   8 (substitute): 1 + 7/3 = 10/3, -25, [1, 0, 1, 0], 2, 0  no rank, listed last
EXPECTED_STANDINGS = [
    # rank, number, table points, score, places, sessions played, best session
    (1, 3, Fraction(16, 3), 32, [2, 0, 0, 0], 2, 32),
    (2, 4, Fraction(9, 2), 24, [1, 1, 0, 0], 2, 32),
    (3, 1, Fraction(9, 2), 0, [1, 0, 1, 0], 2, 32),
    (4, 5, Fraction(4), 40, [1, 0, 0, 1], 2, 50),
    (5, 7, Fraction(17, 6), -32, [1, 0, 1, 0], 2, 0),
    (6, 2, Fraction(2), 13, [0, 1, 0, 1], 2, 29),
    (7, 6, Fraction(3, 2), -62, [0, 1, 0, 1], 2, -8),
    (None, 8, Fraction(10, 3), -25, [1, 0, 1, 0], 2, 0),
]
# Tigers: 16/3 + 9/2 = 59/6, 32 + 24 = 56; Dragons: 9/2 + 2 = 13/2, 0 + 13 = 13.
EXPECTED_TEAMS = [
    (1, "Tigers", Fraction(59, 6), 56),
    (2, "Dragons", Fraction(13, 2), 13),
]

SHEETS = [
    "Standings",
    "Session 1",
    "Session 2",
    "Hands",
    "Penalties",
    "Record of fouls",
    "Seating",
    "Teams",
    "Rules",
]


def _table_and_seats(session, seats, numbers):
    """The table the players share, and each one's seat, checking the draw is as expected."""
    (table_number,) = {seats[n][0] for n in numbers}
    table = session.tables.get(number=table_number)
    drawn = {s.player.number: s.seat for s in table.seats.select_related("player")}
    assert drawn == {n: seats[n][1] for n in numbers}
    return table, drawn


def build_session_1(tournament, user):
    session = services.session_open(
        session=services.session_draw(tournament=tournament, number=1, seed=SEED_1)
    )
    table, seat = _table_and_seats(session, SEATS_1, [5, 2, 8, 6])
    services.hand_record(
        table=table,
        entry=services.HandEntry(number=1, outcome="self_drawn", winner=seat[5], fan=8),
        user=user,
    )
    services.hand_record(
        table=table,
        entry=services.HandEntry(
            number=2,
            outcome="discard",
            winner=seat[2],
            discarder=seat[8],
            fan=10,
            flowers=1,
            fan_names="Mixed Triple Chow, All Chows",
        ),
        user=user,
    )
    services.hand_record(
        table=table,
        entry=services.HandEntry(
            number=3,
            outcome="draw",
            penalties=[
                services.PenaltyEntry(
                    offender=seat[6], kind="to_each_other", points=10, reason="False win"
                )
            ],
        ),
        user=user,
    )
    services.table_confirm(table=table, user=user, record_missing_as_not_played=True)

    table, seat = _table_and_seats(session, SEATS_1, [4, 3, 7, 1])
    services.hand_record(
        table=table,
        entry=services.HandEntry(number=1, outcome="self_drawn", winner=seat[4], fan=8),
        user=user,
    )
    services.hand_record(
        table=table,
        entry=services.HandEntry(number=2, outcome="self_drawn", winner=seat[3], fan=8),
        user=user,
    )
    services.table_confirm(table=table, user=user, record_missing_as_not_played=True)
    return session


def build_session_2(tournament, user):
    session = services.session_open(
        session=services.session_draw(tournament=tournament, number=2, seed=SEED_2)
    )
    table, seat = _table_and_seats(session, SEATS_2, [7, 3, 8, 5])
    services.hand_record(
        table=table,
        entry=services.HandEntry(
            number=1,
            outcome="not_played",
            penalties=[
                services.PenaltyEntry(offender=seat[5], kind="deducted", points=10, reason="Late")
            ],
        ),
        user=user,
    )
    services.table_confirm(table=table, user=user, record_missing_as_not_played=True)

    table, seat = _table_and_seats(session, SEATS_2, [2, 6, 4, 1])
    services.hand_record(
        table=table,
        entry=services.HandEntry(
            number=1, outcome="discard", winner=seat[1], discarder=seat[2], fan=8
        ),
        user=user,
    )
    return session


def make_scenario_tournament(*, slug="standings-cup", sessions=2):
    """The tournament with its eight players, before any draw."""
    user = User.objects.create_user(username=f"organiser-{slug}", password="x")
    tournament = services.tournament_create(
        name="Standings Cup",
        slug=slug,
        session_count=4,
        session_minutes=150,
        seating_method="lot",
        creator=user,
    )
    for number, name, name_zh, team, country, substitute in PLAYERS:
        services.player_save(
            tournament=tournament,
            number=number,
            name=name,
            name_zh=name_zh,
            team=team,
            country=country,
            is_substitute=substitute,
        )
    if sessions >= 1:
        build_session_1(tournament, user)
    if sessions >= 2:
        build_session_2(tournament, user)
    return tournament


@pytest.fixture
def standings_scenario(db):
    return make_scenario_tournament()


def load(tournament):
    return openpyxl.load_workbook(io.BytesIO(workbook.standings_xlsx_bytes(tournament)))


def header_row(sheet) -> int:
    """The header's row: the one above the frozen pane (below the block, if any)."""
    return int(sheet.freeze_panes.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")) - 1


def last_row(sheet) -> int:
    """The table's last row: the end of the filter on it (notes may follow it)."""
    return int(sheet.auto_filter.ref.split(":")[1].lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))


def data_rows(sheet):
    return [
        list(row)
        for row in sheet.iter_rows(
            min_row=header_row(sheet) + 1, max_row=last_row(sheet), values_only=True
        )
    ]


def notes(sheet) -> list:
    """The texts below the table."""
    return [
        row[0] for row in sheet.iter_rows(min_row=last_row(sheet) + 1, values_only=True) if row[0]
    ]


def header(sheet):
    return [cell.value for cell in sheet[header_row(sheet)]]


def records(sheet) -> list[dict]:
    """A sheet's rows below its header, as dicts by heading."""
    names = header(sheet)
    return [dict(zip(names, row, strict=True)) for row in data_rows(sheet)]


def column(sheet, name):
    return header(sheet).index(name)


# ---------------------------------------------------------------- row generators


@pytest.mark.django_db
def test_standings_rows_hold_exact_table_points_and_hand_worked_figures(standings_scenario):
    header_row, *rows = workbook.standings_rows(tournament_standings(standings_scenario))
    assert header_row[:3] == ("Rank", "Number", "Name")
    got = [(r[0], r[1], r[6], r[8], list(r[9:13]), r[13], r[14]) for r in rows]
    assert got == EXPECTED_STANDINGS
    assert all(isinstance(r[6], Fraction) for r in rows)
    assert [r[7] for r in rows] == [r[6] for r in rows]
    assert all(isinstance(r[7], workbook.ExactPoints) for r in rows)
    # A mark for a substitute, nothing for the others.
    assert [r[15] for r in rows] == [None] * 7 + [True]


@pytest.mark.django_db
def test_hand_rows_list_every_entered_hand_with_points_by_seat(standings_scenario):
    _, *rows = workbook.hand_rows(standings_scenario)
    # 16 hands at each of the three confirmed tables, 1 at the unconfirmed one.
    assert len(rows) == 16 * 3 + 1
    # Session 1, table 1, hand 2: dealer P2 (Bo Li) wins on P3's (Hui Zhang) discard.
    (row,) = [r for r in rows if r[:3] == (1, 1, 2)]
    assert row[3:] == (
        "East",
        "P2",
        "Bo Li",
        "Win on a discard",
        "P2",
        "Bo Li",
        "P3",
        "Hui Zhang",
        10,
        1,
        "Mixed Triple Chow, All Chows",
        "",  # no winning hand typed
        None,
        -8,
        35,
        -19,
        -8,
    )
    # Hand 6 was not played (time called): no winner, no fan, no points.
    (row,) = [r for r in rows if r[:3] == (1, 1, 6)]
    assert row[6:] == ("Not played", None, None, None, None, None, None, "", "", None, 0, 0, 0, 0)


@pytest.mark.django_db
def test_penalty_rows_name_the_offender_and_who_was_paid(standings_scenario):
    _, *rows = workbook.penalty_rows(standings_scenario)
    assert rows == [
        (
            1,
            1,
            3,
            "P4",
            6,
            "Fu Hao",
            "Paid to each other player",
            10,
            "each other player",
            "False win",
        ),
        (2, 1, 1, "P4", 5, "Eve Sato", "Deducted (leaves the table)", 10, None, "Late"),
    ]


@pytest.mark.django_db
def test_team_standings_sum_ranked_members(standings_scenario):
    _, *rows = workbook.team_rows(team_standings(tournament_standings(standings_scenario)))
    assert [(r[0], r[1], r[3], r[5]) for r in rows] == EXPECTED_TEAMS
    assert rows[0][2] == "Chen Jing, Dana Novak"
    assert rows[0][4] == Fraction(59, 6)
    assert isinstance(rows[0][4], workbook.ExactPoints)


# ---------------------------------------------------------------- the workbook


@pytest.mark.django_db
def test_workbook_has_the_sheets_in_order(standings_scenario):
    assert load(standings_scenario).sheetnames == SHEETS


@pytest.mark.django_db
def test_no_teams_sheet_when_nobody_has_a_team(db):
    tournament = make_scenario_tournament(slug="no-teams", sessions=0)
    for player in tournament.players.all():
        services.player_save(tournament=tournament, player=player, team="")
    assert load(tournament).sheetnames == [
        "Standings",
        "Hands",
        "Penalties",
        "Record of fouls",
        "Seating",
        "Rules",
    ]


@pytest.mark.django_db
def test_every_sheet_has_a_frozen_bold_header_and_widths(standings_scenario):
    workbook = load(standings_scenario)
    for sheet in workbook.worksheets:
        # The standings carry a heading above their header: the tournament's name, its
        # days, when the file was made, a blank row.
        top = 5 if sheet.title == "Standings" else 1
        assert sheet.freeze_panes == f"A{top + 1}", sheet.title
        assert all(cell.font.bold for cell in sheet[top]), sheet.title
        assert sheet.column_dimensions["A"].width >= len(str(sheet[f"A{top}"].value))


@pytest.mark.django_db
def test_standings_sheet_stores_numbers_as_numbers(standings_scenario):
    sheet = load(standings_scenario)["Standings"]
    rows = data_rows(sheet)
    points = column(sheet, "Table points")
    exact = column(sheet, "Table points (exact)")
    assert [r[points] for r in rows] == [5.3333, 4.5, 4.5, 4, 2.8333, 2, 1.5, 3.3333]
    # The exact column holds the number itself, shown as a fraction: 16/3 reads "5 1/3".
    fractions = [(16, 3), (9, 2), (9, 2), (4, 1), (17, 6), (2, 1), (3, 2), (10, 3)]
    assert [r[exact] for r in rows] == [pytest.approx(n / d, rel=1e-14) for n, d in fractions]
    first = header_row(sheet) + 1
    for row_index in range(first, len(rows) + first):
        cell = sheet.cell(row=row_index, column=exact + 1)
        assert cell.number_format == "# ??/??"
        assert cell.data_type == "n"
    for row in rows:
        for index in (1, points, column(sheet, "Score"), column(sheet, "1st")):
            assert isinstance(row[index], int | float) and not isinstance(row[index], bool)
    assert [r[0] for r in rows] == [1, 2, 3, 4, 5, 6, 7, None]
    # A word, never a spreadsheet's TRUE or FALSE: "yes" for the substitute, blank otherwise.
    assert [r[column(sheet, "Substitute")] for r in rows] == [None] * 7 + ["yes"]
    assert [r[column(sheet, "Status")] for r in rows] == [None] * 7 + ["substitute (unranked)"]


@pytest.mark.django_db
def test_chinese_names_survive_and_widen_their_column(standings_scenario):
    workbook = load(standings_scenario)
    sheet = workbook["Standings"]
    zh = column(sheet, "Chinese name")
    names = [r[zh] for r in data_rows(sheet)]
    assert names[0] == "陈静"
    assert names[-1] == "张慧"
    # The heading "Chinese name" takes two lines, the wider "Chinese": in bold Arial 7.3
    # digits (a column's width counts digits). 佐藤惠 is three ems, 5.4 digits: the column
    # is 8 wide, and a digit of margin.
    letter = sheet.cell(row=1, column=zh + 1).column_letter
    assert sheet.column_dimensions[letter].width == 8 + 1
    seating = workbook["Seating"]
    assert "陈静" in [r[6] for r in data_rows(seating)]


@pytest.mark.django_db
def test_cjk_characters_are_an_em_wide_in_column_width(db):
    tournament = make_scenario_tournament(slug="wide-names", sessions=0)
    player = tournament.players.get(number=1)
    services.player_save(tournament=tournament, player=player, name_zh="欧阳娜娜娜娜娜娜")
    sheet = load(tournament)["Standings"]
    letter = sheet.cell(row=1, column=column(sheet, "Chinese name") + 1).column_letter
    # Eight ems, each 1000/556 of a digit: 14.4 digits, 15, and a digit of margin.
    assert sheet.column_dimensions[letter].width == 15 + 1


@pytest.mark.django_db
def test_session_sheets_give_scores_places_and_confirmation(standings_scenario):
    workbook = load(standings_scenario)
    sheet = workbook["Session 1"]
    assert header(sheet) == [
        "Table",
        "Seat",
        "Number",
        "Name",
        "Chinese name",
        "Score",
        "Place",
        "Table points",
        "Table points (exact)",
        "Confirmed",
    ]
    by_number = {r[2]: r for r in data_rows(sheet)}
    assert by_number[5] == [1, "P1", 5, "Eve Sato", "佐藤惠", 50, 1, 4, 4, "yes"]
    assert by_number[7] == [2, "P3", 7, "Gao Ming", "高明", -32, 3, 0.5, 0.5, "yes"]
    session_2 = {r[2]: r for r in data_rows(workbook["Session 2"])}
    assert session_2[3][5:] == [0, 1, 2.3333, pytest.approx(7 / 3, rel=1e-14), "yes"]
    assert session_2[6][5:] == [-8, 2, 1.5, 1.5, "no"]


@pytest.mark.django_db
def test_seating_sheet_lists_every_seat_with_its_lot(standings_scenario):
    rows = data_rows(load(standings_scenario)["Seating"])
    assert len(rows) == 16
    assert rows[0] == [1, 1, "P1", 1, 5, "Eve Sato", "佐藤惠", None, None, None]
    assert rows[-1] == [2, 2, "P4", 8, 1, "Alice Martin", None, "Dragons", None, None]


@pytest.mark.django_db
def test_text_that_looks_like_a_formula_stays_text(db):
    tournament = make_scenario_tournament(slug="formula", sessions=0)
    player = tournament.players.get(number=1)
    services.player_save(tournament=tournament, player=player, name="=1+2")
    sheet = load(tournament)["Standings"]
    names = [r[2] for r in data_rows(sheet)]
    assert "=1+2" in names
    cell = sheet.cell(row=names.index("=1+2") + header_row(sheet) + 1, column=3)
    assert cell.data_type == "s"


# ---------------------------------------------------------------- the command


@pytest.mark.django_db
def test_export_command_writes_the_workbook(standings_scenario, tmp_path, capsys):
    target = tmp_path / "out.xlsx"
    call_command("export_standings", "standings-cup", "-o", str(target))
    assert capsys.readouterr().out.strip() == str(target)
    assert openpyxl.load_workbook(target).sheetnames == SHEETS


@pytest.mark.django_db
def test_export_command_refuses_an_unknown_tournament(tmp_path):
    with pytest.raises(CommandError):
        call_command("export_standings", "nope", "-o", str(tmp_path / "x.xlsx"))
    assert not (tmp_path / "x.xlsx").exists()


@pytest.mark.django_db
def test_unconfirmed_tables_still_count(standings_scenario):
    # The provisional table's hand is in the standings; confirming changes nothing.
    table = Table.objects.get(session__tournament=standings_scenario, session__number=2, number=2)
    before = data_rows(load(standings_scenario)["Standings"])
    services.table_confirm(table=table, user=None, record_missing_as_not_played=True)
    assert data_rows(load(standings_scenario)["Standings"]) == before


# ---------------------------------------------------------------- withdrawals and substitutes


@pytest.fixture
def withdrawals(standings_scenario):
    """The scenario, then: 6 Fu Hao withdraws after session 2; 10 Ivo Berg registers and
    withdraws before playing; substitutes 9 and 11 register; session 3 is drawn (six regular
    players and the substitutes 8 and 9) but not played; 5 Eve Sato withdraws and 11 takes
    her seat."""
    tournament = standings_scenario
    services.player_withdraw(player=tournament.players.get(number=6))
    for number, name, substitute in ((9, "Ines Roth", True), (10, "Ivo Berg", False)):
        services.player_save(
            tournament=tournament, number=number, name=name, is_substitute=substitute
        )
    services.player_withdraw(player=tournament.players.get(number=10))
    session = services.session_draw(tournament=tournament, number=3, seed=SEED_1)
    services.player_save(tournament=tournament, number=11, name="Jun Ode", is_substitute=True)
    services.player_withdraw(player=tournament.players.get(number=5))
    seat = session.seats.get(player__number=5)
    services.seat_replace(seat=seat, player=tournament.players.get(number=11))
    return tournament


@pytest.mark.django_db
def test_a_session_drawn_but_not_played_has_no_sheet(withdrawals):
    workbook = load(withdrawals)
    assert workbook.sheetnames == SHEETS
    # Its seats are in the seating sheet all the same.
    assert {r[0] for r in data_rows(workbook["Seating"])} == {1, 2, 3}


@pytest.mark.django_db
def test_a_session_sheet_holds_only_the_tables_played(standings_scenario):
    session = services.session_open(
        session=services.session_draw(tournament=standings_scenario, number=3, seed=SEED_1)
    )
    table = session.tables.get(number=2)
    services.hand_record(
        table=table,
        entry=services.HandEntry(number=1, outcome="self_drawn", winner=0, fan=8),
        user=None,
    )
    rows = records(load(standings_scenario)["Session 3"])
    assert {r["Table"] for r in rows} == {2}
    assert sorted(r["Place"] for r in rows) == [1, 2, 2, 2]


@pytest.mark.django_db
def test_the_status_says_why_a_player_has_no_rank(withdrawals):
    rows = {r["Number"]: r for r in records(load(withdrawals)["Standings"])}
    # 6 and 5 keep their results and their rank (7 and 4: EXPECTED_STANDINGS).
    assert (rows[6]["Rank"], rows[6]["Status"]) == (7, "withdrawn after session 2")
    assert (rows[5]["Rank"], rows[5]["Status"]) == (4, "withdrawn after session 2")
    assert rows[10]["Rank"] is None
    assert rows[10]["Status"] == "withdrawn before playing (unranked)"
    for number in (8, 9, 11):
        assert (rows[number]["Rank"], rows[number]["Status"]) == (None, "substitute (unranked)")
    assert [rows[n]["Status"] for n in (1, 2, 3, 4, 7)] == [None] * 5


@pytest.mark.django_db
def test_the_seating_sheet_says_whom_a_substitute_replaces_and_who_withdrew(withdrawals):
    today = timezone.localdate().isoformat()
    rows = records(load(withdrawals)["Seating"])
    (seat,) = [r for r in rows if r["Session"] == 3 and r["Number"] == 11]
    assert (seat["Replaces"], seat["Withdrawn"]) == ("5 Eve Sato", None)
    # Eve Sato's earlier seats: withdrawn since today. In session 3, the draw seated the
    # substitutes 8 and 9 for six regular players: substitute 8 stands in for 6 Fu Hao, who
    # played session 2 and withdrew (10 Ivo Berg never held a place); nobody else replaces.
    assert [r["Withdrawn"] for r in rows if r["Number"] == 5] == [today, today]
    replaced = {r["Number"]: r["Replaces"] for r in rows if r["Session"] == 3 and r["Replaces"]}
    assert replaced == {11: "5 Eve Sato", 8: "6 Fu Hao"}
    assert {r["Number"] for r in rows if r["Withdrawn"]} == {5, 6}


@pytest.mark.django_db
def test_the_standings_sheet_counts_the_substitutes_against_the_limit(withdrawals):
    # A note below the table, never above it: the table's rows stay one block to sort.
    sheet = load(withdrawals)["Standings"]
    assert notes(sheet) == ["3 substitutes have sat at a table; the federation counts at most 3."]
    assert sheet.cell(row=last_row(sheet) + 1, column=1).value is None
    services.tournament_update(tournament=withdrawals, substitute_limit=2)
    sheet = load(withdrawals)["Standings"]
    assert notes(sheet) == [
        "3 substitutes have sat at a table; the federation counts at most 2.",
        "The federation will count only 2 substitutes.",
    ]
    assert header(sheet)[0] == "Rank"


# ---------------------------------------------------------------- the handout


@pytest.mark.django_db
def test_the_standings_open_with_the_tournaments_name_days_and_when_the_file_was_made(
    standings_scenario,
):
    # Sessions 1 and 2 were opened on two days; session 3 is announced for the next.
    first = timezone.make_aware(datetime.datetime(2026, 5, 16, 9, 30))
    Session.objects.filter(tournament=standings_scenario, number=1).update(opened_at=first)
    Session.objects.filter(tournament=standings_scenario, number=2).update(
        opened_at=first + datetime.timedelta(days=1)
    )
    services.session_times_set(
        tournament=standings_scenario, starts={3: first + datetime.timedelta(days=2), 4: None}
    )
    made = timezone.make_aware(datetime.datetime(2026, 5, 18, 18, 30))
    assert workbook.heading_rows(standings_scenario, made) == [
        ("Standings Cup",),
        ("16 May 2026 – 18 May 2026",),
        ("Made on 18 May 2026, 18:30 (UTC)",),
        (),
    ]
    sheet = load(standings_scenario)["Standings"]
    assert (sheet["A1"].value, sheet["A2"].value) == (
        "Standings Cup",
        "16 May 2026 – 18 May 2026",
    )
    assert sheet["A3"].value.startswith("Made on ")
    assert (sheet["A1"].font.bold, sheet["A1"].font.size) == (True, 14)
    assert (sheet["A4"].value, sheet["A5"].value) == (None, "Rank")
    # Every printed page of every sheet says whose it is and which page of how many.
    for each in load(standings_scenario).worksheets:
        assert each.oddHeader.center.text == "Standings Cup"
        assert each.oddFooter.center.text == "Page &P of &N"


@pytest.mark.django_db
def test_the_heading_is_in_the_readers_language(standings_scenario):
    made = timezone.make_aware(datetime.datetime(2026, 5, 18, 18, 30))
    with translation.override("zh-hans"):
        _title, days, when, _blank = workbook.heading_rows(standings_scenario, made)
    assert when == ("生成于 2026年5月18日 18:30（UTC）",)
    assert days[0].startswith("20")


@pytest.mark.django_db
def test_a_tournament_without_days_has_no_days_line(db):
    tournament = make_scenario_tournament(slug="no-days", sessions=0)
    made = timezone.make_aware(datetime.datetime(2026, 5, 18, 18, 30))
    assert [row[:1] for row in workbook.heading_rows(tournament, made)] == [
        ("Standings Cup",),
        ("Made on 18 May 2026, 18:30 (UTC)",),
        (),
    ]
