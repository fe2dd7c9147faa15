"""The sign-up pages: the public form (errors beside their fields, duplicates, closed,
throttled, writing only its own fields), a sign-up's own page and its withdrawal, and the
organiser's board, with every persona."""

import pytest
from django.test import Client
from django.urls import reverse

from tests import html
from tests.conftest import login
from tests.web.pages import assert_error_beside
from tournament import services, tables
from tournament.models import OutgoingEmail, Player, SignUp
from tournament.players.player_links import sign_up_token
from tournament.server import form_throttle, rate_limits


def url(name, *args, slug="spring-open"):
    return reverse(name, args=[slug, *args])


def text(response) -> str:
    """The page's text as a reader sees it."""
    (body,) = html.texts(response.content, "body")
    return body


@pytest.fixture
def open_form(tournament):
    return services.tournament_update(
        tournament=tournament, sign_up_open=True, player_cap=4, sign_up_review=True
    )


def form_data(n: int, **fields) -> dict:
    return {"name": f"Signer {n}", "email": f"s{n}@example.org", **fields}


def test_a_sign_up_through_the_form_lands_on_its_own_page(open_form):
    visitor = Client()
    form = visitor.get(url("sign_up_form"))
    assert "Sign up for Spring Open" in text(form)
    # The name's fields are one question, which says how each is used.
    names = html.one(form.content, "fieldset.name-fields")
    assert names.one("legend").text() == "Your name"
    assert "family name first when you also give a Chinese name" in names.text()
    assert [field.attrs["name"] for field in names.find("input")] == [
        "name", "name_zh", "last_name", "first_name",
    ]  # fmt: skip
    response = visitor.post(
        url("sign_up_form"), form_data(1, name="Wang Fang", name_zh="王芳", country="fra")
    )
    found = SignUp.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("sign_up_status", args=[sign_up_token(found)])
    assert (found.status, found.country, found.name_zh) == ("pending", "FRA", "王芳")
    assert (found.first_name, found.last_name) == ("Fang", "Wang")
    page = text(visitor.get(response["Location"]))
    assert "Your sign-up holds a place" in page
    assert "Sign up" in text(Client().get(url("tournament")))


def test_bad_input_is_said_beside_its_field_and_nothing_is_stored(open_form):
    response = Client().post(url("sign_up_form"), {"name": "Ann", "ema_number": "abc"})
    assert_error_beside(response, "email", "This field is required.")
    assert_error_beside(response, "ema_number", "must be digits only")
    response = Client().post(url("sign_up_form"), {"email": "a@example.org"})
    assert_error_beside(response, "name", "Give your name")
    assert not SignUp.objects.exists()


def test_a_duplicate_is_refused_beside_the_field_with_the_reason(open_form):
    Client().post(url("sign_up_form"), form_data(1, ema_number="04010005"))
    response = Client().post(url("sign_up_form"), form_data(2, ema_number="04010005"))
    assert_error_beside(response, "ema_number", "has already signed up for this tournament")
    response = Client().post(url("sign_up_form"), form_data(1, name="SIGNER 1"))
    assert_error_beside(response, "email", "has already signed up with this e-mail")
    assert SignUp.objects.count() == 1


def test_the_waiting_list_is_said_with_the_place_in_line(open_form):
    for n in range(1, 7):
        response = Client().post(url("sign_up_form"), form_data(n))
    assert "you are number 2 on the waiting list" in text(Client().get(response["Location"]))


def test_the_form_writes_nothing_but_its_own_fields(open_form, other_tournament):
    player = services.player_save(tournament=open_form, number=9, name="Someone")
    Client().post(
        url("sign_up_form"),
        form_data(
            1,
            status="accepted",
            position="99",
            player=str(player.pk),
            tournament=str(other_tournament.pk),
            link_version="7",
        ),
    )
    found = SignUp.objects.get()
    assert (found.status, found.position, found.player, found.tournament, found.link_version) == (
        "pending",
        1,
        None,
        open_form,
        1,
    )
    assert Player.objects.count() == 1


