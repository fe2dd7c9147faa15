"""Sortable HTML tables of the standings: the players' table and the teams' table.

The rows are the dataclasses from ``selectors`` (``StandingRow``, ``TeamRow``), kept as
they are: table points stay ``Fraction``s, so sorting compares exact values and only the
cell text is formatted. Each table is written as one string in Python, with no template
per row or cell: at a thousand players a template per cell cost seconds a page.

A table reads its sort from one query parameter (``sort`` for the players, ``team-sort``
for the teams, so sorting one leaves the other alone): a column name, with a leading ``-``
for descending. Its column headings are links to the same page sorted by them.

The players' table shows 100 rows a page, as a phone reads it: ``page`` is the page's
number, or ``all`` for every row (to print). A new sort starts again at page 1. The teams'
table likewise, with ``team-page``.
"""

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.http import QueryDict
from django.utils.functional import Promise
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from tournament.language.formatting import format_table_points
from tournament.selectors.standings import StandingRow
from tournament.views.pager import PAGE_SIZE, Pager


@dataclass(frozen=True)
class Column:
    """One column: its heading, its cell's HTML and the value it sorts by.

    ``cell`` returns HTML, already escaped. ``sort_value`` is None for a column that does
    not sort. A number column's first click sorts the largest first, as a ranking reads;
    ``largest_first=False`` keeps the smallest first (the rank: 1 at the top).
    """

    name: str
    label: Promise
    cell: Callable[[Any], str]
    sort_value: Callable[[Any], Any] | None = None
    number: bool = False
    largest_first: bool = False


def _is_empty(value) -> bool:
    """No rank, no session yet, no team: such rows sort last whichever way."""
    if isinstance(value, tuple):
        return any(_is_empty(v) for v in value)
    return value is None or value == ""


def _number_text(value) -> str:
    # Integers need no escaping; None (no rank, no session yet) shows as an empty cell.
    return "" if value is None else str(value)


def number_column(name: str, label: Promise, value: Callable[[Any], Any], **kwargs) -> Column:
    """A right-aligned count or score, sorted by its value, the largest first."""
    kwargs.setdefault("largest_first", True)
    return Column(name, label, lambda row: _number_text(value(row)), value, number=True, **kwargs)


def table_points_column() -> Column:
    """Exact table points: the text is "7/3" or "1.75", sorting uses the ``Fraction``."""
    return Column(
        "table_points",
        _("Table points"),
        lambda row: format_table_points(row.table_points),
        lambda row: row.table_points,
        number=True,
        largest_first=True,
    )


def rank_column() -> Column:
    return number_column("rank", _("Rank"), lambda row: row.rank, largest_first=False)


class SortableTable:
    """Rows in the order asked for by the query, and the table's HTML.

    ``rows`` are kept in the order given (the standings order) unless the query names a
    column to sort by; an unknown or unsortable column is ignored. Python's sort is
    stable, also reversed, so rows equal on the column (shared ranks) keep the standings
    order in both directions.
    """

    columns: tuple[Column, ...] = ()
    css_class = ""
    # What the table says when it has no rows.
    empty_text: Promise | str = ""
    sort_parameter = "sort"
    # Rows a page (None: every row on one page), and the parameter naming the page.
    page_size: int | None = None
    page_parameter = "page"

    def __init__(self, rows: Iterable, query: QueryDict | None = None):
        self.query = query if query is not None else QueryDict()
        self.sort_column, self.descending = self._requested_sort()
        # A sequence is kept as it is unless sorted: the standings build only the rows of
        # the page shown.
        if self.sort_column is not None:
            rows = self._sorted(list(rows), self.sort_column, self.descending)
        elif not isinstance(rows, Sequence):
            rows = list(rows)
        self.pager = None
        if self.page_size:
            self.pager = Pager(self.query, len(rows), self.page_size, self.page_parameter)
            rows = self.pager.rows(rows)
        self.rows = rows

    @classmethod
    def sort_value(cls, asked: str) -> str | None:
        """``asked`` as this table's sort parameter: a sortable column's name, ``-`` before
        it for the other way round; None for anything else (the standings' order)."""
        name = asked.removeprefix("-")
        sortable = any(c.name == name and c.sort_value is not None for c in cls.columns)
        return asked if sortable else None

    def _requested_sort(self) -> tuple[Column | None, bool]:
        asked = self.query.get(self.sort_parameter, "")
        name = asked.removeprefix("-")
        for column in self.columns:
            if column.name == name and column.sort_value is not None:
                return column, asked.startswith("-")
        return None, False

    @staticmethod
    def _sorted(rows: list, column: Column, descending: bool) -> list:
        present, empty = [], []
        for row in rows:
            (empty if _is_empty(column.sort_value(row)) else present).append(row)
        present.sort(key=column.sort_value, reverse=descending)
        return present + empty

    def next_sort(self, column: Column) -> str:
        """The sort its heading's link asks for: the other way round on the sorted column,
        else the column's first direction."""
        current = column is self.sort_column
        descending = not self.descending if current else column.largest_first
        return f"-{column.name}" if descending else column.name

    def column(self, name: str) -> Column:
        return next(column for column in self.columns if column.name == name)

    def sort_url(self, column: Column) -> str:
        """The page's query with this table's sort changed, from its first page; other
        parameters kept."""
        query = self.query.copy()
        query[self.sort_parameter] = self.next_sort(column)
        if self.pager is not None:
            query.pop(self.page_parameter, None)
        return "?" + query.urlencode()

    def row_class(self, row) -> str:
        return ""

    def _heading(self, column: Column) -> str:
        classes = ["num"] if column.number else []
        if column.sort_value is None:
            return format_html("<th{}>{}</th>", _class_attribute(classes), column.label)
        if column is not self.sort_column:
            return format_html(
                '<th{}><a href="{}">{}</a></th>',
                _class_attribute([*classes, "orderable"]),
                self.sort_url(column),
                column.label,
            )
        # The current sort: "asc"/"desc" for the eye, aria-sort for screen readers.
        direction, aria = ("desc", "descending") if self.descending else ("asc", "ascending")
        return format_html(
            '<th{} aria-sort="{}"><a href="{}">{}</a></th>',
            _class_attribute([direction, *classes, "orderable"]),
            aria,
            self.sort_url(column),
            column.label,
        )

    def as_html(self) -> SafeString:
        headings = "".join(self._heading(column) for column in self.columns)
        # Each column's opening cell tag is worked out once rather than per row.
        cells = [('<td class="num">' if c.number else "<td>", c.cell) for c in self.columns]
        lines = []
        for row in self.rows:
            css = self.row_class(row)
            lines.append(f'<tr class="{css}">' if css else "<tr>")
            lines.extend(f"{opening}{cell(row)}</td>" for opening, cell in cells)
            lines.append("</tr>\n")
        if not self.rows:
            lines.append(
                format_html(
                    '<tr><td colspan="{}">{}</td></tr>\n', len(self.columns), self.empty_text
                )
            )
        # Safe: every heading and cell above is escaped, and the row classes are fixed words.
        pager = self.pager.html() if self.pager is not None else ""
        return mark_safe(
            f"{pager}"
            f'<table class="{self.css_class}">\n<thead><tr>{headings}</tr></thead>\n'
            f"<tbody>\n{''.join(lines)}</tbody>\n</table>"
            f"{pager}"
        )


