"""The standings workbook as a spreadsheet user sorts and prints it, in LibreOffice: every
sheet keeps its filter on the header row (not on the rows above or below the table), its
header row repeated on every printed page and its page setup through a round trip; and the
Standings sheet prints as a handout, read back from the PDF LibreOffice makes of it: 16
players on one page, 300 on as many pages as their rows need, one page wide at a readable
size, each page with the tournament's name and the table's header.

Needs LibreOffice (``soffice``), like tests/test_workbooks_libreoffice.py: marked
``libreoffice``.
"""

import io
import math
import subprocess
from collections import Counter
from pathlib import Path

import openpyxl
import pytest

from tests.pdf_text import pdf_pages
from tests.test_workbooks_libreoffice import CONVERT_SECONDS, soffice
from tournament import services
from tournament.exports import spreadsheet, workbook

pytestmark = pytest.mark.libreoffice

# The smallest print scale that still reads as a handout: 10-point text printed at 7 points.
READABLE_SCALE = 0.7
# A row of 10-point Arial, in points, as LibreOffice lays it out (0.45 cm), and what an A4
# page turned landscape holds down inside the workbook's margins.
ROW_POINTS = 12.8
LANDSCAPE_HEIGHT = 595.3 - 72 * (spreadsheet.MARGINS["top"] + spreadsheet.MARGINS["bottom"])
FIRST_NAMES = ("Anna", "Li", "Jean-Baptiste", "Mateo", "Haruka", "Zhao", "Ingrid", "Pieter")
LAST_NAMES = ("Lindqvist", "Wei", "Moreau-Delacroix", "Kowalski", "Tanaka", "Chen", "Falk")


def converted(content: bytes, name: str, folder: Path, to: str) -> bytes:
    """``content`` (an .xlsx) as LibreOffice writes it ``to`` "xlsx" or "pdf"."""
    source = folder / f"{name}.xlsx"
    source.write_bytes(content)
    out = folder / to
    done = subprocess.run(
        [
            soffice(),
            f"-env:UserInstallation=file://{folder / 'profile'}",
            "--headless",
            "--convert-to",
            to,
            "--outdir",
            str(out),
            str(source),
        ],
        capture_output=True,
        timeout=CONVERT_SECONDS,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return (out / f"{name}.{to}").read_bytes()


def make_field(tournament, count: int) -> None:
    """``count`` players with names, teams and countries of every length a field has, then
    a substitute and a player who withdrew before playing (the longest status); session 1
    drawn and a hand played at table 1."""
    for number in range(1, count + 1):
        services.player_save(
            tournament=tournament,
            number=number,
            name=f"{FIRST_NAMES[number % 8]} {LAST_NAMES[number % 7]}",
            team=f"Mahjong Club {number % 9}" if number % 3 else "",
            country=("FRA", "CHN", "GER", "NED")[number % 4],
        )
    services.player_save(
        tournament=tournament, number=count + 1, name="Sam Spare", is_substitute=True
    )
    late = services.player_save(tournament=tournament, number=count + 2, name="Jo Late")
    services.player_withdraw(player=late)
    session = services.session_open(
        session=services.session_draw(tournament=tournament, number=1, seed=5)
    )
    services.hand_record(
        table=session.tables.get(number=1),
        entry=services.HandEntry(number=1, outcome="self_drawn", winner=0, fan=8),
    )


def standings_sheet_only(tournament) -> bytes:
    """A workbook of the Standings sheet alone, as the standings workbook writes it."""
    sheet = next(iter(workbook.workbook_sheets(tournament)))
    file = io.BytesIO()
    spreadsheet.write_workbook(file, [workbook.as_cells(sheet)])
    return file.getvalue()


def printed(tournament, tmp_path):
    return pdf_pages(converted(standings_sheet_only(tournament), "standings", tmp_path, "pdf"))


def runs(page) -> set[str]:
    return {text.strip() for text, _size in page.runs}


HEADINGS = {"Rank", "Number", "Name", "Team", "Country", "Score", "1st", "4th", "Status"}


def test_filters_print_titles_and_page_setup_survive_libreoffice(tournament, tmp_path):
    make_field(tournament, 100)
    # A warning on the record of fouls, whose sheet prints turned landscape.
    table = tournament.sessions.get(number=1).tables.get(number=1)
    services.ruling_give(
        table=table,
        referee=None,
        hand=1,
        decision="Slow to discard: warned.",
        offence="procedural",
        players=[table.seats.get(seat=2).player],
    )
    content = workbook.standings_xlsx_bytes(tournament)
    book = openpyxl.load_workbook(io.BytesIO(converted(content, "standings", tmp_path, "xlsx")))
    ours = openpyxl.load_workbook(io.BytesIO(content))
    for sheet in ours.worksheets:
        again = book[sheet.title]
        header = sheet.auto_filter.ref.split(":")[0][1:]
        assert again.auto_filter.ref == sheet.auto_filter.ref, sheet.title
        assert again.print_title_rows == f"${header}:${header}", sheet.title
        assert again.page_setup.fitToWidth in (1, "1"), sheet.title
        assert again.sheet_properties.pageSetUpPr.fitToPage, sheet.title
        assert int(again.page_setup.paperSize) == 9, sheet.title  # A4
    assert book["Record of fouls"].page_setup.orientation == "landscape"
    assert book["Record of fouls"].max_row == 2
    # The Standings' heading above the header and its note below stay out of the filter.
    standings = book.worksheets[0]
    first, last = standings.auto_filter.ref.split(":")
    assert int(first[1:]) == 5
    assert int(last.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")) == 5 + 102
    assert standings.cell(row=5 + 102 + 2, column=1).value.startswith("0 substitutes have sat")


def test_sixteen_players_print_on_one_readable_page(tournament, tmp_path):
    make_field(tournament, 16)
    (page,) = printed(tournament, tmp_path)
    shown = runs(page)
    assert tournament.name in shown
    assert any(text.startswith("Made on ") for text in shown)
    assert shown >= HEADINGS
    assert {player.name for player in tournament.players.all()} <= shown
    assert "0 substitutes have sat at a table; the federation counts at most 3." in shown
    # Cells are 10-point text: the size they print at is the sheet's print scale.
    assert page.font_size() / 10 >= READABLE_SCALE


def test_three_hundred_players_print_one_page_wide_with_the_header_on_every_page(
    tournament, tmp_path
):
    make_field(tournament, 300)
    pages = printed(tournament, tmp_path)
    scale = pages[0].font_size() / 10
    assert scale >= READABLE_SCALE
    # Four rows of heading, the header, 302 players, a blank row and the note: at the scale
    # printed, one page wide, they take as many pages as their height needs (a page per
    # column band more, had the sheet been split across pages side by side).
    rows = 4 + 1 + 302 + 2
    fewest = math.ceil(rows * ROW_POINTS * READABLE_SCALE / LANDSCAPE_HEIGHT)
    most = math.ceil(rows * ROW_POINTS * scale / (LANDSCAPE_HEIGHT - 4 * ROW_POINTS)) + 1
    assert fewest <= len(pages) <= most, (len(pages), scale)
    for page in pages:
        shown = runs(page)
        assert tournament.name in shown  # the page's header
        assert shown >= HEADINGS  # the table's header row, repeated
        assert page.font_size() == pages[0].font_size()
    # Every player once: no column was split off onto pages of its own.
    shown = Counter(text.strip() for page in pages for text, _size in page.runs)
    players = Counter(tournament.players.values_list("name", flat=True))
    assert {name: shown[name] for name in players} == players
    assert "substitute (unranked)" in runs(pages[-1]) | runs(pages[-2])
