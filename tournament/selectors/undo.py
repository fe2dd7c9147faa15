"""Undoing a session's last step (its reviewed draw published, its play opened, its close),
allowed only while nothing has happened since that depends on that step. The rules, in one
place: the tournament page offers each undo by them, and the services refuse by them.

- *Publish* is undone (the draw back under review, hidden from the players) only in a
  tournament that reviews its draws, before the session is opened for play, and while no
  player has been e-mailed their seat: an e-mail sent, or in a worker's hands at that moment,
  cannot be called back, and the players it told would find the draw gone from their pages.
  The seat e-mails not sent yet are dropped with the undo (the page says how many).
- *Open for play* is undone (the session back to drawn, its clock stopped) while no hand is
  entered at any of its tables (a table confirmed has its hands too, its not-played ones
  included) and no referee was called to one (the call is on the record). The check-in and
  the tables' extra time do not depend on the opening: they stay.
- *Close session* is undone (the session in play again, its tables still confirmed) while
  no other session has been drawn or opened since it closed: a draw made after the close
  was made from its results, and a session opened after it means the hall has moved on.
"""

from dataclasses import dataclass

from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournament.models import Hand, OutgoingEmail, RefereeCall, Ruling, Session

# What each undo does and while it is allowed, said beside its button.
RULES = {
    "publish": gettext_lazy(
        "Back under review, hidden from the players: allowed before the session is opened "
        "for play, while no seat e-mail has been sent."
    ),
    "open": gettext_lazy(
        "Back to drawn, the clock stopped: allowed while no hand is entered at any table "
        "and no referee was called to one."
    ),
    "close": gettext_lazy(
        "In play again, the tables still confirmed: allowed while no other session has "
        "been drawn or opened since it closed."
    ),
}

# A seat e-mail that has told its player, or may have: sent, or held by a worker sending it.
TOLD = Q(sent_at__isnull=False) | ~Q(claimed_by="")


@dataclass(frozen=True)
class SessionUndo:
    """The undo a session's state offers: of which step, and why not now ("" when it may)."""

    step: str  # "publish", "open" or "close"
    refusal: str = ""
    # Publish: the seat e-mails not sent yet, which the undo drops.
    unsent_emails: int = 0

    @property
    def allowed(self) -> bool:
        return not self.refusal

    @property
    def rule(self) -> str:
        return str(RULES[self.step])


def _seat_emails(told: bool) -> Coalesce:
    """The session's seat e-mails that told their player (``told``), or not yet, counted."""
    emails = OutgoingEmail.objects.filter(
        tournament_id=OuterRef("tournament_id"),
        reason="seat",
        session_number=OuterRef("number"),
    )
    emails = emails.filter(TOLD) if told else emails.exclude(TOLD)
    counted = emails.order_by().values("session_number").annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(counted), 0)


def with_undo_facts(sessions: QuerySet) -> QuerySet:
    """``sessions`` with what their undo depends on, in the same query."""
    closed_at = OuterRef("closed_at")
    since_closed = Session.objects.filter(tournament_id=OuterRef("tournament_id")).filter(
        Q(drawn_at__gt=closed_at) | Q(opened_at__gt=closed_at)
    )
    return sessions.annotate(
        undo_hands=Exists(Hand.objects.filter(table__session=OuterRef("pk"))),
        # A call for a referee (and so any ruling) is play under way too: on the record.
        undo_called=Exists(RefereeCall.objects.filter(table__session=OuterRef("pk")))
        | Exists(Ruling.objects.filter(table__session=OuterRef("pk"))),
        undo_told=_seat_emails(told=True),
        undo_unsent=_seat_emails(told=False),
        undo_moved_on=Exists(since_closed.exclude(pk=OuterRef("pk"))),
    )


def session_undo(session: Session, *, review_draws: bool) -> SessionUndo | None:
    """The undo of ``session``'s last step (read ``with_undo_facts``), in a tournament that
    reviews its draws or not; None when it has no step to undo."""
    if session.closed_at is not None:
        refusal = (
            _("No longer: another session has been drawn or opened since this one closed.")
            if session.undo_moved_on
            else ""
        )
        return SessionUndo("close", refusal)
    if session.opened_at is not None:
        refusal = ""
        if session.undo_hands:
            refusal = _("No longer: hands are entered.")
        elif session.undo_called:
            refusal = _("No longer: a referee was called to one of its tables.")
        return SessionUndo("open", refusal)
    if session.published_at is not None and review_draws:
        refusal = ""
        if session.undo_told:
            refusal = ngettext(
                "No longer: %(count)s player has been e-mailed their seat. Change seats or "
                "cancel the draw instead.",
                "No longer: %(count)s players have been e-mailed their seats. Change seats or "
                "cancel the draw instead.",
                session.undo_told,
            ) % {"count": session.undo_told}
        return SessionUndo("publish", refusal, unsent_emails=session.undo_unsent)
    return None


def session_undo_now(session: Session) -> SessionUndo | None:
    """``session_undo`` as stored now: the services' check, under the caller's lock."""
    stored = with_undo_facts(Session.objects.filter(pk=session.pk).select_related("tournament"))
    found = stored.defer("draw_input").get()
    return session_undo(found, review_draws=found.tournament.review_draws)