def test_a_script_filling_the_hidden_field_is_not_taken(open_form):
    response = Client().post(url("sign_up_form"), form_data(1, website="http://spam"))
    assert response.status_code == 200
    assert "This sign-up was not taken." in text(response)
    assert not SignUp.objects.exists()


def test_the_form_is_throttled_per_address(open_form):
    flood = Client(REMOTE_ADDR="203.0.113.9")
    for n in range(form_throttle.SIGN_UPS_PER_WINDOW):
        assert flood.post(url("sign_up_form"), form_data(n)).status_code in (200, 302)
    response = flood.post(url("sign_up_form"), form_data(99))
    assert response.status_code == 429
    assert "Too many sign-ups from this connection" in text(response)
    assert not SignUp.objects.filter(name="Signer 99").exists()
    # Another address is not held back.
    other = Client(REMOTE_ADDR="203.0.113.10")
    assert other.post(url("sign_up_form"), form_data(100)).status_code == 302


def test_two_hundred_sign_ups_from_forty_addresses_are_held_to_the_tournaments_hour(
    open_form, settings
):
    """The audit's flood: forty addresses, five sign-ups each (under the per-address
    throttle), each e-mailing an address the sender chose."""
    settings.SIGN_UPS_PER_HOUR = 50
    answers = []
    for n in range(200):
        address = f"198.51.100.{n % 40 + 1}"
        answers.append(Client(REMOTE_ADDR=address).post(url("sign_up_form"), form_data(n)))
    assert [r.status_code for r in answers].count(302) == 50
    assert [r.status_code for r in answers].count(429) == 150
    assert "as many as it takes in an hour: please try again later" in text(answers[-1])
    assert SignUp.objects.count() == 50
    assert OutgoingEmail.objects.count() == 50


def test_an_email_address_used_too_often_is_refused_beside_the_field(open_form, settings):
    settings.SIGN_UPS_PER_EMAIL = 2
    for n in range(2):
        Client().post(url("sign_up_form"), form_data(n, email="victim@example.org"))
    response = Client().post(url("sign_up_form"), form_data(3, email="victim@example.org"))
    assert_error_beside(response, "email", "This e-mail address has signed up 2 times today")
    assert SignUp.objects.count() == 2


def test_with_the_cache_down_the_form_is_taken_and_the_tournaments_hour_still_holds(
    open_form, settings, monkeypatch
):
    class Down:
        def add(self, *args, **kwargs):
            raise ConnectionError("Connection refused")

        incr = add

    monkeypatch.setattr(rate_limits, "cache", Down())
    settings.SIGN_UPS_PER_HOUR = 12
    flood = Client(REMOTE_ADDR="203.0.113.9")
    codes = [flood.post(url("sign_up_form"), form_data(n)).status_code for n in range(15)]
    assert codes == [302] * 12 + [429] * 3
    assert SignUp.objects.count() == 12


def test_a_closed_form_says_why_and_takes_nothing(tournament):
    page = text(Client().get(url("sign_up_form")))
    assert "Sign-up for this tournament is closed." in page
    Client().post(url("sign_up_form"), form_data(1))
    assert not SignUp.objects.exists()


def test_withdrawing_with_the_own_link_promotes_the_first_in_line(open_form):
    for n in range(1, 6):
        Client().post(url("sign_up_form"), form_data(n))
    first = SignUp.objects.get(name="Signer 1")
    link = reverse("sign_up_status", args=[sign_up_token(first)])
    response = Client().post(link + "withdraw/", follow=True)
    assert "Your sign-up is withdrawn." in text(response)
    assert SignUp.objects.get(name="Signer 5").status == "pending"
    assert "Withdraw: I cannot come" not in text(Client().get(link))


def test_a_forged_sign_up_link_is_refused(open_form):
    Client().post(url("sign_up_form"), form_data(1))
    token = sign_up_token(SignUp.objects.get())
    forged = "WzIsMV0" + token[token.index(":") :]
    for response in (
        Client().get(reverse("sign_up_status", args=[forged])),
        Client().post(reverse("sign_up_withdraw", args=[forged])),
    ):
        assert response.status_code == 403
    assert SignUp.objects.get().status == "pending"


