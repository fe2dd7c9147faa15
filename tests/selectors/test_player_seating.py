"""The players' pages' seating (``selectors.seating.player_seating``): after a draw the first
page read computes every player's at once and keeps each, and that is what each player's
own reading gives, withdrawals, substitutes and the plan's sessions included."""

import pytest
from django.core.cache import cache

from tests.conftest import make_players
from tournament import services
from tournament.selectors.lookups import seating_key
from tournament.selectors.seating import _seating, player_seating


@pytest.fixture
def replanned(tournament):
    """16 players and substitutes 17 and 18 on the whole-tournament plan. Session 1: player
    3 withdrawn after the draw, their seat given to 17 by hand; session 2 drawn with player 8
    withdrawn before, the draw seating 18 in their stead; sessions 3 and 4 planned."""
    services.tournament_update(tournament=tournament, seating_method="planned")
    make_players(tournament, 16)
    make_players(tournament, 2, start=17, is_substitute=True)
    first = services.session_draw(tournament=tournament, number=1, seed=777)
    services.player_withdraw(player=tournament.players.get(number=3))
    seat = first.seats.get(player__number=3)
    services.seat_replace(seat=seat, player=tournament.players.get(number=17))
    services.player_withdraw(player=tournament.players.get(number=8))
    services.session_draw(tournament=tournament, number=2)
    cache.clear()
    return tournament


def test_every_players_seating_at_once_is_each_ones_own(replanned):
    everyone = _seating(replanned)
    players = list(replanned.players.all())
    assert set(everyone) == {player.pk for player in players}
    for player in players:
        assert everyone[player.pk] == _seating(replanned, player)[player.pk], player.number
    # What makes them differ from a plain draw is there to compare.
    by_number = {player.number: everyone[player.pk] for player in players}
    schedule, planned, tables = by_number[17]
    # In 3's seat given by hand in session 1, in their stead again by the re-plan in 2.
    assert [(seat.session.number, seat.replaces.number) for seat in schedule] == [(1, 3), (2, 3)]
    assert [table.session for table in tables] == [1, 2]
    assert len(planned) == 2  # sessions 3 and 4
    schedule, _planned, _tables = by_number[18]
    assert [(seat.session.number, seat.replaces.number) for seat in schedule] == [(2, 8)]
    assert by_number[3] == ([], [], [])  # withdrawn, their one seat given away
    assert [seat.session.number for seat in by_number[8][0]] == [1]
    assert by_number[8][1] == []  # withdrawn: nothing planned


def test_the_first_page_read_keeps_every_players_seating(replanned, django_assert_num_queries):
    version = seating_key(replanned)
    first, other = replanned.players.get(number=1), replanned.players.get(number=18)
    # The sessions published, every seat in them, the withdrawn player 17 replaces (seated
    # nowhere now), the plan, the players planned, every player's id.
    with django_assert_num_queries(6):
        seating = player_seating(first, version=version)
    assert seating == _seating(replanned, first)[first.pk]
    # Any other player's, from what that reading kept.
    with django_assert_num_queries(0):
        seating = player_seating(other, version=version)
    assert seating == _seating(replanned, other)[other.pk]


def test_while_another_reader_computes_everyones_a_page_computes_its_own(
    replanned, django_assert_num_queries
):
    version = seating_key(replanned)
    first, other = replanned.players.get(number=1), replanned.players.get(number=2)
    assert cache.add(f"mcr:players-seating-lock:{replanned.pk}:{version}", 1, 30)
    assert player_seating(first, version=version) == _seating(replanned, first)[first.pk]
    # Nothing kept meanwhile: the other player's page reads its own again.
    with django_assert_num_queries(4):  # the sessions, the seats, the plan, the players
        player_seating(other, version=version)
