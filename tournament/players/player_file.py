"""Read an uploaded player list and say, row by row, what importing it would do.

Nothing here touches the database: the caller passes the stored players as
plain data (number → field values) and the field limits, and gets back an
``ImportPreview`` whose rows are ``new``, ``update``, ``unchanged`` or
``error``. ``tournament.players.player_import`` is that caller: it reads the stored
players; ``services.players_import`` applies a preview without errors.
"""

import csv
import io
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePath

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils.translation import gettext as _

from tournament.models import PLAYER_FIELDS
from tournament.models.validators import character_code, unsafe_character
from tournament.players import federation, names, workbook_bounds
from tournament.players.player_columns import (
    COLUMNS,
    NAME_FIELDS,
    TEXT_FIELDS,
    field_label,
)

# Bounds on the work one file may cause. A player list is a few hundred rows (tens of
# kilobytes); the bounds leave room for ten times that, and refuse a file that would take
# seconds of CPU or hundreds of megabytes before any row is judged. What a workbook may hold
# besides its rows is bounded by ``workbook_bounds``, before openpyxl reads it.
MEGABYTE = 1024 * 1024
# The file as uploaded, .csv or .xlsx (the upload form checks it before reading the file).
MAX_FILE_BYTES = 5 * MEGABYTE
# Players: the rows holding something, besides the header. Also bounds the signed preview.
MAX_ROWS = 5000
# Every row read, blank ones included: reading a blank row costs as much as a player's, and
# a sheet may say it has a million of them. Twice MAX_ROWS leaves room for the formatted
# empty rows a spreadsheet keeps below a list.
MAX_LINES = 2 * MAX_ROWS
# A list has at most a dozen known columns; values past this many columns are refused and the
# cells further right are not read (a sheet may declare 16,384 columns on every row).
MAX_COLUMNS = 50

TRUE_WORDS = frozenset({"yes", "y", "true", "1", "是"})
FALSE_WORDS = frozenset({"no", "n", "false", "0", "", "否"})

NEW = "new"
UPDATE = "update"
UNCHANGED = "unchanged"
ERROR = "error"

_INTEGER = re.compile(r"[+-]?\d+(?:\.0*)?")
# More digits than any player number may have (the largest is 2,147,483,647).
_MAX_DIGITS = 20


class ImportFileError(Exception):
    """The file cannot be read as a player list at all (wrong type, not UTF-8, broken xlsx)."""

    def __init__(self, message: str, code: str):
        super().__init__(message)
        self.message = message
        self.code = code


