"""A session's tables as the referees' pages list them: the table (its sheet's link), its
players (withdrawn ones marked), its referee (for the organisers), the hands entered and
whether it is confirmed. By table number, or sorted by referee or hands entered."""

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from tournament.tables.columns import HEADING, NUMBER, cells


class SessionTablesTable(tables.Table):
    """The referees' home: one such table a session in play, each paged and sorted by
    parameters of its own (``prefix``); the table's number a button to its sheet."""

    table = tables.TemplateColumn(
        template_name="referee/cells/table_button.html",
        verbose_name=_("Table"),
        accessor="table__number",
        attrs=NUMBER,
    )
    players = tables.TemplateColumn(
        template_name="referee/cells/players.html",
        verbose_name=_("Players"),
        accessor="table__number",
        orderable=False,
    )
    referee = tables.TemplateColumn(
        template_name="referee/cells/referee.html",
        verbose_name=_("Referee"),
        accessor="table__number",
        order_by=("table__referee__username", "table__number"),
        attrs=cells(class_="referee"),
    )
    hands = tables.TemplateColumn(
        template_name="referee/cells/hands.html",
        verbose_name=_("Hands"),
        accessor="entered",
        order_by=("entered", "table__number"),
        attrs=NUMBER,
    )
    confirmed = tables.TemplateColumn(
        template_name="referee/cells/confirmed.html",
        verbose_name="",
        accessor="table__number",
        order_by=("table__confirmed_at", "table__number"),
    )

    class Meta:
        attrs = {"th": HEADING}

    def __init__(self, rows, *, with_referee: bool, **kwargs):
        super().__init__(rows, exclude=() if with_referee else ("referee",), **kwargs)


class TableRefereesTable(SessionTablesTable):
    """The organisers' page that gives tables their referees: one session, each row found
    by its table's number."""

    table = tables.TemplateColumn(
        template_name="referee/cells/table_link.html",
        verbose_name=_("Table"),
        accessor="table__number",
        attrs=NUMBER,
    )

    class Meta(SessionTablesTable.Meta):
        row_attrs = {"id": lambda record: f"table-{record.table.number}"}

    def __init__(self, rows, **kwargs):
        super().__init__(rows, with_referee=True, **kwargs)
