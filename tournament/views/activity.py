"""The organisers' activity log: every change to the tournament's data, newest first."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.utils.http import urlencode
from django.views.decorators.http import require_safe

from tournament.forms.activity import ActivityFilterForm
from tournament.selectors import activity
from tournament.views.common import get_tournament, roles


def _page_query(form: ActivityFilterForm, number: int) -> str:
    """The query string of page ``number`` with the same filters."""
    kept = {
        name: value
        for name, value in form.cleaned_data.items()
        if name != "page" and value is not None
    }
    return "?" + urlencode({**kept, "page": number})


@login_required
@require_safe
def activity_log(request, slug):
    """Organisers only: who changed what and when, filtered by session, table or player."""
    tournament = get_tournament(request, slug, role="organiser")
    form = ActivityFilterForm(request.GET)
    page = previous_query = next_query = None
    if form.is_valid():
        page = activity.tournament_activity(
            tournament, form.activity_filter(), page=form.page_number()
        )
        if page.has_previous:
            previous_query = _page_query(form, page.number - 1)
        if page.has_next:
            next_query = _page_query(form, page.number + 1)
    context = roles(request, tournament)
    context.update(
        tournament=tournament,
        form=form,
        page=page,
        previous_query=previous_query,
        next_query=next_query,
        time_format=activity.TIME_FORMAT,
    )
    return render(request, "tournaments/activity.html", context)
