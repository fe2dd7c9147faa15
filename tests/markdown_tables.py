"""Reading the tables of the documents in docs/, for the tests that check their worked examples.

A table is a header row, a separator row (``| --- | --- |``) and the body rows that follow,
each a line starting and ending with ``|`` (indentation ignored); the first line that is not
a row ends it. Inside a cell ``\\|`` is a pipe, not a cell boundary. Tests name a table by
its header line, so a document can be reordered freely::

    rows = table_rows(DOC, "| scores | table points |")   # [["1,2,3,4", "0, 1, 2, 4"], ...]
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

_CELL_BOUNDARY = re.compile(r"(?<!\\)\|")
_SEPARATOR = re.compile(r"\|(\s*:?-+:?\s*\|)+")
_FENCE = ("```", "~~~")


def split_row(line: str) -> list[str]:
    """The cells of one table row: ``| a | b \\| c |`` gives ``["a", "b | c"]``.

    Cells are split at every ``|`` not escaped by a backslash, stripped, and ``\\|`` in a
    cell is read as ``|``. Backticks are kept (see ``code_text``).
    """
    row = line.strip()
    assert row.startswith("|") and row.endswith("|"), f"not a table row: {line!r}"
    return [cell.strip().replace("\\|", "|") for cell in _CELL_BOUNDARY.split(row[1:-1])]


def code_text(cell: str) -> str:
    """The text of a cell written as one code span (``"`+4m`"`` gives ``"+4m"``); any other
    cell as it is."""
    if len(cell) >= 2 and cell[0] == "`" and cell[-1] == "`":
        return cell[1:-1]
    return cell


@dataclass(frozen=True)
class Table:
    """One table of a document: its header line, its body rows, the heading above it."""

    header: str  # the header row as written, without indentation
    rows: list[list[str]]  # the body rows' cells (split_row), separator excluded
    heading: str  # the text of the last heading (``#`` ...) before the table; "" if none


def read_tables(text: str) -> list[Table]:
    """Every table of the markdown ``text``, in document order (none inside code blocks)."""
    tables: list[Table] = []
    lines = [line.strip() for line in text.splitlines()]
    heading = ""
    fence = None
    i = 0
    while i < len(lines):
        line = lines[i]
        if fence:
            fence = None if line.startswith(fence) else fence
        elif line.startswith(_FENCE):
            fence = line[:3]
        elif line.startswith("#"):
            heading = line.lstrip("#").strip()
        elif (
            line.startswith("|")
            and i + 1 < len(lines)
            and _SEPARATOR.fullmatch(lines[i + 1].replace(" ", ""))
        ):
            i += 2  # the header and the separator
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(split_row(lines[i]))
                i += 1
            tables.append(Table(header=line, rows=rows, heading=heading))
            continue
        i += 1
    return tables


def table_rows(path: Path, header: str) -> list[list[str]]:
    """The body rows of the one table in the document ``path`` whose header line is
    ``header`` (written exactly as in the document, pipes and spaces included).

    Fails when no table, or more than one, has that header, or when the table is empty.
    """
    found = [t for t in read_tables(path.read_text(encoding="utf-8")) if t.header == header]
    assert len(found) == 1, f"{len(found)} tables headed {header!r} in {path}"
    (table,) = found
    assert table.rows, f"the table headed {header!r} in {path} has no rows"
    return table.rows
