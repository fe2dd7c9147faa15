"""No cell the site writes can run: players named like formulas ("=1+1",
``=HYPERLINK(...)``, "+1+1", "-1+1", "@SUM(A1)") in every CSV and workbook it offers, the
standings workbook, the EMA's results (.xlsx and .csv) and a series' workbook.

In a workbook such a name is a text cell, shown as typed; in a CSV file, which has no text
cells, it starts with a quote (``spreadsheet.csv_cell``). Read twice: as written (the
workbook's XML, the CSV's text), and as LibreOffice shows it once it has opened the file
(marked ``libreoffice``).
"""

import csv
import io
import re
import zipfile
from collections import Counter

import openpyxl
import pytest
from django.test import Client
from django.urls import reverse

from tests.conftest import download, make_user
from tests.test_workbooks_libreoffice import as_csv
from tournament import services
from tournament.server.rehearsal import build_tournament

FORMULAS = ("=1+1", '=HYPERLINK("http://x","y")', "+1+1", "-1+1", "@SUM(A1)")
SLUG = "formula-cup"


@pytest.fixture
def downloads(db) -> dict[str, bytes]:
    """A played tournament whose first players are named like formulas (first and last
    name alike, for the EMA's columns), in a series; every file the site offers of it."""
    organiser = make_user("formulas", can_create=True)
    tournament = build_tournament(players=8, sessions=1, seed=1, slug=SLUG, organiser=organiser)
    for number, text in enumerate(FORMULAS, start=1):
        services.player_save(
            tournament=tournament,
            player=tournament.players.get(number=number),
            name=text,
            first_name=text,
            last_name=text,
        )
    services.person_create_for(tournament=tournament, numbers=list(range(1, 9)))
    services.series_save(
        series=None,
        user=organiser,
        tournaments=[tournament],
        name="Formula season",
        slug="formula-season",
        rule="best",
        counted_results=None,
        place_points="",
    )
    client = Client()
    return {
        "standings.xlsx": download(client, reverse("standings_xlsx", args=[SLUG])).content,
        "ema.xlsx": download(client, reverse("ema_xlsx", args=[SLUG])).content,
        "ema.csv": download(client, reverse("ema_csv", args=[SLUG])).content,
        "series.xlsx": download(client, reverse("series_xlsx", args=["formula-season"])).content,
    }


def worksheets(content: bytes) -> dict[str, str]:
    """Each worksheet's XML, by its part's name."""
    package = zipfile.ZipFile(io.BytesIO(content))
    return {
        name: package.read(name).decode()
        for name in package.namelist()
        if name.startswith("xl/worksheets/")
    }


def xml_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


@pytest.mark.parametrize("name", ["standings.xlsx", "ema.xlsx", "series.xlsx"])
def test_a_workbook_holds_no_formula_and_each_name_as_a_text_cell(downloads, name):
    sheets = worksheets(downloads[name])
    for part, xml in sheets.items():
        assert not re.search(r"<f[ >]", xml), part
    cells = re.findall(
        r'<c [^>]*t="inlineStr"[^>]*><is><t[^>]*>(.*?)</t></is></c>', "".join(sheets.values())
    )
    for text in FORMULAS:
        assert xml_text(text) in cells, (name, text)


def test_the_emas_csv_starts_each_such_name_with_a_quote(downloads):
    rows = list(csv.reader(io.StringIO(downloads["ema.csv"].decode())))
    header, *results = rows
    last_names = [row[header.index("Last name")] for row in results]
    first_names = [row[header.index("First name")] for row in results]
    for text in FORMULAS:
        assert "'" + text in last_names
        assert "'" + text in first_names
    # A number stays a number, a negative one too: only texts get the quote.
    scores = [row[header.index("Score")] for row in results]
    assert any(score.startswith("-") for score in scores)
    assert all(re.fullmatch(r"-?\d+", score) for score in scores)


def shown(content: bytes, name: str, folder) -> list[list[str]]:
    """Every cell of the file, as LibreOffice shows it once it has opened it (every sheet's
    rows, one after the other)."""
    stem, suffix = name.split(".")
    folder.mkdir()
    sheets = as_csv(content, stem, folder, suffix=f".{suffix}")
    return [row for rows in sheets.values() for row in rows]


def written_cells(content: bytes, name: str) -> Counter:
    """Every cell's text as the file holds it (a workbook's, read back with openpyxl)."""
    if name.endswith(".csv"):
        return Counter(cell for row in csv.reader(io.StringIO(content.decode())) for cell in row)
    book = openpyxl.load_workbook(io.BytesIO(content))
    return Counter(
        str(value)
        for sheet in book.worksheets
        for row in sheet.iter_rows(values_only=True)
        for value in row
        if value is not None
    )


@pytest.mark.libreoffice
def test_libreoffice_shows_every_such_name_as_typed_and_runs_none(downloads, tmp_path):
    for name, content in downloads.items():
        cells = Counter(cell for row in shown(content, name, tmp_path / name) for cell in row)
        held = written_cells(content, name)
        # A workbook's text shows as typed; a CSV's with the quote that keeps it a text.
        prefix = "'" if name.endswith(".csv") else ""
        for text in FORMULAS:
            # Every cell that holds the name shows it: none ran (it would show 2, 0, the
            # link's "y" or an error).
            assert cells[prefix + text] == held[prefix + text] > 0, (name, text)
