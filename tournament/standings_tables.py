"""Sortable HTML tables of the standings (django-tables2).

The rows are the dataclasses from ``selectors`` (``StandingRow``, ``TeamRow``), kept
as they are: table points stay ``Fraction``s, so sorting compares exact values and
only the cell text is formatted.
"""

import django_tables2 as tables
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _
from django_tables2.data import TableListData
from django_tables2.utils import Accessor, OrderBy

from tournament.formatting import format_table_points


def _is_empty(values: tuple) -> bool:
    return any(v is None or v == "" for v in values)


class _EmptyLastData(TableListData):
    """List data whose empty values (no rank, no session yet) sort last in both directions.

    django-tables2 compares ``None`` with a number by truthiness, which would put the
    unranked substitutes first when sorting by rank; a ranking reads best with them
    at the end whichever way it is sorted.
    """

    def order_by(self, aliases):
        # One stable sort per alias, least significant first, gives the combined order.
        for alias in reversed([OrderBy(a) for a in aliases]):
            column = self.table.columns[alias.bare]
            accessors = column.column.order_by or (column.accessor,)
            keys = [Accessor(OrderBy(a).bare) for a in accessors]

            def key(record, keys=keys):
                return tuple(k.resolve(record, quiet=True) for k in keys)

            present = [r for r in self.data if not _is_empty(key(r))]
            empty = [r for r in self.data if _is_empty(key(r))]
            present.sort(key=key, reverse=alias.is_descending)
            self.data = present + empty


class _ExactTable(tables.Table):
    """A table over a list of rows, sorted in Python with empty values last."""

    def __init__(self, data, *args, **kwargs):
        super().__init__(_EmptyLastData(list(data)), *args, **kwargs)


def _num_attrs():
    return {"td": {"class": "num"}, "th": {"class": "num"}}


class NumberColumn(tables.Column):
    """A right-aligned number; its first click sorts the largest first, as a ranking reads."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("attrs", _num_attrs())
        kwargs.setdefault("initial_sort_descending", True)
        super().__init__(*args, **kwargs)


class TablePointsColumn(NumberColumn):
    """Exact table points; sorting uses the ``Fraction`` itself, not this text."""

    def render(self, value):
        return format_table_points(value)

    def value(self, value):
        return format_table_points(value)


class StandingsTable(_ExactTable):
    rank = tables.Column(verbose_name=_("Rank"), attrs=_num_attrs(), default="")
    number = tables.Column(verbose_name=_("No."), accessor="player__number", attrs=_num_attrs())
    player = tables.Column(
        verbose_name=_("Player"),
        accessor="player__name",
        order_by=("player__name", "player__number"),
    )
    team = tables.Column(verbose_name=_("Team"), accessor="player__team", default="")
    table_points = TablePointsColumn(verbose_name=_("Table points"))
    score = NumberColumn(verbose_name=_("Score"))
    first = NumberColumn(verbose_name=_("1st"), accessor="places__0")
    second = NumberColumn(verbose_name=_("2nd"), accessor="places__1")
    third = NumberColumn(verbose_name=_("3rd"), accessor="places__2")
    fourth = NumberColumn(verbose_name=_("4th"), accessor="places__3")
    sessions_played = NumberColumn(verbose_name=_("Sessions"))
    best_session = NumberColumn(verbose_name=_("Best session"))

    class Meta:
        attrs = {"class": "standings"}
        empty_text = _("No players registered yet.")
        row_attrs = {"class": lambda record: "" if record.ranked else "substitute"}

    def render_player(self, record):
        player = record.player
        badges = []
        if player.is_substitute:
            badges.append(("", _("substitute")))
        if player.withdrawn_at is not None:
            badges.append((" warn", _("withdrawn")))
        chinese = (
            format_html(' <span lang="zh-Hans">{}</span>', player.name_zh) if player.name_zh else ""
        )
        return format_html(
            "{}{}{}",
            player.name,
            chinese,
            format_html_join("", ' <span class="badge{}">{}</span>', badges),
        )

    def value_player(self, record):
        player = record.player
        return f"{player.name} {player.name_zh}".strip()


class TeamStandingsTable(_ExactTable):
    rank = tables.Column(verbose_name=_("Rank"), attrs=_num_attrs())
    team = tables.Column(verbose_name=_("Team"))
    members = tables.Column(verbose_name=_("Members"), orderable=False)
    table_points = TablePointsColumn(verbose_name=_("Table points"))
    score = NumberColumn(verbose_name=_("Score"))

    class Meta:
        attrs = {"class": "team-standings"}
        # Its own sort parameter, so sorting one table on the page leaves the other alone.
        prefix = "team-"
        empty_text = _("No teams.")

    def render_members(self, value):
        return ", ".join(value)
