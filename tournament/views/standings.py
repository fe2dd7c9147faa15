"""Public standings: the sortable page, the Excel workbook and the results for the EMA.
Anyone may read them.

The page's tables (``tables.standings``) are drawn for each reader; the spectators (nobody
signed in) are served the whole page kept in the shared cache under the tournament's data
version and its count of stored downloads, the sort, page and search asked for and the
language (``shared_pages``), until a hand or any other write raises the version, or a
download's file is stored. A search (``q``) lists the players it finds,
each with their rank in the whole standings.

The files are built once per data version by the task queue and served from the stored
copy (``downloads``); the pages that link them say when the download gives the previous
version's file while a newer one is prepared.
"""

from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from tournament.selectors.ema import ema_report
from tournament.selectors.exports import export_version, exports_behind
from tournament.selectors.lookups import versions
from tournament.selectors.rules import last_rule_change
from tournament.selectors.standings import standings_found, tournament_standings
from tournament.selectors.withdrawals import unconfirmed_table_count
from tournament.tables import page_value, paginate, sort_value
from tournament.tables.standings import StandingsTable, TeamStandingsTable
from tournament.views.common import READ, get_tournament, page, roles, tournament_page
from tournament.views.downloads import export_download
from tournament.views.shared_pages import page_key, page_path, page_query, shared_page

# The longest search kept: a name is shorter, and a page is kept for each search asked.
SEARCH_LENGTH = 60


def search_value(asked: str) -> str | None:
    """A search as the page reads it: spaces trimmed, at most ``SEARCH_LENGTH`` characters;
    None for none."""
    return asked.strip()[:SEARCH_LENGTH] or None


# What the page reads of its query: the search, each table's sort and page.
STANDINGS_PARAMETERS = {
    "q": search_value,
    "sort": sort_value(StandingsTable),
    "page": page_value,
    "team-sort": sort_value(TeamStandingsTable),
    "team-page": page_value,
}


def standings_tables(request, tournament, query) -> dict:
    """The players' table (the players the search finds), the teams' table (None without
    teams), sorted and paged as ``query`` asks: the standings under the versions read with
    the tournament."""
    rows = tournament_standings(tournament, as_read=True)
    search = query.get("q", "")
    players = StandingsTable.of(standings_found(rows, search), tournament)
    if search:
        players.empty_text = _("No player matches “%(query)s”.") % {"query": search}
    teams = TeamStandingsTable(rows.teams()) if rows.has_teams else None
    return {
        "standings_table": paginate(request, players, query),
        "team_standings_table": teams and paginate(request, teams, query),
    }


@require_safe
def standings_page(request, slug):
    # The versions, read with the tournament before the standings: what is kept under them
    # is never older.
    tournament = get_tournament(request, slug)
    found = versions(tournament, as_read=True)
    query = page_query(request.GET, STANDINGS_PARAMETERS)

    def context() -> dict:
        return {
            "page_path": page_path(request, query),
            "tournament": tournament,
            "search": query.get("q", ""),
            "sort": query.get("sort", ""),
            **standings_tables(request, tournament, query),
            "unconfirmed_tables": unconfirmed_table_count(tournament),
            # A change of the rules after play started settled every result again: said.
            "rule_change": last_rule_change(tournament),
            # Which downloads give an older version's file while a newer one is prepared:
            # the page says so beside their links.
            "downloads_behind": exports_behind(
                tournament,
                export_version(tournament, as_read=True),
                {"standings.xlsx": get_language(), "ema.xlsx": ""},
            ),
            **roles(request, tournament),
        }

    # The page shows the tournament's name and link besides the data under its versions (a
    # change of them through the services raises them too; not one in the admin), and which
    # downloads are behind: a file stored raises the tournament's count of them
    # (``TournamentVersion.exports``), read with the versions.
    shown = (
        tournament.pk,
        found,
        found and tournament.version.exports,
        tournament.name,
        tournament.slug,
    )
    key = page_key("standings-page", shown, query)
    return shared_page(request, key, "standings/standings.html", context)


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


@tournament_page("organiser", READ)
def ema_results(request, tournament):
    """*Results for the EMA*: the EMA's checks, each passed or failed with what fails it, the
    tournament's ranking weight factor by factor, and the downloads."""
    behind = exports_behind(tournament, export_version(tournament), {"ema.xlsx": "", "ema.csv": ""})
    return page(
        request,
        "standings/ema.html",
        tournament,
        report=ema_report(tournament),
        downloads_behind=behind,
    )


@require_safe
def ema_xlsx(request, slug):
    """The results for the EMA (``ema.ema_rows``): public, as the standings are."""
    return _tournament_download(request, slug, "ema.xlsx")
