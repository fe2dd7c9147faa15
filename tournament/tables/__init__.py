"""The pages' data tables, drawn by django-tables2: one module per area, one table class per
list. A table is sorted by its columns' links and shown by pages of ``PAGE_SIZE`` rows
(``paginate``); ``page=all`` shows every row at once, to print. Every table is drawn by the
project's own template (``templates/tables/table.html``, ``DJANGO_TABLES2_TEMPLATE``)."""

from django_tables2 import RequestConfig, Table

PAGE_SIZE = 100
ALL_PAGES = "all"


def paginate(request, table: Table, query=None) -> Table:
    """``table`` sorted and paged as ``query`` (the request's, unless given: a page kept whole
    passes the parameters it reads) asks: 100 rows a page, every row for ``page=all``."""
    query = request.GET if query is None else query
    every = query.get(table.prefixed_page_field) == ALL_PAGES
    config = RequestConfig(request, paginate=False if every else {"per_page": PAGE_SIZE})
    config.configure(table)
    table.showing_all = every
    return table
