"""A drawn session opened for play, closed once every table is confirmed, reopened; its last
step undone (published, opened, closed: ``selectors.undo`` has the rules); extra time for one
table; its table device links revoked."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournament.history import audit
from tournament.models import OutgoingEmail, Session, Table, Tournament
from tournament.selectors.undo import TOLD, SessionUndo, session_undo_now
from tournament.selectors.withdrawals import withdrawn_seated
from tournament.services.common import fields_saved, refused
from tournament.services.results import tournament_touch

# As the model's validator: more would be another session, not extra time.
MAX_EXTRA_MINUTES = 240
EXTRA_MINUTES_MESSAGE = gettext_lazy("Extra minutes are a whole number from 0 to %(most)s.")


@transaction.atomic
def session_open(*, session: Session, playing_after_all: bool = False) -> Session:
    """Open a drawn session for play.

    Refused while a withdrawn player still holds one of its seats (their seat should go to
    a substitute first, on *Change seats*), unless ``playing_after_all``: the organiser
    confirms that those players are playing this session after all.
    """
    if session.closed_at:
        raise ValidationError(_("The session is closed."), code="session_closed")
    if session.published_at is None:
        raise ValidationError(
            _("Publish the draw of session %(n)s first: the players have not seen it.")
            % {"n": session.number},
            code="session_not_published",
        )
    if session.opened_at is None and not playing_after_all:
        seated = withdrawn_seated(session)
        if seated:
            raise ValidationError(
                ngettext(
                    "A withdrawn player still holds a seat in session %(n)s: %(players)s. "
                    "Give the seat to a substitute (Change seats), or open the session "
                    "confirming that they are playing after all.",
                    "Withdrawn players still hold seats in session %(n)s: %(players)s. "
                    "Give their seats to substitutes (Change seats), or open the session "
                    "confirming that they are playing after all.",
                    len(seated),
                )
                % {
                    "n": session.number,
                    "players": ", ".join(
                        _("%(player)s at table %(table)s")
                        % {"player": each.player, "table": each.table}
                        for each in seated
                    ),
                },
                code="withdrawn_seated",
            )
    if session.opened_at is None:
        fields_saved(session, opened_at=timezone.now())
    tournament_touch(session.tournament_id, seating=False, standings=False)
    return session


@transaction.atomic
def session_close(*, session: Session) -> Session:
    # Locked: a table reopened meanwhile waits, then sees the session closed.
    session = Session.objects.select_for_update().get(pk=session.pk)
    unconfirmed = list(
        session.tables.filter(confirmed_at__isnull=True).values_list("number", flat=True)
    )
    if unconfirmed:
        raise ValidationError(
            _("Tables not confirmed yet: %(tables)s.")
            % {"tables": ", ".join(str(n) for n in unconfirmed)},
            code="tables_not_confirmed",
        )
    if session.closed_at is None:
        fields_saved(session, closed_at=timezone.now())
    tournament_touch(session.tournament_id, seating=False, standings=False)
    return session


@transaction.atomic
def session_reopen(*, session: Session) -> Session:
    if session.closed_at is not None:
        fields_saved(session, closed_at=None)
    tournament_touch(session.tournament_id, seating=False, standings=False)
    return session


def _undo_checked(session: Session, step: str) -> SessionUndo:
    """The undo of ``step`` of ``session`` as stored now, or its refusal."""
    undo = session_undo_now(session)
    if undo is not None and undo.step == step:
        if not undo.allowed:
            raise ValidationError(undo.refusal, code="undo_refused")
        return undo
    words = {"n": session.number}
    if step == "publish" and session.opened_at is not None:
        message = _(
            "Session %(n)s has been opened for play: its draw can no longer go back under review."
        )
    elif step == "publish" and session.published_at is not None:
        message = _(
            "This tournament publishes each draw as it is made: there is no publishing to undo."
        )
    elif step == "publish":
        message = _("The draw of session %(n)s is under review already.")
    elif step == "open" and session.closed_at is not None:
        message = _("Session %(n)s is closed: undo the close first.")
    elif step == "open":
        message = _("Session %(n)s is not open for play.")
    else:
        message = _("Session %(n)s is not closed.")
    raise ValidationError(message % words, code="nothing_to_undo")


@transaction.atomic
def session_publish_undo(*, session: Session) -> int:
    """Take a reviewed draw back under review, hidden from the players again, with its seat
    e-mails not sent yet; refused once one of them is sent. Returns how many were dropped."""
    session = Session.objects.select_for_update().get(pk=session.pk)
    _undo_checked(session, "publish")
    unsent = OutgoingEmail.objects.filter(
        tournament_id=session.tournament_id, reason="seat", session_number=session.number
    ).exclude(TOLD)
    dropped, _by_model = unsent.delete()
    # Checked again after the deletion: a message a worker took in the meantime was not
    # deleted, and refuses the undo (rolling the deletion back) as one sent would.
    _undo_checked(session, "publish")
    with audit.acting(reason=audit.UNDONE):
        fields_saved(session, published_at=None)
    # As publishing: the players' pages and the seating kept under the versions change back.
    tournament_touch(session.tournament_id)
    return dropped


@transaction.atomic
def session_open_undo(*, session: Session) -> Session:
    """Take a session opened for play back to drawn, while no hand is entered at its tables."""
    session = Session.objects.select_for_update().get(pk=session.pk)
    # Its tables locked too: a hand being saved at one of them (which locks its table) is
    # stored first, and then refuses the undo.
    list(Table.objects.select_for_update().filter(session=session).values_list("pk"))
    _undo_checked(session, "open")
    with audit.acting(reason=audit.UNDONE):
        fields_saved(session, opened_at=None)
    tournament_touch(session.tournament_id, seating=False, standings=False)
    return session


@transaction.atomic
def session_close_undo(*, session: Session) -> Session:
    """Put a closed session back in play (its tables stay confirmed), while no other session
    has been drawn or opened since it closed."""
    # The tournament locked, as a draw locks it: a draw made meanwhile waits, then refuses
    # the undo.
    list(Tournament.objects.select_for_update().filter(pk=session.tournament_id).values("pk"))
    session = Session.objects.select_for_update().get(pk=session.pk)
    _undo_checked(session, "close")
    with audit.acting(reason=audit.UNDONE):
        fields_saved(session, closed_at=None)
    tournament_touch(session.tournament_id, seating=False, standings=False)
    return session


@transaction.atomic
def table_extra_time(*, table: Table, minutes: int) -> Table:
    """Give one table ``minutes`` beyond the session's time limit (a late start, a long
    dispute), in place of what it had: 0 takes the extra time back."""
    whole = isinstance(minutes, int) and not isinstance(minutes, bool)
    if not (whole and 0 <= minutes <= MAX_EXTRA_MINUTES):
        message = str(EXTRA_MINUTES_MESSAGE) % {"most": MAX_EXTRA_MINUTES}
        raise refused("minutes", message, "bad_extra_minutes")
    # Read now, not from the caller's copy: the session may have closed since.
    if Session.objects.filter(pk=table.session_id, closed_at__isnull=False).exists():
        raise ValidationError(_("The session is closed."), code="session_closed")
    fields_saved(table, extra_minutes=minutes)
    tournament_touch(table.session.tournament_id, seating=False, standings=False)
    return table


def _version_raised(row: Session | Table, field: str) -> None:
    """Raise ``field`` of ``row`` by one from the row as stored, locked: two revocations both
    count. Saved (not a QuerySet.update) so that the history keeps the revocation."""
    stored = type(row).objects.select_for_update().get(pk=row.pk)
    fields_saved(stored, **{field: getattr(stored, field) + 1})
    setattr(row, field, getattr(stored, field))


@transaction.atomic
def device_links_revoke(*, session: Session) -> Session:
    """Revoke every table device link of ``session`` (cards lost, the session over): each
    tablet signed in with one is refused from its next request; the cards printed from now on
    carry new links."""
    _version_raised(session, "device_links_version")
    tournament_touch(session.tournament_id, seating=False, standings=False)
    return session


@transaction.atomic
def device_link_revoke(*, table: Table) -> Table:
    """Revoke one table's device link (a lost or stolen tablet); the other tables' hold."""
    _version_raised(table, "device_link_version")
    tournament_touch(table.session.tournament_id, seating=False, standings=False)
    return table
