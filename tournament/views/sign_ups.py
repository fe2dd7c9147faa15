"""Sign-up: the public form (throttled, no captcha service), a sign-up's own page (its
status, and withdrawing), and the organiser's board (accept, refuse, move on the waiting
list)."""

from django.core.exceptions import NON_FIELD_ERRORS
from django.http import Http404
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from tournament import services
from tournament.forms.service_errors import form_saved
from tournament.forms.sign_ups import SignUpForm
from tournament.players.player_links import sign_up_for_token, sign_up_token
from tournament.selectors.sign_ups import sign_up_board, sign_up_by_id, waiting_place
from tournament.server import form_throttle
from tournament.services.sign_ups import sign_up_closed_reason, sign_up_withdrawable
from tournament.tables import paginate
from tournament.tables.sign_ups import (
    DecidedSignUpsTable,
    PendingSignUpsTable,
    WaitingListTable,
)
from tournament.views.common import (
    POST,
    READ,
    action_told,
    found_or_404,
    get_tournament,
    page,
    token_page,
    tournament_page,
)


@require_http_methods(["GET", "HEAD", "POST"])
def sign_up_form(request, slug):
    """The public sign-up form; a sign-up taken goes to its own page."""
    tournament = get_tournament(request, slug)
    closed = sign_up_closed_reason(tournament)
    form = SignUpForm(request.POST or None)
    status = 200
    if request.method == "POST" and not closed:
        if not form_throttle.allowed(request, "sign_up"):
            form.add_error(
                None,
                _("Too many sign-ups from this connection: try again in %(minutes)s minutes.")
                % {"minutes": form_throttle.window_minutes()},
            )
            status = 429
        elif saved := form_saved(
            request,
            form,
            lambda: services.sign_up(tournament=tournament, **form.sign_up_fields()),
        ):
            return redirect("sign_up_status", sign_up_token(saved.result))
        elif form.has_error(NON_FIELD_ERRORS, "sign_ups_per_hour"):
            # Refused for the tournament's number of sign-ups, not for what was typed. (An
            # e-mail address used too often is said beside its field, as a field's error.)
            status = 429
    return page(
        request, "sign_ups/form.html", tournament, form=form, closed=closed, http_status=status
    )


@never_cache
@require_safe
@token_page(sign_up_for_token, "sign_ups/refused.html")
def sign_up_status(request, found, token):
    """Where a sign-up stands, with its withdrawal before the first draw."""
    return page(
        request,
        "sign_ups/status.html",
        found.tournament,
        sign_up=found,
        token=token,
        place=waiting_place(found),
        can_withdraw=sign_up_withdrawable(found),
    )


@require_POST
@token_page(sign_up_for_token, "sign_ups/refused.html")
def sign_up_withdraw(request, found, token):
    action_told(
        request,
        lambda: services.sign_up_withdraw(sign_up=found),
        _("Your sign-up is withdrawn."),
    )
    return redirect("sign_up_status", token)


@tournament_page("organiser", READ)
def sign_up_list(request, tournament):
    """The sign-ups: those holding a place (to accept or refuse), the waiting list in order
    (to move, accept while a place is free, or refuse), and those decided."""
    board = sign_up_board(tournament)
    return page(
        request,
        "sign_ups/list.html",
        tournament,
        board=board,
        pending=paginate(request, PendingSignUpsTable(board.pending, slug=tournament.slug)),
        waiting=paginate(request, WaitingListTable(board.waiting, slug=tournament.slug)),
        decided=paginate(request, DecidedSignUpsTable(board.decided, slug=tournament.slug)),
        closed=sign_up_closed_reason(tournament),
    )


ACTIONS = {
    "accept": lambda found: services.sign_up_accept(sign_up=found),
    "refuse": lambda found: services.sign_up_refuse(sign_up=found),
    "up": lambda found: services.sign_up_move(sign_up=found, up=True),
    "down": lambda found: services.sign_up_move(sign_up=found, up=False),
}


@tournament_page("organiser", POST)
def sign_up_decide(request, tournament, pk, action):
    if action not in ACTIONS:
        raise Http404
    found = found_or_404(sign_up_by_id(tournament, pk))
    done = {
        "accept": _("%(name)s is accepted."),
        "refuse": _("%(name)s's sign-up is refused."),
        "up": _("%(name)s moved up the waiting list."),
        "down": _("%(name)s moved down the waiting list."),
    }[action]
    action_told(request, lambda: ACTIONS[action](found), done % {"name": found.name})
    return redirect("sign_up_list", tournament.slug)
