"""The web tests' shared fixtures: the registration pages' cast (test_players.py and
test_player_import.py), a drawn session, the service's log; the personas of every page are
in tests/conftest.py."""

import io
import logging
from types import SimpleNamespace

import pytest

from tests.conftest import login, make_players, make_tournament, make_user
from tests.web.player_pages import SLUG
from tournament import services


@pytest.fixture
def cast(db):
    """The tournament with its organiser and referee, and another tournament with its own."""
    users = {
        "organiser": make_user("organiser"),
        "referee": make_user("referee"),
        "other_organiser": make_user("other-organiser"),
        "other_referee": make_user("other-referee"),
        "anonymous": None,
    }
    tournament = make_tournament(creator=users["organiser"], slug=SLUG)
    tournament.referees.add(users["referee"])
    other = make_tournament(creator=users["other_organiser"], slug="autumn-cup")
    other.referees.add(users["other_referee"])
    services.player_save(tournament=tournament, number=1, name="Alice", team="Lyon")
    return SimpleNamespace(
        tournament=tournament, other=other, users=users, organiser=login(users["organiser"])
    )


@pytest.fixture
def drawn(tournament):
    """Session 1 drawn (not yet open) for 16 players."""
    make_players(tournament, 16)
    return services.session_draw(tournament=tournament, number=1, seed=123456789)


@pytest.fixture
def service_log():
    """What the site writes to stderr, the service's log, during the test."""
    handler = next(h for h in logging.getLogger().handlers if h.name == "stderr")
    stream = io.StringIO()
    previous = handler.setStream(stream)
    yield stream
    handler.setStream(previous)
