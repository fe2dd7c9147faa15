"""The streaming .xlsx writer (``tournament.exports.xlsx_writer``): pure code, read back
with openpyxl."""

import io
from fractions import Fraction

import openpyxl
import pytest

from tournament.exports import xlsx_writer
from tournament.exports.xlsx_writer import column_letter, fraction_text, sheet_title, write_workbook


def written(sheets):
    file = io.BytesIO()
    write_workbook(file, sheets)
    file.seek(0)
    return openpyxl.load_workbook(file)


def test_the_docstring_example():
    book = written([("Results", [("Player", "Points"), ("Li Wei", 7), ("Ann", None)])])
    assert book.sheetnames == ["Results"]
    assert [[c.value for c in row] for row in book["Results"].iter_rows()] == [
        ["Player", "Points"],
        ["Li Wei", 7],
        ["Ann", None],
    ]


@pytest.mark.parametrize(
    ("index", "letters"), [(1, "A"), (26, "Z"), (27, "AA"), (52, "AZ"), (702, "ZZ"), (703, "AAA")]
)
def test_column_letters(index, letters):
    assert column_letter(index) == letters


def test_sheet_titles_are_cleaned_shortened_and_unique():
    assert sheet_title("Session 1/2: [final]?") == "Session 1 2   final  "
    assert len(sheet_title("x" * 40)) == 31
    assert sheet_title("Hands", {"hands"}) == "Hands (2)"
    assert sheet_title("x" * 40, {"x" * 31}) == "x" * 27 + " (2)"
    assert sheet_title("") == "Sheet"


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
    sheet = written([("Kinds", rows)])["Kinds"]
    assert [c.value for c in sheet[2]] == [7, 2.5, True, "Li & <Wei>", pytest.approx(7 / 3), None]
    assert [c.value for c in sheet[3]] == [-3, 0.125, False, "  padded ", 8, None]
    assert [c.data_type for c in sheet[2][:5]] == ["n", "n", "b", "s", "n"]
    # Fractions are numbers shown as fractions; other numbers keep the general format.
    assert sheet["E2"].number_format == xlsx_writer.FRACTION_FORMAT == "# ??/??"
    assert sheet["A2"].number_format == "General"


def test_text_is_never_a_formula_and_loses_control_characters():
    sheet = written([("Text", [("Name",), ("=SUM(A1:A9)",), ("tab\there\x07bell",)])])["Text"]
    assert sheet["A2"].value == "=SUM(A1:A9)" and sheet["A2"].data_type == "s"
    assert sheet["A3"].value == "tab\therebell"


def test_text_longer_than_a_cell_holds_is_cut_to_the_limit():
    sheet = written([("Text", [("Reason",), ("x" * 40_000,)])])["Text"]
    assert sheet["A2"].value == "x" * xlsx_writer.CELL_TEXT_LENGTH


def test_header_is_bold_and_frozen_and_columns_fit_the_content():
    rows = [
        ("Rank", "Chinese name", "Table points (exact)"),
        (1, "张伟伟伟伟伟伟伟", Fraction(29, 12)),
    ]
    sheet = written([("Standings", rows)])["Standings"]
    assert sheet.freeze_panes == "A2"
    assert all(cell.font.bold for cell in sheet[1])
    assert not sheet["A2"].font.bold
    assert sheet.column_dimensions["A"].width == len("Rank") + 2
    # Eight CJK characters count sixteen wide.
    assert sheet.column_dimensions["B"].width == 16 + 2
    assert sheet.column_dimensions["C"].width == len("Table points (exact)") + 2


def test_rows_above_the_header_are_plain_and_the_header_below_them_stays_in_view():
    above = [("Tournament", "Spring Open 2026"), ("Days", 2), ()]
    rows = [("Place", "Name"), (1, "Ann"), (2, "Bo")]
    sheet = written([("Results", rows, above)])["Results"]
    assert [[c.value for c in row] for row in sheet.iter_rows()] == [
        ["Tournament", "Spring Open 2026"],
        ["Days", 2],
        [None, None],
        ["Place", "Name"],
        [1, "Ann"],
        [2, "Bo"],
    ]
    assert sheet.freeze_panes == "A5"
    assert not sheet["A1"].font.bold
    assert all(cell.font.bold for cell in sheet[4])
    # The block counts towards the widths: the title is the longest text of column B.
    assert sheet.column_dimensions["B"].width == len("Spring Open 2026") + 2


def test_sheet_titles_with_markup_characters_survive():
    book = written([("Tom & Jerry <2>", [("a",)]), ("Tom & Jerry <2>", [("b",)])])
    assert book.sheetnames == ["Tom & Jerry <2>", "Tom & Jerry <2> (2)"]


def test_a_long_sheet_is_written_whole_in_order():
    count = 3 * xlsx_writer.ROWS_PER_WRITE + 7
    rows = [("Number", "Name")] + [(n, f"Player {n}") for n in range(1, count + 1)]
    sheet = written([("Players", iter(rows))])["Players"]
    values = [tuple(c.value for c in row) for row in sheet.iter_rows(min_row=2)]
    assert values == rows[1:]


def test_several_sheets_in_order_and_an_empty_one():
    book = written([("One", [("a",), (1,)]), ("Two", [("b",)]), ("Three", [])])
    assert book.sheetnames == ["One", "Two", "Three"]
    assert book["Two"]["A1"].value == "b" and book["Two"].max_row == 1
    assert book["Three"]["A1"].value is None


def test_the_header_row_carries_a_filter_and_prints_on_every_page():
    above = [("Spring Open",), ("0 substitutes have sat at a table",)]
    rows = [("Rank", "Player", "Points"), *[(n, f"Player {n}", n * 2) for n in range(1, 41)]]
    book = written([("Standings", rows, above), ("It's narrow", [("A",), (1,)])])
    sheet = book["Standings"]
    # Sorting and filtering take the table under the header, not the heading block.
    assert sheet.auto_filter.ref == "A3:C43"
    assert sheet.print_title_rows == "$3:$3"
    assert sheet.sheet_properties.pageSetUpPr.fitToPage is True
    assert (sheet.page_setup.fitToWidth, sheet.page_setup.fitToHeight) == (1, 0)
    assert int(sheet.page_setup.paperSize) == 9  # A4
    assert sheet.page_setup.orientation == "portrait"
    # A sheet name with a quote is quoted in the print titles' formula.
    assert book["It's narrow"].print_title_rows == "$1:$1"
    assert book["It's narrow"].auto_filter.ref == "A1:A2"


def test_a_wide_sheet_prints_landscape():
    header = tuple(f"A rather long column heading {n}" for n in range(6))
    book = written([("Wide", [header, tuple(range(6))])])
    assert book["Wide"].page_setup.orientation == "landscape"
