"""A player's own link: their phone page (next table, seat, wind and time, their hands as
entered, their place), the check-in button, and the access rules (the link opens its own
player's page only; a link expired, revoked or forged is refused); the organiser's badges
and revocation, with every persona."""

from datetime import timedelta
from unittest import mock

import pytest
from django.core import signing
from django.test import Client
from django.urls import resolve, reverse
from django.utils import timezone

from tests import html
from tests.conftest import login, make_players, make_tournament
from tournament import services
from tournament.models import CheckIn, Player, Seat
from tournament.players import player_links

REFUSED = "This link has expired, was replaced by a new one, or is not a player's link"


def player(number: int) -> Player:
    return Player.objects.select_related("tournament").get(
        tournament__slug="spring-open", number=number
    )


def own_url(number: int) -> str:
    return reverse("player_link", args=[player_links.player_token(player(number))])


def url(name, *args, slug="spring-open"):
    return reverse(name, args=[slug, *args])


def text(response) -> str:
    """The page's text, as a reader reads it."""
    return html.text(response.content)


def seat_of(number: int, session: int = 1) -> Seat:
    return Seat.objects.select_related("table").get(
        session__number=session, player__number=number, session__tournament__slug="spring-open"
    )


# ---------------------------------------------------------------- the page


def test_the_link_shows_the_players_table_seat_wind_and_the_sessions_time(tournament):
    make_players(tournament, 16)
    starts = timezone.make_aware(timezone.datetime(2026, 12, 5, 14, 0))
    services.session_times_set(tournament=tournament, starts={1: starts})
    services.session_draw(tournament=tournament, number=1, seed=7)
    seat = seat_of(5)
    response = Client().get(own_url(5))
    assert response.status_code == 200
    page = text(response)
    assert f"Table {seat.table.number}" in page
    wind = ["East", "South", "West", "North"][seat.seat]
    assert f"Seat P{seat.seat + 1} · you start {wind}" in page
    assert "Starts Saturday 5 December, 14:00." in page
    for other in Seat.objects.filter(table=seat.table).exclude(pk=seat.pk):
        assert f"{other.player.number} {other.player.name}" in page
    assert response["Cache-Control"].startswith("max-age=0")
    assert html.one(response.content, "meta[name=robots]").attrs["content"] == "noindex"


def test_the_hands_appear_as_the_referee_enters_them_with_the_players_points(session_in_play):
    seat = seat_of(1)
    table = seat.table
    own = Client()
    assert "No hand entered yet." in text(own.get(own_url(1)))
    winner = (seat.seat + 1) % 4
    services.hand_record(
        table=table,
        entry=services.HandEntry(
            number=1, outcome="discard", winner=winner, discarder=seat.seat, fan=10
        ),
    )
    services.hand_record(
        table=table,
        entry=services.HandEntry(number=2, outcome="self_drawn", winner=seat.seat, fan=8),
    )
    page = text(own.get(own_url(1)))
    name = Seat.objects.get(table=table, seat=winner).player.name
    # On a discard of 10 fan the discarder pays 8 + 10 and the others 8; a self-draw of 8
    # takes 16 from each of the three others.
    assert f"1 {name} won on your discard, 10 fan −18 −18" in page
    assert "2 You won by self-draw, 8 fan +48 +30" in page
    assert "Session 1, in play" in page


def test_the_place_in_the_standings_and_the_sessions_played(session_in_play, referee):
    for table in session_in_play.tables.all():
        services.hand_record(
            table=table, entry=services.HandEntry(number=1, outcome="self_drawn", winner=0, fan=8)
        )
        services.table_confirm(table=table, user=referee, record_missing_as_not_played=True)
    services.session_close(session=session_in_play)
    east = Seat.objects.filter(session=session_in_play, seat=0).first().player
    page = text(Client().get(own_url(east.number)))
    assert "Place 1 of 16" in page
    assert "4 table points, +48 points, after 1 session" in page
    table = seat_of(east.number).table.number
    assert f"Session 1, table {table}: place 1, 4 table points, +48 points" in page


def test_a_substitute_is_told_they_are_not_ranked(tournament):
    make_players(tournament, 1, start=17, is_substitute=True)
    page = text(Client().get(own_url(17)))
    assert "Substitutes are not ranked" in page
    assert "Your next session has not been drawn yet." in page


