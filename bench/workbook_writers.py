"""The standings workbook written by three writers, on the same rows: the project's own
streaming writer (``tournament.exports.xlsx_writer``), XlsxWriter in its ``constant_memory``
mode, and openpyxl's write-only mode. Part of ``make bench-web``.

The sheets' rows are read from the database once and kept as plain values, so each writer
is timed on writing alone. Each writes what the workbook needs: the rows above the header,
a bold header frozen in view, column widths fitted to the first rows, and table points as
exact fractions shown as "2 1/3".
"""

from __future__ import annotations

import io
import statistics
import time
import tracemalloc
from fractions import Fraction

from tournament.exports import xlsx_writer

WIDTH_SAMPLE_ROWS = xlsx_writer.WIDTH_SAMPLE_ROWS


def _widths(above, header, rows) -> list[int]:
    widths: dict[int, int] = {}
    for row in (*above, header, *rows[:WIDTH_SAMPLE_ROWS]):
        for index, value in enumerate(row):
            widths[index] = max(widths.get(index, 0), xlsx_writer.display_width(value))
    return [min(widths[i] + 2, xlsx_writer.MAX_COLUMN_WIDTH) for i in sorted(widths)]


def project_writer(file, sheets) -> None:
    xlsx_writer.write_workbook(file, sheets)


def xlsxwriter_constant_memory(file, sheets) -> None:
    import xlsxwriter

    book = xlsxwriter.Workbook(file, {"constant_memory": True, "strings_to_formulas": False})
    bold = book.add_format({"bold": True})
    fraction = book.add_format({"num_format": xlsx_writer.FRACTION_FORMAT})
    for title, rows, above in sheets:
        sheet = book.add_worksheet(title)
        header, body = rows[0], rows[1:]
        for column, width in enumerate(_widths(above, header, body)):
            sheet.set_column(column, column, width)
        sheet.freeze_panes(len(above) + 1, 0)
        number = 0
        for row in above:
            sheet.write_row(number, 0, row)
            number += 1
        sheet.write_row(number, 0, header, bold)
        for row in body:
            number += 1
            for column, value in enumerate(row):
                # An empty text is an empty cell, as in the project's writer.
                if value is None or value == "":
                    continue
                if isinstance(value, Fraction):
                    exact = value.numerator if value.denominator == 1 else float(value)
                    sheet.write_number(number, column, exact, fraction)
                elif type(value) is str:
                    sheet.write_string(number, column, value)
                else:
                    sheet.write(number, column, value)
    book.close()


def openpyxl_write_only(file, sheets) -> None:
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    book = Workbook(write_only=True)
    bold = Font(bold=True)
    for title, rows, above in sheets:
        sheet = book.create_sheet(title)
        header, body = rows[0], rows[1:]
        for column, width in enumerate(_widths(above, header, body), start=1):
            sheet.column_dimensions[get_column_letter(column)].width = width
        sheet.freeze_panes = f"A{len(above) + 2}"
        for row in above:
            sheet.append(row)
        cells = []
        for value in header:
            cell = WriteOnlyCell(sheet, value=value)
            cell.font = bold
            cells.append(cell)
        sheet.append(cells)
        for row in body:
            if any(isinstance(value, Fraction) for value in row):
                values = []
                for value in row:
                    if isinstance(value, Fraction):
                        value = WriteOnlyCell(sheet, value=float(value))
                        value.number_format = xlsx_writer.FRACTION_FORMAT
                    values.append(value)
                sheet.append(values)
            else:
                sheet.append(row)
    book.save(file)


WRITERS = {
    "project's writer": project_writer,
    "XlsxWriter (constant_memory)": xlsxwriter_constant_memory,
    "openpyxl (write-only)": openpyxl_write_only,
}


def sheets_of(tournament) -> list[tuple]:
    """The workbook's sheets as the pages make them, read once: (title, rows, above)."""
    from tournament.exports import workbook

    return [
        (str(title), list(workbook.cell_values(rows)), list(rest[0]) if rest else [])
        for title, rows, *rest in workbook.workbook_sheets(tournament)
    ]


def measure(tournament, runs: int) -> list[tuple[str, float, int, int]]:
    """Each writer on the same sheets: (name, median ms, peak MB it allocates, file bytes)."""
    sheets = sheets_of(tournament)
    figures = []
    for name, write in WRITERS.items():
        times = []
        for _ in range(runs):
            buffer = io.BytesIO()
            started = time.perf_counter()
            write(buffer, sheets)
            times.append((time.perf_counter() - started) * 1000)
        tracemalloc.start()
        write(io.BytesIO(), sheets)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        figures.append((name, statistics.median(times), peak, len(buffer.getvalue())))
    return figures


def cells(sheets) -> int:
    return sum(len(row) for _title, rows, above in sheets for row in (*above, *rows))
