"""Replacing a drawn player before play, and cancelling a draw."""

import pytest
from django.urls import reverse

from tests.conftest import make_players
from tournament import seating, services
from tournament.models import Seat, Session


@pytest.fixture
def drawn(tournament):
    make_players(tournament, 16)
    services.player_save(tournament=tournament, number=17, name="Sub", is_substitute=True)
    return services.session_draw(tournament=tournament, number=1, seed=5)


@pytest.fixture
def urls(drawn):
    slug = drawn.tournament.slug
    return {
        "change": reverse("seat_change", args=[slug, 1]),
        "cancel": reverse("session_cancel_draw", args=[slug, 1]),
    }


@pytest.mark.parametrize(
    ("persona", "expected"),
    [("organiser", 200), ("referee", 403), ("other_referee", 403), ("anonymous", 302)],
)
def test_seat_change_page_by_persona(personas, urls, persona, expected):
    assert personas[persona].get(urls["change"]).status_code == expected


@pytest.mark.parametrize(
    ("persona", "expected"),
    [("organiser", 302), ("referee", 403), ("other_referee", 403), ("anonymous", 302)],
)
def test_cancel_draw_by_persona(personas, urls, persona, expected):
    assert personas[persona].post(urls["cancel"]).status_code == expected
    assert Session.objects.filter(number=1).exists() == (persona != "organiser")


def test_cancel_draw_refuses_get(personas, urls):
    assert personas["organiser"].get(urls["cancel"]).status_code == 405


def test_substitute_takes_a_withdrawn_players_seat_and_the_draw_stays_checkable(
    personas, urls, drawn
):
    seat = Seat.objects.get(session=drawn, player__number=3)
    services.player_withdraw(player=seat.player)
    sub = drawn.tournament.players.get(number=17)
    response = personas["organiser"].post(urls["change"], {"seat": seat.pk, "player": sub.pk})
    assert response.status_code == 302
    seat.refresh_from_db()
    assert (seat.player.number, seat.replaces.number) == (17, 3)
    # The lot still explains the seating: player 3's key gave this seat.
    assignments = seating.draw_by_lot(list(range(1, 17)), drawn.seed)
    lot = next(a for a in assignments if a.player == 3)
    assert (lot.table, lot.seat, lot.lot) == (seat.table.number, seat.seat, seat.lot)
    page = personas["anonymous"].get(reverse("seating", args=[drawn.tournament.slug, 1]))
    assert "replaces 3 Player 3, drawn by lot" in page.content.decode()


def test_a_player_already_seated_cannot_take_a_second_seat(personas, urls, drawn):
    seat = Seat.objects.get(session=drawn, player__number=3)
    other = drawn.tournament.players.get(number=4)
    response = personas["organiser"].post(urls["change"], {"seat": seat.pk, "player": other.pk})
    assert response.status_code == 200
    seat.refresh_from_db()
    assert seat.player.number == 3


def test_seats_and_draw_are_fixed_once_a_table_has_a_hand(personas, urls, drawn):
    services.session_open(session=drawn)
    table = drawn.tables.get(number=1)
    services.hand_record(table=table, entry=services.HandEntry(number=1, outcome="draw"))
    seat = table.seats.get(seat=0)
    offered = personas["organiser"].get(urls["change"]).context["form"].fields["seat"].queryset
    assert seat not in offered and offered.count() == 12  # the other three tables' seats
    response = personas["organiser"].post(urls["cancel"], follow=True)
    assert "can no longer be cancelled" in response.content.decode()
    assert Session.objects.filter(pk=drawn.pk).exists()


def test_a_cancelled_draw_can_be_drawn_again(personas, urls, drawn):
    personas["organiser"].post(urls["cancel"])
    again = services.session_draw(tournament=drawn.tournament, number=1, seed=77)
    assert again.seats.count() == 16


def test_withdrawing_a_seated_player_says_where_their_seat_is(personas, drawn):
    seat = Seat.objects.get(session=drawn, player__number=3)
    url = reverse("player_withdraw", args=[drawn.tournament.slug, 3])
    response = personas["organiser"].post(url, follow=True)
    page = response.content.decode()
    assert f"still has a seat at table {seat.table.number} of session 1" in page
