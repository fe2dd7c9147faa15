"""A session's tables as the referees' pages list them: the table (its sheet's link), its
players (withdrawn ones marked), its referee (for the organisers), the hands entered and
whether it is confirmed. By table number, or sorted by referee or hands entered. The rows are
written by ``tables/session_tables.html``."""

from django.utils.translation import gettext_lazy as _
from django_tables2 import Column

from tournament.tables import NumberColumn, RowsTable


class SessionTablesTable(RowsTable):
    """The referees' home: one such table a session in play, each paged and sorted by
    parameters of its own (``prefix``); the table's number a button to its sheet."""

    table = NumberColumn(verbose_name=_("Table"), accessor="table__number", largest_first=False)
    players = Column(verbose_name=_("Players"), orderable=False)
    # The tables without a referee last, whichever way.
    referee = Column(
        verbose_name=_("Referee"), order_by=("table__referee__username", "table__number")
    )
    hands = NumberColumn(
        verbose_name=_("Hands"), order_by=("entered", "table__number"), largest_first=False
    )
    confirmed = Column(
        verbose_name=_("Confirmed"), order_by=("table__confirmed_at", "table__number")
    )

    # A button to the sheet, the referees' way in (TableRefereesTable: a link).
    as_buttons = True

    caption = _("Tables")

    class Meta:
        template_name = "tables/session_tables.html"

    def __init__(self, rows, *, with_referee: bool, **kwargs):
        super().__init__(rows, exclude=() if with_referee else ("referee",), **kwargs)
        self.with_referee = with_referee


class TableRefereesTable(SessionTablesTable):
    """The organisers' page that gives tables their referees: one session, each row found
    by its table's number."""

    as_buttons = False

    class Meta(SessionTablesTable.Meta):
        pass

    def __init__(self, rows, **kwargs):
        super().__init__(rows, with_referee=True, **kwargs)
