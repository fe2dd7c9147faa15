"""The e-mails sent to a tournament's players, as the organiser's list shows them."""

from dataclasses import dataclass

from django.db.models import Count, Q

from tournament.models import OutgoingEmail
from tournament.models.mail import MAX_ATTEMPTS


@dataclass(frozen=True)
class MailCounts:
    sent: int
    queued: int  # not sent yet: to be sent, being sent, or waiting to be tried again
    failed: int  # tried ``MAX_ATTEMPTS`` times without success


def mail_counts(tournament) -> MailCounts:
    counts = OutgoingEmail.objects.filter(tournament=tournament).aggregate(
        sent=Count("pk", filter=Q(sent_at__isnull=False)),
        queued=Count("pk", filter=Q(sent_at__isnull=True, attempts__lt=MAX_ATTEMPTS)),
        failed=Count("pk", filter=Q(sent_at__isnull=True, attempts__gte=MAX_ATTEMPTS)),
    )
    return MailCounts(**counts)


def tournament_emails(tournament, *, status: str = ""):
    """The tournament's e-mails, newest first, with their players (``status``: "sent",
    "queued" or "failed" for those only)."""
    emails = OutgoingEmail.objects.filter(tournament=tournament).select_related("player")
    if status == "sent":
        emails = emails.filter(sent_at__isnull=False)
    elif status == "queued":
        emails = emails.filter(sent_at__isnull=True, attempts__lt=MAX_ATTEMPTS)
    elif status == "failed":
        emails = emails.filter(sent_at__isnull=True, attempts__gte=MAX_ATTEMPTS)
    return emails.defer("body").order_by("-created_at", "-id")
