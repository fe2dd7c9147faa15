"""A streaming .xlsx writer for big tables of plain values: a bold frozen header with a filter
on it, widths fitted to the content, numbers kept as numbers, each sheet set to print on A4
one page wide with its header row on every page.

    with open("results.xlsx", "wb") as file:
        write_workbook(file, [("Results", [("Player", "Points"), ("Li Wei", 7), ("Ann", None)])])

Each sheet is a title and its rows, the first row being the header; a sheet may also carry a
few rows to write above its header (``(title, rows, above)``: a heading block such as a
tournament's name and dates), which stay in view with the header. A cell is ``None`` or
``""`` (empty), a ``bool``, an ``int``, a ``float``, a ``str`` (always text, never a formula: a name
starting with "=" stays a name) or a ``Fraction``, written as the number it is with the number
format ``FRACTION_FORMAT``, so that 7/3 shows as "2 1/3" and still sums and sorts as a number.
Any other value is written as its text.

Why not a general spreadsheet library: the standings workbook of a 1,000-player event holds
about a million cells, and the libraries spend several microseconds on each (they build an
object per cell, then XML through a writer that checks every node). This module only
formats the few kinds of cell above, row by row, straight into the compressed file: a sheet
is never held in memory. Measured by ``make bench-web`` (``bench/workbook_writers.py``) on
the workbook of a 1,000-player, 10-session tournament, 1,019,820 cells, the same rows, the
same run, an idle 2-core machine: this writer 996 ms, allocating at most 5.5 MB;
XlsxWriter in its ``constant_memory`` mode 4,284 ms (4.3 times as long), 3.8 MB; openpyxl's
write-only mode 8,346 ms (8.4 times), 4.6 MB. The rule was to switch to XlsxWriter within
1.5 times this writer's time; it is not, so the writer stays. Reading workbooks (imports,
tests) stays with openpyxl.

Pure Python, no Django.
"""

import itertools
import re
import unicodedata
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import BinaryIO

# "2 1/3", "2 5/12": table points are twelfths at most, so two digits suffice.
FRACTION_FORMAT = "# ??/??"
SHEET_TITLE_LENGTH = 31
# A cell holds at most this many characters; a spreadsheet refuses a file with more.
CELL_TEXT_LENGTH = 32_767
MAX_COLUMN_WIDTH = 60
# Widths are measured on the header and the first rows: the columns come before the rows in
# a sheet's file, and the rows are written as they come.
WIDTH_SAMPLE_ROWS = 500
# Rows gathered before they go to the compressor together.
ROWS_PER_WRITE = 1000
# A sheet whose columns are wider than this (in characters, as ``display_width`` counts them)
# prints across an A4 page turned landscape; narrower ones upright. Either way it is scaled
# to one page wide, and its header row repeats at the top of every page.
PORTRAIT_WIDTH = 100

# Style indexes in STYLES' cellXfs.
_BOLD = 1
_FRACTION = 2

_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_RELATIONSHIPS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PACKAGE_RELATIONSHIPS = "http://schemas.openxmlformats.org/package/2006/relationships"
_XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'

STYLES = (
    f'{_XML}<styleSheet xmlns="{_MAIN}">'
    f'<numFmts count="1"><numFmt numFmtId="164" formatCode="{FRACTION_FORMAT}"/></numFmts>'
    '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>'
    '<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>'
    '<fills count="2"><fill><patternFill patternType="none"/></fill>'
    '<fill><patternFill patternType="gray125"/></fill></fills>'
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
    '<cellXfs count="3">'
    '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
    '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>'
    '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
    "</cellXfs>"
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>'
    "</styleSheet>"
)

# Text that needs more than copying: XML's special characters, control characters that XML
# 1.0 cannot hold (dropped), and spaces at either end (kept with xml:space).
_TEXT_WORK = re.compile(r"[&<>\x00-\x08\x0b\x0c\x0e-\x1f]|^\s|\s$")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def column_letter(index: int) -> str:
    """The letters of a 1-based column index: 1 is A, 27 is AA."""
    letters = ""
    while index:
        index, remainder = divmod(index - 1, 26)
        letters = chr(65 + remainder) + letters
    return letters


def sheet_title(title: str, taken: set[str] = frozenset()) -> str:
    """A title a spreadsheet accepts: no []:*?/\\, at most 31 characters, unique (case
    ignored) among ``taken``."""
    for char in "[]:*?/\\":
        title = title.replace(char, " ")
    title = title[:SHEET_TITLE_LENGTH] or "Sheet"
    candidate, n = title, 1
    while candidate.casefold() in {t.casefold() for t in taken}:
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


def display_width(value) -> int:
    """Characters a cell's value takes on screen; CJK characters count twice."""
    if value is None:
        return 0
    if isinstance(value, Fraction):
        text = fraction_text(value) + "  "
    elif isinstance(value, bool):
        text = "FALSE"
    else:
        text = str(value)
    return sum(2 if unicodedata.east_asian_width(char) in ("W", "F") else 1 for char in text)


