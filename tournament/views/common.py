"""What the views share: the tournament with the visitor's role, and one object in it (404
when there is none); a tournament's page drawn, a service's action told; who may open a
table's pages, by account or by table device link, and the pages a signed token opens."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import wraps
from typing import TYPE_CHECKING

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from tournament.hall import device_links
from tournament.permissions import can_enter_at_table, is_organiser, is_referee
from tournament.selectors.lookups import (
    player_by_number,
    player_of,
    session_by_number,
    session_of,
    table_by_number,
    tournament_by_slug,
)

if TYPE_CHECKING:
    from tournament.models import Player, Session, Table, Tournament


def found_or_404(found):
    """``found``, or a 404 when it is None."""
    if found is None:
        raise Http404
    return found


def in_event_time(tournament: Tournament) -> Tournament:
    """Give every time of this request on the tournament's clock: the page, the form read
    (a time typed is the tournament's wall clock), the e-mails and files it makes.
    ``EventTimeMiddleware`` sets the site's zone back after the request."""
    timezone.activate(tournament.zone)
    return tournament


def get_tournament(request, slug, *, role: str | None = None) -> Tournament:
    """The tournament, or 404; with ``role`` "organiser" or "referee", 403 for others. Its
    time zone is the request's from then on (``in_event_time``).

    Views needing a role are also wrapped in ``login_required``, so an anonymous
    visitor is sent to the login page before reaching this check.
    """
    tournament = in_event_time(found_or_404(tournament_by_slug(slug)))
    if role == "organiser" and not is_organiser(request.user, tournament):
        raise PermissionDenied
    if role == "referee" and not is_referee(request.user, tournament):
        raise PermissionDenied
    return tournament


# The methods a page answers (others get 405): reads, forms (shown, then posted), actions.
READ = ["GET", "HEAD"]
FORM = ["GET", "HEAD", "POST"]
POST = ["POST"]


def tournament_page(role: str, methods: list[str]):
    """A page of one tournament for its organisers or referees: login required, then only
    ``methods``, then the tournament (404; 403 for others than ``role``) given to the view
    in place of its slug."""

    def decorate(view):
        @wraps(view)
        def checked(request, slug, **kwargs):
            return view(request, get_tournament(request, slug, role=role), **kwargs)

        return login_required(require_http_methods(methods)(checked))

    return decorate


def page(request, template: str, tournament, *, http_status: int = 200, **context):
    """A tournament's page: ``template`` drawn with the tournament, the visitor's roles and
    ``context``, answered with ``http_status``."""
    context = {**roles(request, tournament), "tournament": tournament, **context}
    return render(request, template, context, status=http_status)


def refusal_told(request, refused: ValidationError) -> None:
    """A service's refusal of an action with no form to show it beside: each message."""
    for message in refused.messages:
        messages.error(request, message)


def action_told(request, action: Callable[[], object], done: str) -> bool:
    """Run a service's ``action`` that has no form: ``done`` said when it is taken, its
    refusal's messages (``refusal_told``) when not; whether it was taken."""
    try:
        action()
    except ValidationError as refused:
        refusal_told(request, refused)
        return False
    messages.success(request, done)
    return True


def get_session(tournament, number) -> Session:
    return found_or_404(session_by_number(tournament, number))


def get_player(tournament, number) -> Player:
    return found_or_404(player_by_number(tournament, number))


def get_session_of(slug, number) -> Session:
    """Session ``number`` of tournament ``slug`` (404), holding its tournament as read with
    its versions (``tournament_by_slug`` reads them the same way), in its time zone."""
    session = found_or_404(session_of(slug, number))
    in_event_time(session.tournament)
    return session


def get_player_of(slug, number) -> Player:
    """Player ``number`` of tournament ``slug`` (404), holding its tournament likewise, in
    its time zone."""
    player = found_or_404(player_of(slug, number))
    in_event_time(player.tournament)
    return player


def get_table(tournament, number, table) -> Table:
    return found_or_404(table_by_number(tournament, number, table))


def token_page(find, refused: str):
    """A page opened by the signed token in its address, without an account: the view gets
    what ``find`` gives for the token (and the token), in its tournament's time zone, or the
    visitor the page ``refused`` (403) for a token that is forged, expired or revoked."""

    def decorate(view):
        @wraps(view)
        def checked(request, token):
            found = find(token)
            if found is None:
                return render(request, refused, status=403)
            # A player, a sign-up, or a table (whose session holds the tournament).
            holder = getattr(found, "session", found)
            in_event_time(holder.tournament)
            return view(request, found, token)

        return checked

    return decorate


def table_entry_required(view):
    """``login_required`` for a table's own pages, which a table device link opens too.

    A visitor neither logged in nor signed in at a table goes to the login page; a tablet
    whose link was revoked is told so, at once. ``table_access`` then lets each in or not
    at the table asked for.
    """

    @wraps(view)
    def checked(request, *args, **kwargs):
        # Checked against the links as they are now on every request: revocation is immediate.
        request.device_grant = device_links.current_grant(request)
        if not request.user.is_authenticated and request.device_grant is None:
            if device_links.holds_grant(request):
                return render(request, "devices/refused.html", status=403)
            return redirect_to_login(request.get_full_path())
        return view(request, *args, **kwargs)

    return checked


def _is_granted_table(granted: Table, slug, number, table) -> bool:
    session = granted.session
    return (granted.number, session.number, session.tournament.slug) == (table, number, slug)


def table_access(request, slug, number, table) -> tuple[Tournament, Table]:
    """The tournament and the table whose pages are asked for (views wrapped in
    ``table_entry_required``), or 404; 403 unless the visitor may enter its hands.

    Those who may: its referee and the organisers, logged in, as themselves; and a tablet
    signed in at this table through its device link. ``request.device_link`` tells which:
    the link's id for the tablet (entries record it, not a user), "" for an account.
    """
    request.device_link = ""
    grant = getattr(request, "device_grant", None)
    if grant is None:
        tournament = get_tournament(request, slug, role="referee")
    elif _is_granted_table(grant.table, slug, number, table) and not request.user.is_authenticated:
        # The tablet's own table, as its link loaded it (with session and tournament): the
        # common case of every save and sheet load, without looking the table up again.
        request.device_link = grant.link
        return in_event_time(grant.table.session.tournament), grant.table
    else:
        tournament = in_event_time(found_or_404(tournament_by_slug(slug)))
    found = get_table(tournament, number, table)
    if can_enter_at_table(request.user, found):
        return tournament, found
    if grant is None or grant.table.pk != found.pk:
        raise PermissionDenied
    request.device_link = grant.link
    return tournament, found


def entering_user(request):
    """The account a write at a table is recorded against: None for a table device (after
    ``table_access``), whose entries record the link instead."""
    return None if getattr(request, "device_link", "") else request.user


def roles(request, tournament) -> dict:
    """Template context telling which links the visitor may see."""
    return {
        "is_organiser": is_organiser(request.user, tournament),
        "is_referee": is_referee(request.user, tournament),
    }


def reader_tag(request) -> str:
    """Who a part's ETag is for: the account or the tablet, and its CSRF secret. A part with
    a form carries the reader's token, which another login (in another tab, by another
    account) replaces: an answer "not changed" would leave the old token in the page, and its
    buttons refused."""
    get_token(request)  # the secret this response's forms are signed with
    secret = request.META.get("CSRF_COOKIE", "")
    who = getattr(request, "device_link", "") or str(request.user.pk or "")
    return hashlib.sha256(f"{who}|{secret}".encode()).hexdigest()[:16]
