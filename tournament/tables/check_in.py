"""The check-in desk's list: one row a player, by number (or name, or time checked in), each
with its tick (or its undo) as a small form while the session's check-in has been opened."""

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from tournament.tables.columns import HEADING, NUMBER, cells


class CheckInTable(tables.Table):
    number = tables.Column(verbose_name=_("Number"), accessor="player__number", attrs=NUMBER)
    player = tables.TemplateColumn(
        template_name="check_in/cells/player.html",
        verbose_name=_("Player"),
        order_by=("name_order", "player__number"),
    )
    checked_in = tables.TemplateColumn(
        template_name="check_in/cells/checked_in.html",
        verbose_name=_("Checked in"),
        accessor="checked_in_at",
        order_by=("checked_in_at", "player__number"),
    )
    actions = tables.TemplateColumn(
        template_name="check_in/cells/actions.html",
        verbose_name=_("Actions"),
        accessor="player",
        orderable=False,
        attrs=cells(class_="row-actions"),
    )

    class Meta:
        attrs = {"class": "check-in", "th": HEADING}
        row_attrs = {
            "id": lambda record: f"player-{record.player.number}",
            "class": lambda record, table: (
                "absent"
                if record.expected and not record.checked_in_at and table.sheet.opened
                else None
            ),
        }
        empty_text = _("No player found.")

    def __init__(self, rows, *, sheet, **kwargs):
        super().__init__(rows, **kwargs)
        self.sheet = sheet  # the session's check-in: whether it has been opened
