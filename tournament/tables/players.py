"""The organiser's list of players: one row a player, withdrawn ones included and marked,
sorted by number, name (as a reader says it: pinyin for Chinese characters), team, country
or status; the row's actions (edit, withdraw or reinstate) as small forms."""

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from tournament.tables.columns import HEADING, NUMBER, cells


def _yes(value) -> str:
    # A flag shown only when set, as the player's form says it.
    return _("yes") if value else ""


class PlayersTable(tables.Table):
    number = tables.Column(verbose_name=_("No."), attrs=NUMBER)
    # ``name_order``: the selector's key (players_found), pinyin for Chinese characters.
    name = tables.Column(verbose_name=_("Name"), order_by=("name_order", "number"))
    first_name = tables.Column(verbose_name=_("First name"), orderable=False)
    last_name = tables.Column(verbose_name=_("Last name"), orderable=False)
    name_zh = tables.Column(
        verbose_name=_("Chinese name"), orderable=False, attrs=cells(lang="zh-Hans")
    )
    team = tables.Column(verbose_name=_("Team or club"), order_by=("team", "number"))
    country = tables.TemplateColumn(
        template_name="players/cells/country.html",
        verbose_name=_("Country"),
        order_by=("country", "number"),
    )
    ema_number = tables.Column(verbose_name=_("EMA number"), orderable=False, attrs=NUMBER)
    is_substitute = tables.Column(verbose_name=_("Substitute"), orderable=False)
    email = tables.Column(verbose_name=_("E-mail"), orderable=False, attrs=cells(class_="hash"))
    ema_guest = tables.Column(verbose_name=_("EMA guest"), orderable=False)
    status = tables.TemplateColumn(
        template_name="players/cells/status.html",
        verbose_name=_("Status"),
        accessor="is_active",
        order_by=("-is_active", "number"),
    )
    actions = tables.TemplateColumn(
        template_name="players/cells/actions.html",
        verbose_name=_("Actions"),
        orderable=False,
        attrs=cells(class_="row-actions"),
    )

    class Meta:
        attrs = {"class": "players", "th": HEADING}
        row_attrs = {"class": lambda record: None if record.is_active else "withdrawn"}
        # An empty value shows as an empty cell, as on the player's form.
        default = ""
        empty_text = _("No player found.")

    def render_is_substitute(self, value):
        return _yes(value)

    def render_ema_guest(self, value):
        return _yes(value)
