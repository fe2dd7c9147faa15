"""The versions that key every cache (``lookups.versions``) are read as stored each time: never
stale after a write, even one of the same request."""

from contextlib import contextmanager

import pytest
from django.core.signals import request_finished, request_started

from tournament import services
from tournament.models import TournamentVersion
from tournament.selectors import lookups

pytestmark = pytest.mark.usefixtures("connection_kept")


@contextmanager
def a_request():
    """The signals of a request's start and end, as the handler sends them."""
    request_started.send(sender=None)
    try:
        yield
    finally:
        request_finished.send(sender=None)


def stored(tournament) -> tuple[int, int, int]:
    row = TournamentVersion.objects.get(tournament=tournament)
    return row.number, row.seating, row.standings


def test_a_write_in_the_request_makes_them_read_again(tournament):
    with a_request():
        found = lookups.tournament_by_slug(tournament.slug)
        before = lookups.data_version(found)
        services.player_save(tournament=found, number=1, name="Ann")
        assert lookups.data_version(found) == stored(tournament)[0] > before
        assert lookups.seating_key(found) == "{1}-{2}".format(*stored(tournament))


def test_they_are_read_each_time(tournament, django_assert_num_queries):
    with a_request():
        found = lookups.tournament_by_slug(tournament.slug)
        TournamentVersion.objects.filter(tournament=tournament).update(number=99)
        with django_assert_num_queries(1):
            assert lookups.data_version(found) == 99
    TournamentVersion.objects.filter(tournament=tournament).update(number=100)
    assert lookups.data_version(found) == 100


def test_a_tournament_without_a_version_reads_as_version_zero(tournament):
    TournamentVersion.objects.filter(tournament=tournament).delete()
    with a_request():
        found = lookups.tournament_by_slug(tournament.slug)
        assert (lookups.data_version(found), lookups.seating_key(found)) == (0, "0")
