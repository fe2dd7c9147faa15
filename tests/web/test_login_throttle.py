"""Login throttling: ten wrong passwords for one account from one address lock that account
out of that address for fifteen minutes, on the login page and the admin's; a superuser, or
an organiser of a tournament the account serves, can unlock it sooner from the "Locked-out
accounts" page, and the failed logins stay on record."""

import logging
from datetime import timedelta

import pytest
from axes.models import AccessAttempt, AccessFailureLog
from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.db.models import F
from django.test import Client, RequestFactory, override_settings
from django.urls import reverse

from tests import html
from tests.conftest import login, make_user
from tournament import services
from tournament.server.login_throttle import client_ip, failed_logins

LOGIN_URL = reverse("login")
LIST_URL = reverse("lockouts")
UNLOCK_URL = reverse("lockout_unlock")


def try_login(client: Client, password: str, *, username: str = "referee", url=LOGIN_URL, **extra):
    return client.post(url, {"username": username, "password": password}, **extra)


def logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def lock_out(client: Client, *, username: str = "referee", **extra) -> None:
    for attempt in range(1, 11):
        response = try_login(client, f"wrong-{attempt}", username=username, **extra)
        assert response.status_code == (429 if attempt == 10 else 200), attempt


def minutes_pass(minutes: int) -> None:
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=minutes))


# ---------------------------------------------------------------- the lockout


def test_ten_wrong_passwords_lock_the_account_out_even_with_the_right_one(referee):
    client = Client()
    for attempt in range(1, 10):
        response = try_login(client, f"wrong-{attempt}")
        assert response.status_code == 200
        assert "Please enter a correct username and password" in response.content.decode()
    response = try_login(client, "wrong-10")
    assert response.status_code == 429
    html = response.content.decode()
    assert "Too many failed logins" in html
    assert "After 10 wrong passwords" in html
    assert "Try again in 15 minutes, or ask an organiser to unlock it now." in html

    response = try_login(client, "pw-referee")
    assert response.status_code == 429
    assert "Too many failed logins" in response.content.decode()
    assert not logged_in(client)


def test_the_lockout_ends_after_fifteen_minutes(referee):
    client = Client()
    lock_out(client)
    minutes_pass(14)
    assert try_login(client, "pw-referee").status_code == 429
    minutes_pass(2)
    response = try_login(client, "pw-referee")
    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    assert logged_in(client)


def test_trying_again_while_locked_out_does_not_prolong_it(referee):
    client = Client()
    lock_out(client)
    minutes_pass(10)
    assert try_login(client, "pw-referee").status_code == 429
    assert try_login(client, "wrong-11").status_code == 429
    minutes_pass(6)
    assert try_login(client, "pw-referee").status_code == 302


def test_the_lockout_is_for_one_account_from_one_address(referee, organiser):
    lock_out(Client(), REMOTE_ADDR="10.0.0.1")
    assert try_login(Client(), "pw-referee", REMOTE_ADDR="10.0.0.2").status_code == 302
    other_account = try_login(
        Client(), "pw-organiser", username="organiser", REMOTE_ADDR="10.0.0.1"
    )
    assert other_account.status_code == 302
    assert try_login(Client(), "pw-referee", REMOTE_ADDR="10.0.0.1").status_code == 429


def test_a_login_that_succeeds_clears_the_count(referee):
    client = Client()
    for attempt in range(9):
        assert try_login(client, f"wrong-{attempt}").status_code == 200
    assert try_login(client, "pw-referee").status_code == 302
    client.post(reverse("logout"))
    for attempt in range(9):
        assert try_login(client, f"wrong-{attempt}").status_code == 200
    assert try_login(client, "pw-referee").status_code == 302


def test_the_admin_login_is_throttled_too(db):
    User.objects.create_superuser("admin", password="pw-admin")
    client = Client()
    url = reverse("admin:login")
    for attempt in range(10):
        response = try_login(client, f"wrong-{attempt}", username="admin", url=url)
    assert response.status_code == 429
    assert try_login(client, "pw-admin", username="admin", url=url).status_code == 429


def test_behind_a_proxy_the_address_is_the_one_it_forwards(referee):
    """With one proxy (nginx), the last X-Forwarded-For entry is the visitor's; what comes
    before it the visitor may have written themselves."""
    with override_settings(TRUSTED_PROXY_COUNT=1):
        lock_out(Client(), HTTP_X_FORWARDED_FOR="198.51.100.7, 203.0.113.5")
        assert AccessAttempt.objects.get().ip_address == "203.0.113.5"
        other_visitor = try_login(Client(), "pw-referee", HTTP_X_FORWARDED_FOR="203.0.113.6")
        assert other_visitor.status_code == 302
        spoofing = try_login(Client(), "pw-referee", HTTP_X_FORWARDED_FOR="1.2.3.4, 203.0.113.5")
        assert spoofing.status_code == 429


