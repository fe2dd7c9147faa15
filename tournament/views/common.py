"""The lookups the views use: the tournament with the visitor's role, and one object in it
(404 when there is none)."""

from django.core.exceptions import PermissionDenied
from django.http import Http404

from tournament import selectors
from tournament.models import Player, Session, Table, Tournament
from tournament.permissions import can_enter_at_table, is_organiser, is_referee


def _found(found):
    if found is None:
        raise Http404
    return found


def get_tournament(request, slug, *, role: str | None = None) -> Tournament:
    """The tournament, or 404; with ``role`` "organiser" or "referee", 403 for others.

    Views needing a role are also wrapped in ``login_required``, so an anonymous
    visitor is sent to the login page before reaching this check.
    """
    tournament = _found(selectors.tournament_by_slug(slug))
    if role == "organiser" and not is_organiser(request.user, tournament):
        raise PermissionDenied
    if role == "referee" and not is_referee(request.user, tournament):
        raise PermissionDenied
    return tournament


def get_session(tournament, number) -> Session:
    return _found(selectors.session_by_number(tournament, number))


def get_player(tournament, number) -> Player:
    return _found(selectors.player_by_number(tournament, number))


def get_table(tournament, number, table) -> Table:
    return _found(selectors.table_by_number(tournament, number, table))


def get_table_for_entry(request, tournament, number, table) -> Table:
    """The table, or 404; 403 unless the visitor may enter its hands (its assigned referee,
    or an organiser)."""
    found = get_table(tournament, number, table)
    if not can_enter_at_table(request.user, found):
        raise PermissionDenied
    return found


def roles(request, tournament) -> dict:
    """Template context telling which links the visitor may see."""
    return {
        "is_organiser": is_organiser(request.user, tournament),
        "is_referee": is_referee(request.user, tournament),
    }
