"""The organisers' activity log: every change to the tournament's data, newest first."""

from tournament.forms.activity import ActivityFilterForm
from tournament.selectors import activity
from tournament.tables import paginate
from tournament.tables.activity import ActivityTable
from tournament.views.common import READ, page, tournament_page


@tournament_page("organiser", READ)
def activity_log(request, tournament):
    """Organisers only: who changed what and when, filtered by session, table or player, by
    pages of 100."""
    form = ActivityFilterForm(request.GET)
    table = None
    if form.is_valid():
        log = activity.ActivityLog(tournament, form.activity_filter())
        table = paginate(request, ActivityTable(log))
    return page(request, "tournaments/activity.html", tournament, form=form, table=table)
