"""The check-in's pages: the timetable, the desk (opened, closed, ticked, searched), the
absent players' seats given on confirmation, the draw page's list of who has not checked in,
with every persona."""

import pytest
from django.urls import reverse

from tests import html
from tests.conftest import login, make_players
from tournament import services, tables
from tournament.models import CheckIn, ScheduledSession, Seat


def url(name, *args, slug="spring-open"):
    return reverse(name, args=[slug, *args])


def text(response) -> str:
    """The page's text as a reader sees it."""
    (body,) = html.texts(response.content, "body")
    return body


def test_the_desk_opens_the_check_in_and_ticks_players(tournament, organiser):
    make_players(tournament, 8)
    desk = login(organiser)
    page = text(desk.get(url("check_in_desk")))
    assert "Check-in, session 1" in page
    assert "Check-in not opened" in page
    response = desk.post(url("check_in_open", 1))
    assert response["Location"] == url("check_in_desk") + "?session=1"
    page = text(desk.get(response["Location"]))
    assert "Check-in open" in page
    assert "0 checked in; 8 expected." in page
    desk.post(url("check_in_tick", 1, 3), {"action": "check_in"})
    check_in = CheckIn.objects.get()
    assert (check_in.player.number, check_in.ticked_by) == (3, organiser)
    page = text(desk.get(url("check_in_desk") + "?session=1"))
    assert "1 checked in; 8 expected. 7 expected players have not checked in." in page
    assert "at the desk" in page
    # Only those not checked in, then a search by name.
    page = text(desk.get(url("check_in_desk") + "?session=1&absent=1"))
    assert "Player 3" not in page and "Player 4" in page
    page = text(desk.get(url("check_in_desk") + "?session=1&q=player+5"))
    assert "Player 5" in page and "Player 4" not in page
    desk.post(url("check_in_tick", 1, 3), {"action": "undo"})
    assert not CheckIn.objects.exists()
    desk.post(url("check_in_close", 1))
    assert "Check-in closed" in text(desk.get(url("check_in_desk") + "?session=1"))


def test_a_refused_tick_is_said_and_changes_nothing(tournament, organiser):
    make_players(tournament, 4)
    response = login(organiser).post(url("check_in_tick", 1, 2), follow=True)
    assert "Open the check-in of session 1 first." in text(response)
    assert not CheckIn.objects.exists()


def test_the_timetable_saves_start_times_and_shows_bad_input_beside_its_field(
    tournament, organiser
):
    desk = login(organiser)
    response = desk.post(url("timetable"), {"session_1": "2026-12-05T09:30", "session_2": "x"})
    assert response.status_code == 200
    assert "Enter a valid date/time." in text(response)
    assert not ScheduledSession.objects.exists()
    response = desk.post(url("timetable"), {"session_1": "2026-12-05T09:30", "session_2": ""})
    assert response.status_code == 302
    first = ScheduledSession.objects.get(number=1)
    assert first.starts_at.strftime("%H:%M") == "09:30"
    assert ScheduledSession.objects.get(number=2).starts_at is None
    timetable = desk.get(url("timetable")).content
    assert "2026-12-05T09:30" in [
        field.attrs.get("value") for field in html.elements(timetable, "input")
    ]


@pytest.fixture
def drawn_with_absent(tournament, organiser):
    """16 players and substitutes 17 to 19; session 1's check-in opened, everybody checked
    in but 4 and 9 (and substitute 19); then session 1 drawn."""
    make_players(tournament, 16)
    make_players(tournament, 3, start=17, is_substitute=True)
    services.check_in_open(tournament=tournament, number=1)
    for number in [*range(1, 19)]:
        if number not in (4, 9):
            services.player_check_in(player=tournament.players.get(number=number), number=1)
    return tournament


def test_the_draw_page_names_who_has_not_checked_in(drawn_with_absent, organiser):
    page = text(login(organiser).get(url("session_draw")))
    assert "Check-in of session 1: 14 checked in; 16 expected." in page
    assert "2 more checked in (substitutes, or players not needed yet)." in page
    assert "Not checked in: 4 Player 4, 9 Player 9." in page


def test_absent_seats_are_given_on_confirmation_only(drawn_with_absent, organiser):
    tournament = drawn_with_absent
    desk = login(organiser)
    response = desk.post(url("session_draw"), {"number": "1", "seed": "5", "method": "lot"})
    assert response.status_code == 302
    after = desk.get(response["Location"])
    assert "2 seated players have not checked in" in text(after)
    # The desk says so too, with the way to give their seats.
    (note,) = html.elements(
        desk.get(url("check_in_desk") + "?session=1").content, "p.absent-seats-note"
    )
    assert note.text() == (
        "2 seats of the drawn session are held by players who have not checked in. "
        "Give their seats to substitutes"
    )
    page = desk.get(url("absent_seats", 1))
    assert html.elements(page.content, "fieldset#absent-4")
    assert html.elements(page.content, "fieldset#absent-9")
    # Checked-in substitutes come first among those who can take a seat.
    options = [
        option.attrs["value"]
        for option in html.elements(page.content, "option")
        if option.attrs["value"]  # the empty choice: nobody
    ]
    assert options == ["17", "18", "19"] * 2  # one list a seat
    seats_before = list(Seat.objects.order_by("pk").values_list("player__number", flat=True))
    # Refused: the same substitute for both seats; beside the second seat's field.
    response = desk.post(
        url("absent_seats", 1), {"substitute_4": "17", "withdraw_4": "on", "substitute_9": "17"}
    )
    assert response.status_code == 200
    assert "already chosen" in " ".join(response.context["form"].errors["substitute_9"])
    assert list(Seat.objects.order_by("pk").values_list("player__number", flat=True)) == (
        seats_before
    )
    assert tournament.players.get(number=4).is_active
    response = desk.post(
        url("absent_seats", 1), {"substitute_4": "17", "withdraw_4": "on", "substitute_9": "18"}
    )
    assert response.status_code == 302
    assert response["Location"] == url("seating", 1)
    messages = text(desk.get(response["Location"]))
    assert "2 seats given to substitutes." in messages
    assert "1 player withdrawn from the sessions still to come." in messages
    assert Seat.objects.get(player__number=17).replaces.number == 4
    assert Seat.objects.get(player__number=18).replaces.number == 9
    assert not tournament.players.get(number=4).is_active
    assert "Every seated player of this session has checked in" in text(
        desk.get(url("absent_seats", 1))
    )


