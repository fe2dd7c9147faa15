"""The workbooks the site writes, through openpyxl in its write-only mode, every sheet laid
out the same way; and the cells of its CSV files.

    rows = [("Player", "Points"), ("Li Wei", 7), ("Ann", None)]
    with open("results.xlsx", "wb") as file:
        write_workbook(file, [Sheet("Results", rows)])

A ``Sheet`` is a title and its table's rows, the header first, read once as they are written
(a sheet is never held in memory: write-only mode streams each row to a temporary file); it
may also carry rows to write above its header (a heading, a block of labelled values: they
stay in view with the header) and notes to write below the table, after a blank row. Every
sheet gets:

- a bold header row, frozen in view, with a filter on it: sorting and filtering take the
  table only, never the rows above or below it;
- columns as wide as the table's own cells need, measured in the workbook's font: the
  header (a heading wraps onto a second line where that makes its column narrower) and the
  first ``WIDTH_SAMPLE_ROWS`` rows (the columns come before the rows in a sheet's file),
  capped at ``MAX_COLUMN_WIDTH``. A row above or below the table widens a column only
  where its text would otherwise be hidden by the cell beside it: a title or a note spills
  over the empty cells to its right instead of stretching its column;
- the page set up for print: A4, scaled to one page wide and as many pages tall as the rows
  need, upright when the columns fit across an upright page and turned landscape otherwise
  (the larger print), with the header row repeated at the top of every page and, if given,
  a page header and footer (``PageText``).

A cell is ``None`` or ``""`` (empty), a ``bool``, an ``int``, a ``float``, a ``str`` or a
``Fraction``, written as the number it is with the number format ``FRACTION_FORMAT``, so
that 7/3 shows as "2 1/3" and still sums and sorts as a number. A ``Title`` is a text shown
large and bold. Any other value is written as its text.

**A text never runs.** openpyxl takes a text starting with "=" for a formula and one such as
"#N/A" for an error: ``write_workbook`` writes every ``str`` as a text cell (``t="inlineStr"``)
whatever it starts with, so a player named "=1+1" reads "=1+1" in any spreadsheet and a
``=HYPERLINK(...)`` never becomes a link. A text cell starting with "+", "-" or "@" is read
as text too: only typing into a cell makes a formula of it. A CSV file has no cell types,
hence ``csv_cell``. Control characters that XML cannot hold are dropped.

Reading workbooks (the players' imports, the tests) is openpyxl's too. Pure Python, no
Django.
"""

import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import chain, islice
from typing import BinaryIO

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ERROR_CODES, Cell
from openpyxl.styles import Alignment, Font
from openpyxl.utils import get_column_letter
from openpyxl.utils.indexed_list import IndexedList
from openpyxl.worksheet.page import PageMargins
from openpyxl.worksheet.properties import PageSetupProperties
from openpyxl.worksheet.worksheet import Worksheet

# "2 1/3", "2 5/12": table points are twelfths at most, so two digits suffice.
FRACTION_FORMAT = "# ??/??"
SHEET_TITLE_LENGTH = 31
MAX_COLUMN_WIDTH = 60
WIDTH_SAMPLE_ROWS = 500
# The workbook's font. A column's width counts digits of the workbook's font, so the same
# width is wider or narrower on screen and paper depending on the font the reader has:
# Arial is on every Windows and Mac, and LibreOffice brings a font of the same metrics
# (Liberation Sans) everywhere. openpyxl's default, Calibri, is not on a Linux machine
# without Microsoft's fonts, where LibreOffice measures and prints it with a wider one.
FONT = Font(name="Arial", size=10, family=2)
# What an A4 page holds across inside the margins below, in column widths: a width counts
# digits of the workbook's font, 7 pixels at 96 per inch for 10-point Arial (Excel; 7.4 in
# LibreOffice, which does not round them), and the page upright is 210 mm less 2 x 0.5
# inch, 697 pixels.
PORTRAIT_WIDTH = 94
# A column's room beyond its widest text: the spreadsheet's padding (5 pixels) and a little
# air, a digit's width in all.
COLUMN_MARGIN = 1
# The margins, in inches, as spreadsheets store them; the header and footer sit in the top
# and bottom margins.
MARGINS = {"left": 0.5, "right": 0.5, "top": 0.7, "bottom": 0.7, "header": 0.3, "footer": 0.3}
# The first characters with which a CSV cell would be read as a formula by a spreadsheet
# that opens it: "=" and "+" and "-" start a formula, "@" a function call in Excel, and a
# tab or a carriage return can stand before any of them (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
_BOLD = Font(name=FONT.name, size=FONT.size, family=FONT.family, bold=True)
_TITLE = Font(name=FONT.name, size=14, family=FONT.family, bold=True)
# A heading wraps onto a second line rather than widen its column (``column_widths``).
_HEADER_ALIGNMENT = Alignment(wrap_text=True, vertical="top")
# The height of a header row in points, by its lines: a spreadsheet does not fit a row's
# height to its wrapped text when it opens a file, so it is given (a line of 10-point
# text, Chinese included, with room to spare).
LINE_HEIGHT = 14


