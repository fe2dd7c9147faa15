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


# Each status an e-mail may be in (``MailCounts``' fields), as a filter.
STATUSES = {
    "sent": Q(sent_at__isnull=False),
    "queued": Q(sent_at__isnull=True, attempts__lt=MAX_ATTEMPTS),
    "failed": Q(sent_at__isnull=True, attempts__gte=MAX_ATTEMPTS),
}


def mail_counts(tournament) -> MailCounts:
    counts = OutgoingEmail.objects.filter(tournament=tournament).aggregate(
        **{status: Count("pk", filter=where) for status, where in STATUSES.items()}
    )
    return MailCounts(**counts)


def tournament_emails(tournament, *, status: str = ""):
    """The tournament's e-mails, newest first, with their players (``status``: "sent",
    "queued" or "failed" for those only)."""
    emails = OutgoingEmail.objects.filter(tournament=tournament).select_related("player")
    if status in STATUSES:
        emails = emails.filter(STATUSES[status])
    return emails.defer("body").order_by("-created_at", "-id")
