"""A series' ranking: each person's rank, total and tie-breaks, then their result in each
of the series' tournaments (a column each, in the series' order), those not counted in
brackets. The rows are written by ``tables/series_ranking.html``."""

from django.utils.translation import gettext_lazy as _
from django_tables2 import Column

from tournament.tables import NumberColumn, RowsTable


class SeriesRankingTable(RowsTable):
    rank = NumberColumn(verbose_name=_("Rank"), order_by=("rank", "name"), largest_first=False)
    name = Column(verbose_name=_("Name"))
    country = Column(verbose_name=_("Country"), order_by=("country", "rank"))
    total = NumberColumn(order_by=("rank", "name"), largest_first=False)
    table_points = NumberColumn(
        verbose_name=_("Table points"), order_by=("-table_points", "rank"), largest_first=False
    )
    score = NumberColumn(verbose_name=_("Score"), order_by=("-score", "rank"), largest_first=False)

    caption = _("Ranking")

    class Meta:
        attrs = {"class": "series-ranking"}
        template_name = "tables/series_ranking.html"
        empty_text = _(
            "No result yet: results come as the tournaments are played and their players "
            "linked to people."
        )

    def __init__(self, rows, *, series, tournaments, **kwargs):
        # Under the best results' table points, the total is those table points.
        self.by_table_points = series.rule == "best"
        columns = [
            (
                f"tournament_{index}",
                NumberColumn(verbose_name=f"{index}. {tournament.name}", orderable=False),
            )
            for index, tournament in enumerate(tournaments, start=1)
        ]
        super().__init__(
            rows,
            extra_columns=columns,
            exclude=("table_points",) if self.by_table_points else (),
            **kwargs,
        )
        self.columns["total"].column.verbose_name = (
            _("Table points") if self.by_table_points else _("Points")
        )
