"""E-mails to players: stored in the transaction of what they tell, sent by the task queue.

A message is an ``OutgoingEmail`` row written by the write it belongs to (a draw published,
a seat given, a place off the waiting list, a player withdrawn), together with the task that
sends it (``emails_deliver``, a row of the queue): both exist exactly when that write does,
and the request that made them never waits on a mail server. A worker sends the messages due through
the SMTP server of ``MCR_EMAIL_*``, ``EMAIL_CONNECTIONS`` at a time, each marked sent the
moment the server accepts it. A refused or unreachable server leaves the message with its
error, tried again by a task the queue holds until the wait is over, at most ``MAX_ATTEMPTS``
times, waiting longer after each failure; the organiser's *Send now* tries every message not
sent at once.

A worker killed while sending leaves the messages it held claimed; when its pulse stops
(``server.task_worker``) they are released and sent by another. A message the server had
accepted in the instant before the kill, not yet marked, goes out a second time: at least
once, at most twice.

Messages are written in English and Chinese, one after the other: the site does not know
which language each player reads.
"""

import contextlib
import smtplib
import socket
import threading
from concurrent.futures import ThreadPoolExecutor, as_completed
from datetime import timedelta

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.db.models import F, Min, Q
from django.db.models.functions import Greatest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django_tasks import task
from django_tasks_db.models import DBTaskResult

from tournament.models import OutgoingEmail, Player, ScheduledSession, Seat, Session, SignUp
from tournament.models.mail import MAX_ATTEMPTS
from tournament.players.player_links import player_token, sign_up_token

# The languages of every message, in this order.
MAIL_LANGUAGES = ("en", "zh-hans")
# The first retry waits this long, each next one twice as long (2, 4, 8, 16 minutes).
FIRST_RETRY = timedelta(minutes=2)
# A worker claims this many messages at a time, sends them, then claims the next ones.
SEND_CHUNK = 100
SMTP_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
# What a failed send raises: the server's refusals, a connection that fails or hangs.
SEND_ERRORS = (smtplib.SMTPException, OSError, socket.timeout)


def _bilingual(template: str, context: dict) -> str:
    """The message in each language, every time in it on the clock of the tournament it is
    about (``context["tournament"]``), whoever's request or task writes it."""
    parts = []
    for language in MAIL_LANGUAGES:
        with translation.override(language), timezone.override(context["tournament"].zone):
            parts.append(render_to_string(template, context).strip())
    return "\n\n————————\n\n".join(parts)


def _subject(template: str, context: dict) -> str:
    parts = []
    for language in MAIL_LANGUAGES:
        with translation.override(language), timezone.override(context["tournament"].zone):
            parts.append(" ".join(render_to_string(template, context).split()))
    return " / ".join(parts)[:300]


def player_link_url(player: Player) -> str:
    return settings.SITE_URL + reverse("player_link", args=[player_token(player)])


def _send_after_commit(tournament_id: int) -> None:
    """Queue, in the transaction under way, the sending of the tournament's messages: the
    task is a row of this database, seen by the workers once the write commits and gone with
    it if it rolls back. One task sends every message due, however many writes queued one."""
    emails_deliver.enqueue(tournament_id=tournament_id)


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


def withdrawal_email_queue(*, player: Player) -> bool:
    """Queue, in the caller's transaction (the withdrawal's), the message telling ``player``
    that the organisers withdrew them, if they have an e-mail. Returns whether one was."""
    if not player.email:
        return False
    context = {
        "tournament": player.tournament,
        "player": player,
        "link": player_link_url(player),
    }
    OutgoingEmail.objects.create(
        tournament=player.tournament,
        player=player,
        reason="withdrawn",
        to=player.email,
        subject=_subject("mail/withdrawn_subject.txt", context),
        body=_bilingual("mail/withdrawn.txt", context),
    )
    _send_after_commit(player.tournament_id)
    return True


def withdrawal_emails_drop(*, player: Player) -> int:
    """Drop the messages telling ``player`` of their withdrawal that no worker has sent or
    taken yet: they are reinstated, and a message sent later would tell a withdrawal that no
    longer is. Returns how many."""
    unsent = OutgoingEmail.objects.filter(
        player=player, reason="withdrawn", sent_at__isnull=True, claimed_by=""
    )
    deleted, _by_model = unsent.delete()
    return deleted


def _due(now):
    """Messages not sent, held by no worker, tried fewer than ``MAX_ATTEMPTS`` times, and not
    tried lately: each failure waits ``FIRST_RETRY`` doubled per attempt."""
    waiting = Q(sent_at__isnull=True, claimed_by="", attempts__lt=MAX_ATTEMPTS)
    return OutgoingEmail.objects.filter(
        waiting & (Q(last_attempt_at__isnull=True) | _retry_ready(now))
    )


def _retry_ready(now) -> Q:
    ready = Q(pk__in=[])
    for attempts in range(1, MAX_ATTEMPTS):
        ready |= Q(attempts=attempts, last_attempt_at__lte=now - _retry_wait(attempts))
    return ready


def _retry_wait(attempts: int) -> timedelta:
    return FIRST_RETRY * 2 ** (attempts - 1)


@task(takes_context=True)
def emails_deliver(context, tournament_id: int | None = None, everything: bool = False) -> int:
    """The queue's task: send the messages due (``emails_send_due``), then, if some wait for
    a retry, queue itself for when the first of them is due. Returns how many were sent."""
    worker_ids = context.task_result.worker_ids
    sent = emails_send_due(
        tournament_id=tournament_id,
        everything=everything,
        worker_id=worker_ids[-1] if worker_ids else "in-process",
    )
    _retry_schedule()
    return sent


