"""The timetable and the check-in: when each session starts, check-in opened and closed, a
player checked in (with their own link, or ticked at the desk), and the seats of players who
did not come given to substitutes.

A session's timetable row (``ScheduledSession``) exists before the session is drawn: players
check in, and see when their next session starts, before its draw.
"""

from dataclasses import dataclass
from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.models import CheckIn, Player, ScheduledSession, Seat, Session, Tournament
from tournament.selectors.check_in import session_check_ins
from tournament.services.common import fields_saved, refused
from tournament.services.draws import seat_replace
from tournament.services.results import tournament_touch
from tournament.services.withdrawals import player_withdraw


def _scheduled(tournament: Tournament, number: int, *, lock: bool = False) -> ScheduledSession:
    """Session ``number``'s timetable row, made on first use; refused beyond the tournament's
    sessions."""
    if not 1 <= number <= tournament.session_count:
        raise ValidationError(
            _("The tournament has sessions 1 to %(count)s.") % {"count": tournament.session_count},
            code="no_such_session",
        )
    scheduled, _created = ScheduledSession.objects.get_or_create(
        tournament=tournament, number=number
    )
    if lock:
        scheduled = ScheduledSession.objects.select_for_update().get(pk=scheduled.pk)
    return scheduled


def _refuse_if_played(tournament: Tournament, number: int) -> None:
    if Session.objects.filter(
        tournament=tournament, number=number, closed_at__isnull=False
    ).exists():
        raise ValidationError(
            _("Session %(n)s is closed: its check-in is over.") % {"n": number},
            code="session_closed",
        )


@transaction.atomic
def session_times_set(
    *, tournament: Tournament, starts: dict[int, datetime | None]
) -> list[ScheduledSession]:
    """Set when sessions start (None: no time announced), by session number."""
    saved = []
    for number, starts_at in sorted(starts.items()):
        scheduled = _scheduled(tournament, number)
        if scheduled.starts_at != starts_at:
            fields_saved(scheduled, starts_at=starts_at)
        saved.append(scheduled)
    tournament_touch(tournament.pk, seating=False, standings=False)
    return saved


@transaction.atomic
def check_in_open(*, tournament: Tournament, number: int) -> ScheduledSession:
    """Open the check-in of session ``number`` (again, if it was closed): players check in
    with their links. Refused once the session is closed."""
    _refuse_if_played(tournament, number)
    scheduled = _scheduled(tournament, number, lock=True)
    if not scheduled.check_in_is_open:
        fields_saved(
            scheduled,
            check_in_opened_at=scheduled.check_in_opened_at or timezone.now(),
            check_in_closed_at=None,
        )
    tournament_touch(tournament.pk, seating=False, standings=False)
    return scheduled


@transaction.atomic
def check_in_close(*, tournament: Tournament, number: int) -> ScheduledSession:
    """Close the check-in of session ``number``: links no longer check in; the desk still
    ticks a late arrival."""
    scheduled = _scheduled(tournament, number, lock=True)
    if scheduled.check_in_opened_at is None:
        raise ValidationError(
            _("The check-in of session %(n)s was never opened.") % {"n": number},
            code="check_in_not_opened",
        )
    if scheduled.check_in_closed_at is None:
        fields_saved(scheduled, check_in_closed_at=timezone.now())
    tournament_touch(tournament.pk, seating=False, standings=False)
    return scheduled


@transaction.atomic
def player_check_in(*, player: Player, number: int, ticked_by=None) -> CheckIn:
    """Check ``player`` in for session ``number``: by their own link (``ticked_by`` None),
    only while its check-in is open; at the desk (``ticked_by``, an organiser), once it was
    opened, closed or not. Checking in twice (a double tap) keeps the first check-in."""
    tournament = player.tournament
    _refuse_if_played(tournament, number)
    scheduled = _scheduled(tournament, number, lock=True)
    if ticked_by is None and not scheduled.check_in_is_open:
        raise ValidationError(
            _("The check-in of session %(n)s is not open.") % {"n": number},
            code="check_in_not_open",
        )
    if ticked_by is not None and scheduled.check_in_opened_at is None:
        raise ValidationError(
            _("Open the check-in of session %(n)s first.") % {"n": number},
            code="check_in_not_opened",
        )
    if not player.is_active:
        raise ValidationError(
            _("%(player)s has withdrawn from the tournament.") % {"player": player},
            code="player_withdrawn",
        )
    # Two taps at once on another connection: get_or_create reads again the check-in the
    # first one stored when its own insert is refused by the unique constraint; that one stands.
    check_in, created = CheckIn.objects.get_or_create(
        scheduled_session=scheduled, player=player, defaults={"ticked_by": ticked_by}
    )
    if created:
        tournament_touch(tournament.pk, seating=False, standings=False)
    return check_in


@transaction.atomic
def player_check_in_undo(*, player: Player, number: int) -> None:
    """Take back ``player``'s check-in for session ``number`` (ticked by mistake at the
    desk). Refused once the session is closed."""
    _refuse_if_played(player.tournament, number)
    deleted, _by_model = CheckIn.objects.filter(
        scheduled_session__tournament=player.tournament_id,
        scheduled_session__number=number,
        player=player,
    ).delete()
    if deleted:
        tournament_touch(player.tournament_id, seating=False, standings=False)


@dataclass(frozen=True)
class AbsentSeatChoice:
    """What the organiser chose for one seated player who has not checked in: the
    substitute who takes the seat (or None: the seat stays theirs), and whether the player
    is also withdrawn from the sessions still to come."""

    absent: Player
    substitute: Player | None
    withdraw: bool = False


def absent_field(player: Player, what: str) -> str:
    """The form field (``substitute`` or ``withdraw``) of an absent player's row, which the
    service's refusals name."""
    return f"{what}_{player.number}"


@transaction.atomic
def absent_seats_give(*, session: Session, choices: list[AbsentSeatChoice]) -> int:
    """Give the seats of players who did not check in to the substitutes chosen, and withdraw
    those the organiser withdraws, all at once or nothing. Returns the seats given.

    Each seat given records the player it replaces, as *Change seats* does; a table that has
    started refuses its change (``seat_replace``)."""
    present = session_check_ins(session)
    if present is None:
        raise ValidationError(
            _("The check-in of session %(n)s was never opened: change seats on its seating page.")
            % {"n": session.number},
            code="check_in_not_opened",
        )
    chosen: dict[int, Player] = {}
    given = 0
    for choice in choices:
        # Every refusal is said beside the absent player's choice of substitute.
        field = absent_field(choice.absent, "substitute")
        if choice.absent.pk in present:
            message = _("%(player)s has checked in: their seat stays theirs.")
            raise refused(field, message % {"player": choice.absent}, "player_present")
        substitute = choice.substitute
        if substitute is not None:
            if substitute.pk in chosen:
                message = _("%(player)s is already chosen for %(other)s's seat.")
                raise refused(
                    field,
                    message % {"player": substitute, "other": chosen[substitute.pk]},
                    "substitute_chosen_twice",
                )
            chosen[substitute.pk] = choice.absent
            seat = Seat.objects.filter(session=session, player=choice.absent).first()
            if seat is None:
                message = _("%(player)s has no seat in session %(n)s.")
                raise refused(
                    field,
                    message % {"player": choice.absent, "n": session.number},
                    "absent_not_seated",
                )
            try:
                seat_replace(seat=seat, player=substitute)
            except ValidationError as error:
                raise ValidationError({field: error.messages}) from error
            given += 1
        if choice.withdraw:
            player_withdraw(player=choice.absent)
    return given