def test_the_planned_method_shows_the_next_planned_seat_before_the_draw(organiser):
    tournament = make_tournament(creator=organiser, seating_method="planned")
    make_players(tournament, 16)
    session = services.session_draw(tournament=tournament, number=1, seed=3, method="planned")
    services.session_open(session=session)
    for table in session.tables.all():
        services.table_confirm(table=table, user=organiser, record_missing_as_not_played=True)
    services.session_close(session=session)
    page = text(Client().get(own_url(2)))
    plan = tournament.seating_plan.sessions[1]
    table = next(t for t, numbers in enumerate(plan, start=1) if 2 in numbers)
    seat = plan[table - 1].index(2)
    assert f"Next: session 2 (planned) Table {table} Seat P{seat + 1}" in page


# ---------------------------------------------------------------- the check-in


def test_the_check_in_button_appears_while_open_and_checks_the_player_in(tournament):
    make_players(tournament, 16)
    phone = Client()
    assert "check in for session 1" not in text(phone.get(own_url(3)))
    services.check_in_open(tournament=tournament, number=1)
    page = text(phone.get(own_url(3)))
    assert "I am here: check in for session 1" in page
    response = phone.post(own_url(3) + "check-in/", {"session": "1"})
    assert response.status_code == 302
    # Back to the player's own page: a link signed anew, its time to the second, so the
    # player it names is compared, not its text.
    back = resolve(response["Location"])
    assert back.url_name == "player_link"
    assert player_links.player_for_token(back.kwargs["token"]) == player(3)
    # A second tap (or Back, then the button again) keeps the one check-in.
    phone.post(own_url(3) + "check-in/", {"session": "1"})
    assert CheckIn.objects.filter(player__number=3).count() == 1
    check_in = CheckIn.objects.get(player__number=3)
    assert check_in.ticked_by is None
    page = text(phone.get(own_url(3)))
    assert "You are checked in for session 1." in page
    assert "Checked in for session 1." in page  # the message after the button


def test_checking_in_once_the_check_in_closed_is_refused_with_the_reason(tournament):
    make_players(tournament, 16)
    services.check_in_open(tournament=tournament, number=1)
    services.check_in_close(tournament=tournament, number=1)
    phone = Client()
    response = phone.post(own_url(3) + "check-in/", {"session": "1"}, follow=True)
    assert "The check-in of session 1 is not open." in text(response)
    assert not CheckIn.objects.exists()


def test_a_check_in_without_a_session_is_refused_without_a_server_error(tournament):
    make_players(tournament, 4)
    services.check_in_open(tournament=tournament, number=1)
    response = Client().post(own_url(2) + "check-in/", {"session": "x"}, follow=True)
    assert response.status_code == 200
    assert "Choose the session to check in for." in text(response)
    assert not CheckIn.objects.exists()


# ---------------------------------------------------------------- who the link lets in


def test_a_link_opens_its_own_players_page_only(tournament):
    make_players(tournament, 8)
    services.check_in_open(tournament=tournament, number=1)
    token = player_links.player_token(player(2))
    response = Client().get(reverse("player_link", args=[token]))
    assert "2 Player 2" in text(response)
    assert "Player 3" not in text(response)
    # The check-in posts for the link's own player, whatever else the form carries.
    Client().post(reverse("player_link_check_in", args=[token]), {"session": "1", "player": "3"})
    assert list(CheckIn.objects.values_list("player__number", flat=True)) == [2]


def test_a_revoked_link_is_refused_and_the_new_one_works(tournament, organiser):
    make_players(tournament, 4)
    services.check_in_open(tournament=tournament, number=1)
    old = own_url(2)
    assert Client().get(old).status_code == 200
    response = login(organiser).post(url("player_link_revoke", 2))
    assert response.status_code == 302
    assert response["Location"] == url("player_edit", 2)
    refused = Client().get(old)
    assert refused.status_code == 403
    assert REFUSED in text(refused)
    refused = Client().post(old + "check-in/", {"session": "1"})
    assert refused.status_code == 403
    assert not CheckIn.objects.exists()
    assert Client().get(own_url(2)).status_code == 200


def test_an_expired_link_is_refused(tournament, settings):
    make_players(tournament, 4)
    link = own_url(2)
    later = timezone.now() + timedelta(days=settings.PLAYER_LINK_DAYS, minutes=1)
    with mock.patch("time.time", return_value=later.timestamp()):
        response = Client().get(link)
    assert response.status_code == 403
    assert REFUSED in text(response)
    assert Client().get(link).status_code == 200


@pytest.mark.parametrize(
    "token",
    [
        "nonsense",
        # A device link's token, signed for a table: never a player's.
        signing.Signer(salt="tournament.hall.device_links").sign_object([1, 1, 1]),
        # A player's token with its payload changed to another player: the signature fails.
        "TAMPERED",
    ],
)
def test_a_forged_link_is_refused(tournament, token):
    make_players(tournament, 4)
    if token == "TAMPERED":
        real = player_links.player_token(player(2))
        other = player_links.player_token(player(3))
        token = other.split(":", 1)[0] + ":" + real.split(":", 1)[1]
    response = Client().get(reverse("player_link", args=[token]))
    assert response.status_code == 403


