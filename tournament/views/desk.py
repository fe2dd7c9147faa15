"""The referees' desk (docs/desk.md): the open calls, live; a call taken and resolved by a
ruling; a ruling recorded without a call; the rulings of the sessions in play, their appeals
lodged and decided.

The list of open calls is a part the page's script (desk.js) asks for every 2 s with the
ETag it was last given: the answer is 304 under the desk's version (raised by every call,
ruling and appeal), so a poll while nothing changes reads the tournament, the reader's role
and that version, and nothing else. Polling, not server-sent events: the site runs gunicorn's
sync workers, and an open event stream would hold one worker per desk for as long as it is
open, where a 304 every 2 s from a handful of desks costs next to nothing.
"""

from django.contrib import messages
from django.http import HttpResponseNotModified
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from tournament import services
from tournament.forms.rulings import (
    PENALTY_KINDS,
    AppealDecisionForm,
    AppealForm,
    RulingForm,
    TableChoiceForm,
    offence_penalties,
    penalty_initial,
)
from tournament.forms.service_errors import form_saved
from tournament.permissions import is_organiser
from tournament.selectors import desk as desk_selectors
from tournament.selectors.referees import referee_home
from tournament.views.common import (
    FORM,
    POST,
    READ,
    action_told,
    found_or_404,
    get_table,
    page,
    reader_tag,
    tournament_page,
)

# How often the desk's script asks for the open calls (ms): a new call shows within 3 s.
POLL_MS = 2000


def _calls_etag(request, tournament) -> str:
    """The open calls' ETag: the desk's version, the language, the reader's role and who
    reads with which form token (``reader_tag``): what the part shows depends on nothing
    else."""
    role = "organiser" if is_organiser(request.user, tournament) else "referee"
    version = desk_selectors.desk_version(tournament.pk)
    return f'"desk-{tournament.pk}-{version}-{get_language()}-{role}-{reader_tag(request)}"'


def _calls_context(tournament) -> dict:
    return {"calls": desk_selectors.open_calls(tournament), "now": timezone.now()}


def _in_play(tournament):
    """The sessions in play, each with every table (the desk is every referee's)."""
    return referee_home(tournament).in_play


@tournament_page("referee", READ)
def desk_page(request, tournament):
    """The desk: the open calls (kept up to date by desk.js), the rulings of the sessions in
    play, newest first, the appeals waiting for a decision, a ruling for any table in play."""
    home = referee_home(tournament)
    in_play = home.in_play
    # The sessions in play, and those closed whose rulings may still be appealed: most
    # appeals come once the players have seen their scores.
    now = timezone.now()
    appealable = [
        session
        for session in home.closed
        if desk_selectors.appeal_deadline(session, tournament.appeal_minutes) >= now
    ]
    sessions = sorted(
        [item.session for item in in_play] + appealable, key=lambda s: s.number, reverse=True
    )
    rulings = [
        item
        for session in sessions
        for item in desk_selectors.rulings(tournament, session=session, now=now)
    ]
    etag = _calls_etag(request, tournament)
    return page(
        request,
        "desk/desk.html",
        tournament,
        **_calls_context(tournament),
        etag=etag,
        poll_ms=POLL_MS,
        rulings=rulings,
        penalty_kinds=PENALTY_KINDS,
        appeals=desk_selectors.pending_appeals(tournament),
        table_form=TableChoiceForm(tables=_table_choices(in_play)),
    )


