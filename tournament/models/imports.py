"""A player list imported in the background: the job the organiser's confirmation stores,
which a task worker runs (``services.player_imports``), with its progress and what it did.

No history of its own: the job is itself the record of the import, and each player it
creates or changes keeps theirs."""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from tournament.models.tournaments import Tournament

PLAYER_IMPORT_STATUS_CHOICES = [
    ("queued", _("waiting for the task worker")),
    ("running", _("running")),
    ("done", _("done")),
    ("failed", _("failed")),
]
# An import in one of these holds its tournament: a second waits until it ends.
PLAYER_IMPORT_ACTIVE = ("queued", "running")


class PlayerImport(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="player_imports"
    )
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The rows of the preview the organiser confirmed, and the fingerprint of the stored
    # players it was compared with (``players.player_import``). Emptied once the import ends.
    rows = models.JSONField(default=list)
    fingerprint = models.CharField(max_length=64)
    status = models.CharField(
        _("status"), max_length=8, choices=PLAYER_IMPORT_STATUS_CHOICES, default="queued"
    )
    rows_total = models.PositiveIntegerField(default=0)
    # Rows checked so far, committed as the import goes; the players are stored after the
    # last one, all at once (``services.player_imports``).
    rows_done = models.PositiveIntegerField(default=0)
    players_created = models.PositiveIntegerField(default=0)
    players_updated = models.PositiveIntegerField(default=0)
    players_unchanged = models.PositiveIntegerField(default=0)
    # Why it failed, written in ``language``: the language of the organiser who started it.
    error = models.TextField(blank=True)
    language = models.CharField(max_length=16, blank=True)
    # The task of the queue that runs it (``DBTaskResult.id``): a task the queue gave up on
    # (its worker killed too often) ends the import.
    task_id = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "-created_at", "-id"]
        constraints = [
            # One import at a time in a tournament: each is checked against the players as
            # the one before left them.
            models.UniqueConstraint(
                fields=["tournament"],
                condition=Q(status__in=PLAYER_IMPORT_ACTIVE),
                name="player_import_one_at_a_time",
            ),
            models.CheckConstraint(
                condition=Q(rows_done__lte=F("rows_total")),
                name="player_import_rows_done_within_total",
            ),
        ]

    def __str__(self):
        return f"{self.tournament_id} import {self.pk} ({self.status})"
