"""The results API's tournament: session 1 played and confirmed (a penalty, corrections),
session 2 drawn and public, session 3 drawn under review; player 1 has an e-mail; players
1-4 are people, ranked by a series."""

from types import SimpleNamespace

import pytest

from tests.conftest import play_some_sessions
from tournament import services

SECRET_EMAIL = "player.one@example.org"


@pytest.fixture
def results(tournament, organiser, referee):
    play_some_sessions(tournament, organiser=organiser, referee=referee)
    one = tournament.players.get(number=1)
    services.player_save(tournament=tournament, player=one, email=SECRET_EMAIL)
    tournament = services.tournament_update(tournament=tournament, review_draws=True)
    services.session_draw(tournament=tournament, number=3, seed=33, method="random")
    services.person_create_for(tournament=tournament, numbers=[1, 2, 3, 4])
    series = services.series_save(
        user=organiser,
        tournaments=[tournament],
        name="Club season",
        slug="season",
        rule="places",
        counted_results=2,
        place_points="10, 7, 5, 3",
    )
    return SimpleNamespace(tournament=tournament, series=series)
