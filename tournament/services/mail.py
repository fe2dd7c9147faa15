"""E-mails to players: stored in the transaction of what they tell, sent once it commits.

A message is an ``OutgoingEmail`` row written by the write it belongs to (a draw published,
a seat given, a place off the waiting list), so it exists exactly when that write does.
After the transaction commits, the site sends what is waiting, through the SMTP server of
``MCR_EMAIL_*``: a refused or unreachable server never fails the write, the message keeps
its error and is tried again later (``emails_send_due``: after the next write that queues
mail, by ``manage.py send_email`` from a timer, or by the organiser's *Send now*), at most
``MAX_ATTEMPTS`` times, waiting longer after each failure.

Messages are written in English and Chinese, one after the other: the site does not know
which language each player reads.
"""

import contextlib
import smtplib
import socket
from datetime import timedelta

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.db import transaction
from django.db.models import F, Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from tournament.models import OutgoingEmail, Player, ScheduledSession, Seat, Session, SignUp
from tournament.models.mail import MAX_ATTEMPTS
from tournament.players.player_links import player_token, sign_up_token

# The languages of every message, in this order.
MAIL_LANGUAGES = ("en", "zh-hans")
# The first retry waits this long, each next one twice as long (2, 4, 8, 16 minutes).
FIRST_RETRY = timedelta(minutes=2)
# At most this many messages are sent after one write, so that publishing the draw of a
# large event answers at once; the rest go out with the next send (timer or Send now).
SEND_BATCH = 200
SMTP_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
# What a failed send raises: the server's refusals, a connection that fails or hangs.
SEND_ERRORS = (smtplib.SMTPException, OSError, socket.timeout)


def _bilingual(template: str, context: dict) -> str:
    parts = []
    for language in MAIL_LANGUAGES:
        with translation.override(language):
            parts.append(render_to_string(template, context).strip())
    return "\n\n————————\n\n".join(parts)


def _subject(template: str, context: dict) -> str:
    parts = []
    for language in MAIL_LANGUAGES:
        with translation.override(language):
            parts.append(" ".join(render_to_string(template, context).split()))
    return " / ".join(parts)[:300]


def player_link_url(player: Player) -> str:
    return settings.SITE_URL + reverse("player_link", args=[player_token(player)])


def _send_after_commit(tournament_id: int) -> None:
    """Send the tournament's messages waiting once the transaction under way commits;
    nothing if it rolls back (its messages go with it). A second hook of the same
    transaction finds nothing left to send. ``robust``: whatever goes wrong while sending is
    logged and the message keeps waiting; the write it follows has committed and stands."""
    transaction.on_commit(
        lambda: emails_send_due(tournament_id=tournament_id, limit=SEND_BATCH), robust=True
    )


def seat_emails_queue(*, session: Session, players: list[Player] | None = None) -> int:
    """Queue, in the caller's transaction, the table and seat of session ``session`` for each
    seated player with an e-mail (``players``: only these). Returns how many."""
    seats = (
        Seat.objects.filter(session=session, player__withdrawn_at__isnull=True)
        .exclude(player__email="")
        .select_related("player", "table")
        .order_by("table__number", "seat")
    )
    if players is not None:
        seats = seats.filter(player__in=players)
    starts_at = (
        ScheduledSession.objects.filter(tournament_id=session.tournament_id, number=session.number)
        .values_list("starts_at", flat=True)
        .first()
    )
    tournament = session.tournament
    queued = []
    for seat in seats:
        context = {
            "tournament": tournament,
            "player": seat.player,
            "session": session,
            "table": seat.table.number,
            "seat": seat.seat,
            "starts_at": starts_at,
            "link": player_link_url(seat.player),
        }
        queued.append(
            OutgoingEmail(
                tournament=tournament,
                player=seat.player,
                reason="seat",
                session_number=session.number,
                to=seat.player.email,
                subject=_subject("mail/seat_subject.txt", context),
                body=_bilingual("mail/seat.txt", context),
            )
        )
    OutgoingEmail.objects.bulk_create(queued)
    if queued:
        _send_after_commit(tournament.pk)
    return len(queued)


def seat_emails_drop(*, tournament_id: int, session_number: int, players=None) -> int:
    """Drop the seat e-mails of session ``session_number`` not sent yet (of ``players``
    only): their seats changed (a cancelled draw, a seat given to someone else) and a
    message sent later would tell a seat that no longer is. Returns how many."""
    unsent = OutgoingEmail.objects.filter(
        tournament_id=tournament_id,
        reason="seat",
        session_number=session_number,
        sent_at__isnull=True,
    )
    if players is not None:
        unsent = unsent.filter(player__in=players)
    deleted, _by_model = unsent.delete()
    return deleted


