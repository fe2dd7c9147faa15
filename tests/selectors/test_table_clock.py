"""table_clock: a table's session clock, only while its session is open for play."""

from datetime import timedelta

import pytest

from tests.conftest import make_players
from tournament import services
from tournament.models import Table
from tournament.selectors.sheets import table_clock


def table_one(session) -> Table:
    return Table.objects.select_related("session__tournament").get(session=session, number=1)


def test_the_clock_runs_from_the_opening_for_the_tournament_time_limit(session_in_play):
    table = table_one(session_in_play)
    now = session_in_play.opened_at + timedelta(minutes=100)

    clock = table_clock(table, now=now)

    assert clock.ends_at == session_in_play.opened_at + timedelta(minutes=150)
    assert (clock.now, clock.seconds_left, clock.time_up) == (now, 50 * 60, False)


def test_the_tables_extra_minutes_move_its_end(session_in_play):
    services.table_extra_time(table=table_one(session_in_play), minutes=10)
    now = session_in_play.opened_at + timedelta(minutes=150)

    clock = table_clock(table_one(session_in_play), now=now)

    assert clock.ends_at == session_in_play.opened_at + timedelta(minutes=160)
    assert (clock.seconds_left, clock.time_up) == (600, False)
    # The other tables keep the session's time.
    other = session_in_play.tables.get(number=2)
    assert table_clock(other, now=now).time_up


def test_the_clock_reads_the_present_by_default(session_in_play):
    clock = table_clock(table_one(session_in_play))
    assert 150 * 60 - 60 < clock.seconds_left <= 150 * 60


def test_a_session_drawn_but_not_opened_has_no_clock(tournament):
    make_players(tournament, 16)
    session = services.session_draw(tournament=tournament, number=1, seed=1)
    assert table_clock(table_one(session)) is None


@pytest.mark.parametrize("later", [timedelta(0), timedelta(days=1)])
def test_a_closed_session_has_no_clock(session_in_play, organiser, later):
    for table in session_in_play.tables.all():
        services.table_confirm(table=table, user=organiser, record_missing_as_not_played=True)
    services.session_close(session=session_in_play)
    now = session_in_play.opened_at + later
    assert table_clock(table_one(session_in_play), now=now) is None
