"""The check-in desk's list: one row a player, by number (or name, or time checked in), each
with its tick (or its undo) as a small form while the session's check-in has been opened.

The rows are written by ``tables/check_in.html``, cell by cell from the desk's row: *All*
is the whole hall at once."""

from django.utils.translation import gettext_lazy as _
from django_tables2 import Column

from tournament.tables import NumberColumn, RowsTable


class CheckInTable(RowsTable):
    number = NumberColumn(verbose_name=_("Number"), accessor="player__number", largest_first=False)
    player = Column(verbose_name=_("Player"), order_by=("name_order", "player__number"))
    # Those not checked in last, whichever way.
    checked_in = Column(verbose_name=_("Checked in"), order_by=("checked_in_at", "player__number"))
    actions = Column(verbose_name=_("Actions"), orderable=False)

    caption = _("Check-in")

    class Meta:
        attrs = {"class": "check-in"}
        template_name = "tables/check_in.html"
        empty_text = _("No player found.")

    def __init__(self, rows, *, sheet, query: str = "", **kwargs):
        super().__init__(rows, **kwargs)
        self.sheet = sheet  # the session's check-in: its number, whether it has been opened
        self.search = query  # kept by a tick, so the desk comes back to the same search
