"""How the site writes a workbook (``tournament.exports.spreadsheet``): pure code, read back
with openpyxl and, where openpyxl would hide it, as the XML in the file."""

import io
import math
import re
import zipfile
from fractions import Fraction

import openpyxl
import pytest

from tournament.exports import spreadsheet
from tournament.exports.spreadsheet import (
    PageText,
    Sheet,
    Title,
    column_widths,
    csv_cell,
    fraction_text,
    heading_width,
    page_text,
    sheet_title,
    text_width,
    write_workbook,
)

# Texts a spreadsheet would run, or show as something else, were they not written as text.
FORMULAS = ["=1+1", '=HYPERLINK("http://x","y")', "+1+1", "-1+1", "@SUM(A1)", "=", "#N/A"]


def written(sheets) -> bytes:
    file = io.BytesIO()
    write_workbook(file, sheets)
    return file.getvalue()


def book(sheets):
    return openpyxl.load_workbook(io.BytesIO(written(sheets)))


def sheet_xml(content: bytes, number: int = 1) -> str:
    return zipfile.ZipFile(io.BytesIO(content)).read(f"xl/worksheets/sheet{number}.xml").decode()


def test_the_docstring_example():
    rows = [("Player", "Points"), ("Li Wei", 7), ("Ann", None)]
    read = book([Sheet("Results", rows)])
    assert read.sheetnames == ["Results"]
    assert [[c.value for c in row] for row in read["Results"].iter_rows()] == [
        ["Player", "Points"],
        ["Li Wei", 7],
        ["Ann", None],
    ]


def test_sheet_titles_are_cleaned_shortened_and_unique():
    assert sheet_title("Session 1/2: [final]?") == "Session 1 2   final  "
    assert len(sheet_title("x" * 40)) == 31
    assert sheet_title("Hands", {"hands"}) == "Hands (2)"
    assert sheet_title("x" * 40, {"x" * 31}) == "x" * 27 + " (2)"
    assert sheet_title("") == "Sheet"
    read = book([Sheet("Tom & Jerry <2>", [("a",)]), Sheet("Tom & Jerry <2>", [("b",)])])
    assert read.sheetnames == ["Tom & Jerry <2>", "Tom & Jerry <2> (2)"]


@pytest.mark.parametrize(
    ("value", "text"),
    [(Fraction(7, 3), "2 1/3"), (Fraction(1, 2), "1/2"), (Fraction(-7, 3), "-2 1/3"), (3, "3")],
)
def test_fraction_text_is_what_the_number_format_shows(value, text):
    assert fraction_text(Fraction(value)) == text


def test_cells_keep_their_kind():
    rows = [
        ("int", "float", "bool", "text", "fraction", "empty"),
        (7, 2.5, True, "Li & <Wei>", Fraction(7, 3), None),
        (-3, 0.125, False, "  padded ", Fraction(8), ""),
    ]
    sheet = book([Sheet("Kinds", rows)])["Kinds"]
    assert [c.value for c in sheet[2]] == [7, 2.5, True, "Li & <Wei>", pytest.approx(7 / 3), None]
    assert [c.value for c in sheet[3]] == [-3, 0.125, False, "  padded ", 8, None]
    assert [c.data_type for c in sheet[2][:5]] == ["n", "n", "b", "s", "n"]
    # Fractions are numbers shown as fractions; other numbers keep the general format.
    assert sheet["E2"].number_format == spreadsheet.FRACTION_FORMAT == "# ??/??"
    assert sheet["A2"].number_format == "General"


@pytest.mark.parametrize("text", FORMULAS)
def test_a_text_is_never_a_formula(text):
    content = written([Sheet("Names", [("Name", "Points"), (text, -8)])])
    sheet = openpyxl.load_workbook(io.BytesIO(content))["Names"]
    assert (sheet["A2"].value, sheet["A2"].data_type) == (text, "s")
    # In the file: a text cell of its own, no formula anywhere; the number stays a number.
    xml = sheet_xml(content)
    assert "<f>" not in xml and "<f " not in xml
    assert re.search(r'<c r="A2"[^>]* t="inlineStr"', xml)
    assert re.search(r'<c r="B2"[^>]* t="n"[^>]*><v>-8</v>', xml)


