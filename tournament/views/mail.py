"""The organiser's list of the e-mails sent to players, and *Send now* for those not sent."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from tournament import services
from tournament.selectors.mail import mail_counts, tournament_emails
from tournament.selectors.tasks import queue_state
from tournament.tables import paginate
from tournament.tables.mail import EmailsTable
from tournament.views.common import get_tournament, roles

STATUSES = ("sent", "queued", "failed")


@login_required
@require_http_methods(["GET", "HEAD"])
def email_list(request, slug):
    """Every message sent or to be sent, newest first (or sorted as asked), with its status
    and last error, by pages of 100."""
    tournament = get_tournament(request, slug, role="organiser")
    status = request.GET.get("status", "")
    status = status if status in STATUSES else ""
    table = paginate(request, EmailsTable(tournament_emails(tournament, status=status)))
    context = roles(request, tournament)
    context.update(
        tournament=tournament,
        table=table,
        counts=mail_counts(tournament),
        status=status,
        queue_problem=queue_state().problem(),
    )
    return render(request, "mail/list.html", context)


@login_required
@require_POST
def emails_send(request, slug):
    """Send now every message not sent yet, those that failed included: a task worker sends
    them; the list shows each as it goes."""
    tournament = get_tournament(request, slug, role="organiser")
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