class Title(str):
    """A text written large and bold: a sheet's title above its table."""


@dataclass(frozen=True)
class PageText:
    """What every printed page of a sheet carries at its top and bottom: a spreadsheet's
    header and footer, in its codes (``&P`` the page's number, ``&N`` the number of pages;
    ``page_text`` writes a plain text in them)."""

    header: str = ""
    footer: str = ""


@dataclass(frozen=True)
class Sheet:
    """A sheet to write: its title, its table's rows (header first, read once), the rows
    above its header and the notes below its table."""

    title: str
    rows: Iterable[Sequence]
    above: Sequence[Sequence] = ()
    below: Sequence[Sequence] = ()
    page: PageText = field(default_factory=PageText)


def sheet_title(title: str, taken: Iterable[str] = ()) -> str:
    """A title a spreadsheet accepts: no []:*?/\\, at most 31 characters, unique (case
    ignored) among ``taken``."""
    for char in "[]:*?/\\":
        title = title.replace(char, " ")
    title = title[:SHEET_TITLE_LENGTH] or "Sheet"
    used = {t.casefold() for t in taken}
    candidate, n = title, 1
    while candidate.casefold() in used:
        n += 1
        suffix = f" ({n})"
        candidate = title[: SHEET_TITLE_LENGTH - len(suffix)] + suffix
    return candidate


def fraction_text(value: Fraction) -> str:
    """How ``FRACTION_FORMAT`` shows a value: 7/3 as "2 1/3", 1/2 as "1/2", 3 as "3"."""
    whole, rest = divmod(abs(value.numerator), value.denominator)
    sign = "-" if value < 0 else ""
    if not rest:
        return f"{sign}{whole}"
    part = f"{rest}/{value.denominator}"
    return f"{sign}{whole} {part}" if whole else f"{sign}{part}"


def page_text(text: str) -> str:
    """A plain text as a page header or footer holds it: its "&" doubled (a single one
    starts a code), cut to leave room within the 255 characters a header may have."""
    return text[:120].replace("&", "&&")


