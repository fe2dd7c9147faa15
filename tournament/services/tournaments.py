"""Creating a tournament and changing its settings."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournament.models import DEFAULT_SEATING_METHOD, DEFAULT_TIEBREAK_ORDER, Tournament


@transaction.atomic
def tournament_create(
    *,
    name: str,
    slug: str,
    session_count: int,
    session_minutes: int,
    tiebreak_order: str = DEFAULT_TIEBREAK_ORDER,
    seating_method: str = DEFAULT_SEATING_METHOD,
    separate_by: str = "",
    creator=None,
    referees=(),
) -> Tournament:
    tournament = Tournament(
        name=name,
        slug=slug,
        session_count=session_count,
        session_minutes=session_minutes,
        tiebreak_order=tiebreak_order,
        seating_method=seating_method,
        separate_by=separate_by,
    )
    tournament.full_clean()
    tournament.save()
    if creator is not None:
        tournament.organisers.add(creator)
    tournament.referees.set(referees)
    return tournament


@transaction.atomic
def tournament_update(
    *, tournament: Tournament, referees=None, organisers=None, **fields
) -> Tournament:
    """Change the settings; ``referees`` and ``organisers``, when given, replace the accounts.

    A tournament keeps at least one organiser: nobody else could change it.
    """
    if organisers is not None and not list(organisers):
        raise ValidationError(
            {
                "organisers": ValidationError(
                    _("A tournament needs at least one organiser."), code="organiser_required"
                )
            }
        )
    drawn = tournament.sessions.order_by("-number").values_list("number", flat=True).first()
    if drawn and fields.get("session_count", tournament.session_count) < drawn:
        raise ValidationError(
            {
                "session_count": ValidationError(
                    _(
                        "Session %(n)s is already drawn: "
                        "the tournament needs at least %(n)s sessions."
                    )
                    % {"n": drawn},
                    code="sessions_already_drawn",
                )
            }
        )
    for key, value in fields.items():
        setattr(tournament, key, value)
    tournament.full_clean()
    tournament.save()
    if referees is not None:
        tournament.referees.set(referees)
    if organisers is not None:
        tournament.organisers.set(organisers)
    return tournament


@transaction.atomic
def tournament_delete(*, tournament: Tournament, confirm_slug: str) -> dict[str, int]:
    """Delete the tournament and everything under it, once its short name is typed back.

    Players, sessions, tables, seats, hands, penalties, corrections, reopenings and the
    seating plan go with it; the accounts of its organisers and referees stay. Returns the
    number of rows deleted per model, as ``QuerySet.delete`` counts them.
    """
    # Compared with the stored short name, not the caller's copy: a rename saved meanwhile
    # means the organiser confirmed a name the tournament no longer has.
    tournament = Tournament.objects.get(pk=tournament.pk)
    if confirm_slug != tournament.slug:
        raise ValidationError(
            {
                "confirm_slug": ValidationError(
                    _("Type “%(slug)s” exactly to confirm the deletion.")
                    % {"slug": tournament.slug},
                    code="confirmation_mismatch",
                )
            }
        )
    _total, deleted = tournament.delete()
    return deleted
