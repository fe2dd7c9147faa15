"""Public standings: the sortable page and the Excel workbook. Anyone may read them."""

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe
from django_tables2 import RequestConfig

from tournament import exports, selectors
from tournament.standings_tables import StandingsTable, TeamStandingsTable
from tournament.views.common import get_tournament, roles

XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@require_safe
def standings_page(request, slug):
    tournament = get_tournament(request, slug)
    rows = selectors.standings(tournament)
    config = RequestConfig(request, paginate=False)
    table = StandingsTable(rows)
    config.configure(table)
    team_table = None
    if exports.has_teams(rows):
        team_table = TeamStandingsTable(selectors.team_standings(rows))
        config.configure(team_table)
    return render(
        request,
        "standings/standings.html",
        {
            "tournament": tournament,
            "table": table,
            "team_table": team_table,
            "unconfirmed_tables": selectors.unconfirmed_table_count(tournament),
            **roles(request, tournament),
        },
    )


@require_safe
def standings_xlsx(request, slug):
    tournament = get_tournament(request, slug)
    response = HttpResponse(
        exports.standings_xlsx_bytes(tournament), content_type=XLSX_CONTENT_TYPE
    )
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-standings.xlsx"'
    return response
