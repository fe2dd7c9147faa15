"""The results for the EMA (``/t/<slug>/ema.xlsx``), read back with openpyxl.

The two-session scenario of tests/test_exports.py, whose standings are worked out by hand
there (``EXPECTED_STANDINGS``), with EMA numbers given to three players, first and last
names set apart for two, a substitute who never played and a player who withdrew before
playing.
"""

import datetime
import io
from fractions import Fraction
from pathlib import Path

import openpyxl
import pytest
from django.utils import timezone

from tests.markdown_tables import table_rows
from tests.test_exports import make_scenario_tournament
from tournament import services
from tournament.exports import ema, spreadsheet
from tournament.exports.workbook import ExactPoints
from tournament.models import Session
from tournament.selectors.standings import tournament_standings

HEADER = [
    "Place",
    "Last name",
    "First name",
    "EMA number",
    "Country",
    "Table points",
    "Score",
    "EMA member",
    "Note",
]
# From EXPECTED_STANDINGS (rank, number, table points, score): the places and figures are
# the standings'; names, numbers and countries as registered below. Empty cells read None.
EXPECTED_RESULTS = [
    [1, "CHEN", "Jing", None, "CHN", Fraction(16, 3), 32, "no", None],
    [2, "Novak", "Dana", "22000031", "CZE", Fraction(9, 2), 24, "yes", None],
    [3, "Martin", "Alice", "04010005", "FRA", Fraction(9, 2), 0, "yes", None],
    [4, "Sato", "Eve", "05000012", "JPN", Fraction(4), 40, "yes", None],
    # "Gao Ming" and "Fu Hao" beside 高明 and 傅浩: the family name first, as in Chinese.
    [5, "Gao", "Ming", None, "CHN", Fraction(17, 6), -32, "no", None],
    [6, "Li", "Bo", None, "CHN", Fraction(2), 13, "no", None],
    [7, "Fu", "Hao", None, "CHN", Fraction(3, 2), -62, "no", None],
    # The substitute played both sessions: listed after the ranked players, without a place.
    [None, "Zhang", "Hui", None, "CHN", Fraction(10, 3), -25, "no", "substitute"],
]


def make_ema_cup(slug="standings-cup"):
    """The scenario with the EMA numbers, names and extra players of the module's docstring."""
    tournament = make_scenario_tournament(slug=slug)
    players = {player.number: player for player in tournament.players.all()}
    for number, ema_number in ((1, "04010005"), (4, "22000031"), (5, "05000012")):
        services.player_save(tournament=tournament, player=players[number], ema_number=ema_number)
    # Written apart by the organiser, and kept: Chen's family name in capitals, and Eve
    # Sato's names, whose 佐藤惠 (Japanese) would be read as Chinese, family name first.
    services.player_save(
        tournament=tournament, player=players[3], first_name="Jing", last_name="CHEN"
    )
    services.player_save(
        tournament=tournament, player=players[5], first_name="Eve", last_name="Sato"
    )
    # Neither is listed: a substitute never seated, a player withdrawn before playing.
    services.player_save(tournament=tournament, number=9, name="Ivo Spare", is_substitute=True)
    late = services.player_save(tournament=tournament, number=10, name="Jo Late")
    services.player_withdraw(player=late)
    return tournament


@pytest.fixture
def cup(db):
    return make_ema_cup()


def workbook(tournament):
    return openpyxl.load_workbook(io.BytesIO(ema.ema_xlsx_bytes(tournament)))


def results(sheet) -> tuple[list, list[list]]:
    """The header of the results and the rows below it, the block above left out."""
    rows = [list(row) for row in sheet.iter_rows(values_only=True)]
    start = next(index for index, row in enumerate(rows) if row[0] == "Place")
    return rows[start], rows[start + 1 :]


def block(sheet) -> dict:
    rows = [list(row) for row in sheet.iter_rows(values_only=True)]
    start = next(index for index, row in enumerate(rows) if row[0] == "Place")
    return {row[0]: row[1] for row in rows[:start] if row[0] is not None}


def test_the_columns_are_those_of_the_emas_results_sheet_in_order(cup):
    header, _rows = results(workbook(cup)["Results"])
    assert header == HEADER
    assert [heading for heading, _key in ema.EMA_COLUMNS] == HEADER