def test_a_text_that_looks_like_a_formula_stays_text_in_every_place():
    content = written(
        [Sheet("=1+1", [("=Name",), ("=2+2",)], above=[(Title("=3+3"),)], below=[("=4+4",)])]
    )
    sheet = openpyxl.load_workbook(io.BytesIO(content)).worksheets[0]
    assert [c.value for c in sheet["A"] if c.value] == ["=3+3", "=Name", "=2+2", "=4+4"]
    assert {c.data_type for c in sheet["A"] if c.value} == {"s"}
    assert "<f>" not in sheet_xml(content)


def test_text_loses_control_characters_and_is_cut_to_what_a_cell_holds():
    rows = [("Name",), ("tab\there\x07bell",), ("x" * 40_000,)]
    sheet = book([Sheet("Text", rows)])["Text"]
    assert sheet["A2"].value == "tab\therebell"
    assert sheet["A3"].value == "x" * 32_767


def test_the_header_is_bold_wrapped_and_frozen_and_columns_fit_the_tables_cells():
    rows = [
        ("Rank", "Chinese name", "Table points (exact)"),
        (1, "张伟伟伟伟伟伟伟", Fraction(29, 12)),
    ]
    sheet = book([Sheet("Standings", rows)])["Standings"]
    assert sheet.freeze_panes == "A2"
    assert all(cell.font.bold and cell.alignment.wrap_text for cell in sheet[1])
    assert not sheet["A2"].font.bold
    widths = [sheet.column_dimensions[letter].width for letter in "ABC"]
    # "Rank" in bold; eight CJK characters, an em each; "Table points" over "(exact)".
    assert widths == [
        math.ceil(text_width("Rank") * 1.1) + 1,
        15 + 1,
        math.ceil(text_width("Table points") * 1.1) + 1,
    ]
    # Some heading wraps: the header row is two lines high.
    assert sheet.row_dimensions[1].height == 2 * spreadsheet.LINE_HEIGHT


@pytest.mark.parametrize(
    ("heading", "lines"),
    [
        ("Rank", ("Rank",)),
        ("Table points (exact)", ("Table points", "(exact)")),
        ("Sessions played", ("Sessions", "played")),
        ("标准分（精确）", ("标准分（", "精确）")),
    ],
)
def test_a_heading_takes_two_lines_at_most(heading, lines):
    assert heading_width(heading) == pytest.approx(max(text_width(line) for line in lines) * 1.1)


def test_a_note_never_widens_a_column_and_a_label_does():
    above = [
        (Title("The Spring Open of a very long name, 2026"),),
        ("Tournament", "Spring Open"),
        ("Substitute limit", 3),
        (),
    ]
    rows = [("Place", "Name"), (1, "Ann"), (2, "Bo")]
    below = [("A note that runs far longer than any of the table's columns.",)]
    widths = column_widths(rows[0], rows[1:], [*above, *below])
    # "Substitute limit" has a value beside it: it widens column A. The title and the note
    # spill over the empty cells to their right, as does the value "Spring Open" (nothing
    # follows it): column B is as wide as its heading, in bold, needs.
    assert widths == {
        1: 1 + math.ceil(text_width("Substitute limit")),
        2: 1 + math.ceil(text_width("Name") * 1.1),
    }
    assert column_widths(("Name",), [("Li",)], [("x" * 80,)]) == {1: widths[2]}