@pytest.mark.parametrize(
    ("proxies", "forwarded", "expected"),
    [
        (0, "203.0.113.5", "10.0.0.9"),  # no proxy: the header is the visitor's own say
        (1, "203.0.113.5", "203.0.113.5"),
        (1, "1.2.3.4, 203.0.113.5", "203.0.113.5"),
        (2, "203.0.113.5, 10.0.0.2", "203.0.113.5"),
        (2, "203.0.113.5", "10.0.0.9"),  # too short: it went round a proxy
        (1, "", "10.0.0.9"),
        (1, "not-an-address", "10.0.0.9"),
        (1, "2001:db8::1", "2001:db8::1"),
    ],
)
def test_client_address(settings, proxies, forwarded, expected):
    settings.TRUSTED_PROXY_COUNT = proxies
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.9", HTTP_X_FORWARDED_FOR=forwarded)
    assert client_ip(request) == expected


def test_the_servers_own_password_checks_are_not_throttled(referee):
    """authenticate() without a request (a management command, the shell) checks the
    password as before."""
    assert authenticate(username="referee", password="pw-referee") == referee
    assert authenticate(username="referee", password="wrong") is None


# ---------------------------------------------------------------- the organisers' page


@pytest.mark.parametrize(
    ("persona", "expected"),
    [("organiser", 200), ("referee", 403), ("other_referee", 403), ("anonymous", 302)],
)
def test_the_list_by_persona(personas, persona, expected):
    response = personas[persona].get(LIST_URL)
    assert response.status_code == expected
    if persona == "anonymous":
        assert response["Location"].startswith(LOGIN_URL + "?next=")


@pytest.mark.parametrize(
    ("persona", "expected"),
    [("organiser", 302), ("referee", 403), ("other_referee", 403), ("anonymous", 302)],
)
def test_only_organisers_unlock(personas, tournament, persona, expected):
    lock_out(Client())
    response = personas[persona].post(
        UNLOCK_URL, {"username": "referee", "ip_address": "127.0.0.1"}
    )
    assert response.status_code == expected
    if persona == "organiser":
        assert response["Location"] == LIST_URL
    elif persona == "anonymous":
        assert response["Location"].startswith(LOGIN_URL + "?next=")
    assert AccessAttempt.objects.exists() == (persona != "organiser")


def test_a_superuser_may_unlock(referee):
    lock_out(Client())
    client = login(User.objects.create_superuser("admin", password="pw-admin"))
    assert client.get(LIST_URL).status_code == 200
    client.post(UNLOCK_URL, {"username": "referee", "ip_address": "127.0.0.1"})
    assert not AccessAttempt.objects.exists()


def test_the_unlock_takes_post_only(organiser):
    client = login(organiser)
    assert client.get(UNLOCK_URL).status_code == 405
    assert client.put(LIST_URL).status_code == 405


def test_an_organiser_unlocks_a_referee_who_then_logs_in(organiser, referee, tournament):
    tablet = Client()
    lock_out(tablet, REMOTE_ADDR="10.0.0.7")
    try_login(Client(), "wrong", username="organiser", REMOTE_ADDR="10.0.0.8")

    organiser_client = login(organiser)
    page = organiser_client.get(LIST_URL)
    # Account, address, failed logins, the last one, status, the unlock: the referee only,
    # the organiser's own account is not one to unlock here.
    ((account, address, failures, _last, status, unlock),) = html.table(
        page.content, "table.lockouts"
    )[1:]
    assert (account, address, failures, unlock) == ("referee", "10.0.0.7", "10", "Unlock")
    assert status.startswith("locked out for 14")
    assert html.elements(page.content, "tr[data-username=referee]")
    assert [
        (row.username, row.failures, row.locked_until is not None) for row in failed_logins()
    ] == [
        ("organiser", 1, False),
        ("referee", 10, True),
    ]

    response = organiser_client.post(
        UNLOCK_URL, {"username": "referee", "ip_address": "10.0.0.7"}, follow=True
    )
    assert "referee may log in again from 10.0.0.7." in response.content.decode()
    assert try_login(tablet, "pw-referee", REMOTE_ADDR="10.0.0.7").status_code == 302
    assert [row.username for row in failed_logins()] == ["organiser"]


