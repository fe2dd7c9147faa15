"""The lookups the views use: the tournament with the visitor's role, and one object in it."""

from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404

from tournament.models import Player, Session, Table, Tournament
from tournament.permissions import is_organiser, is_referee


def get_tournament(request, slug, *, role: str | None = None) -> Tournament:
    """The tournament, or 404; with ``role`` "organiser" or "referee", 403 for others.

    Views needing a role are also wrapped in ``login_required``, so an anonymous
    visitor is sent to the login page before reaching this check.
    """
    tournament = get_object_or_404(Tournament, slug=slug)
    if role == "organiser" and not is_organiser(request.user, tournament):
        raise PermissionDenied
    if role == "referee" and not is_referee(request.user, tournament):
        raise PermissionDenied
    return tournament


def get_session(tournament, number) -> Session:
    return get_object_or_404(Session, tournament=tournament, number=number)


def get_player(tournament, number) -> Player:
    return get_object_or_404(Player, tournament=tournament, number=number)


def get_table(tournament, number, table) -> Table:
    return get_object_or_404(
        Table.objects.select_related("session__tournament"),
        session__tournament=tournament,
        session__number=number,
        number=table,
    )


def roles(request, tournament) -> dict:
    """Template context telling which links the visitor may see."""
    return {
        "is_organiser": is_organiser(request.user, tournament),
        "is_referee": is_referee(request.user, tournament),
    }


def add_service_errors(form, error: ValidationError) -> None:
    """Put a service's ValidationError beside the fields it names, or on top of the form."""
    if hasattr(error, "error_dict"):
        for field, errors in error.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error)