def emails_send_now(*, tournament) -> None:
    """The organiser's *Send now*: every message not sent is tried again by a worker at
    once, those that failed ``MAX_ATTEMPTS`` times included."""
    emails_deliver.enqueue(tournament_id=tournament.pk, everything=True)


def _retry_schedule() -> None:
    """Queue a send for when the first failed message's wait is over, unless one is already
    queued for that time or sooner."""
    waiting = OutgoingEmail.objects.filter(
        sent_at__isnull=True,
        claimed_by="",
        attempts__gte=1,
        attempts__lt=MAX_ATTEMPTS,
        last_attempt_at__isnull=False,
    )
    # The first of each number of attempts: the first of all is among them.
    due_times = [
        row["first"] + _retry_wait(row["attempts"])
        for row in waiting.values("attempts").annotate(first=Min("last_attempt_at"))
    ]
    if not due_times:
        return
    first = min(due_times)
    # Queued: ready now, or held by the queue until a time of its own.
    queued = DBTaskResult.objects.filter(status="READY", task_path=emails_deliver.module_path)
    if queued.filter(Q(run_after__lte=first) | Q(run_after__year=9999)).exists():
        return
    emails_deliver.using(run_after=first).enqueue()


def emails_release(*, keep: set[str]) -> int:
    """Release the messages claimed by workers not in ``keep`` (dead ones): the attempt
    they were making never finished, so it does not count, and they are due at once."""
    released = (
        OutgoingEmail.objects.filter(sent_at__isnull=True)
        .exclude(claimed_by="")
        .exclude(claimed_by__in=keep)
    )
    return released.update(
        claimed_by="", attempts=Greatest(F("attempts") - 1, 0), last_attempt_at=None
    )


def emails_send_due(
    *, tournament_id: int | None = None, everything: bool = False, worker_id: str = "in-process"
) -> int:
    """Send the messages due (of tournament ``tournament_id``, or every one); with
    ``everything``, also those waiting for their retry or tried ``MAX_ATTEMPTS`` times (the
    organiser's *Send now*). Runs in a task worker, never in a request. Returns how many were
    sent. Never raises for a send that fails: the message keeps the error and its attempt."""
    sent = 0
    after = 0  # each pass takes the next messages by id: each is tried once per call
    while True:
        now = timezone.now()
        due = (
            OutgoingEmail.objects.filter(sent_at__isnull=True, claimed_by="")
            if everything
            else _due(now)
        )
        if tournament_id is not None:
            due = due.filter(tournament_id=tournament_id)
        ids = list(
            due.filter(id__gt=after).order_by("id").values_list("id", flat=True)[:SEND_CHUNK]
        )
        if not ids:
            return sent
        after = ids[-1]
        # Claimed first, in one statement whose condition holds for one claimer only: two
        # workers never both send a message.
        OutgoingEmail.objects.filter(id__in=ids, sent_at__isnull=True, claimed_by="").update(
            claimed_by=worker_id, attempts=F("attempts") + 1, last_attempt_at=now
        )
        claimed = list(
            OutgoingEmail.objects.filter(id__in=ids, claimed_by=worker_id, sent_at__isnull=True)
        )
        try:
            sent += _send_claimed(claimed)
        finally:
            # Whatever was not settled (an error of ours): released, to be tried again.
            OutgoingEmail.objects.filter(id__in=ids, claimed_by=worker_id).update(claimed_by="")


def _send_claimed(claimed: list[OutgoingEmail]) -> int:
    """Send ``claimed`` over up to ``EMAIL_CONNECTIONS`` SMTP connections at once; each
    message is marked (sent, or its error) here, in the task's own thread, as soon as its
    answer comes."""
    if not claimed:
        return 0
    if not settings.EMAIL_HOST:
        OutgoingEmail.objects.filter(id__in=[email.pk for email in claimed]).update(
            claimed_by="", error="No mail server is set (MCR_EMAIL_HOST)."
        )
        return 0
    opened = []
    local = threading.local()

    def send(email: OutgoingEmail) -> None:
        # Each sending thread keeps one connection for all the messages it sends.
        if getattr(local, "connection", None) is None:
            local.connection = get_connection(SMTP_BACKEND, timeout=settings.EMAIL_TIMEOUT)
            opened.append(local.connection)
        EmailMessage(
            subject=email.subject,
            body=email.body,
            from_email=settings.DEFAULT_FROM_EMAIL,
            to=[email.to],
            connection=local.connection,
            headers={"Message-ID": _message_id(email)},
        ).send()

    sent = 0
    try:
        with ThreadPoolExecutor(max_workers=settings.EMAIL_CONNECTIONS) as pool:
            futures = {pool.submit(send, email): email for email in claimed}
            for future in as_completed(futures):
                email = futures[future]
                error = future.exception()
                if error is None:
                    OutgoingEmail.objects.filter(pk=email.pk).update(
                        sent_at=timezone.now(), error="", claimed_by=""
                    )
                    sent += 1
                elif isinstance(error, SEND_ERRORS):
                    OutgoingEmail.objects.filter(pk=email.pk).update(
                        error=_described(error), claimed_by=""
                    )
                else:
                    raise error
    finally:
        for connection in opened:
            with contextlib.suppress(SEND_ERRORS):
                connection.close()
    return sent


def _message_id(email: OutgoingEmail) -> str:
    """The same for every attempt at one message: a message sent twice (its worker killed
    between the server's answer and its mark) is known as one by the mail programs that
    look, and by the tests that count."""
    domain = settings.DEFAULT_FROM_EMAIL.rpartition("@")[2] or "localhost"
    return f"<mcr-{email.tournament_id}-{email.pk}@{domain}>"


def _described(error: Exception) -> str:
    return (f"{type(error).__name__}: {error}" if str(error) else type(error).__name__)[:500]