def test_an_unlock_without_address_unlocks_every_address(organiser, referee, tournament):
    lock_out(Client(), REMOTE_ADDR="10.0.0.7")
    lock_out(Client(), REMOTE_ADDR="10.0.0.8")
    lock_out(Client(), username="organiser", REMOTE_ADDR="10.0.0.8")
    response = login(organiser).post(
        UNLOCK_URL, {"username": "referee", "ip_address": ""}, follow=True
    )
    assert "referee may log in again from every address." in response.content.decode()
    assert [row.username for row in failed_logins()] == ["organiser"]


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"username": ""},
        {"username": "referee", "ip_address": "10.0.0.300"},
        {"username": "x" * 151},
    ],
)
def test_an_unlock_of_nothing_valid_unlocks_nothing(organiser, referee, tournament, data):
    lock_out(Client())
    response = login(organiser).post(UNLOCK_URL, data, follow=True)
    assert "Nothing unlocked" in response.content.decode()
    assert AccessAttempt.objects.count() == 1


def test_the_home_page_links_the_list_for_organisers_only(organiser, referee):
    assert LIST_URL in login(organiser).get(reverse("home")).content.decode()
    assert LIST_URL not in login(referee).get(reverse("home")).content.decode()


def test_the_admin_lists_the_failed_logins(referee):
    lock_out(Client(), REMOTE_ADDR="10.0.0.7")
    client = login(User.objects.create_superuser("admin", password="pw-admin"))
    html = client.get(reverse("admin:axes_accessattempt_changelist")).content.decode()
    assert "10.0.0.7" in html


def test_a_name_too_long_for_any_account_is_refused_as_a_wrong_login(db):
    # Recorded cut to an account name's length: it fits axes' column on every database.
    response = try_login(Client(), "x", username="n" * 400)
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()
    assert AccessAttempt.objects.get().username == "n" * 150


# ---------------------------------------------------------------- who may unlock which account


@pytest.fixture
def cast(tournament, other_tournament, organiser, referee, other_referee):
    """Tournament A (``tournament``): ``organiser`` organises it, ``referee`` referees it.
    Tournament B (``other_tournament``): ``other-organiser`` organises it, ``other-referee``
    referees it. ``stranger`` serves no tournament."""
    make_user("stranger")
    return {
        "organiser of A": login(organiser),
        "organiser of B": login(User.objects.get(username="other-organiser")),
        "referee of A": login(referee),
        "superuser": login(User.objects.create_superuser("admin", password="pw-admin")),
        "anonymous": login(None),
    }


def locked(username: str, address: str) -> bool:
    return any(
        row.username == username and row.ip_address == address and row.locked_until
        for row in failed_logins()
    )


@pytest.mark.parametrize(
    ("persona", "expected"),
    [
        ("organiser of A", 302),
        ("organiser of B", 403),
        ("referee of A", 403),
        ("anonymous", 302),
        ("superuser", 302),
    ],
)
def test_a_lockout_is_lifted_by_an_organiser_of_the_accounts_tournament_or_a_superuser(
    cast, persona, expected
):
    lock_out(Client(), REMOTE_ADDR="10.0.0.7")
    response = cast[persona].post(UNLOCK_URL, {"username": "referee", "ip_address": "10.0.0.7"})
    assert response.status_code == expected
    unlocked = persona in ("organiser of A", "superuser")
    assert locked("referee", "10.0.0.7") == (not unlocked)
    if persona == "anonymous":
        assert response["Location"].startswith(LOGIN_URL + "?next=")


def test_an_organiser_of_another_tournament_cannot_unlock_from_every_address(cast):
    lock_out(Client(), REMOTE_ADDR="10.0.0.7")
    response = cast["organiser of B"].post(UNLOCK_URL, {"username": "referee", "ip_address": ""})
    assert response.status_code == 403
    assert locked("referee", "10.0.0.7")


def test_an_organiser_unlocks_a_co_organiser_but_not_one_who_may_create_tournaments(
    cast, other_tournament
):
    """A co-organiser added to B (no right of their own to create tournaments) is B's
    organiser's to unlock; B's creator, an organiser in their own right, a superuser's."""
    other_tournament.organisers.add(make_user("co-organiser"))
    lock_out(Client(), username="other-referee", REMOTE_ADDR="10.0.0.7")
    lock_out(Client(), username="co-organiser", REMOTE_ADDR="10.0.0.7")
    lock_out(Client(), username="other-organiser", REMOTE_ADDR="10.0.0.8")
    organiser_b = cast["organiser of B"]
    for username in ("other-referee", "co-organiser"):
        answer = organiser_b.post(UNLOCK_URL, {"username": username, "ip_address": "10.0.0.7"})
        assert answer.status_code == 302
    answer = organiser_b.post(UNLOCK_URL, {"username": "other-organiser", "ip_address": ""})
    assert answer.status_code == 403
    assert [row.username for row in failed_logins()] == ["other-organiser"]


