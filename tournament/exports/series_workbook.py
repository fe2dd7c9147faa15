"""A series' workbook: the ranking, each person's result in every tournament marked counted or
not, and the same results one per row (to sort and filter), in the reader's language."""

from collections.abc import Iterator

from django.utils.translation import gettext as _

from tournament.exports.spreadsheet import Sheet, Title
from tournament.exports.workbook import ExactPoints, workbook_bytes
from tournament.selectors.series import SeriesStanding, series_standing


def _total_heading(series) -> str:
    return _("Table points") if series.rule == "best" else _("Points")


def _exact(value):
    """A total: table points exact, points by place as they are (whole numbers)."""
    return value if isinstance(value, int) else ExactPoints(value)


def ranking_rows(series, standing: SeriesStanding) -> Iterator[list]:
    """Rank, person, total; then per tournament its rank, table points (or points) and
    whether it counted."""
    header = [_("Rank"), _("Name"), _("Chinese name"), _("Country"), _total_heading(series)]
    if series.rule != "best":
        header.append(_("Table points"))
    header += [_("Score"), _("Results counted")]
    for tournament in standing.tournaments:
        header += [
            f"{tournament.name}: {_('rank')}",
            f"{tournament.name}: {_total_heading(series).lower()}",
            f"{tournament.name}: {_('counted')}",
        ]
    yield header
    for row in standing.rows:
        values = [row.rank, row.name, row.name_zh, row.country, _exact(row.total)]
        if series.rule != "best":
            values.append(ExactPoints(row.table_points))
        values += [row.score, row.counted]
        for cell in row.cells:
            if cell is None:
                values += [None, None, None]
                continue
            earned = ExactPoints(cell.table_points) if series.rule == "best" else cell.place_points
            values += [cell.rank, earned, _("yes") if cell.counted else _("no")]
        yield values


def result_rows(standing: SeriesStanding) -> Iterator[list]:
    yield [
        _("Name"),
        _("Tournament"),
        _("Player number"),
        _("Rank"),
        _("Table points"),
        _("Score"),
        _("Points by place"),
        _("Counted"),
    ]
    for row in standing.rows:
        for tournament, cell in zip(standing.tournaments, row.cells, strict=True):
            if cell is None:
                continue
            yield [
                row.display_name,
                tournament.name,
                cell.player_number,
                cell.rank,
                ExactPoints(cell.table_points),
                cell.score,
                cell.place_points,
                _("yes") if cell.counted else _("no"),
            ]


def series_xlsx_bytes(series) -> bytes:
    """The workbook, in the active language."""
    standing = series_standing(series)
    return workbook_bytes(
        [
            Sheet(_("Ranking"), ranking_rows(series, standing), above=[[Title(series.name)], []]),
            Sheet(_("Results"), result_rows(standing)),
        ]
    )