@tournament_page("referee", READ)
def desk_calls(request, tournament):
    """The open calls, as desk.js swaps them in: 304 while the desk's version is the one the
    script holds."""
    etag = _calls_etag(request, tournament)
    if etag in [tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")]:
        answer = HttpResponseNotModified()
    else:
        answer = page(request, "desk/_calls.html", tournament, **_calls_context(tournament))
    answer["ETag"] = etag
    # Kept by no cache on the way, asked again every time (the ETag makes that cheap).
    answer["Cache-Control"] = "private, no-cache"
    answer["Vary"] = "Cookie, Accept-Language"
    return answer


def _desk(tournament):
    return redirect("desk", tournament.slug)


def _call(tournament, pk):
    return found_or_404(desk_selectors.call_of(tournament, pk))


@tournament_page("referee", POST)
def desk_call_take(request, tournament, call):
    """ "I'll take it": the referee goes to the table; its tablet shows their name."""
    found = _call(tournament, call)
    action_told(
        request,
        lambda: services.call_take(call=found, user=request.user),
        _("You have taken the call of table %(table)s.") % {"table": found.table.number},
    )
    return _desk(tournament)


def _ruling_page(request, tournament, *, table, players, form, call=None):
    return page(
        request,
        "desk/ruling.html",
        tournament,
        table=table,
        session=table.session,
        players=players,
        form=form,
        call=call,
        offences=offence_penalties(tournament),
    )


def _ruling_given(request, tournament, form, *, table, call=None):
    saved = form_saved(
        request,
        form,
        lambda: services.ruling_give(table=table, referee=request.user, call=call, **form.ruling()),
    )
    if saved is None:
        return None
    messages.success(
        request,
        _("Ruling recorded for table %(table)s of session %(session)s.")
        % {"table": table.number, "session": table.session.number},
    )
    return _desk(tournament)


@tournament_page("referee", FORM)
def desk_call_resolve(request, tournament, call):
    """Resolve a call with a ruling: the form starts at the call's hand."""
    found = _call(tournament, call)
    players = [seat.player for seat in found.table.seated]
    form = RulingForm(
        request.POST or None, players=players, tournament=tournament, initial={"hand": found.hand}
    )
    done = _ruling_given(request, tournament, form, table=found.table, call=found)
    if done is not None:
        return done
    return _ruling_page(
        request, tournament, table=found.table, players=players, form=form, call=found
    )


def _table_choices(in_play):
    return [
        (
            f"{item.session.number}-{entry.table.number}",
            _("Session %(session)s, table %(table)s")
            % {"session": item.session.number, "table": entry.table.number},
        )
        for item in in_play
        for entry in item.tables
    ]


def _table_asked(tournament, value: str):
    """The table ``?table=<session>-<table>`` names, or None (then chosen first)."""
    session, _dash, number = (value or "").partition("-")
    if not (session.isdigit() and number.isdigit()):
        return None
    return get_table(tournament, int(session), int(number))


@tournament_page("referee", FORM)
def desk_ruling_new(request, tournament):
    """A ruling without a call, for the table ``?table=<session>-<table>`` names (chosen
    first among the tables in play when none is given)."""
    table = _table_asked(tournament, request.GET.get("table", ""))
    if table is None:
        in_play = _in_play(tournament)
        form = TableChoiceForm(tables=_table_choices(in_play))
        return page(request, "desk/choose_table.html", tournament, form=form)
    players = desk_selectors.seated_players(table)
    form = RulingForm(request.POST or None, players=players, tournament=tournament)
    done = _ruling_given(request, tournament, form, table=table)
    if done is not None:
        return done
    return _ruling_page(request, tournament, table=table, players=players, form=form)


def _ruling(tournament, pk):
    return found_or_404(desk_selectors.ruling_of(tournament, pk))


@tournament_page("referee", FORM)
def desk_appeal(request, tournament, ruling):
    """A player appeals a ruling: lodged at the desk, refused once its time is over."""
    found = _ruling(tournament, ruling)
    players = [seat.player for seat in found.table.seated]
    form = AppealForm(request.POST or None, players=players)
    saved = form_saved(
        request,
        form,
        lambda: services.appeal_lodge(ruling=found, user=request.user, **form.appeal()),
    )
    if saved is not None:
        messages.success(request, _("Appeal lodged: the head referee decides it."))
        return _desk(tournament)
    return page(
        request,
        "desk/appeal.html",
        tournament,
        ruling=found,
        penalty_kinds=PENALTY_KINDS,
        form=form,
        deadline=desk_selectors.appeal_deadline(found.table.session, tournament.appeal_minutes),
    )


@tournament_page("organiser", FORM)
def desk_appeal_decide(request, tournament, appeal):
    """The head referee (an organiser) decides an appeal: upheld, or changed to another
    penalty (or none), the hand settled again even at a confirmed table."""
    found = found_or_404(desk_selectors.appeal_of(tournament, appeal))
    ruling = found.ruling
    players = [seat.player for seat in ruling.table.seated]
    form = AppealDecisionForm(
        request.POST or None, players=players, initial=penalty_initial(ruling)
    )
    saved = form_saved(
        request,
        form,
        lambda: services.appeal_decide(appeal=found, user=request.user, **form.decided()),
    )
    if saved is not None:
        messages.success(request, _("Appeal decided."))
        return _desk(tournament)
    return page(
        request,
        "desk/appeal_decide.html",
        tournament,
        appeal=found,
        ruling=ruling,
        penalty_kinds=PENALTY_KINDS,
        form=form,
        offences=offence_penalties(tournament),
    )