@pytest.mark.parametrize("target", ["admin", "other-organiser", "other-referee", "stranger"])
def test_naming_an_account_a_referee_of_ones_own_tournament_does_not_let_one_unlock_it(
    cast, tournament, organiser, target
):
    """Any organiser may tick any account among their tournament's referees: that must not
    open its lockout to them (a superuser, another tournament's organiser or referee, or an
    account that served nobody and now serves only A stays a superuser's to unlock: the
    last is the one case an organiser may unlock, as A's referee)."""
    services.tournament_update(
        tournament=tournament,
        referees=[*tournament.referees.all(), User.objects.get(username=target)],
    )
    lock_out(Client(), username=target, REMOTE_ADDR="10.0.0.7")
    answer = cast["organiser of A"].post(UNLOCK_URL, {"username": target, "ip_address": ""})
    if target == "stranger":
        # Serves A only, and no other tournament: A's referee like any other.
        assert answer.status_code == 302
        return
    assert answer.status_code == 403
    assert locked(target, "10.0.0.7")
    page = cast["organiser of A"].get(LIST_URL).content
    assert not html.elements(page, f"[data-username={target}]")


def test_the_list_shows_each_viewer_only_what_they_may_unlock(cast):
    for username in ("referee", "other-referee", "stranger", "nobody-at-all"):
        lock_out(Client(), username=username, REMOTE_ADDR="10.0.0.7")

    def listed(persona):
        page = cast[persona].get(LIST_URL).content
        return sorted(e.attrs["data-username"] for e in html.elements(page, "[data-username]"))

    assert listed("organiser of A") == ["referee"]
    assert listed("organiser of B") == ["other-referee"]
    # Unknown names and accounts serving no tournament: a superuser's.
    assert listed("superuser") == ["nobody-at-all", "other-referee", "referee", "stranger"]
    assert cast["referee of A"].get(LIST_URL).status_code == 403


def test_an_organiser_who_did_not_create_the_tournament_may_unlock_its_referee(tournament, referee):
    """A co-organiser added to the tournament, without the right to create tournaments."""
    co_organiser = make_user("co-organiser")
    tournament.organisers.add(co_organiser)
    lock_out(Client(), REMOTE_ADDR="10.0.0.7")
    client = login(co_organiser)
    assert html.elements(client.get(LIST_URL).content, "[data-username=referee]")
    client.post(UNLOCK_URL, {"username": "referee", "ip_address": "10.0.0.7"})
    assert not locked("referee", "10.0.0.7")


def test_the_audit_an_organiser_guessing_at_another_tournaments_referee_is_locked_out(cast):
    """The audit's reproduction: the organiser of A, from their own machine, guesses at B's
    referee's password, tries to lift the lockout after each ten, and is refused: the eleventh
    guess, even the right password, is refused, and stays so."""
    guesser = Client(REMOTE_ADDR="10.0.0.66")
    lock_out(guesser, username="other-referee", REMOTE_ADDR="10.0.0.66")
    unlock = {"username": "other-referee", "ip_address": "10.0.0.66"}
    assert cast["organiser of A"].post(UNLOCK_URL, unlock).status_code == 403
    assert cast["organiser of A"].post(UNLOCK_URL, {"username": "other-referee"}).status_code == (
        403
    )
    for guess in range(5):
        answer = try_login(guesser, f"guess-{guess}", username="other-referee")
        assert answer.status_code == 429
    assert try_login(guesser, "pw-other-referee", username="other-referee").status_code == 429
    listed = cast["organiser of A"].get(LIST_URL).content
    assert not html.elements(listed, "[data-username=other-referee]")


def test_an_unlock_keeps_the_failed_logins_on_record_and_says_who_lifted_it(cast, caplog):
    lock_out(Client(), REMOTE_ADDR="10.0.0.7")
    with caplog.at_level(logging.WARNING, logger="tournament.server.login_throttle"):
        cast["organiser of A"].post(UNLOCK_URL, {"username": "referee", "ip_address": "10.0.0.7"})
    assert not locked("referee", "10.0.0.7")
    kept = AccessFailureLog.objects.filter(username="referee", ip_address="10.0.0.7")
    assert kept.count() == 10
    assert kept.filter(locked_out=True).exists()
    assert [r.getMessage() for r in caplog.records if "unlocked" in r.getMessage()] == [
        "organiser unlocked the logins of 'referee' from 10.0.0.7, after 10 failed logins."
    ]
