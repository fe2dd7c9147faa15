"""The players' side through the pages, as its users would go (issue 21).

An organiser opens sign-up for 36 players, reviewed by hand, and reviews each draw. 40 people
sign up on the public form (4 go to the waiting list); 2 withdraw with their own links and
the first 2 in line get their places, told by e-mail; the organiser refuses one sign-up (the
next in line moves up) and accepts the 36 holding places, then adds 2 substitutes. Check-in
for session 1 opens; 34 players and the 2 substitutes check in on their phones, 2 do not. The
draw page names the 2 absent players; the draw is made, their seats go to the substitutes,
and the draw is published: every checked-in player with an e-mail receives their table and
seat at a real SMTP server, and each player's link shows them; then the hands appear on the
links as the referee enters them.
"""

import pytest
from django.test import Client
from django.urls import reverse

from tests import html
from tests.conftest import give_all_tables, login, make_user
from tests.e2e.test_full_tournament import hand_data
from tournament.models import OutgoingEmail, Player, Seat, SignUp, Tournament
from tournament.players.player_links import player_token, sign_up_token
from tournament.server.task_worker import tasks_run_ready

pytestmark = [pytest.mark.slow]

SLUG = "river-open"
CAP = 36
WINDS = ["East", "South", "West", "North"]


def url(name, *args):
    return reverse(name, args=[SLUG, *args])


def text(response) -> str:
    """The page's text, as a reader reads it."""
    return html.text(response.content)


def phone(n: int) -> Client:
    """A visitor's own browser, from an address of their own (the form counts by address)."""
    return Client(REMOTE_ADDR=f"198.51.100.{n}")


def own_link(player: Player) -> str:
    return reverse("player_link", args=[player_token(player)])