def test_the_organiser_accepts_refuses_and_moves(open_form, organiser):
    for n in range(1, 8):
        Client().post(url("sign_up_form"), form_data(n))
    board = login(organiser)
    page = text(board.get(url("sign_up_list")))
    assert "Places taken: 4 / 4" in page and "Waiting list: 3" in page
    ids = dict(SignUp.objects.values_list("name", "pk"))
    board.post(url("sign_up_decide", ids["Signer 1"], "accept"))
    board.post(url("sign_up_decide", ids["Signer 2"], "refuse"))
    board.post(url("sign_up_decide", ids["Signer 7"], "up"))
    response = board.post(url("sign_up_decide", ids["Signer 6"], "accept"), follow=True)
    assert "No place is free" in text(response)
    states = dict(SignUp.objects.values_list("name", "status"))
    assert (states["Signer 1"], states["Signer 2"], states["Signer 5"]) == (
        "accepted",
        "refused",
        "pending",
    )
    assert [s.name for s in SignUp.objects.filter(status="waiting").order_by("position")] == [
        "Signer 7",
        "Signer 6",
    ]
    assert board.post(url("sign_up_decide", ids["Signer 6"], "explode")).status_code == 404


@pytest.mark.parametrize(
    ("persona", "read", "write"),
    [
        ("organiser", 200, 302),
        ("referee", 403, 403),
        ("other_referee", 403, 403),
        ("anonymous", 302, 302),
    ],
)
def test_the_board_is_the_organisers(personas, open_form, persona, read, write):
    Client().post(url("sign_up_form"), form_data(1))
    found = SignUp.objects.get()
    client = personas[persona]
    assert client.get(url("sign_up_list")).status_code == read
    assert client.post(url("sign_up_decide", found.pk, "accept")).status_code == write
    found.refresh_from_db()
    assert (found.status == "accepted") == (persona == "organiser")
    # The public form is everybody's.
    assert client.get(url("sign_up_form")).status_code == 200


# ---------------------------------------------------------------- the board's tables


def names(response, table: str) -> list[str]:
    """The names in the board's ``table`` (pending, waiting or decided), in its order."""
    return [row[0] for row in html.table(response.content, f"table.{table}")[1:]]


def buttons(response, name: str) -> list[str]:
    """The row actions' buttons of the sign-up ``name``."""
    row = next(
        row
        for row in html.elements(response.content, "tr")
        if row.text().split(" ", 1)[-1].startswith(name) or row.text().startswith(name)
    )
    return [button.text() for button in row.find("button")]


def test_the_board_sorts_its_tables_each_by_its_own_links_and_numbers_the_line(
    open_form, organiser, monkeypatch
):
    monkeypatch.setattr(tables, "PAGE_SIZE", 2)
    for n in (3, 1, 4, 2, 7, 5, 6):
        Client().post(url("sign_up_form"), form_data(n))
    board = login(organiser)
    page = board.get(url("sign_up_list"))
    # Four places held, in the order they came; the waiting list in its order, numbered.
    assert names(page, "pending") == ["Signer 3", "Signer 1"]
    assert names(page, "waiting") == ["1. Signer 7", "2. Signer 5"]
    assert buttons(page, "Signer 7") == ["Accept", "Refuse", "Move down"]
    sorted_page = board.get(url("sign_up_list"), {"pending-sort": "name", "waiting-page": "2"})
    assert names(sorted_page, "pending") == ["Signer 1", "Signer 2"]
    # The line's last place, on its second page: it may only move up.
    assert names(sorted_page, "waiting") == ["3. Signer 6"]
    assert buttons(sorted_page, "Signer 6") == ["Accept", "Refuse", "Move up"]
    headings = html.texts(sorted_page.content, "table.pending th a")
    assert "Name" in headings and "Signed up" in headings
    (waiting,) = html.elements(sorted_page.content, "table.waiting")
    assert not waiting.find("th a")
    ids = dict(SignUp.objects.values_list("name", "pk"))
    board.post(url("sign_up_decide", ids["Signer 3"], "refuse"))
    decided = board.get(url("sign_up_list"))
    assert html.table(decided.content, "table.decided")[1:] == [
        ["Signer 3", "s3@example.org", "refused"]
    ]
