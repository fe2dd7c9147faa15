"""The links of the data tables' template (``templates/tables/table.html``): a heading's
sort and the pager's pages, made of the page's own query (``tables.paginate``)."""

from django import template

from tournament.language.formatting import format_table_points
from tournament.tables import table_url
from tournament.tables.seating import seat_heading

register = template.Library()


def next_sort(column) -> str:
    """The sort a heading's link asks for: the other way round on the column sorted by, else
    the column's first way (the largest first for a number column but the rank)."""
    if column.is_ordered:
        return column.order_by_alias.next
    if getattr(column.column, "largest_first", False):
        return f"-{column.name}"
    return column.name


@register.simple_tag
def sort_url(table, column) -> str:
    """The page sorted by ``column``, from its first page; the other parameters kept."""
    return table_url(
        table,
        **{table.prefixed_order_by_field: next_sort(column), table.prefixed_page_field: None},
    )


@register.simple_tag
def page_url(table, page) -> str:
    """The page showing another page of ``table`` (a number, or ``all``)."""
    return table_url(table, **{table.prefixed_page_field: page})


@register.filter
def aria_sort(column) -> str:
    """``aria-sort``'s value for a heading: the way the table is sorted by it, or ""."""
    if not column.is_ordered:
        return ""
    return "descending" if column.order_by_alias.is_descending else "ascending"


register.filter("table_points", format_table_points)
# A starting seat (0..3) as "P1 (East)".
register.filter("seat_wind", seat_heading)