def _text(value: str) -> str:
    if len(value) > CELL_TEXT_LENGTH:
        value = value[:CELL_TEXT_LENGTH]
    if _TEXT_WORK.search(value) is None:
        return f"<t>{value}</t>"
    value = _CONTROL.sub("", value)
    value = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    if value != value.strip():
        return f'<t xml:space="preserve">{value}</t>'
    return f"<t>{value}</t>"


def _cell(ref: str, value, style: int = 0) -> str:
    """One cell's XML; ``style`` is the cellXfs index for text and plain numbers."""
    kind = type(value)
    styled = f' s="{style}"' if style else ""
    if kind is int:
        return f'<c r="{ref}"{styled}><v>{value}</v></c>'
    if kind is str:
        # An empty text is an empty cell, as a blank field is on paper.
        return f'<c r="{ref}"{styled} t="inlineStr"><is>{_text(value)}</is></c>' if value else ""
    if kind is bool:
        return f'<c r="{ref}"{styled} t="b"><v>{int(value)}</v></c>'
    if kind is float:
        return f'<c r="{ref}"{styled}><v>{value!r}</v></c>'
    if isinstance(value, Fraction):
        number = value.numerator if value.denominator == 1 else repr(float(value))
        return f'<c r="{ref}" s="{_FRACTION}"><v>{number}</v></c>'
    # Subclasses (choices, lazy translations): their plain value, then the same rules.
    for plain in (bool, int, float, str):
        if isinstance(value, plain):
            return _cell(ref, plain(value), style)
    return _cell(ref, str(value), style)


def _column_width(width: int) -> int:
    return min(width + 2, MAX_COLUMN_WIDTH)


def _sheet_head(widths: dict[int, int], header_row: int) -> str:
    columns = "".join(
        f'<col min="{index}" max="{index}" width="{_column_width(width)}" customWidth="1"/>'
        for index, width in sorted(widths.items())
    )
    return (
        f'{_XML}<worksheet xmlns="{_MAIN}" xmlns:r="{_RELATIONSHIPS}">'
        # Printed scaled to fit (one page wide: ``_sheet_foot``'s page setup).
        '<sheetPr><pageSetUpPr fitToPage="1"/></sheetPr>'
        '<sheetViews><sheetView workbookViewId="0">'
        f'<pane ySplit="{header_row}" topLeftCell="A{header_row + 1}" activePane="bottomLeft"'
        ' state="frozen"/>'
        f'<selection pane="bottomLeft" activeCell="A{header_row + 1}" sqref="A{header_row + 1}"/>'
        "</sheetView></sheetViews>"
        '<sheetFormatPr defaultRowHeight="15"/>'
        + (f"<cols>{columns}</cols>" if columns else "")
        + "<sheetData>"
    )


@dataclass(frozen=True)
class SheetShape:
    """Where a written sheet's table is: its header row, last row and last column (1-based),
    for the workbook's print titles and filter ranges."""

    header_row: int
    last_row: int
    columns: int

    @property
    def table_range(self) -> str:
        return f"$A${self.header_row}:${column_letter(self.columns)}${self.last_row}"


def _sheet_foot(shape: SheetShape, landscape: bool) -> str:
    """What follows a sheet's rows: the filter on its header row (sorting and filtering
    take the table only, not the heading block above it) and its page setup: A4, scaled to
    one page wide and as many pages tall as the rows need."""
    table = f"A{shape.header_row}:{column_letter(shape.columns)}{shape.last_row}"
    orientation = "landscape" if landscape else "portrait"
    return (
        "</sheetData>"
        + (f'<autoFilter ref="{table}"/>' if shape.columns else "")
        + '<pageMargins left="0.5" right="0.5" top="0.6" bottom="0.6" header="0.3"'
        ' footer="0.3"/>'
        f'<pageSetup paperSize="9" orientation="{orientation}" fitToWidth="1" fitToHeight="0"/>'
        "</worksheet>"
    )


def _write_sheet(stream, rows: Iterable[Sequence], above: Sequence[Sequence] = ()) -> SheetShape:
    rows = iter(rows)
    header = next(rows, ())
    sample = [row for _, row in zip(range(WIDTH_SAMPLE_ROWS), rows, strict=False)]
    widths: dict[int, int] = {}
    for row in (*above, header, *sample):
        for index, value in enumerate(row, start=1):
            widths[index] = max(widths.get(index, 0), display_width(value))
    letters = [column_letter(index) for index in range(1, len(widths) + 1)]

    def refs(count: int) -> list[str]:
        while len(letters) < count:
            letters.append(column_letter(len(letters) + 1))
        return letters

    def row_xml(number: int, row: Sequence, style: int = 0) -> str:
        cells = "".join(
            _cell(f"{letter}{number}", value, style)
            for letter, value in zip(refs(len(row)), row, strict=False)
            if value is not None
        )
        return f'<row r="{number}">{cells}</row>'

    header_row = len(above) + 1
    stream.write(_sheet_head(widths, header_row).encode())
    chunk = [row_xml(number, row) for number, row in enumerate(above, start=1)]
    if header:
        chunk.append(row_xml(header_row, header, _BOLD))
    number = header_row
    for row in itertools.chain(sample, rows):
        number += 1
        chunk.append(row_xml(number, row))
        if len(chunk) >= ROWS_PER_WRITE:
            stream.write("".join(chunk).encode())
            chunk.clear()
    shape = SheetShape(header_row=header_row, last_row=number, columns=len(header))
    landscape = sum(_column_width(width) for width in widths.values()) > PORTRAIT_WIDTH
    chunk.append(_sheet_foot(shape, landscape))
    stream.write("".join(chunk).encode())
    return shape


