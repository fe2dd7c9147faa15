"""E-mails to players, sent to a real SMTP server: the table and seat when a draw is public
(at once, or when published after review), to the substitute given a seat; sent after the
transaction, never failing it; retried after a failure; nothing without an address."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db.models import F
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from tests.conftest import make_players
from tournament import services
from tournament.models import OutgoingEmail, Seat
from tournament.models.mail import MAX_ATTEMPTS
from tournament.players import player_links
from tournament.services.mail import FIRST_RETRY, _retry_schedule


def with_emails(tournament, count: int) -> None:
    for number in range(1, count + 1):
        services.player_save(
            tournament=tournament,
            number=number,
            name=f"Player {number}",
            email=f"p{number}@example.org" if number % 4 else "",
        )


def test_a_public_draw_sends_each_player_with_an_e_mail_their_table_and_seat(
    tournament, smtp_server, run_tasks
):
    with_emails(tournament, 16)
    services.session_times_set(
        tournament=tournament, starts={1: timezone.make_aware(timezone.datetime(2026, 12, 5, 9))}
    )
    with run_tasks():
        session = services.session_draw(tournament=tournament, number=1, seed=3)
    assert len(smtp_server.messages) == 12  # players 4, 8, 12 and 16 gave no address
    seat = Seat.objects.select_related("table", "player").get(session=session, player__number=5)
    (message,) = smtp_server.to("p5@example.org")
    label = f"P{seat.seat + 1}"
    assert (
        message["Subject"]
        .strip()
        .startswith(f"Spring Open: session 1, table {seat.table.number}, seat {label} / ")
    )
    assert message["From"] == "desk@spring-open.example"
    body = smtp_server.text(message)
    wind = ["East", "South", "West", "North"][seat.seat]
    assert f"Table {seat.table.number}\n  Seat {label} · you start {wind}" in body
    assert "Starts Saturday 5 December, 09:00." in body
    assert f"第{seat.table.number}桌" in body  # and in Chinese
    link = body.split("https://mcr.example", 1)[1].split()[0]
    token = link.removeprefix("/me/").rstrip("/")
    assert player_links.player_for_token(token) == seat.player
    assert OutgoingEmail.objects.filter(sent_at__isnull=False).count() == 12


def test_a_draw_under_review_sends_nothing_until_published(tournament, smtp_server, run_tasks):
    services.tournament_update(tournament=tournament, review_draws=True)
    with_emails(tournament, 16)
    with run_tasks():
        session = services.session_draw(tournament=tournament, number=1, seed=3)
    assert smtp_server.messages == []
    assert not OutgoingEmail.objects.exists()
    with run_tasks():
        services.session_publish(session=session)
    assert len(smtp_server.messages) == 12
    # Published twice: no second message.
    with run_tasks():
        services.session_publish(session=session)
    assert len(smtp_server.messages) == 12


def test_the_substitute_given_a_seat_is_told_it(tournament, smtp_server, run_tasks):
    with_emails(tournament, 16)
    sub = services.player_save(
        tournament=tournament, number=17, name="Sub", is_substitute=True, email="sub@example.org"
    )
    with run_tasks():
        session = services.session_draw(tournament=tournament, number=1, seed=3)
    seat = session.seats.get(player__number=5)
    with run_tasks():
        services.seat_replace(seat=seat, player=sub)
    (message,) = smtp_server.to("sub@example.org")
    assert f"table {seat.table.number}" in message["Subject"]


def test_nothing_is_sent_when_the_transaction_rolls_back(tournament, smtp_server, run_tasks):
    from django.db import transaction

    with_emails(tournament, 16)
    with (
        run_tasks(),
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        services.session_draw(tournament=tournament, number=1, seed=3)
        raise RuntimeError("the draw's transaction fails after the messages were queued")
    assert smtp_server.messages == []
    assert not OutgoingEmail.objects.exists()


def test_a_failing_server_never_fails_the_draw_and_the_message_is_retried(
    tournament, smtp_server, run_tasks
):
    with_emails(tournament, 4)
    make_players(tournament, 12, start=5)
    smtp_server.refuse = True
    with run_tasks():
        session = services.session_draw(tournament=tournament, number=1, seed=3)
    assert session.pk is not None
    emails = OutgoingEmail.objects.order_by("to")
    assert [(e.to, e.attempts, e.sent_at) for e in emails] == [
        (f"p{n}@example.org", 1, None) for n in (1, 2, 3)
    ]
    assert "451" in emails[0].error
    # Not tried again before its wait is over.
    assert services.emails_send_due() == 0
    # The queue holds the retry for when the wait is over.
    (retry,) = DBTaskResult.objects.filter(status="READY")
    assert retry.task_path == "tournament.services.mail.emails_deliver"
    assert retry.run_after == emails[0].last_attempt_at + FIRST_RETRY
    call_command("worker", "--once")
    assert smtp_server.messages == []  # not yet
    smtp_server.refuse = False
    # Three minutes later.
    OutgoingEmail.objects.update(last_attempt_at=F("last_attempt_at") - timedelta(minutes=3))
    DBTaskResult.objects.update(run_after=F("run_after") - timedelta(minutes=3))
    call_command("worker", "--once")
    assert len(smtp_server.messages) == 3
    assert not OutgoingEmail.objects.filter(sent_at__isnull=True).exists()
    assert OutgoingEmail.objects.filter(error="").count() == 3


def test_an_unreachable_server_is_an_error_kept_and_after_the_last_attempt_only_send_now(
    tournament, settings, run_tasks
):
    from tests.mail_server import free_port

    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", free_port()  # nobody listens
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    with_emails(tournament, 16)
    with run_tasks():
        services.session_draw(tournament=tournament, number=1, seed=3)
    email = OutgoingEmail.objects.first()
    assert email.attempts == 1 and "Connection" in email.error
    OutgoingEmail.objects.update(
        attempts=MAX_ATTEMPTS, last_attempt_at=timezone.now() - timedelta(days=1)
    )
    assert services.emails_send_due() == 0  # given up on
    assert OutgoingEmail.objects.filter(attempts=MAX_ATTEMPTS).count() == 12


def test_without_a_mail_server_the_messages_wait_with_the_reason(tournament, settings, run_tasks):
    settings.EMAIL_HOST = ""
    with_emails(tournament, 16)
    with run_tasks():
        services.session_draw(tournament=tournament, number=1, seed=3)
    assert set(OutgoingEmail.objects.values_list("error", flat=True)) == {
        "No mail server is set (MCR_EMAIL_HOST)."
    }
    assert not OutgoingEmail.objects.filter(sent_at__isnull=False).exists()


def test_unsent_seats_are_dropped_when_the_draw_is_cancelled_or_the_seat_given_away(
    tournament, settings, run_tasks
):
    settings.EMAIL_HOST = ""  # nothing can be sent: every message waits
    with_emails(tournament, 16)
    sub = services.player_save(
        tournament=tournament, number=17, name="Sub", is_substitute=True, email="sub@example.org"
    )
    session = services.session_draw(tournament=tournament, number=1, seed=3)
    seat = session.seats.select_related("player").get(player__number=5)
    services.seat_replace(seat=seat, player=sub)
    waiting = set(OutgoingEmail.objects.values_list("to", flat=True))
    assert "p5@example.org" not in waiting and "sub@example.org" in waiting
    services.session_cancel_draw(session=session)
    assert not OutgoingEmail.objects.exists()


def test_a_withdrawn_player_still_seated_is_not_told_the_seat(tournament, smtp_server, run_tasks):
    services.tournament_update(tournament=tournament, review_draws=True)
    with_emails(tournament, 16)
    session = services.session_draw(tournament=tournament, number=1, seed=3)
    services.player_withdraw(player=tournament.players.get(number=5))
    with run_tasks():
        services.session_publish(session=session)
    # Told of the withdrawal (test_withdrawal_mail.py), not of the seat.
    (told,) = smtp_server.to("p5@example.org")
    assert "you are withdrawn from the tournament" in told["Subject"]
    assert len(smtp_server.messages) == 12


def test_the_retry_is_queued_for_the_first_message_due_whatever_its_attempts(tournament):
    now = timezone.now()
    for attempts, ago in ((3, timedelta(minutes=1)), (1, timedelta(seconds=30))):
        OutgoingEmail.objects.create(
            tournament=tournament,
            reason="seat",
            to=f"p{attempts}@example.org",
            subject="Table 1",
            body="Seat East",
            attempts=attempts,
            last_attempt_at=now - ago,
            error="451 Try again later",
        )
    _retry_schedule()
    _retry_schedule()  # already queued for then: not twice
    (retry,) = DBTaskResult.objects.all()
    # The one tried once waits 2 minutes, the one tried three times 8.
    assert retry.run_after == now - timedelta(seconds=30) + FIRST_RETRY