def test_rows_above_the_header_stay_in_view_and_notes_follow_the_table():
    above = [(Title("Spring Open 2026"),), ("May 16, 2026",), ()]
    rows = [("Place", "Name"), (1, "Ann"), (2, "Bo")]
    below = [("0 substitutes have sat at a table.",)]
    sheet = book([Sheet("Results", rows, above=above, below=below)])["Results"]
    assert [[c.value for c in row] for row in sheet.iter_rows()] == [
        ["Spring Open 2026", None],
        ["May 16, 2026", None],
        [None, None],
        ["Place", "Name"],
        [1, "Ann"],
        [2, "Bo"],
        [None, None],
        ["0 substitutes have sat at a table.", None],
    ]
    assert sheet.freeze_panes == "A5"
    assert (sheet["A1"].font.bold, sheet["A1"].font.size) == (True, 14)
    assert not sheet["A2"].font.bold
    assert all(cell.font.bold for cell in sheet[4])
    # Sorting and filtering take the table, not the rows above or below it.
    assert sheet.auto_filter.ref == "A4:B6"


def test_a_long_sheet_is_written_whole_in_order():
    count = 3 * spreadsheet.WIDTH_SAMPLE_ROWS + 7
    rows = [("Number", "Name")] + [(n, f"Player {n}") for n in range(1, count + 1)]
    sheet = book([Sheet("Players", iter(rows))])["Players"]
    values = [tuple(c.value for c in row) for row in sheet.iter_rows(min_row=2)]
    assert values == rows[1:]


def test_several_sheets_in_order_and_an_empty_one():
    read = book([Sheet("One", [("a",), (1,)]), Sheet("Two", [("b",)]), Sheet("Three", [])])
    assert read.sheetnames == ["One", "Two", "Three"]
    assert read["Two"]["A1"].value == "b" and read["Two"].max_row == 1
    assert read["Three"]["A1"].value is None


def test_every_sheet_prints_on_a4_one_page_wide_with_its_header_on_every_page():
    above = [("Spring Open",), ("0 substitutes have sat at a table",)]
    rows = [("Rank", "Player", "Points"), *[(n, f"Player {n}", n * 2) for n in range(1, 41)]]
    read = book(
        [
            Sheet("Standings", rows, above=above, page=PageText("Spring Open", "Page &P of &N")),
            Sheet("It's narrow", [("A",), (1,)]),
        ]
    )
    sheet = read["Standings"]
    assert sheet.print_title_rows == "$3:$3"
    assert sheet.sheet_properties.pageSetUpPr.fitToPage is True
    assert (sheet.page_setup.fitToWidth, sheet.page_setup.fitToHeight) == (1, 0)
    assert int(sheet.page_setup.paperSize) == 9  # A4
    assert sheet.page_setup.orientation == "portrait"
    assert sheet.oddHeader.center.text == "Spring Open"
    assert sheet.oddFooter.center.text == "Page &P of &N"
    # A sheet name with a quote is quoted in the print titles' formula.
    assert read["It's narrow"].print_title_rows == "$1:$1"
    assert read["It's narrow"].auto_filter.ref == "A1:A2"


def test_a_wide_sheet_prints_landscape():
    header = tuple(f"A_rather_long_column_heading_{n}" for n in range(6))
    read = book([Sheet("Wide", [header, tuple(range(6))])])
    assert read["Wide"].page_setup.orientation == "landscape"


def test_a_page_header_shows_an_ampersand_as_typed():
    assert page_text("Tom & Jerry Cup") == "Tom && Jerry Cup"
    assert len(page_text("x" * 300)) <= 255


def test_the_workbooks_font_is_arial():
    content = written([Sheet("One", [("a",), (1,)])])
    styles = zipfile.ZipFile(io.BytesIO(content)).read("xl/styles.xml").decode()
    first = re.search(r"<fonts[^>]*><font>(.*?)</font>", styles).group(1)
    assert '<name val="Arial"' in first and '<sz val="10"' in first


@pytest.mark.parametrize("text", [*FORMULAS[:-1], "\t=1+1", "\r=1+1"])
def test_a_csv_cell_that_a_spreadsheet_would_run_starts_with_a_quote(text):
    assert csv_cell(text) == "'" + text


@pytest.mark.parametrize("value", ["Ann", "#N/A", "a=b", "", None, -8, 2.5, "04010005"])
def test_other_csv_cells_are_as_they_are(value):
    assert csv_cell(value) == value
