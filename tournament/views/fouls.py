"""The record of fouls: every penalty and warning of the tournament, with its decision, its
referee and its appeal, for the people who print the paper sheets (the tournament's
referees and organisers); printable on A4 pages turned landscape, the headings on each."""

from django.utils import timezone

from tournament.forms.fouls import FoulFilterForm
from tournament.selectors.fouls import record_of_fouls
from tournament.tables import paginate
from tournament.tables.fouls import FoulsTable
from tournament.views.common import READ, page, tournament_page


@tournament_page("referee", READ)
def record_of_fouls_page(request, tournament):
    """The record, by session (``?session=n``) and player (``?player=n``), sorted and paged
    by the table; a filter refused is said beside its field, with no rows."""
    form = FoulFilterForm(request.GET, tournament=tournament)
    table = None
    if form.is_valid():
        table = paginate(request, FoulsTable(record_of_fouls(tournament, form.foul_filter())))
    return page(
        request,
        "referee/record_of_fouls.html",
        tournament,
        form=form,
        table=table,
        printed_at=timezone.now(),
    )