def sign_up_email_queue(*, sign_up: SignUp, template: str, reason: str) -> None:
    """Queue, in the caller's transaction, a registration message about ``sign_up``
    (``template`` under ``templates/mail/``: ``<template>.txt`` and
    ``<template>_subject.txt``), with the link to follow the sign-up and, once it is a
    player, their own link."""
    player = sign_up.player
    context = {
        "tournament": sign_up.tournament,
        "sign_up": sign_up,
        "player": player,
        "sign_up_link": settings.SITE_URL
        + reverse("sign_up_status", args=[sign_up_token(sign_up)]),
        "link": player_link_url(player) if player is not None else "",
        "waiting_ahead": sign_up.tournament.sign_ups.filter(
            status="waiting", position__lt=sign_up.position
        ).count()
        if sign_up.status == "waiting"
        else 0,
    }
    OutgoingEmail.objects.create(
        tournament=sign_up.tournament,
        player=player,
        reason=reason,
        to=sign_up.email,
        subject=_subject(f"mail/{template}_subject.txt", context),
        body=_bilingual(f"mail/{template}.txt", context),
    )
    _send_after_commit(sign_up.tournament_id)


def _due(now):
    """Messages not sent, tried fewer than ``MAX_ATTEMPTS`` times, and not tried lately: each
    failure waits ``FIRST_RETRY`` doubled per attempt."""
    waiting = Q(sent_at__isnull=True, attempts__lt=MAX_ATTEMPTS)
    retry_ready = Q(last_attempt_at__isnull=True)
    for attempts in range(1, MAX_ATTEMPTS):
        retry_ready |= Q(
            attempts=attempts, last_attempt_at__lte=now - FIRST_RETRY * 2 ** (attempts - 1)
        )
    return OutgoingEmail.objects.filter(waiting & retry_ready)


def emails_send_due(
    *,
    tournament=None,
    tournament_id: int | None = None,
    limit: int = SEND_BATCH,
    everything: bool = False,
) -> int:
    """Send the messages due (of ``tournament`` or ``tournament_id``, or every one), at most
    ``limit``; with
    ``everything``, also those waiting for their retry or tried ``MAX_ATTEMPTS`` times (the
    organiser's *Send now*). Returns how many were sent. Never raises for a send that fails:
    the message keeps the error and its attempt."""
    now = timezone.now()
    due = OutgoingEmail.objects.filter(sent_at__isnull=True) if everything else _due(now)
    if tournament is not None:
        due = due.filter(tournament=tournament)
    if tournament_id is not None:
        due = due.filter(tournament_id=tournament_id)
    ids = list(due.order_by("id").values_list("id", flat=True)[:limit])
    if not ids:
        return 0
    if not settings.EMAIL_HOST:
        OutgoingEmail.objects.filter(id__in=ids).update(
            attempts=F("attempts") + 1,
            last_attempt_at=now,
            error="No mail server is set (MCR_EMAIL_HOST).",
        )
        return 0
    sent = 0
    try:
        connection = get_connection(SMTP_BACKEND, timeout=settings.EMAIL_TIMEOUT)
        connection.open()
    except SEND_ERRORS as error:
        OutgoingEmail.objects.filter(id__in=ids).update(
            attempts=F("attempts") + 1, last_attempt_at=now, error=_described(error)
        )
        return 0
    try:
        for email in OutgoingEmail.objects.filter(id__in=ids).order_by("id"):
            sent += _send_one(connection, email)
    finally:
        with contextlib.suppress(SEND_ERRORS):
            connection.close()
    return sent


def _send_one(connection, email: OutgoingEmail) -> int:
    # Claimed first: two senders at once (a timer and a request) never both send a message.
    claimed = OutgoingEmail.objects.filter(
        pk=email.pk, sent_at__isnull=True, attempts=email.attempts
    ).update(attempts=F("attempts") + 1, last_attempt_at=timezone.now())
    if not claimed:
        return 0
    message = EmailMessage(
        subject=email.subject,
        body=email.body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[email.to],
        connection=connection,
    )
    try:
        message.send()
    except SEND_ERRORS as error:
        OutgoingEmail.objects.filter(pk=email.pk).update(error=_described(error))
        return 0
    OutgoingEmail.objects.filter(pk=email.pk).update(sent_at=timezone.now(), error="")
    return 1


def _described(error: Exception) -> str:
    return (f"{type(error).__name__}: {error}" if str(error) else type(error).__name__)[:500]