def csv_cell(value):
    """A value as a CSV file's cell: a text a spreadsheet would read as a formula gets a
    quote (') in front.

    Why the quote: a CSV cell has no type, and Excel and LibreOffice run "=1+1" (or
    "=HYPERLINK(...)", a link that sends a click away) when they open the file. A leading
    quote is what both take as "this is text" when it is typed; in a CSV file it stays
    visible ("'=1+1"), which is the price of a name that cannot run on the reader's
    computer (OWASP's advice on CSV injection). Only texts are touched: a number, even a
    negative one, stays a number, and a ``Fraction`` is the caller's to write as text."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


# Arial's advance widths, in thousandths of an em, of the characters that are not as wide
# as a digit (556): a text's width is counted in digits, the unit of a column's width. A
# CJK character is an em wide; bold text about a tenth wider than regular.
_ARIAL = {
    **dict.fromkeys("'", 191),
    **dict.fromkeys("ijl", 222),
    **dict.fromkeys(" !,./:;I[\\]ft|", 278),
    **dict.fromkeys("()-`r{}", 333),
    **dict.fromkeys('"', 355),
    **dict.fromkeys("*", 389),
    **dict.fromkeys("^", 469),
    **dict.fromkeys("Jcksvxyz", 500),
    **dict.fromkeys("+<=>~", 584),
    **dict.fromkeys("FTZ", 611),
    **dict.fromkeys("&ABEKPSVXY", 667),
    **dict.fromkeys("CDHNRUw", 722),
    **dict.fromkeys("GOQ", 778),
    **dict.fromkeys("Mm", 833),
    **dict.fromkeys("%", 889),
    **dict.fromkeys("W", 944),
    **dict.fromkeys("@", 1015),
}
_DIGIT = 556
_EM = 1000
BOLD_WIDTH = 1.1


def _wide(char: str) -> bool:
    return unicodedata.east_asian_width(char) in ("W", "F")


def _advance(char: str) -> int:
    if char in _ARIAL:
        return _ARIAL[char]
    if char.isascii():
        return _DIGIT
    if _wide(char):
        return _EM
    # An accented letter is as wide as its letter: "é" as "e".
    return _ARIAL.get(unicodedata.normalize("NFD", char)[0], _DIGIT)


def text_width(text: str) -> float:
    """The width a text takes in the workbook's font, in digits."""
    return sum(_advance(char) for char in text) / _DIGIT


def display_width(value) -> float:
    """The width a cell's value takes, in digits."""
    if value is None:
        return 0
    if isinstance(value, bool):
        return len("FALSE")
    if isinstance(value, int | float | Fraction):
        # A number's characters, a fraction's padded as its format shows it ("2 1/3" as
        # "2  1/3 "), each about a digit wide.
        text = fraction_text(value) + "  " if isinstance(value, Fraction) else str(value)
        return len(text)
    return text_width(str(value))


def heading_width(value) -> float:
    """The width a bold heading needs across when written on two lines at most: it breaks
    at a space, or between two CJK characters (which take no spaces between words)."""
    text = "" if value is None else str(value)
    best = text_width(text)
    for index in range(1, len(text)):
        if text[index] == " " or (_wide(text[index - 1]) and _wide(text[index])):
            lines = text[:index].rstrip(), text[index:].lstrip()
            best = min(best, max(text_width(line) for line in lines))
    return best * BOLD_WIDTH


def _width(width: float) -> int:
    return min(math.ceil(width) + COLUMN_MARGIN, MAX_COLUMN_WIDTH)


def column_widths(header: Sequence, rows: Iterable[Sequence], around: Iterable[Sequence] = ()):
    """Each column's width (1-based index -> width) from the table's own cells: its
    ``header`` (written on two lines where that is narrower) and its ``rows``. A row
    ``around`` the table (above or below it) counts a cell only where another cell follows
    it in that row: a text spills over the empty cells to its right."""
    widths = {index: heading_width(value) for index, value in enumerate(header, start=1)}
    for row in rows:
        for index, value in enumerate(row, start=1):
            width = display_width(value)
            if width > widths.get(index, 0):
                widths[index] = width
    for row in around:
        filled = [index for index, value in enumerate(row, start=1) if value not in (None, "")]
        for index in filled[:-1]:
            widths[index] = max(widths.get(index, 0), display_width(row[index - 1]))
    return {index: _width(width) for index, width in widths.items()}


def landscape(widths: dict[int, int]) -> bool:
    """Whether a sheet of these column widths prints better on a page turned landscape:
    when its columns do not fit across an upright page at full size (turned, the page
    prints them larger; upright, it holds more rows)."""
    return sum(widths.values()) > PORTRAIT_WIDTH