def test_sign_up_check_in_draw_publish_e_mails_and_hands_on_the_players_links(
    transactional_db, smtp_server
):
    organiser = make_user("organiser", can_create=True)
    referee = make_user("referee")
    org = login(organiser)
    response = org.post(
        reverse("tournament_create"),
        {
            "name": "River Open",
            "slug": SLUG,
            "session_count": "4",
            "session_minutes": "150",
            "criterion_1": "table_points",
            "seating_method": "random",
            "review_draws": "on",
            "sign_up_open": "on",
            "player_cap": str(CAP),
            "sign_up_review": "on",
        },
    )
    assert response.status_code == 302, text(response)[-2000:]
    tournament = Tournament.objects.get(slug=SLUG)
    tournament.referees.add(referee)

    # 40 sign-ups on the public form, each from its own phone.
    for n in range(1, 41):
        form = {"name": f"Player {n:02d}", "email": f"p{n}@example.org", "country": "FRA"}
        response = phone(n).post(url("sign_up_form"), form)
        assert response.status_code == 302, text(response)[-1500:]
    statuses = list(SignUp.objects.order_by("position").values_list("status", flat=True))
    assert statuses == ["pending"] * CAP + ["waiting"] * 4
    board = text(org.get(url("sign_up_list")))
    assert "Places taken: 36 / 36" in board and "Waiting list: 4" in board
    assert smtp_server.messages == []  # queued by the requests, sent by the task worker
    tasks_run_ready()
    assert len(smtp_server.messages) == 40  # each told where their sign-up stands
    waiting_mail = smtp_server.text(smtp_server.to("p38@example.org")[0])
    assert "you are on the waiting list, with 1 sign-up before you" in waiting_mail

    # Two withdraw with their own links: the first two in line get the places, told so.
    for n in (5, 12):
        found = SignUp.objects.get(email=f"p{n}@example.org")
        link = reverse("sign_up_status", args=[sign_up_token(found)])
        assert "Withdraw: I cannot come" in text(phone(n).get(link))
        phone(n).post(link + "withdraw/")
    promoted = dict(SignUp.objects.values_list("email", "status"))
    assert promoted["p37@example.org"] == promoted["p38@example.org"] == "pending"
    assert promoted["p39@example.org"] == promoted["p40@example.org"] == "waiting"
    tasks_run_ready()
    for n in (37, 38):
        subjects = [message["Subject"] for message in smtp_server.to(f"p{n}@example.org")]
        assert sum("a place is yours" in subject for subject in subjects) == 1

    # The organiser refuses one (the next in line moves up) and accepts the 36 holding places.
    refused = SignUp.objects.get(email="p20@example.org")
    org.post(url("sign_up_decide", refused.pk, "refuse"))
    assert SignUp.objects.get(email="p39@example.org").status == "pending"
    for found in SignUp.objects.filter(status="pending").order_by("position"):
        assert org.post(url("sign_up_decide", found.pk, "accept")).status_code == 302
    assert tournament.players.filter(withdrawn_at__isnull=True).count() == CAP
    assert SignUp.objects.filter(status="waiting").count() == 1
    for number, name in ((41, "Sub A"), (42, "Sub B")):
        form = {"number": str(number), "name": name, "is_substitute": "on"}
        form["email"] = f"sub{number}@example.org"
        assert org.post(url("player_add"), form).status_code == 302

    # Check-in for session 1: 34 players and both substitutes on their phones; 2 absent.
    org.post(url("timetable"), {"session_1": "2026-12-05T09:30"})
    org.post(url("check_in_open", 1))
    regular = list(tournament.players.filter(is_substitute=False).order_by("number"))
    absent = regular[:2]
    present = [p for p in tournament.players.order_by("number") if p not in absent]
    for player in present:
        page = phone(player.number).get(own_link(player))
        assert "I am here: check in for session 1" in text(page)
        response = phone(player.number).post(own_link(player) + "check-in/", {"session": "1"})
        assert response.status_code == 302
    draw_page = text(org.get(url("session_draw")))
    assert "Check-in of session 1: 34 checked in; 36 expected." in draw_page
    assert f"Not checked in: {absent[0]}, {absent[1]}." in draw_page

    # The draw (under review), the absent players' seats to the substitutes, then publish.
    response = org.post(url("session_draw"), {"number": "1", "seed": "2026", "method": "random"})
    assert response.status_code == 302, text(response)[-2000:]
    seating = text(org.get(response["Location"]))
    assert "2 seated players have not checked in" in seating
    assert "Under review: the players do not see this draw yet." in seating
    assert Client().get(url("seating", 1)).status_code == 404
    assert not OutgoingEmail.objects.filter(reason="seat").exists()
    response = org.post(
        url("absent_seats", 1),
        {f"substitute_{absent[0].number}": "41", f"substitute_{absent[1].number}": "42"},
    )
    assert response.status_code == 302, text(response)[-2000:]
    assert org.post(url("session_publish", 1)).status_code == 302
    tasks_run_ready()

    seats = {
        seat.player.number: seat
        for seat in Seat.objects.filter(session__tournament=tournament).select_related(
            "player", "table"
        )
    }
    assert {seats[41].replaces, seats[42].replaces} == set(absent)
    for player in present:
        seat = seats[player.number]
        (message,) = [m for m in smtp_server.to(player.email) if "session 1" in m["Subject"]]
        body = smtp_server.text(message)
        where = f"Seat P{seat.seat + 1} · you start {WINDS[seat.seat]}"
        assert f"Table {seat.table.number}\n  {where}" in body
        assert "Starts Saturday 5 December, 09:30." in body
        page = text(phone(player.number).get(own_link(player)))
        assert f"Table {seat.table.number} {where}" in page
    for player in absent:
        assert not [m for m in smtp_server.to(player.email) if "session 1" in m["Subject"]]

    # The hands appear on the players' links as the referee enters them.
    session = tournament.sessions.get(number=1)
    give_all_tables(session, referee)
    org.post(url("session_open", 1))
    table = seats[present[0].number].table
    ref = login(referee)
    sheet = reverse("table_sheet", args=[SLUG, 1, table.number])
    assert ref.post(sheet, hand_data(1, "self_drawn", winner=0, fan=8)).status_code == 302
    east = Seat.objects.select_related("player").get(table=table, seat=0).player
    south = Seat.objects.select_related("player").get(table=table, seat=1).player
    assert "1 You won by self-draw, 8 fan +48 +48" in text(phone(1).get(own_link(east)))
    assert f"1 {east.name} won by self-draw, 8 fan −16 −16" in text(phone(2).get(own_link(south)))
    discard = hand_data(2, "discard", winner=1, discarder=0, fan=10)
    assert ref.post(sheet, discard).status_code == 302
    page = text(phone(2).get(own_link(south)))
    assert f"2 You won on {east.name}'s discard, 10 fan +34 +18" in page
