"""The organiser's list of players: one row a player, withdrawn ones included and marked,
sorted by number, name (as a reader says it: pinyin for Chinese characters), team, country
or status; the row's actions (edit, withdraw or reinstate) as small forms.

The rows are written by ``tables/players.html``, cell by cell from the player, as the
standings' are: *All* prints a thousand rows of thirteen cells."""

from django.utils.translation import gettext_lazy as _
from django_tables2 import Column

from tournament.tables import NumberColumn, RowsTable


class PlayersTable(RowsTable):
    number = NumberColumn(verbose_name=_("No."), largest_first=False)
    # ``name_order``: the selector's key (players_found), pinyin for Chinese characters.
    name = Column(verbose_name=_("Name"), order_by=("name_order", "number"))
    first_name = Column(verbose_name=_("First name"), orderable=False)
    last_name = Column(verbose_name=_("Last name"), orderable=False)
    name_zh = Column(verbose_name=_("Chinese name"), orderable=False)
    team = Column(verbose_name=_("Team or club"), order_by=("team", "number"))
    country = Column(verbose_name=_("Country"), order_by=("country", "number"))
    ema_number = NumberColumn(verbose_name=_("EMA number"), orderable=False)
    is_substitute = Column(verbose_name=_("Substitute"), orderable=False)
    email = Column(verbose_name=_("E-mail"), orderable=False)
    ema_guest = Column(verbose_name=_("EMA guest"), orderable=False)
    # The active first.
    status = Column(verbose_name=_("Status"), order_by=("-is_active", "number"))
    actions = Column(verbose_name=_("Actions"), orderable=False)

    caption = _("Players")

    class Meta:
        attrs = {"class": "players"}
        template_name = "tables/players.html"
        empty_text = _("No player found.")
