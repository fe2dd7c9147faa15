"""A session's last step undone (its reviewed draw published, opened for play, closed): each
only while nothing that depends on it has happened since, the session then exactly as before
the step, and the undo in the activity log under the organiser's name."""

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from tests.conftest import make_players, play_every_table
from tournament import services
from tournament.history import audit
from tournament.models import OutgoingEmail, Session
from tournament.selectors.activity import ActivityLog
from tournament.selectors.undo import session_undo_now


def stored(session) -> Session:
    return Session.objects.get(pk=session.pk)


def state(session) -> dict:
    """What the steps change: the session's times, its tables' confirmations, its seat
    e-mails (to whom, sent or not)."""
    session = stored(session)
    return {
        "times": (session.published_at, session.opened_at, session.closed_at),
        "confirmed": sorted(
            session.tables.filter(confirmed_at__isnull=False).values_list("number", flat=True)
        ),
        "emails": sorted(
            OutgoingEmail.objects.filter(reason="seat", session_number=session.number).values_list(
                "to", "sent_at"
            )
        ),
    }


def refusal(action, session) -> str:
    """The code of ``action``'s refusal, ``session``'s state left as it was."""
    before = state(session)
    with pytest.raises(ValidationError) as refused:
        action(session=session)
    assert state(session) == before
    return refused.value.code


def logged_undo(tournament, organiser) -> str:
    """The log's newest entry, which must be the organiser's undo: its subject and action."""
    newest = ActivityLog(tournament)[0]
    assert newest.user == organiser
    return f"{newest.subject} | {newest.action}"


@pytest.fixture
def reviewed(tournament):
    """Session 1 drawn, under review, in a tournament that reviews its draws; 12 of its 16
    players have an e-mail address."""
    services.tournament_update(tournament=tournament, review_draws=True)
    for number in range(1, 17):
        email = f"p{number}@example.org" if number <= 12 else ""
        services.player_save(
            tournament=tournament, number=number, name=f"Player {number}", email=email
        )
    return services.session_draw(tournament=tournament, number=1, seed=3)


def test_publishing_undone_hides_the_draw_again_and_drops_its_unsent_e_mails(reviewed, organiser):
    before = state(reviewed)
    services.session_publish(session=reviewed)
    assert len(state(reviewed)["emails"]) == 12
    undo = session_undo_now(reviewed)
    assert (undo.step, undo.allowed, undo.unsent_emails) == ("publish", True, 12)
    with audit.acting(user=organiser):
        assert services.session_publish_undo(session=reviewed) == 12
    assert state(reviewed) == before
    log = logged_undo(reviewed.tournament, organiser)
    assert log == "Session 1 | back under review, undone"
    # Nothing left to undo: a second tap is told so and changes nothing.
    assert refusal(services.session_publish_undo, reviewed) == "nothing_to_undo"
    # Published again, the players are told again.
    services.session_publish(session=reviewed)
    assert len(state(reviewed)["emails"]) == 12


@pytest.mark.parametrize("told", ["sent", "being sent"])
def test_publishing_stands_once_a_seat_e_mail_has_gone(reviewed, told):
    services.session_publish(session=reviewed)
    email = OutgoingEmail.objects.filter(reason="seat").first()
    if told == "sent":
        email.sent_at, email.attempts = timezone.now(), 1
    else:
        email.claimed_by = "worker-1"
    email.save()
    assert refusal(services.session_publish_undo, reviewed) == "undo_refused"
    assert "1 player has been e-mailed their seat" in session_undo_now(reviewed).refusal


def test_publishing_stands_once_the_session_is_opened_or_without_review(reviewed, tournament):
    services.session_publish(session=reviewed)
    services.session_open(session=stored(reviewed))
    assert session_undo_now(reviewed).step == "open"
    assert refusal(services.session_publish_undo, reviewed) == "nothing_to_undo"
    services.tournament_update(tournament=tournament, review_draws=False)
    services.session_open_undo(session=reviewed)
    # Published by its draw, as every draw of a tournament that does not review them.
    assert session_undo_now(reviewed) is None
    assert refusal(services.session_publish_undo, reviewed) == "nothing_to_undo"


def test_opening_undone_takes_the_session_back_to_drawn_until_a_hand_is_entered(
    tournament, organiser
):
    make_players(tournament, 16)
    session = services.session_draw(tournament=tournament, number=1, seed=3)
    before = state(session)
    services.session_open(session=session)
    with audit.acting(user=organiser):
        services.session_open_undo(session=session)
    assert state(session) == before
    assert logged_undo(tournament, organiser) == "Session 1 | back to drawn, undone"
    assert refusal(services.session_open_undo, session) == "nothing_to_undo"
    # Opened again, a hand at one table: the opening stands.
    services.session_open(session=stored(session))
    services.hand_record(
        table=session.tables.get(number=2), entry=services.HandEntry(number=1, outcome="draw")
    )
    assert refusal(services.session_open_undo, session) == "undo_refused"
    assert session_undo_now(session).refusal == "No longer: hands are entered."


def test_closing_undone_puts_the_session_in_play_until_another_is_drawn(
    tournament, organiser, referee
):
    make_players(tournament, 16)
    first = services.session_draw(tournament=tournament, number=1, seed=3)
    services.session_open(session=first)
    play_every_table(first, referee=referee)
    before = state(first)
    services.session_close(session=first)
    # An open session is neither published again nor reopened: its last step is the close.
    assert refusal(services.session_open_undo, first) == "nothing_to_undo"
    with audit.acting(user=organiser):
        services.session_close_undo(session=first)
    assert state(first) == before
    assert stored(first).status == "in_play"
    assert logged_undo(tournament, organiser) == "Session 1 | reopened, undone"
    assert refusal(services.session_close_undo, first) == "nothing_to_undo"
    services.session_close(session=first)
    # Session 2 drawn after the close, from its results: the close stands.
    second = services.session_draw(tournament=tournament, number=2, seed=4)
    assert refusal(services.session_close_undo, first) == "undo_refused"
    assert session_undo_now(first).refusal.startswith("No longer: another session")
    # Its draw cancelled, nothing depends on the close any more.
    services.session_cancel_draw(session=second)
    services.session_close_undo(session=first)
    assert stored(first).closed_at is None
