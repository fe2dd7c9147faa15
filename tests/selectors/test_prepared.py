"""A read compiled once gives what its queryset gives, for any values, in one query each."""

import datetime

import pytest

from tests.conftest import make_players, make_tournament, make_user
from tournament import services
from tournament.models import Player, Tournament
from tournament.selectors.lookups import player_by_number, session_by_number, tournament_by_slug
from tournament.selectors.prepared import PreparedRead


def same_fields(found, stored) -> bool:
    """Every column of the two rows read alike: dates, booleans and JSON converted."""
    names = [field.attname for field in type(stored)._meta.concrete_fields]
    return [getattr(found, name) for name in names] == [getattr(stored, name) for name in names]


def by_number(tournament_id, number):
    return (
        Player.objects.filter(tournament_id=tournament_id, number=number)
        .order_by()
        .values_list("name", "number", "is_substitute", "withdrawn_at")
    )


def test_each_call_gives_the_querysets_rows_for_its_values(db, django_assert_num_queries):
    tournament = make_tournament(creator=make_user("host"), slug="prepared")
    make_players(tournament, 8)
    withdrawn = datetime.datetime(2026, 5, 1, 9, 30, tzinfo=datetime.UTC)
    Player.objects.filter(tournament=tournament, number=3).update(
        withdrawn_at=withdrawn, is_substitute=True
    )
    read = PreparedRead(by_number, 987_654_321, 987_654_322)
    for number in (1, 3, 8, 9):
        with django_assert_num_queries(1):
            rows = read.rows(tournament.pk, number)
        assert rows == list(by_number(tournament.pk, number))
    # Converted as the queryset converts them (SQLite gives back text and integers).
    ((_name, _number, substitute, when),) = read.rows(tournament.pk, 3)
    assert (substitute, when) == (True, withdrawn)


def test_an_example_that_is_not_a_single_parameter_is_refused(db):
    twice = PreparedRead(
        lambda number: Player.objects.filter(number=number, tournament_id=number).values_list(
            "name"
        ),
        987_654_321,
    )
    with pytest.raises(ValueError, match="2 times"):
        twice.rows(1)


def test_the_tournament_read_holds_its_fields_and_versions(db, django_assert_num_queries):
    tournament = make_tournament(creator=make_user("host"), slug="prepared")
    stored = Tournament.objects.select_related("version").get(pk=tournament.pk)
    with django_assert_num_queries(1):
        found = tournament_by_slug("prepared")
        # Read with it, as select_related holds it.
        assert found.version.number == stored.version.number
    assert same_fields(found, stored)
    assert isinstance(found.created_at, datetime.datetime)
    assert tournament_by_slug("no-such-tournament") is None


def test_a_session_and_a_player_are_read_with_their_tournament(db, django_assert_num_queries):
    tournament = make_tournament(creator=make_user("host"), slug="prepared")
    make_players(tournament, 8)
    services.session_draw(tournament=tournament, number=1, seed=1)
    with django_assert_num_queries(1):
        session = session_by_number(tournament, 1)
        assert session.tournament is tournament
    assert same_fields(session, tournament.sessions.get(number=1))
    with django_assert_num_queries(1):
        player = player_by_number(tournament, 3)
        assert player.tournament is tournament
    assert same_fields(player, Player.objects.get(tournament=tournament, number=3))
    # A number no row can hold (a link typed by hand) finds nothing, without asking.
    with django_assert_num_queries(0):
        assert session_by_number(tournament, 10**20) is None
        assert player_by_number(tournament, 10**20) is None
    assert session_by_number(tournament, 2) is None
