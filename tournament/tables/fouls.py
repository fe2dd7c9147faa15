"""The record of fouls: the selector's rows (``selectors.fouls.Foul``) in the columns of the
rules' appendix, sorted by any of them (by their number, the order they happened, unless
asked), by pages of 100 and all at once to print. The rows are written by
``tables/fouls.html``."""

from django.utils.translation import gettext_lazy as _
from django_tables2 import Column

from tournament.tables import NumberColumn, RowsTable


class FoulsTable(RowsTable):
    number = NumberColumn(verbose_name=_("No."), largest_first=False)
    session = NumberColumn(verbose_name=_("Session"), order_by=("session", "time"))
    table = NumberColumn(verbose_name=_("Table"), order_by=("table", "session", "time"))
    hand = NumberColumn(verbose_name=_("Hand"), order_by=("session", "table", "hand", "time"))
    time = Column(verbose_name=_("Time"))
    player = Column(verbose_name=_("Player"), order_by=("player_number", "time"))
    offence = Column(verbose_name=_("Offence"), order_by=("offence", "time"))
    penalty = Column(verbose_name=_("Penalty"), order_by=("penalty_points", "time"))
    decision = Column(verbose_name=_("Decision"), orderable=False)
    referee = Column(verbose_name=_("Referee"), order_by=("referee", "time"))
    appeal = Column(verbose_name=_("Appeal"), order_by=("appeal", "time"))

    caption = _("Record of fouls")

    class Meta:
        attrs = {"class": "fouls", "id": "record-of-fouls"}
        template_name = "tables/fouls.html"
        empty_text = _("No foul on record.")