@pytest.mark.parametrize(
    ("persona", "read", "write"),
    [
        ("organiser", 200, 302),
        ("referee", 403, 403),
        ("other_referee", 403, 403),
        ("anonymous", 302, 302),
    ],
)
def test_the_check_in_pages_are_the_organisers(personas, tournament, persona, read, write):
    make_players(tournament, 16)
    services.session_draw(tournament=tournament, number=1, seed=5)
    services.check_in_open(tournament=tournament, number=1)
    client = personas[persona]
    for page in (url("check_in_desk"), url("timetable"), url("absent_seats", 1)):
        response = client.get(page)
        assert response.status_code == read, page
        if read == 302:
            assert response["Location"].startswith(reverse("login"))
    for action in (url("check_in_close", 1), url("check_in_open", 1)):
        assert client.post(action).status_code == write
    assert client.post(url("check_in_tick", 1, 2)).status_code == write
    assert client.post(url("timetable"), {"session_1": "2026-12-05T09:30"}).status_code == write
    assert CheckIn.objects.exists() == (persona == "organiser")
    assert ScheduledSession.objects.filter(starts_at__isnull=False).exists() == (
        persona == "organiser"
    )


# ---------------------------------------------------------------- the desk's table


def desk_numbers(response) -> list[int]:
    """The players' numbers the desk's table shows, in its order."""
    rows = html.table(response.content, "table.check-in")[1:]
    return [] if rows == [["No player found."]] else [int(row[0]) for row in rows]


@pytest.fixture
def desk_players(tournament):
    """Five players with names to sort and teams to find; session 1's check-in open, 4
    checked in before 2."""
    for number, name, team in [
        (1, "Zoe Martin", "Lyon"),
        (2, "张伟", "Shanghai"),
        (3, "Anna Li", ""),
        (4, "陈静", "上海"),
        (5, "Émile Roux", "Lyon"),
    ]:
        services.player_save(tournament=tournament, number=number, name=name, team=team)
    services.check_in_open(tournament=tournament, number=1)
    services.player_check_in(player=tournament.players.get(number=4), number=1)
    services.player_check_in(player=tournament.players.get(number=2), number=1)
    return tournament


@pytest.mark.parametrize(
    ("query", "numbers"),
    [
        ({}, [1, 2, 3, 4, 5]),
        ({"sort": "-number"}, [5, 4, 3, 2, 1]),
        ({"sort": "player"}, [3, 4, 5, 2, 1]),  # pinyin for Chinese names
        # By the time, those not yet last (as every table sorts no value).
        ({"sort": "checked_in"}, [4, 2, 1, 3, 5]),
        ({"q": "shanghai"}, [2, 4]),  # a team, or its pinyin
        ({"q": "zw"}, [2]),  # the initials of a name's pinyin
        ({"q": "5"}, [5]),
        ({"q": "nobody"}, []),
        ({"absent": "1", "sort": "-player"}, [1, 5, 3]),
    ],
)
def test_the_desk_sorts_and_finds_players(desk_players, organiser, query, numbers):
    response = login(organiser).get(url("check_in_desk"), {"session": "1", **query})
    assert desk_numbers(response) == numbers


def test_the_desk_goes_by_pages_keeping_the_session_and_the_search(
    desk_players, organiser, monkeypatch
):
    monkeypatch.setattr(tables, "PAGE_SIZE", 1)
    desk = login(organiser)
    response = desk.get(url("check_in_desk"), {"session": "1", "q": "lyon", "page": "2"})
    assert desk_numbers(response) == [5]
    pages = [
        link.attrs["href"]
        for link in html.elements(response.content, "a")
        if "page=" in link.attrs.get("href", "")
    ]
    assert pages and all("q=lyon" in href and "session=1" in href for href in pages)
    everyone = desk.get(url("check_in_desk"), {"session": "1", "page": "all"})
    assert desk_numbers(everyone) == [1, 2, 3, 4, 5]
    # Each row keeps its tick, and the tick its search.
    (row,) = html.elements(everyone.content, "tr#player-3")
    (tick,) = [form for form in row.find("form")]
    assert tick.attrs["action"] == url("check_in_tick", 1, 3)
    assert [b.attrs["value"] for b in tick.find("button")] == ["check_in"]
    (absent,) = html.elements(everyone.content, "tr#player-1")
    assert "absent" in absent.classes
