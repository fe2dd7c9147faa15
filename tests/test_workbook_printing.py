"""The standings workbook as a spreadsheet user sorts and prints it, in LibreOffice: every
sheet keeps its filter on the header row (not on the note above it), its header row repeated
on every printed page and its page setup through a round trip; and the Standings sheet of a
100-player tournament prints one page wide, as many pages tall as its rows need.

Needs LibreOffice (``soffice``), like tests/test_workbooks_libreoffice.py: marked
``libreoffice``.
"""

import io
import re
import subprocess
from pathlib import Path

import openpyxl
import pytest

from tests.conftest import make_players
from tests.test_workbooks_libreoffice import CONVERT_SECONDS, soffice
from tournament import services
from tournament.exports import workbook, xlsx_writer

pytestmark = pytest.mark.libreoffice


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


def pdf_pages(content: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?!s)", content))


@pytest.fixture
def hundred(tournament):
    """100 players with teams and countries, session 1 drawn and played at one table."""
    make_players(tournament, 100, team="Mahjong Club of a Long Name", country="FRA")
    session = services.session_open(
        session=services.session_draw(tournament=tournament, number=1, seed=5)
    )
    table = session.tables.get(number=1)
    services.hand_record(
        table=table, entry=services.HandEntry(number=1, outcome="self_drawn", winner=0, fan=8)
    )
    return tournament


def standings_sheet_only(tournament) -> bytes:
    title, rows, above = next(iter(workbook.workbook_sheets(tournament)))
    file = io.BytesIO()
    xlsx_writer.write_workbook(file, [(title, workbook.cell_values(rows), above)])
    return file.getvalue()


def test_filters_print_titles_and_page_setup_survive_libreoffice(hundred, tmp_path):
    content = workbook.standings_xlsx_bytes(hundred)
    book = openpyxl.load_workbook(io.BytesIO(converted(content, "standings", tmp_path, "xlsx")))
    ours = openpyxl.load_workbook(io.BytesIO(content))
    for sheet in ours.worksheets:
        again = book[sheet.title]
        header = sheet.auto_filter.ref.split(":")[0][1:]
        assert again.auto_filter.ref == sheet.auto_filter.ref, sheet.title
        assert again.print_title_rows == f"${header}:${header}", sheet.title
        assert again.page_setup.fitToWidth in (1, "1"), sheet.title
        assert again.sheet_properties.pageSetUpPr.fitToPage, sheet.title
    # The Standings sheet's note above the header stays out of the filter.
    standings = book.worksheets[0]
    assert int(standings.auto_filter.ref.split(":")[0][1:]) > 1


def test_the_standings_sheet_prints_one_page_wide(hundred, tmp_path):
    wide = standings_sheet_only(hundred)
    # The same rows, only the first column: one page wide whatever the setup.
    title, rows, above = next(iter(workbook.workbook_sheets(hundred)))
    narrow_file = io.BytesIO()
    narrow_rows = ([row[0]] for row in workbook.cell_values(rows))
    xlsx_writer.write_workbook(narrow_file, [(title, narrow_rows, above)])
    wide_pages = pdf_pages(converted(wide, "wide", tmp_path, "pdf"))
    narrow_pages = pdf_pages(converted(narrow_file.getvalue(), "narrow", tmp_path, "pdf"))
    assert narrow_pages >= 2  # 100 rows do not fit on one page
    # Scaled to one page wide, the full sheet takes no more pages than its first column
    # alone: split across pages side by side, it would take at least twice as many.
    assert wide_pages <= narrow_pages
    assert wide_pages >= 1
