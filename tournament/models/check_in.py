"""The timetable of the sessions and the players' check-in for each."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournament.history.audit import TournamentHistory
from tournament.models.tournaments import Player, Tournament


class ScheduledSession(models.Model):
    """A session of the tournament's timetable, drawn or not yet: when it starts, and its
    check-in (open from ``check_in_opened_at`` until ``check_in_closed_at``).

    Kept apart from ``Session``, which exists only once a session is drawn: the players check
    in, and see the time of their next session, before its draw."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="scheduled_sessions"
    )
    number = models.PositiveSmallIntegerField(_("session"))
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True)
    check_in_opened_at = models.DateTimeField(_("check-in opened at"), null=True, blank=True)
    check_in_closed_at = models.DateTimeField(_("check-in closed at"), null=True, blank=True)
    history = TournamentHistory()

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="scheduled_session_once"),
            models.CheckConstraint(
                condition=Q(number__gte=1), name="scheduled_session_number_positive"
            ),
            models.CheckConstraint(
                condition=Q(check_in_closed_at__isnull=True) | Q(check_in_opened_at__isnull=False),
                name="check_in_closed_only_once_opened",
            ),
        ]

    def __str__(self):
        return f"{self.tournament} · {_('session')} {self.number}"

    @property
    def check_in_is_open(self) -> bool:
        return self.check_in_opened_at is not None and self.check_in_closed_at is None


class CheckIn(models.Model):
    """A player present for a session: checked in with their own link, or ticked at the
    desk by an organiser (``ticked_by``)."""

    scheduled_session = models.ForeignKey(
        ScheduledSession, on_delete=models.CASCADE, related_name="check_ins"
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="check_ins")
    checked_in_at = models.DateTimeField(_("checked in at"), auto_now_add=True)
    ticked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    history = TournamentHistory()

    class Meta:
        ordering = ["scheduled_session", "player"]
        constraints = [
            models.UniqueConstraint(
                fields=["scheduled_session", "player"], name="check_in_once_per_session"
            ),
        ]

    def __str__(self):
        return f"{self.scheduled_session}: {self.player}"