def write_workbook(file: BinaryIO, sheets: Iterable[tuple]) -> None:
    """Write the sheets, each ``(title, rows)`` with the header first, or ``(title, rows,
    above)`` with rows to write above the header, as an .xlsx to ``file``. Each sheet's rows
    are read once, as they are written."""
    titles: list[str] = []
    shapes: list[SheetShape] = []
    with zipfile.ZipFile(file, "w", compression=zipfile.ZIP_DEFLATED) as package:
        for title, rows, *rest in sheets:
            titles.append(sheet_title(str(title), set(titles)))
            above = list(rest[0]) if rest else []
            with package.open(f"xl/worksheets/sheet{len(titles)}.xml", "w") as stream:
                shapes.append(_write_sheet(stream, rows, above))
        package.writestr("xl/styles.xml", STYLES)
        package.writestr("xl/workbook.xml", _workbook(titles, shapes))
        package.writestr("xl/_rels/workbook.xml.rels", _workbook_relationships(len(titles)))
        package.writestr(
            "_rels/.rels",
            f'{_XML}<Relationships xmlns="{_PACKAGE_RELATIONSHIPS}">'
            f'<Relationship Id="rId1" Type="{_RELATIONSHIPS}/officeDocument"'
            ' Target="xl/workbook.xml"/></Relationships>',
        )
        package.writestr("[Content_Types].xml", _content_types(len(titles)))


def _escape_attribute(value: str) -> str:
    return (
        value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


def _sheet_reference(title: str) -> str:
    """A sheet's name as a formula writes it: quoted, its own quotes doubled."""
    return "'" + title.replace("'", "''") + "'"


def _workbook(titles: list[str], shapes: list[SheetShape]) -> str:
    sheets = "".join(
        f'<sheet name="{_escape_attribute(title)}" sheetId="{n}" r:id="rId{n}"/>'
        for n, title in enumerate(titles, start=1)
    )
    # Each sheet's header row printed at the top of every page, and its filter's range as
    # spreadsheets name it (Excel looks for it beside the sheet's autoFilter).
    names = "".join(
        f'<definedName name="_xlnm._FilterDatabase" localSheetId="{index}" hidden="1">'
        f"{_escape_attribute(_sheet_reference(title))}!{shape.table_range}</definedName>"
        f'<definedName name="_xlnm.Print_Titles" localSheetId="{index}">'
        f"{_escape_attribute(_sheet_reference(title))}!${shape.header_row}:${shape.header_row}"
        "</definedName>"
        for index, (title, shape) in enumerate(zip(titles, shapes, strict=True))
        if shape.columns
    )
    return (
        f'{_XML}<workbook xmlns="{_MAIN}" xmlns:r="{_RELATIONSHIPS}">'
        f"<bookViews><workbookView/></bookViews><sheets>{sheets}</sheets>"
        + (f"<definedNames>{names}</definedNames>" if names else "")
        + "</workbook>"
    )


def _workbook_relationships(count: int) -> str:
    sheets = "".join(
        f'<Relationship Id="rId{n}" Type="{_RELATIONSHIPS}/worksheet"'
        f' Target="worksheets/sheet{n}.xml"/>'
        for n in range(1, count + 1)
    )
    return (
        f'{_XML}<Relationships xmlns="{_PACKAGE_RELATIONSHIPS}">{sheets}'
        f'<Relationship Id="rId{count + 1}" Type="{_RELATIONSHIPS}/styles"'
        ' Target="styles.xml"/></Relationships>'
    )


def _content_types(count: int) -> str:
    office = "application/vnd.openxmlformats-officedocument.spreadsheetml"
    sheets = "".join(
        f'<Override PartName="/xl/worksheets/sheet{n}.xml" ContentType="{office}.worksheet+xml"/>'
        for n in range(1, count + 1)
    )
    return (
        f'{_XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels"'
        ' ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        f'<Override PartName="/xl/workbook.xml" ContentType="{office}.sheet.main+xml"/>'
        f'<Override PartName="/xl/styles.xml" ContentType="{office}.styles+xml"/>'
        f"{sheets}</Types>"
    )
