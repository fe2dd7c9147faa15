"""The organiser's list of e-mails (sent, waiting, failed, each with its error) and *Send
now*, with every persona; and a player's e-mail address never on a public page or file."""

import io
import zipfile
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests import html
from tests.conftest import download, login
from tournament import services, tables
from tournament.models import OutgoingEmail
from tournament.models.mail import MAIL_REASON_CHOICES


def url(name, *args, slug="spring-open"):
    return reverse(name, args=[slug, *args])


def text(response) -> str:
    """The page's text as a reader sees it."""
    (body,) = html.texts(response.content, "body")
    return body


@pytest.fixture
def drawn_without_server(tournament, settings, run_tasks):
    """Session 1 of 16 players with e-mails drawn while no mail server was set."""
    settings.EMAIL_HOST = ""
    for number in range(1, 17):
        services.player_save(
            tournament=tournament, number=number, name=f"P{number}", email=f"p{number}@ex.org"
        )
    with run_tasks():
        services.session_draw(tournament=tournament, number=1, seed=3)
    return tournament


def test_the_list_shows_each_message_and_why_it_is_not_sent(drawn_without_server, organiser):
    page = text(login(organiser).get(url("email_list")))
    assert "Sent: 0 Queued: 16 Failed: 0" in page
    # No worker is running in the tests: the page says the messages cannot go out.
    assert "The messages cannot go out now: no task worker is running" in page
    assert "p7@ex.org" in page
    assert "No mail server is set (MCR_EMAIL_HOST)." in page
    assert "1 attempt" in page


def test_send_now_sends_the_waiting_ones_once_a_server_is_set(
    drawn_without_server, organiser, smtp_server, run_tasks
):
    with run_tasks():
        response = login(organiser).post(url("emails_send"), follow=True)
        # The request only queued the sending.
        assert smtp_server.messages == []
    assert "16 e-mails are being sent: reload this page to follow them." in text(response)
    assert len(smtp_server.messages) == 16
    assert "Sent: 16 Queued: 0 Failed: 0" in text(login(organiser).get(url("email_list")))
    page = text(login(organiser).get(url("email_list") + "?status=queued"))
    assert "No e-mail yet." in page


def test_a_players_address_is_on_no_public_page_nor_file(drawn_without_server):
    anonymous = Client()
    pages = [
        url("tournament"),
        url("seating", 1),
        url("seating_by_name", 1),
        url("player_schedule", 7),
        url("standings"),
        url("statistics"),
    ]
    for page in pages:
        assert "@ex.org" not in anonymous.get(page).content.decode(), page
    for workbook in (url("standings_xlsx"), url("ema_xlsx")):
        content = download(anonymous, workbook).content
        with zipfile.ZipFile(io.BytesIO(content)) as book:
            for name in book.namelist():
                assert b"@ex.org" not in book.read(name), (workbook, name)


@pytest.mark.parametrize(
    ("persona", "read", "write"),
    [("organiser", 200, 302), ("referee", 403, 403), ("other_referee", 403, 403)],
)
def test_the_emails_are_the_organisers(
    personas, drawn_without_server, smtp_server, persona, read, write, run_tasks
):
    client = personas[persona]
    assert client.get(url("email_list")).status_code == read
    with run_tasks():
        assert client.post(url("emails_send")).status_code == write
    assert OutgoingEmail.objects.filter(sent_at__isnull=False).exists() == (persona == "organiser")


def test_anonymous_visitors_are_sent_to_log_in(drawn_without_server, smtp_server):
    for response in (Client().get(url("email_list")), Client().post(url("emails_send"))):
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    assert smtp_server.messages == []


# ---------------------------------------------------------------- the list as a table


@pytest.fixture
def five_emails(tournament):
    """Five messages written a minute apart (newest last): the 2nd and 4th sent, the 3rd
    sent first; the others waiting."""
    start = timezone.now() - timedelta(hours=1)
    sent = {2: start + timedelta(minutes=30), 3: start + timedelta(minutes=20)}
    for n in range(1, 6):
        email = OutgoingEmail.objects.create(
            tournament=tournament,
            reason=MAIL_REASON_CHOICES[0][0],
            to=f"p{n}@ex.org",
            subject=f"Subject {chr(ord('f') - n)}",
            body="…",
            sent_at=sent.get(n),
            attempts=1 if n in sent else 0,
        )
        OutgoingEmail.objects.filter(pk=email.pk).update(created_at=start + timedelta(minutes=n))
    return tournament


def listed(response) -> list[str]:
    """The addresses the list shows, in its order."""
    return [row[0] for row in html.table(response.content, "table.emails")[1:]]


@pytest.mark.parametrize(
    ("sort", "addresses"),
    [
        (None, [5, 4, 3, 2, 1]),  # newest written first
        ("to", [1, 2, 3, 4, 5]),
        ("-subject", [1, 2, 3, 4, 5]),
        ("subject", [5, 4, 3, 2, 1]),
        # By the time sent, those not sent after, newest written first among them.
        ("status", [3, 2, 5, 4, 1]),
        ("-status", [5, 4, 1, 2, 3]),
    ],
)
def test_the_list_sorts_by_address_subject_and_time_sent(five_emails, organiser, sort, addresses):
    query = {"sort": sort} if sort else {}
    response = login(organiser).get(url("email_list"), query)
    assert listed(response) == [f"p{n}@ex.org" for n in addresses]


def test_the_list_goes_by_pages_keeping_the_status_asked_for(five_emails, organiser, monkeypatch):
    monkeypatch.setattr(tables, "PAGE_SIZE", 2)
    client = login(organiser)
    assert listed(client.get(url("email_list"), {"page": "2"})) == ["p3@ex.org", "p2@ex.org"]
    assert len(listed(client.get(url("email_list"), {"page": "all"}))) == 5
    waiting = client.get(url("email_list"), {"status": "queued", "page": "2"})
    assert listed(waiting) == ["p1@ex.org"]
    pages = [
        link.attrs["href"]
        for link in html.elements(waiting.content, "a")
        if "page=" in link.attrs.get("href", "")
    ]
    assert pages and all("status=queued" in href for href in pages)
    (row,) = html.elements(
        waiting.content, f"tr#email-{OutgoingEmail.objects.get(to='p1@ex.org').pk}"
    )
    assert "queued" in row.text()