class _Cells:
    """Turns a row's values into what a write-only sheet appends: plain values where
    openpyxl writes them as they are, cells where a value needs a type or a format."""

    def __init__(self, sheet):
        self.sheet = sheet

    def text(self, value: str):
        if not value:
            return None  # an empty text is an empty cell, as a blank field is on paper
        if _CONTROL.search(value):
            value = _CONTROL.sub("", value)
        if value[0] == "=" or value in ERROR_CODES:
            # openpyxl would write a formula or an error: a text it stays.
            cell = WriteOnlyCell(self.sheet, value=value)
            cell.data_type = "s"
            return cell
        return value

    def fraction(self, value: Fraction) -> Cell:
        number = value.numerator if value.denominator == 1 else float(value)
        cell = WriteOnlyCell(self.sheet, value=number)
        cell.number_format = FRACTION_FORMAT
        return cell

    def value(self, value):
        kind = type(value)
        if kind is int or kind is float or kind is bool or value is None:
            return value
        if kind is str:
            return self.text(value)
        if isinstance(value, Fraction):
            return self.fraction(value)
        if isinstance(value, Title):
            return self.styled(str(value), font=_TITLE)
        # Subclasses (choices, lazy translations): their plain value, then the same rules.
        for plain in (bool, int, float, str):
            if isinstance(value, plain):
                return self.value(plain(value))
        return self.text(str(value))

    def row(self, values: Sequence) -> list:
        convert = self.value
        return [convert(value) for value in values]

    def styled(self, value, **style) -> Cell:
        cell = self.value(value)
        if not isinstance(cell, Cell):
            cell = WriteOnlyCell(self.sheet, value=cell)
        for name, setting in style.items():
            setattr(cell, name, setting)
        return cell

    def header(self, values: Sequence) -> list:
        return [self.styled(value, font=_BOLD, alignment=_HEADER_ALIGNMENT) for value in values]


def _write_sheet(book: Workbook, title: str, sheet: Sheet) -> None:
    out = book.create_sheet(title)
    rows = iter(sheet.rows)
    header = list(next(rows, ()))
    sample = list(islice(rows, WIDTH_SAMPLE_ROWS))
    widths = column_widths(header, sample, chain(sheet.above, sheet.below))
    # What must come before the first row: the columns, the frozen pane, the fit to page.
    for index, width in sorted(widths.items()):
        out.column_dimensions[get_column_letter(index)].width = width
    header_row = len(sheet.above) + 1
    if any(
        text_width(str(value)) * BOLD_WIDTH > widths[i] - COLUMN_MARGIN
        for i, value in enumerate(header, start=1)
    ):
        out.row_dimensions[header_row].height = 2 * LINE_HEIGHT
    out.freeze_panes = f"A{header_row + 1}"
    out.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)

    cells = _Cells(out)
    for row in sheet.above:
        out.append(cells.row(row))
    out.append(cells.header(header))
    last_row = header_row
    for row in chain(sample, rows):
        out.append(cells.row(row))
        last_row += 1
    if sheet.below:
        out.append(())
        for row in sheet.below:
            out.append(cells.row(row))

    if header:
        last = get_column_letter(len(header))
        out.auto_filter.ref = f"A{header_row}:{last}{last_row}"
        out.print_title_rows = f"{header_row}:{header_row}"
    setup = out.page_setup
    setup.paperSize = Worksheet.PAPERSIZE_A4
    setup.orientation = "landscape" if landscape(widths) else "portrait"
    setup.fitToWidth = 1
    setup.fitToHeight = 0
    out.page_margins = PageMargins(**MARGINS)
    if sheet.page.header:
        out.oddHeader.center.text = sheet.page.header
    if sheet.page.footer:
        out.oddFooter.center.text = sheet.page.footer


def write_workbook(file: BinaryIO, sheets: Iterable[Sheet]) -> None:
    """Write the sheets as an .xlsx to ``file``, each sheet's rows read once as they are
    written."""
    book = Workbook(write_only=True)
    # The workbook's font, the one its "Normal" style and its unstyled cells use: openpyxl
    # has no setting for it, only its list of fonts, whose first is the default.
    book._fonts = IndexedList([FONT])
    book._named_styles["Normal"].font = FONT
    titles: list[str] = []
    for sheet in sheets:
        titles.append(sheet_title(str(sheet.title), titles))
        _write_sheet(book, titles[-1], sheet)
    book.save(file)
