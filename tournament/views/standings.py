"""Public standings: the sortable page, the Excel workbook and the results for the EMA.
Anyone may read them.

The page's tables are cached as HTML under the tournament's data version, the sort asked
for and the language: a visitor reloading the page during a session is served the same
text until a hand or any other write raises the version. The spectators (nobody signed in)
are served the whole page kept likewise (``shared_pages``).

The files are built once per data version by the task queue and served from the stored
copy (``downloads``); the pages that link them say when the download gives the previous
version's file while a newer one is prepared.
"""

from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from tournament.selectors.ema import ema_report
from tournament.selectors.exports import export_version, exports_behind
from tournament.selectors.lookups import STANDINGS_CACHE_SECONDS, versions
from tournament.selectors.standings import tournament_standings
from tournament.selectors.withdrawals import unconfirmed_table_count
from tournament.views.common import get_tournament, roles
from tournament.views.downloads import export_download
from tournament.views.pager import page_value
from tournament.views.shared_pages import page_key, page_path, page_query, shared_page
from tournament.views.standings_tables import StandingsTable, TeamStandingsTable

# What the page reads of its query: each table's sort and page.
STANDINGS_PARAMETERS = {
    StandingsTable.sort_parameter: StandingsTable.sort_value,
    StandingsTable.page_parameter: page_value,
    TeamStandingsTable.sort_parameter: TeamStandingsTable.sort_value,
    TeamStandingsTable.page_parameter: page_value,
}

# Old versions are never asked for again; they only need to leave the cache eventually.
TABLES_CACHE_SECONDS = STANDINGS_CACHE_SECONDS


def tables_cache_key(tournament, found: tuple | None, query) -> str:
    """The key of the page's tables for these versions (``versions``: with the standings'
    stamp, as a restore brings numbers back, not stamps), query and language (the query
    holds both tables' sorts and pages, read by ``page_query``: nothing else of the
    address)."""
    return page_key("standings-tables", (tournament.pk, found), query)


def standings_tables_html(tournament, query) -> dict:
    """The players' table and the teams' table ("" without teams), as HTML, and the count
    of tables not confirmed yet (the standings may still change while there are any)."""
    rows = tournament_standings(tournament)
    teams = ""
    if rows.has_teams:
        teams = TeamStandingsTable(rows.teams(), query).as_html()
    return {
        "players": StandingsTable(rows, query).as_html(),
        "teams": teams,
        "unconfirmed_tables": unconfirmed_table_count(tournament),
    }


@require_safe
def standings_page(request, slug):
    tournament = get_tournament(request, slug)
    # The versions are read before the standings, so what is cached under them is never older.
    found = versions(tournament)
    query = page_query(request.GET, STANDINGS_PARAMETERS)
    key = tables_cache_key(tournament, found, query)

    # Which downloads give an older version's file while a newer one is prepared: the page
    # says so beside their links, and is kept under it.
    behind = exports_behind(
        tournament, export_version(tournament), {"standings.xlsx": get_language(), "ema.xlsx": ""}
    )

    def context() -> dict:
        tables = cache.get(key)
        if tables is None:
            tables = standings_tables_html(tournament, query)
            cache.set(key, tables, TABLES_CACHE_SECONDS)
        return {
            "page_path": page_path(request, query),
            "tournament": tournament,
            "standings_table": tables["players"],
            "team_standings_table": tables["teams"],
            "unconfirmed_tables": tables["unconfirmed_tables"],
            "downloads_behind": behind,
            **roles(request, tournament),
        }

    # The page shows the tournament's name and link besides the data under its versions (a
    # change of them through the services raises them too; not one in the admin).
    shown = (
        tournament.pk,
        found,
        tournament.name,
        tournament.slug,
        sorted(behind),
    )
    page = page_key("standings-page", shown, query)
    return shared_page(request, page, "standings/standings.html", context)


def _tournament_download(request, slug, kind: str):
    tournament = get_tournament(request, slug)
    return export_download(
        request,
        tournament,
        kind=kind,
        filename=f"{tournament.slug}-{kind}",
        context=lambda: {
            "tournament": tournament,
            "back_url": reverse("standings", args=[tournament.slug]),
            "back_label": _("Back to the standings"),
            **roles(request, tournament),
        },
    )


@require_safe
def standings_xlsx(request, slug):
    return _tournament_download(request, slug, "standings.xlsx")


@require_safe
def ema_csv(request, slug):
    """The EMA's results as CSV, the same rows as ``ema.xlsx``'s results: public too."""
    return _tournament_download(request, slug, "ema.csv")


@login_required
@require_safe
def ema_results(request, slug):
    """*Results for the EMA*: the EMA's checks, each passed or failed with what fails it, the
    tournament's ranking weight factor by factor, and the downloads."""
    tournament = get_tournament(request, slug, role="organiser")
    context = roles(request, tournament)
    behind = exports_behind(tournament, export_version(tournament), {"ema.xlsx": "", "ema.csv": ""})
    context.update(tournament=tournament, report=ema_report(tournament), downloads_behind=behind)
    return render(request, "standings/ema.html", context)


@require_safe
def ema_xlsx(request, slug):
    """The results for the EMA (``ema.ema_rows``): public, as the standings are."""
    return _tournament_download(request, slug, "ema.xlsx")