def _class_attribute(classes: list[str]) -> str:
    return format_html(' class="{}"', " ".join(classes)) if classes else ""


# ---------------------------------------------------------------- the players' table


def _player_cell(row: StandingRow) -> str:
    # Plain escape() and f-strings rather than format_html: this cell is built once per
    # player, and format_html's escaping of every argument doubled the table's cost.
    player = row.player
    html = escape(player.name)
    if player.name_zh:
        html += f' <span lang="zh-Hans">{escape(player.name_zh)}</span>'
    if player.is_substitute:
        html += f' <span class="badge">{escape(_("substitute"))}</span>'
    if player.withdrawn_at is not None:
        html += f' <span class="badge warn">{escape(_("withdrawn"))}</span>'
    return html


def _place_column(index: int, name: str, label: Promise) -> Column:
    return number_column(name, label, lambda row: row.places[index])


class StandingsTable(SortableTable):
    """The players in the standings; substitutes, unranked, in grey."""

    columns = (
        rank_column(),
        Column(
            "number",
            _("No."),
            lambda row: str(row.player.number),
            lambda row: row.player.number,
            number=True,
        ),
        Column(
            "player",
            _("Player"),
            _player_cell,
            # Namesakes stay in number order.
            lambda row: (row.player.name, row.player.number),
        ),
        Column("team", _("Team"), lambda row: escape(row.player.team), lambda row: row.player.team),
        table_points_column(),
        number_column("score", _("Score"), lambda row: row.score),
        _place_column(0, "first", _("1st")),
        _place_column(1, "second", _("2nd")),
        _place_column(2, "third", _("3rd")),
        _place_column(3, "fourth", _("4th")),
        number_column("sessions_played", _("Sessions"), lambda row: row.sessions_played),
        number_column("best_session", _("Best session"), lambda row: row.best_session),
    )
    css_class = "standings"
    empty_text = _("No players registered yet.")
    sort_parameter = "sort"
    page_size = PAGE_SIZE

    def row_class(self, row: StandingRow) -> str:
        return "" if row.ranked else "substitute"


# ---------------------------------------------------------------- the teams' table


class TeamStandingsTable(SortableTable):
    """The teams, by their ranked members' table points."""

    columns = (
        rank_column(),
        Column("team", _("Team"), lambda row: escape(row.team), lambda row: row.team),
        Column("members", _("Members"), lambda row: escape(", ".join(row.members))),
        table_points_column(),
        number_column("score", _("Score"), lambda row: row.score),
    )
    css_class = "team-standings"
    empty_text = _("No teams.")
    # Its own parameters, so sorting or paging one table on the page leaves the other alone.
    sort_parameter = "team-sort"
    # A big event has a thousand teams and more: read by pages too.
    page_size = PAGE_SIZE
    page_parameter = "team-page"