# ---------------------------------------------------------------- badges and the organiser


def test_badges_print_ten_to_a_sheet_with_each_players_link(tournament, organiser):
    make_players(tournament, 12, team="Lyon")
    services.player_save(
        tournament=tournament, number=13, name="Wang Li", name_zh="王丽", is_substitute=True
    )
    services.player_withdraw(player=player(4))
    response = login(organiser).get(url("player_badges"))
    assert response.status_code == 200
    page = html.parse(response.content)
    assert len(page.find("section.badge-sheet")) == 2
    cards = page.find("section.badge-sheet article.badge-card")
    assert len(cards) == 12  # 13 players, one withdrawn
    assert not page.find("#badge-4")
    assert "王丽" in page.text()
    links = [card.one("[data-player-link]").attrs["data-player-link"] for card in cards]
    assert len(set(links)) == 12
    assert [len(card.find("[data-player-link] svg")) for card in cards] == [1] * 12
    assert len(page.find("svg")) == 12
    # Each badge's code opens its own player's page.
    path = links[0].removeprefix("http://testserver")
    assert "1 Player 1" in text(Client().get(path))


def test_badges_for_a_range_of_numbers(tournament, organiser):
    make_players(tournament, 30)
    services.player_withdraw(player=player(12))
    page = login(organiser).get(url("player_badges") + "?first=10&last=14").content
    cards = html.elements(page, "article.badge-card")
    assert [card.attrs["id"] for card in cards] == [f"badge-{n}" for n in range(10, 15)]
    refused = login(organiser).get(url("player_badges") + "?first=14&last=10")
    assert "The last number comes after the first." in text(refused)


def test_the_players_edit_page_shows_their_link(tournament, organiser):
    make_players(tournament, 2)
    page = login(organiser).get(url("player_edit", 2)).content
    href = html.one(page, "a[data-player-link]").attrs["href"]
    assert href.startswith("http://testserver/")
    # The link opens player 2's own page. (Its token holds the second it was signed in, so
    # it is compared by what it opens, not as text: a second may pass between the two.)
    match = resolve(href.removeprefix("http://testserver"))
    assert match.url_name == "player_link"
    assert player_links.player_for_token(match.kwargs["token"]) == player(2)


@pytest.mark.parametrize(
    ("persona", "badges", "revoke"),
    [
        ("organiser", 200, 302),
        ("referee", 403, 403),
        ("other_referee", 403, 403),
        ("anonymous", 302, 302),
    ],
)
def test_badges_and_revocation_are_the_organisers(personas, tournament, persona, badges, revoke):
    make_players(tournament, 4)
    before = player(2).link_version
    client = personas[persona]
    response = client.get(url("player_badges"))
    assert response.status_code == badges
    if badges == 302:
        assert response["Location"].startswith(reverse("login"))
    assert client.post(url("player_link_revoke", 2)).status_code == revoke
    assert player(2).link_version == before + (1 if persona == "organiser" else 0)


@pytest.mark.parametrize("persona", ["organiser", "referee", "other_referee", "anonymous"])
def test_anyone_holding_a_link_sees_that_players_page_and_no_more(personas, tournament, persona):
    """The link is the key, whoever holds it: an account adds nothing to what it opens."""
    make_players(tournament, 4)
    response = personas[persona].get(own_url(3))
    assert response.status_code == 200
    assert "3 Player 3" in text(response)


def test_an_earlier_sessions_hands_come_when_the_player_opens_it(session_in_play, referee):
    for table in session_in_play.tables.all():
        services.hand_record(
            table=table, entry=services.HandEntry(number=1, outcome="self_drawn", winner=0, fan=8)
        )
        services.table_confirm(table=table, user=referee, record_missing_as_not_played=True)
    services.session_close(session=session_in_play)
    second = services.session_draw(tournament=session_in_play.tournament, number=2, seed=5)
    services.session_open(session=second)
    east = Seat.objects.filter(session=session_in_play, seat=0).first().player
    link = own_url(east.number)
    page = Client().get(link).content
    # Session 2 is under way: session 1's hands are not on the page, but asked for on opening.
    assert html.elements(page, f"[hx-get='{link}?session=1']")
    assert "You won by self-draw" not in html.text(page)
    fragment = Client().get(link + "?session=1")
    assert "1 You won by self-draw, 8 fan +48 +48" in text(fragment)
    assert not html.elements(fragment.content, "html")
    for asked in ("3", "x", "-1"):
        assert Client().get(link + f"?session={asked}").status_code == 404
