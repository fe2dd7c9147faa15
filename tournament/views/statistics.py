"""The tournament's statistics page: biggest hands, most frequent fans, wins by seat wind,
the sessions' figures and the referees' desk's. Anyone may read it; the figures are cached
under the tournament's version (``tournament_figures``); the desk's are read each time
(``desk_figures``: two small queries)."""

from django.views.decorators.http import require_safe

from tournament.selectors.statistics import desk_figures, tournament_figures
from tournament.views.common import get_tournament, page


@require_safe
def statistics_page(request, slug):
    tournament = get_tournament(request, slug)
    return page(
        request,
        "statistics/tournament.html",
        tournament,
        figures=tournament_figures(tournament),
        desk=desk_figures(tournament),
    )