@dataclass(frozen=True)
class FieldLimits:
    """What the player model accepts: text lengths by field and the largest number."""

    max_lengths: Mapping[str, int]
    max_number: int = 2_147_483_647


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the header or a row; ``field`` is None for the whole row."""

    code: str
    message: str
    field: str | None = None


@dataclass(frozen=True)
class FieldChange:
    field: str
    old: object
    new: object

    @property
    def label(self) -> str:
        return field_label(self.field)


@dataclass
class RowPreview:
    """One data row of the file: what it says, and what importing it would do."""

    line: int  # the row number as a spreadsheet shows it (the header is usually 1)
    cells: dict[str, str]  # the file's text per field, for display
    values: dict[str, object] = field(default_factory=dict)  # typed, only fields in the file
    problems: list[Problem] = field(default_factory=list)
    action: str = ERROR
    changes: list[FieldChange] = field(default_factory=list)
    # (name, first name, last name) as importing the row stores them (``names``), once the
    # row is compared with the stored player; None for a row with errors.
    names: tuple[str, str, str] | None = None

    @property
    def has_errors(self) -> bool:
        return bool(self.problems)

    @property
    def shown(self) -> dict[str, str]:
        """The row's fields as the preview shows them: the file's text, with the names as
        they will be stored (a name split, or made of first and last names)."""
        if self.names is None:
            return self.cells
        return {**self.cells, **dict(zip(NAME_FIELDS, self.names, strict=True))}

    def refuse(self, code: str, message: str, field: str | None = None) -> None:
        """Say what is wrong with the row, beside ``field`` (None: the whole row)."""
        self.problems.append(Problem(code, message, field))


@dataclass
class ImportPreview:
    columns: list[str]  # player fields present in the file, in PLAYER_FIELDS' order
    header_line: int
    header_problems: list[Problem]
    rows: list[RowPreview]

    @property
    def error_rows(self) -> list[RowPreview]:
        return [row for row in self.rows if row.has_errors]

    @property
    def has_errors(self) -> bool:
        return bool(self.header_problems or self.error_rows)

    def count(self, action: str) -> int:
        return sum(1 for row in self.rows if row.action == action)

    @property
    def counts(self) -> dict[str, int]:
        return {action: self.count(action) for action in (NEW, UPDATE, UNCHANGED, ERROR)}

    @property
    def rows_to_import(self) -> list[dict[str, object]]:
        """Plain dicts for ``services.players_import``; only meaningful without errors."""
        return [dict(row.values) for row in self.rows if not row.has_errors]

    @property
    def has_changes(self) -> bool:
        return any(row.action in (NEW, UPDATE) for row in self.rows)


# ---------------------------------------------------------------- reading files


def read_table(filename: str, content: bytes) -> list[list[object]]:
    """The cells of a .csv or .xlsx file, row by row (the first worksheet of a workbook)."""
    suffix = PurePath(filename or "").suffix.lower()
    if len(content) > MAX_FILE_BYTES:
        raise ImportFileError(file_too_large_message(), code="file_too_large")
    if suffix == ".csv":
        return _read_csv(content)
    if suffix == ".xlsx":
        return _read_xlsx(content)
    raise ImportFileError(
        _("Upload a .csv or .xlsx file; “%(name)s” is neither.") % {"name": filename},
        code="unsupported_file",
    )


def _read_csv(content: bytes) -> list[list[object]]:
    try:
        # utf-8-sig drops the byte order mark Excel writes with “CSV UTF-8”.
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ImportFileError(
            _(
                "The CSV file is not UTF-8 text. In your spreadsheet, save it as "
                "“CSV UTF-8”, or upload the .xlsx file instead."
            ),
            code="not_utf8",
        ) from error
    if "\x00" in text:
        raise ImportFileError(
            _("The file is not a text CSV file. Upload a .csv or .xlsx file."), code="not_text"
        )
    delimiter = sniff_delimiter(text)
    try:
        return _bounded(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
    except csv.Error as error:
        raise ImportFileError(
            _("The CSV file cannot be read: %(error)s") % {"error": error}, code="bad_csv"
        ) from error


def sniff_delimiter(text: str) -> str:
    """Comma, semicolon or tab: whichever the header line uses most (comma when none)."""
    # The lines one by one, without splitting the whole text at once.
    lines = io.StringIO(text, newline=None)
    header = next((line for line in lines if line.strip()), "")
    counts = {delimiter: header.count(delimiter) for delimiter in (",", ";", "\t")}
    best = max(counts, key=lambda delimiter: counts[delimiter])
    return best if counts[best] else ","


def _read_xlsx(content: bytes) -> list[list[object]]:
    _check_workbook(content)
    from openpyxl import load_workbook

    try:
        workbook = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    except Exception as error:  # openpyxl raises many kinds for a file that is not xlsx
        raise _not_a_workbook() from error
    try:
        if not workbook.worksheets:
            raise ImportFileError(_("The workbook has no worksheet."), code="bad_xlsx")
        sheet = workbook.worksheets[0]
        # One row and one column past the bounds, so that going past them is seen. The
        # sheet's own dimension, when smaller, keeps rows from being padded beyond it.
        rows = sheet.iter_rows(
            max_row=min(sheet.max_row or MAX_LINES + 1, MAX_LINES + 1),
            max_col=min(sheet.max_column or MAX_COLUMNS + 1, MAX_COLUMNS + 1),
            values_only=True,
        )
        return _bounded(rows)
    except ImportFileError:
        raise
    except Exception as error:
        raise _not_a_workbook() from error
    finally:
        workbook.close()


def _check_workbook(content: bytes) -> None:
    """Refuse, before openpyxl reads it, a workbook that would take it long or much memory."""
    try:
        workbook_bounds.check_workbook(content)
    except workbook_bounds.WorkbookRefused as refusal:
        if refusal.code == "too_large":
            raise ImportFileError(
                _(
                    "The workbook holds %(size)s MB once unpacked; at most %(max)s MB are "
                    "read. Copy the player list alone into a new workbook, or save it as "
                    "CSV UTF-8, and upload that."
                )
                % {
                    "size": -(-refusal.found // MEGABYTE),
                    "max": refusal.limit // MEGABYTE,
                },
                code="xlsx_too_large",
            ) from refusal
        if refusal.code == "too_many_nodes":
            raise ImportFileError(
                _(
                    "The workbook holds more than a player list: too many cells, styles or "
                    "texts to read. Copy the player list alone into a new workbook, or save "
                    "it as CSV UTF-8, and upload that."
                ),
                code="xlsx_too_complex",
            ) from refusal
        raise _not_a_workbook() from refusal


def _not_a_workbook() -> ImportFileError:
    return ImportFileError(
        _("The file cannot be opened as an Excel workbook (.xlsx)."), code="bad_xlsx"
    )


def file_too_large_message() -> str:
    """Why a file over ``MAX_FILE_BYTES`` is refused; the upload form says the same."""
    return _("The file is larger than %(size)s MB.") % {"size": MAX_FILE_BYTES // MEGABYTE}


def _bounded(rows: Iterable[Sequence[object]]) -> list[list[object]]:
    """The rows as lists, read no further than the bounds: refused past ``MAX_LINES`` rows
    (blank ones count), ``MAX_ROWS`` players or a value past ``MAX_COLUMNS`` columns."""
    kept: list[list[object]] = []
    filled = 0
    for cells in rows:
        if len(kept) == MAX_LINES:
            raise ImportFileError(
                _(
                    "The file has more than %(max)s rows, blank rows included. Delete the "
                    "empty rows below the list, or copy the list alone into a new file."
                )
                % {"max": MAX_LINES},
                code="too_many_lines",
            )
        row = list(cells[:MAX_COLUMNS])
        if any(_text(cell) for cell in cells[MAX_COLUMNS:]):
            raise ImportFileError(
                _("The file has values past column %(max)s; a player list has fewer columns.")
                % {"max": MAX_COLUMNS},
                code="too_many_columns",
            )
        kept.append(row)
        if not _is_blank(row):
            filled += 1
            if filled > MAX_ROWS + 1:  # the header does not count
                raise ImportFileError(
                    _("The file has more than %(max)s rows.") % {"max": MAX_ROWS},
                    code="too_many_rows",
                )
    return kept


# ---------------------------------------------------------------- cells


def _is_blank(row: Sequence[object]) -> bool:
    return all(_text(cell) == "" for cell in row)


def _text(cell: object) -> str:
    """A cell as the organiser sees it: whole floats without ``.0``, spaces stripped."""
    if cell is None:
        return ""
    if isinstance(cell, bool):
        return "yes" if cell else "no"
    if isinstance(cell, float) and cell.is_integer():
        return str(int(cell))
    return str(cell).strip()


def _number(cell: object) -> int | None:
    """The integer a cell holds (7, 7.0, "7", " 7 "), or None."""
    if isinstance(cell, bool):
        return None
    if isinstance(cell, int):
        return cell
    if isinstance(cell, float):
        return int(cell) if cell.is_integer() else None
    text = _text(cell)
    if not _INTEGER.fullmatch(text):
        return None
    whole = text.split(".")[0]
    sign = -1 if whole.startswith("-") else 1
    digits = whole.lstrip("+-").lstrip("0") or "0"
    # Python's int() refuses text of more than 4,300 digits (a CSV cell may hold 100,000):
    # a number that long stands as one past every bound, of its sign.
    return sign * (10**_MAX_DIGITS if len(digits) > _MAX_DIGITS else int(digits))


def _yes_or_no(cell: object) -> bool | None:
    if isinstance(cell, bool):
        return cell
    word = _text(cell).lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    return None


# ---------------------------------------------------------------- parsing


def parse_players(
    table: Sequence[Sequence[object]],
    *,
    existing: Mapping[int, Mapping[str, object]],
    limits: FieldLimits,
) -> ImportPreview:
    """Check every row of ``table`` (header first) against ``existing`` players by number.

    A column missing from the file leaves that field of existing players as it is.
    """
    lines = [(index, list(row)) for index, row in enumerate(table, start=1)]
    filled = [(line, row) for line, row in lines if not _is_blank(row)]
    if not filled:
        return ImportPreview(
            columns=[],
            header_line=1,
            header_problems=[
                Problem("empty_file", _("The file is empty: it needs a header row and players."))
            ],
            rows=[],
        )
    header_line, header = filled[0]
    positions, header_problems = _read_header(header, filled[1:])
    columns = [name for name in PLAYER_FIELDS if name in positions]
    preview = ImportPreview(
        columns=columns, header_line=header_line, header_problems=header_problems, rows=[]
    )
    if "number" not in positions or not any(name in positions for name in NAME_FIELDS):
        return preview  # every row would only repeat the missing column
    for line, row in filled[1:]:
        preview.rows.append(_parse_row(line, row, positions, limits))
    if not preview.rows:
        header_problems.append(
            Problem("no_rows", _("The file has a header row but no players below it."))
        )
    _flag_duplicates(preview.rows)
    _flag_shared_ema_numbers(preview.rows, existing)
    for row in preview.rows:
        _compare(row, existing)
    return preview


def _read_header(
    header: Sequence[object], data: Sequence[tuple[int, Sequence[object]]]
) -> tuple[dict[str, int], list[Problem]]:
    positions: dict[str, int] = {}
    problems: list[Problem] = []
    allowed = ", ".join(COLUMNS)
    width = max([len(header), *(len(row) for _, row in data)])
    for index in range(width):
        title = _text(header[index]) if index < len(header) else ""
        key = _column_key(title)
        if not key:
            # A blank header over an empty column is spreadsheet noise; over data it is a mistake.
            if any(index < len(row) and _text(row[index]) for _, row in data):
                problems.append(
                    Problem(
                        "unnamed_column",
                        _("Column %(column)s has values but no name in the header row.")
                        % {"column": index + 1},
                    )
                )
            continue
        name = _COLUMN_KEYS.get(key)
        if name is None:
            problems.append(
                Problem(
                    "unknown_column",
                    _("Unknown column “%(column)s”. The columns allowed are: %(allowed)s.")
                    % {"column": title, "allowed": allowed},
                )
            )
        elif name in positions:
            problems.append(
                Problem(
                    "duplicate_column",
                    _("Column “%(column)s” repeats the %(field)s column.")
                    % {"column": title, "field": field_label(name)},
                )
            )
        else:
            positions[name] = index
    if "number" not in positions:
        problems.append(
            Problem(
                "missing_column",
                _("The header row has no “%(column)s” column; it is required.")
                % {"column": "number"},
            )
        )
    if not any(name in positions for name in NAME_FIELDS):
        problems.append(
            Problem(
                "missing_column",
                _(
                    "The header row has no “name” column, nor “first_name” and “last_name”: "
                    "the players need a name."
                ),
            )
        )
    return positions, problems


def _column_key(title: str) -> str:
    return " ".join(title.lower().replace("_", " ").split())


_COLUMN_KEYS = {_column_key(title): name for title, name in COLUMNS.items()}


def _parse_row(
    line: int, row: Sequence[object], positions: Mapping[str, int], limits: FieldLimits
) -> RowPreview:
    raw = {name: row[index] if index < len(row) else None for name, index in positions.items()}
    preview = RowPreview(line=line, cells={name: _text(cell) for name, cell in raw.items()})
    _check_number(preview, raw["number"], limits.max_number)
    for name in TEXT_FIELDS:
        if name in raw:
            _check_text(preview, name, limits.max_lengths.get(name))
    _check_names(preview)
    for name, normalise in (
        ("country", federation.normalise_country),
        ("ema_number", federation.normalise_ema_number),
    ):
        if name in raw:
            _check_code(preview, name, normalise, raw[name])
    for name, code, message in (
        (
            "is_substitute",
            "bad_substitute",
            _("Substitute “%(value)s” is not understood: write yes or no (是 or 否)."),
        ),
        (
            "ema_guest",
            "bad_guest",
            _("EMA guest “%(value)s” is not understood: write yes or no (是 or 否)."),
        ),
    ):
        if name in raw:
            _check_yes_or_no(preview, raw[name], name, code, message)
    if "email" in raw:
        _check_email(preview, limits.max_lengths.get("email"))
    return preview


def _check_yes_or_no(preview: RowPreview, cell: object, name: str, code: str, message) -> None:
    """A yes-or-no column: its value, or ``message`` beside it when it is neither."""
    value = _yes_or_no(cell)
    if value is None:
        preview.refuse(code, message % {"value": preview.cells[name]}, name)
    else:
        preview.values[name] = value


def _check_email(preview: RowPreview, max_length: int | None) -> None:
    text = preview.cells["email"]
    try:
        if text:
            validate_email(text)
    except ValidationError:
        preview.refuse(
            "email_invalid",
            _("“%(value)s” is not an e-mail address.") % {"value": text},
            "email",
        )
        return
    if max_length is not None and len(text) > max_length:
        preview.refuse(
            "email_too_long",
            _("The e-mail address is longer than %(max)s characters.") % {"max": max_length},
            "email",
        )
        return
    preview.values["email"] = text


def _check_number(preview: RowPreview, cell: object, max_number: int) -> None:
    number = _number(cell)
    text = preview.cells["number"]
    if text == "":
        problem = Problem("number_missing", _("The number is missing."), "number")
    elif number is None:
        problem = Problem(
            "number_not_integer",
            _("The number “%(value)s” is not a whole number.") % {"value": text},
            "number",
        )
    elif number < 1:
        problem = Problem("number_not_positive", _("The number must be 1 or more."), "number")
    elif number > max_number:
        problem = Problem("number_too_large", _("The number is too large."), "number")
    else:
        preview.values["number"] = number
        return
    preview.problems.append(problem)


def _check_text(preview: RowPreview, name: str, max_length: int | None) -> None:
    value = preview.cells[name]
    found = unsafe_character(value)
    if found is not None:
        # A cell may hold a line break (a quoted CSV field, an Alt+Enter in a spreadsheet):
        # said for its row, as the players' form says it beside the field.
        preview.refuse(
            "not_one_line",
            _(
                "The %(field)s must be one line, without line breaks or control "
                "characters (%(character)s)."
            )
            % {"field": field_label(name), "character": character_code(found)},
            name,
        )
    elif max_length is not None and len(value) > max_length:
        preview.refuse(
            "too_long",
            _("The %(field)s has %(length)s characters; at most %(max)s are allowed.")
            % {"field": field_label(name), "length": len(value), "max": max_length},
            name,
        )
    else:
        preview.values[name] = value


def _check_names(preview: RowPreview) -> None:
    """A row names its player: by name, or by first or last name (the name is then made of
    them when the players are saved, so it is left out of the row's values)."""
    given = {name: preview.cells.get(name, "") for name in NAME_FIELDS}
    if not any(given.values()):
        preview.refuse(
            "name_missing",
            _("The name is missing."),
            "name" if "name" in preview.cells else None,
        )
    elif "name" in preview.cells and not given["name"]:
        preview.values.pop("name", None)


def _check_code(preview: RowPreview, name: str, normalise, cell: object) -> None:
    """The country or the EMA number, in the form it is stored in (``federation``)."""
    try:
        preview.values[name] = normalise(cell)
    except federation.FieldValueError as error:
        preview.refuse(error.code, error.message, name)


def _flag_duplicates(rows: Sequence[RowPreview]) -> None:
    lines_by_number: dict[int, list[int]] = defaultdict(list)
    for row in rows:
        if "number" in row.values:
            lines_by_number[row.values["number"]].append(row.line)
    for row in rows:
        lines = lines_by_number.get(row.values.get("number"), [])
        if len(lines) > 1:
            row.refuse(
                "number_repeated",
                _("Number %(number)s is on more than one row of the file: rows %(lines)s.")
                % {"number": row.values["number"], "lines": ", ".join(map(str, lines))},
                "number",
            )


def _flag_shared_ema_numbers(
    rows: Sequence[RowPreview], existing: Mapping[int, Mapping[str, object]]
) -> None:
    """An EMA number is one player's: flag each row giving one that another row of the file,
    or a registered player the file leaves with it, also has."""
    holders: dict[str, set[int]] = defaultdict(set)
    final = {number: stored.get("ema_number", "") for number, stored in existing.items()}
    for row in rows:
        if "number" in row.values and "ema_number" in row.values:
            final[row.values["number"]] = row.values["ema_number"]
    for number, ema_number in final.items():
        if ema_number:
            holders[ema_number].add(number)
    for row in rows:
        ema_number = row.values.get("ema_number")
        others = sorted(holders.get(ema_number, set()) - {row.values.get("number")})
        if ema_number and others:
            row.refuse(
                "ema_number_repeated",
                _("EMA number %(ema)s is also given to player %(players)s.")
                % {"ema": ema_number, "players": ", ".join(map(str, others))},
                "ema_number",
            )


def _or_empty(value: object) -> object:
    return "" if value is None else value


def _compare(row: RowPreview, existing: Mapping[int, Mapping[str, object]]) -> None:
    if row.has_errors:
        row.action = ERROR
        return
    stored = existing.get(row.values["number"])
    row.names = names.resolve_fields(stored or {}, row.values)
    if stored is None:
        row.action = NEW
        return
    # The names as they will be stored (split, or made of first and last names) beside the
    # fields the file gives; a field stored empty reads "".
    after = {**row.values, **dict(zip(NAME_FIELDS, row.names, strict=True))}
    row.changes = [
        FieldChange(name, stored.get(name), after[name])
        for name in PLAYER_FIELDS
        if name in after and _or_empty(stored.get(name)) != after[name]
    ]
    row.action = UPDATE if row.changes else UNCHANGED