def test_rows_give_places_names_numbers_countries_and_exact_table_points(cup):
    sheet = workbook(cup)["Results"]
    _header, rows = results(sheet)
    points = HEADER.index("Table points")
    # The exact table points are numbers shown as fractions: 16/3 is "5 1/3" in the cell.
    assert [row[:points] + row[points + 1 :] for row in rows] == [
        row[:points] + row[points + 1 :] for row in EXPECTED_RESULTS
    ]
    assert [row[points] for row in rows] == [
        pytest.approx(float(row[points]), rel=1e-14) for row in EXPECTED_RESULTS
    ]
    first_data_row = sheet.max_row - len(rows) + 1
    for index in range(len(rows)):
        cell = sheet.cell(row=first_data_row + index, column=points + 1)
        assert cell.number_format == spreadsheet.FRACTION_FORMAT
        assert cell.data_type == "n"


def test_the_row_generator_keeps_table_points_exact(cup):
    header, *rows = ema.ema_rows(tournament_standings(cup))
    assert list(header) == HEADER
    points = [row[HEADER.index("Table points")] for row in rows]
    assert points == [row[5] for row in EXPECTED_RESULTS]
    assert all(isinstance(value, ExactPoints) for value in points)


def test_ema_numbers_keep_their_leading_zero_as_text(cup):
    sheet = workbook(cup)["Results"]
    column = HEADER.index("EMA number") + 1
    cells = [sheet.cell(row=r, column=column) for r in range(1, sheet.max_row + 1)]
    numbers = [cell for cell in cells if cell.value and cell.value != "EMA number"]
    assert [cell.value for cell in numbers] == ["22000031", "04010005", "05000012"]
    assert {cell.data_type for cell in numbers} == {"s"}


def test_the_tournament_block_above_the_results(cup):
    # The sessions were opened on two days, as an event's days are.
    first = timezone.make_aware(datetime.datetime(2026, 5, 16, 9, 30))
    Session.objects.filter(tournament=cup, number=1).update(opened_at=first)
    Session.objects.filter(tournament=cup, number=2).update(
        opened_at=first + datetime.timedelta(days=1)
    )
    services.player_save(tournament=cup, player=cup.players.get(number=1), team="Lyon")
    assert block(workbook(cup)["Results"]) == {
        "Tournament": "Standings Cup",
        "City": None,
        "Country": None,
        "Players": 7,
        "Substitutes": 1,
        "Substitute limit": 3,
        "First day": "2026-05-16",
        "Last day": "2026-05-17",
        "Days": 2,
        "Rules": "MCR",
        # Two days; 7 players from few countries; not qualifying.
        "Weight": 2.0,
        # The scenario plays a few hands a table, its players have no EMA number and are not
        # marked guests, and sessions 3 and 4 are not played: the file says it.
        "Checked": "no: tables_complete, guests_marked, sessions_closed",
    }


def test_a_tournament_without_play_has_an_empty_list(db):
    tournament = make_scenario_tournament(slug="not-started", sessions=0)
    sheet = workbook(tournament)["Results"]
    header, rows = results(sheet)
    assert header == HEADER
    # Registered players are ranked (all level) before anyone plays, as on the standings
    # page; the substitute has not played.
    assert [row[0] for row in rows] == [1] * 7
    assert block(sheet)["Days"] == 0
    assert block(sheet).get("First day") is None


def test_the_header_stays_in_view_below_the_block(cup):
    sheet = workbook(cup)["Results"]
    header_row = next(r for r in range(1, sheet.max_row + 1) if sheet.cell(r, 1).value == "Place")
    assert sheet.freeze_panes == f"A{header_row + 1}"
    assert all(cell.font.bold for cell in sheet[header_row] if cell.value)
    assert not sheet["A1"].font.bold


def test_the_file_follows_the_data(cup):
    # Kept once per version by the downloads (tests/web/test_downloads.py), not here: each
    # call writes the file from the data as it is.
    services.player_save(tournament=cup, player=cup.players.get(number=2), ema_number="06000006")
    _header, rows = results(workbook(cup)["Results"])
    assert [row[3] for row in rows if row[1] == "Li"] == ["06000006"]


def test_text_that_looks_like_a_formula_stays_text(cup):
    services.player_save(tournament=cup, player=cup.players.get(number=2), last_name="=1+2")
    sheet = workbook(cup)["Results"]
    (cell,) = [c for row in sheet.iter_rows() for c in row if c.value == "=1+2"]
    assert cell.data_type == "s"


def test_the_worked_example_of_docs_federation(cup):
    doc = Path(__file__).resolve().parents[1] / "docs" / "federation.md"
    documented = table_rows(doc, "| " + " | ".join(HEADER) + " |")

    def shown(value) -> str:
        if isinstance(value, Fraction):
            return spreadsheet.fraction_text(value)
        return "" if value is None else str(value)

    _header, *rows = ema.ema_rows(tournament_standings(cup))
    assert documented == [[shown(value) for value in row] for row in rows]
    assert block(workbook(cup)["Results"])["Players"] == 7
