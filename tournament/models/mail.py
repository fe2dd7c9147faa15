"""The e-mails the site sends players, kept as an outbox: each is stored in the transaction
of what it tells (a draw published, a place off the waiting list, a player withdrawn), sent
after that transaction commits by the task queue's workers, retried when sending fails, and
listed for the organiser.

No history of their own: a row is itself the record of a message and its attempts."""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournament.models.tournaments import Player, Tournament

# A message is tried this many times, then left for the organiser to see (and send again).
MAX_ATTEMPTS = 5

MAIL_REASON_CHOICES = [
    ("seat", _("Table and seat")),
    ("waiting_list", _("Off the waiting list")),
    ("sign_up", _("Sign-up")),
    ("withdrawn", _("Withdrawn")),
]


class OutgoingEmail(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="emails")
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="emails"
    )
    reason = models.CharField(_("about"), max_length=16, choices=MAIL_REASON_CHOICES)
    session_number = models.PositiveSmallIntegerField(_("session"), null=True, blank=True)
    to = models.EmailField(_("to"))
    subject = models.CharField(_("subject"), max_length=300)
    body = models.TextField(_("message"))
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    # Why the last attempt failed, as the mail server or the connection said it.
    error = models.CharField(_("last error"), max_length=500, blank=True)
    # The task worker sending it right now (``TaskWorker.worker_id``), "" otherwise: a message
    # held by a worker that died is released to be sent again (``services.mail``).
    claimed_by = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        ordering = ["tournament", "-created_at", "-id"]
        indexes = [
            models.Index(fields=["sent_at", "last_attempt_at"], name="outgoing_email_waiting"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(sent_at__isnull=True) | Q(attempts__gte=1),
                name="outgoing_email_sent_after_an_attempt",
            ),
        ]

    def __str__(self):
        return f"{self.to}: {self.subject}"
