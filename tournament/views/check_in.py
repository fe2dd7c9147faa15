"""The organiser's check-in: the timetable, the desk (check-in opened and closed, players
ticked), and the seats of players who did not come, given to substitutes on confirmation."""

from django.contrib import messages
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament import services
from tournament.forms.check_in import AbsentSeatsForm, TimetableForm
from tournament.forms.service_errors import form_saved
from tournament.selectors import check_in as check_in_reads
from tournament.tables import paginate
from tournament.tables.check_in import CheckInTable
from tournament.views.common import (
    FORM,
    POST,
    READ,
    action_told,
    get_player,
    get_session,
    page,
    tournament_page,
)


def _desk(slug: str, number: int, query: str = "") -> str:
    url = reverse("check_in_desk", args=[slug]) + f"?session={number}"
    return url + (f"&q={query}" if query else "")


@tournament_page("organiser", FORM)
def timetable(request, tournament):
    """When each session starts, as the players' pages say it."""
    form = TimetableForm(request.POST or None, timetable=check_in_reads.timetable(tournament))

    def save():
        return services.session_times_set(tournament=tournament, starts=form.starts())

    if form_saved(request, form, save):
        messages.success(request, _("Timetable saved."))
        return redirect("check_in_desk", tournament.slug)
    return page(request, "check_in/timetable.html", tournament, form=form)


@tournament_page("organiser", READ)
def check_in_desk(request, tournament):
    """One session's check-in: open or close it, who has checked in and who has not, a tick
    for each player, sorted as asked, by pages of 100; with ``?q=`` the players a name, team
    or number finds, with ``?absent=1`` only those expected who have not checked in."""
    try:
        asked = int(request.GET.get("session", ""))
    except ValueError:
        asked = None
    number = check_in_reads.desk_session_number(tournament, asked)
    sheet = check_in_reads.check_in_sheet(tournament, number)
    query = request.GET.get("q", "").strip()
    only_absent = request.GET.get("absent") == "1"
    rows = check_in_reads.desk_rows(sheet, query, only_absent=only_absent)
    table = paginate(request, CheckInTable(rows, sheet=sheet, slug=tournament.slug, query=query))
    return page(
        request,
        "check_in/desk.html",
        tournament,
        sheet=sheet,
        table=table,
        query=query,
        only_absent=only_absent,
        sessions=range(1, tournament.session_count + 1),
        timetable=check_in_reads.timetable(tournament),
        absent_seat_count=len(check_in_reads.absent_seats(sheet.session).seats)
        if sheet.session
        else 0,
    )


@tournament_page("organiser", POST)
def check_in_open(request, tournament, number):
    action_told(
        request,
        lambda: services.check_in_open(tournament=tournament, number=number),
        _("The check-in of session %(n)s is open: players check in with their links.")
        % {"n": number},
    )
    return redirect(_desk(tournament.slug, number))


@tournament_page("organiser", POST)
def check_in_close(request, tournament, number):
    action_told(
        request,
        lambda: services.check_in_close(tournament=tournament, number=number),
        _("The check-in of session %(n)s is closed; the desk can still tick late arrivals.")
        % {"n": number},
    )
    return redirect(_desk(tournament.slug, number))


@tournament_page("organiser", POST)
def check_in_tick(request, tournament, number, player):
    """The desk ticks a player present (``action=undo`` takes a tick back)."""
    found = get_player(tournament, player)
    if request.POST.get("action") == "undo":
        action_told(
            request,
            lambda: services.player_check_in_undo(player=found, number=number),
            _("%(player)s is no longer checked in.") % {"player": found},
        )
    else:
        action_told(
            request,
            lambda: services.player_check_in(player=found, number=number, ticked_by=request.user),
            _("%(player)s is checked in for session %(n)s.") % {"player": found, "n": number},
        )
    return redirect(_desk(tournament.slug, number, request.POST.get("q", "").strip()))


@tournament_page("organiser", FORM)
def absent_seats(request, tournament, number):
    """The seats of a drawn session held by players who have not checked in: choose who takes
    each and whether its player is withdrawn; nothing changes until *Confirm*."""
    session = get_session(tournament, number)
    absent = check_in_reads.absent_seats(session)
    form = AbsentSeatsForm(request.POST or None, absent=absent)
    if saved := form_saved(
        request, form, lambda: services.absent_seats_give(session=session, choices=form.choices())
    ):
        given = saved.result
        if given:
            messages.success(
                request,
                ngettext(
                    "%(count)s seat given to a substitute.",
                    "%(count)s seats given to substitutes.",
                    given,
                )
                % {"count": given},
            )
        withdrawn = sum(1 for choice in form.choices() if choice.withdraw)
        if withdrawn:
            messages.success(
                request,
                ngettext(
                    "%(count)s player withdrawn from the sessions still to come.",
                    "%(count)s players withdrawn from the sessions still to come.",
                    withdrawn,
                )
                % {"count": withdrawn},
            )
        return redirect("seating", tournament.slug, session.number)
    return page(
        request, "check_in/absent_seats.html", tournament, session=session, absent=absent, form=form
    )
