"""A substitute seated by the draw itself records the withdrawn player they stand in for,
whatever the seating method (issue 24): 16 players in 4 teams and substitutes 17 and 18,
session 1 drawn, player 8 withdraws, session 2 drawn."""

import pytest
from django.urls import reverse

from tests.conftest import login, make_tournament
from tournament import services
from tournament.exports import ema
from tournament.models import Seat
from tournament.players import player_links
from tournament.selectors.standings import tournament_standings
from tournament.selectors.withdrawals import players_replaced

METHODS = ["planned", "lot", "random", "standings", "serpentine", "top_tables"]


@pytest.fixture
def harbour(organiser):
    tournament = make_tournament(
        creator=organiser, slug="harbour", sessions=3, seating_method="planned"
    )
    for number in range(1, 19):
        services.player_save(
            tournament=tournament,
            number=number,
            name=f"Player{number:02d}" if number <= 16 else f"Sub{number}",
            team=("Cranes", "Pines", "Tides", "Lanterns")[number % 4],
            is_substitute=number > 16,
        )
    services.session_draw(tournament=tournament, number=1)
    return tournament


def seat_of(tournament, session: int, number: int) -> Seat:
    return Seat.objects.select_related("stands_in_for", "replaces").get(
        session__tournament=tournament, session__number=session, player__number=number
    )


@pytest.mark.parametrize("method", METHODS)
def test_the_substitute_a_draw_seats_stands_in_for_the_withdrawn_player(harbour, method):
    services.player_withdraw(player=harbour.players.get(number=8))
    seed = None if method == "planned" else 7
    services.session_draw(tournament=harbour, number=2, method=method, seed=seed, top=1)
    seat = seat_of(harbour, 2, 17)
    assert (seat.stands_in_for.number, seat.replaces) == (8, None)
    assert not Seat.objects.filter(session__number=2, player__number=18).exists()
    # Nobody else stands in for anyone.
    assert Seat.objects.filter(stands_in_for__isnull=False).count() == 1


def test_in_the_plans_seat_and_again_in_the_next_session(harbour):
    plan_before = harbour.seating_plan.sessions[1]
    services.player_withdraw(player=harbour.players.get(number=8))
    session = services.session_draw(tournament=harbour, number=2)
    seat = seat_of(harbour, 2, 17)
    # The re-plan put 17 where the published plan had 8.
    assert plan_before[seat.table.number - 1][seat.seat] == 8
    assert seat.stands_in_for.number == 8
    services.session_publish(session=session)
    services.player_withdraw(player=harbour.players.get(number=3))
    services.session_draw(tournament=harbour, number=3)
    assert seat_of(harbour, 3, 17).stands_in_for.number == 8
    assert seat_of(harbour, 3, 18).stands_in_for.number == 3
    assert players_replaced(harbour) == {
        harbour.players.get(number=17).pk: ["8 Player08"],
        harbour.players.get(number=18).pk: ["3 Player03"],
    }


def test_a_substitute_seated_with_nobody_withdrawn_stands_in_for_nobody(organiser):
    tournament = make_tournament(creator=organiser, slug="fifteen")
    for number in range(1, 17):
        services.player_save(
            tournament=tournament, number=number, name=f"P{number}", is_substitute=number == 16
        )
    services.session_draw(tournament=tournament, number=1, seed=3)
    assert seat_of(tournament, 1, 16).stands_in_for is None


def test_every_page_and_file_says_it_in_both_languages(harbour):
    services.player_withdraw(player=harbour.players.get(number=8))
    services.session_draw(tournament=harbour, number=2)
    client = login(None)
    for language, words in (("en", "replaces 8 Player08"), ("zh-hans", "替补 8 Player08")):
        client.cookies["django_language"] = language
        seating = client.get(reverse("seating", args=["harbour", 2])).content.decode()
        assert words in seating
        own = client.get(reverse("player_schedule", args=["harbour", 17])).content.decode()
        assert own.count(words) == 1  # session 2, not session 1
    # 17 plays a hand: the EMA's results list the substitutes who played.
    seat = seat_of(harbour, 2, 17)
    services.session_open(session=seat.session)
    services.hand_record(
        table=seat.table, entry=services.HandEntry(number=1, outcome="self_drawn", winner=0, fan=8)
    )
    rows = list(ema.ema_rows(tournament_standings(harbour), players_replaced(harbour)))
    (note,) = [row[-1] for row in rows[1:] if row[-1]]
    assert note == "substitute; replaces 8 Player08"


def test_a_seat_given_away_by_hand_says_whom_the_draw_seated(harbour):
    services.player_withdraw(player=harbour.players.get(number=8))
    services.session_draw(tournament=harbour, number=2)
    seat = seat_of(harbour, 2, 17)
    services.seat_replace(seat=seat, player=harbour.players.get(number=18))
    seat = seat_of(harbour, 2, 18)
    # 18 replaces the substitute the draw seated; put back, 17 stands in for 8 again.
    assert seat.replaces.number == 17
    page = login(None).get(reverse("seating", args=["harbour", 2])).content.decode()
    assert "replaces 17 Sub17" in page and "replaces 8 Player08" not in page
    services.seat_replace(seat=seat, player=harbour.players.get(number=17))
    page = login(None).get(reverse("seating", args=["harbour", 2])).content.decode()
    assert "replaces 8 Player08" in page


def test_the_substitutes_own_link_says_whom_they_replace(harbour):
    services.player_withdraw(player=harbour.players.get(number=8))
    services.session_draw(tournament=harbour, number=2)
    token = player_links.player_token(harbour.players.get(number=17))
    client = login(None)
    for language, words in (("en", "You replace 8 Player08."), ("zh-hans", "您替补 8 Player08。")):
        client.cookies["django_language"] = language
        page = client.get(reverse("player_link", args=[token])).content.decode()
        assert words in page
    other = player_links.player_token(harbour.players.get(number=1))
    assert (
        "You replace" not in login(None).get(reverse("player_link", args=[other])).content.decode()
    )
