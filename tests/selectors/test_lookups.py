"""The lookups by key every page starts with: a tournament with its version, a session or a
player holding the tournament they were read for."""

from tests.conftest import make_players, make_tournament, make_user
from tournament import services
from tournament.models import Tournament
from tournament.selectors.lookups import player_by_number, session_by_number, tournament_by_slug


def test_the_tournament_is_read_with_its_version(db, django_assert_num_queries):
    tournament = make_tournament(creator=make_user("host"), slug="looked-up")
    stored = Tournament.objects.select_related("version").get(pk=tournament.pk)
    with django_assert_num_queries(1):
        found = tournament_by_slug("looked-up")
        assert found.version.number == stored.version.number
    assert (found.pk, found.name) == (stored.pk, stored.name)
    assert tournament_by_slug("no-such-tournament") is None


def test_a_session_and_a_player_hold_their_tournament(db, django_assert_num_queries):
    tournament = make_tournament(creator=make_user("host"), slug="looked-up")
    make_players(tournament, 8)
    services.session_draw(tournament=tournament, number=1, seed=1)
    with django_assert_num_queries(1):
        session = session_by_number(tournament, 1)
        assert session.tournament is tournament
    assert session.pk == tournament.sessions.get(number=1).pk
    with django_assert_num_queries(1):
        player = player_by_number(tournament, 3)
        assert player.tournament is tournament
    assert (player.number, player.name) == (3, tournament.players.get(number=3).name)
    # A number no row can hold (a link typed by hand) finds nothing, without asking.
    with django_assert_num_queries(0):
        assert session_by_number(tournament, 10**20) is None
        assert player_by_number(tournament, 10**20) is None
    assert session_by_number(tournament, 2) is None
