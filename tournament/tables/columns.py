"""The cell attributes the organiser's tables share: every heading a column heading
(``scope="col"``), numbers set right (``num``), addresses and keys in their own type
(``hash``). A column given ``attrs`` replaces the table's, so each names its heading too."""

import django_tables2 as tables
from django.template.loader import get_template

HEADING = {"scope": "col"}


def cells(**td) -> dict:
    """A column's attributes: its heading a column heading, its cells given ``td``
    (``class_`` for ``class``)."""
    return {"th": HEADING, "td": {name.rstrip("_"): value for name, value in td.items()}}


NUMBER = {"th": {**HEADING, "class": "num"}, "td": {"class": "num"}}


class CellTemplateColumn(tables.TemplateColumn):
    """A column whose cells are drawn by ``template_name`` in the page's own context (its
    ``tournament``, ``csrf_token``...), with ``record`` and ``value`` added. Django-tables2's
    ``TemplateColumn`` copies the page's context and runs the context processors again for
    every cell: 100 rows of the players list took 250 ms instead of 100 (1,000 players,
    PostgreSQL)."""

    def render(self, record, table, value, bound_column, **kwargs):
        context = table.context  # the page's, given the table by ``render_table``
        with context.update({"record": record, "value": value, "column": bound_column}):
            return get_template(self.template_name).template.render(context)
