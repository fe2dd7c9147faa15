"""The lookups by key every page starts with: a tournament with its version, a session or a
player holding the tournament they were read for."""

from tests.conftest import make_players, make_tournament, make_user
from tournament import services
from tournament.models import Tournament
from tournament.selectors.lookups import (
    data_version,
    player_by_number,
    seating_key,
    session_by_number,
    tournament_by_slug,
    versions,
)


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


def test_a_page_keys_its_cache_by_the_versions_read_with_the_tournament(
    db, django_assert_num_queries
):
    tournament = make_tournament(creator=make_user("host"), slug="looked-up")
    make_players(tournament, 8)
    page = tournament_by_slug("looked-up")
    # As read with the tournament: no query, the same versions as stored now.
    with django_assert_num_queries(0):
        as_read = versions(page, as_read=True)
        assert seating_key(page, as_read=True) == f"{as_read[1]}-{as_read[2]}"
        assert data_version(page, as_read=True) == as_read[0]
    with django_assert_num_queries(1):
        assert versions(page) == as_read
    # A write after the read: the versions as read stay those the page's data was read
    # after; those stored now are newer, which a write's request must read instead.
    services.session_draw(tournament=tournament, number=1, seed=1)
    assert versions(page, as_read=True) == as_read
    stored = versions(page)
    assert stored[0] > as_read[0] and stored[1] > as_read[1] and stored[2] != as_read[2]
    assert seating_key(page) != seating_key(page, as_read=True)
