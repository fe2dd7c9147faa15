"""The organiser's list of the e-mails sent to players, and *Send now* for those waiting."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from tournament import services
from tournament.selectors.mail import mail_counts, tournament_emails
from tournament.views.common import get_tournament, roles
from tournament.views.pager import Pager

STATUSES = ("sent", "waiting", "failed")


@login_required
@require_http_methods(["GET", "HEAD"])
def email_list(request, slug):
    """Every message sent or to be sent, newest first, with its status and last error."""
    tournament = get_tournament(request, slug, role="organiser")
    status = request.GET.get("status", "")
    status = status if status in STATUSES else ""
    emails = tournament_emails(tournament, status=status)
    pager = Pager(request.GET, emails.count())
    context = roles(request, tournament)
    context.update(
        tournament=tournament,
        emails=pager.rows(emails),
        pager=pager.html(),
        counts=mail_counts(tournament),
        status=status,
    )
    return render(request, "mail/list.html", context)


@login_required
@require_POST
def emails_send(request, slug):
    """Send now every message not sent yet, those that failed included."""
    tournament = get_tournament(request, slug, role="organiser")
    sent = services.emails_send_due(tournament=tournament, everything=True)
    left = mail_counts(tournament).waiting + mail_counts(tournament).failed
    messages.success(
        request,
        ngettext("%(count)s e-mail sent.", "%(count)s e-mails sent.", sent) % {"count": sent},
    )
    if left:
        messages.warning(
            request,
            ngettext(
                "%(count)s e-mail is still not sent: see its error below.",
                "%(count)s e-mails are still not sent: see their errors below.",
                left,
            )
            % {"count": left},
        )
    return redirect("email_list", tournament.slug)
