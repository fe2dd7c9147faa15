"""The organiser's list of the e-mails sent to players, and *Send now* for those not sent."""

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import ngettext

from tournament import services
from tournament.selectors.mail import STATUSES, mail_counts, tournament_emails
from tournament.selectors.tasks import queue_state
from tournament.tables import paginate
from tournament.tables.mail import EmailsTable
from tournament.views.common import POST, READ, page, tournament_page


@tournament_page("organiser", READ)
def email_list(request, tournament):
    """Every message sent or to be sent, newest first (or sorted as asked), with its status
    and last error, by pages of 100."""
    status = request.GET.get("status", "")
    status = status if status in STATUSES else ""
    table = paginate(request, EmailsTable(tournament_emails(tournament, status=status)))
    return page(
        request,
        "mail/list.html",
        tournament,
        table=table,
        counts=mail_counts(tournament),
        status=status,
        queue_problem=queue_state().problem(),
    )


@tournament_page("organiser", POST)
def emails_send(request, tournament):
    """Send now every message not sent yet, those that failed included: a task worker sends
    them; the list shows each as it goes."""
    services.emails_send_now(tournament=tournament)
    unsent = mail_counts(tournament)
    count = unsent.queued + unsent.failed
    messages.success(
        request,
        ngettext(
            "%(count)s e-mail is being sent: reload this page to follow it.",
            "%(count)s e-mails are being sent: reload this page to follow them.",
            count,
        )
        % {"count": count},
    )
    return redirect("email_list", tournament.slug)
