"""A series' ranking: each person's rank, total and tie-breaks, then their result in each
of the series' tournaments (a column each, in the series' order), those not counted in
brackets."""

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from tournament.tables.columns import HEADING, NUMBER


def _result_class(index: int):
    """The class of the cells of the series' tournament ``index`` (from 0): a result the
    rule does not count is greyed."""

    def cell_class(record) -> str:
        result = record.cells[index]
        return "num not-counted" if result and not result.counted else "num"

    return cell_class


class SeriesRankingTable(tables.Table):
    rank = tables.Column(verbose_name=_("Rank"), attrs=NUMBER, order_by=("rank", "name"))
    name = tables.TemplateColumn(template_name="series/cells/name.html", verbose_name=_("Name"))
    country = tables.Column(verbose_name=_("Country"), order_by=("country", "rank"))
    total = tables.TemplateColumn(
        template_name="series/cells/total.html", attrs=NUMBER, order_by=("rank", "name")
    )
    table_points = tables.TemplateColumn(
        template_name="people/cells/exact.html",
        verbose_name=_("Table points"),
        attrs=NUMBER,
        order_by=("-table_points", "rank"),
    )
    score = tables.Column(verbose_name=_("Score"), attrs=NUMBER, order_by=("-score", "rank"))

    class Meta:
        attrs = {"class": "series-ranking", "th": HEADING}
        row_attrs = {"id": lambda record: f"person-{record.person_id}"}
        default = ""
        empty_text = _(
            "No result yet: results come as the tournaments are played and their players "
            "linked to people."
        )

    def __init__(self, rows, *, series, tournaments, **kwargs):
        by_table_points = series.rule == "best"
        columns = [
            (
                f"tournament_{index}",
                tables.TemplateColumn(
                    template_name="series/cells/result.html",
                    verbose_name=f"{index}. {tournament.name}",
                    accessor=f"cells__{index - 1}",
                    orderable=False,
                    attrs={
                        "th": {**HEADING, "class": "num"},
                        "td": {"class": _result_class(index - 1)},
                    },
                ),
            )
            for index, tournament in enumerate(tournaments, start=1)
        ]
        super().__init__(
            rows,
            extra_columns=columns,
            # Under the best results' table points, the total is those table points.
            exclude=("table_points",) if by_table_points else (),
            **kwargs,
        )
        self.columns["total"].column.verbose_name = (
            _("Table points") if by_table_points else _("Points")
        )
