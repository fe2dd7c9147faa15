"""The pages' data tables, drawn by django-tables2: one module per area, one table class per
list. A table is sorted by its columns' links and shown by pages of ``PAGE_SIZE`` rows
(``paginate``); ``page=all`` shows every row at once, to print. Every table is drawn by the
project's own template (``templates/tables/table.html``, ``DJANGO_TABLES2_TEMPLATE``): a
caption, headings with their sort order said to screen readers, the pager.

A table of rows already in memory (a selector's dataclasses: the standings, the seating) is a
``RowsTable``: its rows sort by each column's value compared as it is (table points as exact
fractions, not as their text; a key of the column's ``order_by`` written ``-key`` the other
way), rows with no value last whichever way, and rows equal on the column keep the order they
were given in (the standings' order).
"""

from collections.abc import Sequence

from django.http import QueryDict
from django_tables2 import Column, Table
from django_tables2.data import TableListData
from django_tables2.utils import Accessor, OrderBy, OrderByTuple

PAGE_SIZE = 100
ALL_PAGES = "all"
# The highest page number a link may name: 20,000 rows at 100 a page, twenty times the
# biggest event the site is built for. A number beyond shows the last page, as any past it.
MAX_PAGE = 200


def page_value(asked: str) -> str | None:
    """``asked`` as a page parameter is read (``all``, or a number from 1 to ``MAX_PAGE``,
    written plainly), None when it reads as no page at all: the form a page kept whole is
    keyed by (``shared_pages.page_query``), so that ``?page=007`` or ``?page=junk`` makes no
    copy of its own."""
    if asked == ALL_PAGES:
        return asked
    try:
        number = int(asked)
    except ValueError:
        return None
    return str(min(max(number, 1), MAX_PAGE))


def sort_value(table_class):
    """The reader of ``table_class``'s sort parameter for ``page_query``: a sortable column's
    name, ``-`` before it for the other way round; None for anything else."""

    def read(asked: str) -> str | None:
        name = asked.removeprefix("-")
        column = table_class.base_columns.get(name)
        return asked if column is not None and column.orderable is not False else None

    return read


def paginate(request, table: Table, query=None) -> Table:
    """``table`` sorted and paged as ``query`` (the request's, unless given: a page kept whole
    passes the parameters it reads) asks: 100 rows a page, every row for ``page=all``. Its
    links (headings, pager) are made of ``query`` alone."""
    query = request.GET if query is None else query
    table.request = request
    table.query = query
    asked = query.get(table.prefixed_order_by_field)
    if asked:
        table.order_by = asked
    table.page_size = PAGE_SIZE
    table.showing_all = query.get(table.prefixed_page_field) == ALL_PAGES
    if not table.showing_all:
        try:
            page = int(query.get(table.prefixed_page_field, 1))
        except ValueError:
            page = 1
        pages = max(1, -(-len(table.rows) // PAGE_SIZE))
        table.paginate(per_page=PAGE_SIZE, page=min(max(page, 1), pages))
    return table


def table_url(table: Table, **changes) -> str:
    """The page's query (the one ``paginate`` was given) with ``changes`` (parameter, already
    prefixed -> value, None to drop it)."""
    query = getattr(table, "query", None)
    if query is None:
        query = table.request.GET if table.request is not None else QueryDict()
    query = query.copy()
    for name, value in changes.items():
        if value is None:
            query.pop(name, None)
        else:
            query[name] = str(value)
    return "?" + query.urlencode()


class NumberColumn(Column):
    """A right-aligned count, score or rank; nothing shown for no value. Its heading's first
    click sorts the largest first, as a ranking reads (``largest_first=False``: the rank, 1
    at the top)."""

    def __init__(self, *args, largest_first: bool = True, **kwargs):
        kwargs.setdefault("attrs", {"th": {"class": "num"}, "td": {"class": "num"}})
        kwargs.setdefault("default", "")
        super().__init__(*args, **kwargs)
        self.largest_first = largest_first


def _is_empty(value) -> bool:
    if isinstance(value, tuple):
        return any(_is_empty(v) for v in value)
    return value is None or value == ""


class RowsTable(Table):
    """A table of rows in memory, sorted as the module's docstring says: by the values of the
    column's ``order_by`` accessors, one sort of the rows with a plain key (django-tables2's
    own sort of a list compares row by row through its accessors, ten times slower at a
    thousand rows, and puts empty values first one way)."""

    def __init__(self, data, *, slug: str = "", **kwargs):
        # Any sequence: a page of it is all that is read unless the table is sorted, which
        # makes a list of its own (the rows may be shared). The cached standings build
        # only the rows of the page shown.
        rows = data if isinstance(data, Sequence) else list(data)
        super().__init__(TableListData(rows), **kwargs)
        self.slug = slug  # the tournament's, for the addresses of the rows' links and actions

    @property
    def order_by(self):
        return self._order_by

    @order_by.setter
    def order_by(self, value):
        aliases = value.split(",") if isinstance(value, str) else list(value or ())
        # One column at a time, as the headings' links ask.
        valid = [
            alias
            for alias in aliases[:1]
            if OrderBy(alias).bare in self.columns and self.columns[OrderBy(alias).bare].orderable
        ]
        self._order_by = OrderByTuple(valid)
        if not valid:
            return
        column = self.columns[OrderBy(valid[0]).bare]
        keys = [OrderBy(key) for key in column.order_by]
        accessors = [Accessor(key.bare) for key in keys]

        def key(row):
            return tuple(accessor.resolve(row, quiet=True) for accessor in accessors)

        present, empty = [], []
        for row in self.data.data:
            value = key(row)
            (empty if _is_empty(value) else present).append((value, row))
        # One stable sort a key, the last first. The column's keys come already turned the
        # way the table is sorted (a key written "-name" the other way again).
        for index in reversed(range(len(keys))):
            present.sort(key=lambda pair: pair[0][index], reverse=keys[index].is_descending)
        self.data.data = [row for _value, row in present] + [row for _value, row in empty]
