"""The organisers' activity log: every change to the tournament's data, newest first."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.views.decorators.http import require_safe

from tournament.forms.activity import ActivityFilterForm
from tournament.selectors import activity
from tournament.tables import paginate
from tournament.tables.activity import ActivityTable
from tournament.views.common import get_tournament, roles


@login_required
@require_safe
def activity_log(request, slug):
    """Organisers only: who changed what and when, filtered by session, table or player, by
    pages of 100."""
    tournament = get_tournament(request, slug, role="organiser")
    form = ActivityFilterForm(request.GET)
    table = None
    if form.is_valid():
        log = activity.tournament_activity(tournament, form.activity_filter())
        table = paginate(request, ActivityTable(log))
    context = roles(request, tournament)
    context.update(tournament=tournament, form=form, table=table)
    return render(request, "tournaments/activity.html", context)
