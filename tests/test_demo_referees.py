"""The demo referee account referees every table of the demo, so it can enter results; the
demo organiser runs the demo's series of its people."""

import io

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import override_settings

from tournament import services
from tournament.models import Player, Series, Table
from tournament.selectors.series import series_standing

DEMO_SLUG = "demo-open-2026"


def setup_demo() -> None:
    # As make run sets up the demo (MCR_DEBUG=1): the command refuses on a real event's server.
    with override_settings(DEBUG=True):
        call_command("setup_demo", stdout=io.StringIO())


def demo_tables():
    return Table.objects.filter(session__tournament__slug=DEMO_SLUG).select_related("referee")


@pytest.mark.django_db
def test_the_demo_referee_has_every_table_of_the_drawn_sessions():
    setup_demo()
    tables = list(demo_tables())
    assert tables
    assert {table.referee.username for table in tables} == {"referee"}


@pytest.mark.django_db
def test_setting_up_again_keeps_an_organisers_choice():
    setup_demo()
    organiser = User.objects.get(username="organiser")
    table, freed = demo_tables().order_by("session__number", "number")[:2]
    services.tables_assign(session=table.session, referee=organiser, tables=[table.number])
    services.tables_assign(session=freed.session, referee=None, tables=[freed.number])
    setup_demo()
    table.refresh_from_db()
    freed.refresh_from_db()
    assert table.referee == organiser
    assert freed.referee.username == "referee"


@pytest.mark.django_db
def test_the_demos_players_are_people_ranked_by_a_series_its_organiser_runs():
    setup_demo()
    setup_demo()  # again: nothing doubles
    players = Player.objects.filter(tournament__slug=DEMO_SLUG)
    assert not players.filter(person__isnull=True).exists()
    (series,) = Series.objects.all()
    assert [t.slug for t in series.tournaments.all()] == [DEMO_SLUG]
    assert [u.username for u in series.organisers.all()] == ["organiser"]
    ranked = series_standing(series).rows
    assert len(ranked) == players.filter(is_substitute=False).count()
