"""The organiser's scripted commands: ``draw_session`` and ``setup_demo``."""

import io
import re

import pytest
from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from tests.conftest import make_players, make_tournament, make_user
from tournament import services
from tournament.language.formatting import SEAT_LABELS
from tournament.models import Hand, Player, Seat, Session, Tournament

DEMO_SLUG = "demo-open-2026"


def run(*args) -> list[str]:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue().splitlines()


@pytest.fixture
def cup(db):
    cup = make_tournament(creator=make_user("owner", can_create=True), slug="city-cup")
    make_players(cup, 8)
    return cup


# ---------------------------------------------------------------- draw_session


def test_draw_session_prints_the_seed_and_seating_it_stores(cup):
    lines = run("draw_session", "city-cup", "1", "--seed", "20261130")
    assert lines[0] == "Session 1 drawn with seed 20261130"
    session = cup.sessions.get(number=1)
    assert session.seed == 20261130
    expected = [
        f"table {s.table.number} {SEAT_LABELS[s.seat]} lot {s.lot}: "
        f"{s.player.number} {s.player.name}"
        for s in session.seats.select_related("table", "player").order_by("table__number", "seat")
    ]
    assert lines[1:] == expected
    assert len(expected) == 8


def test_draw_session_seats_from_a_planned_schedule(cup):
    run("draw_session", "city-cup", "1", "--seed", "5", "--method", "planned")
    lines = run("draw_session", "city-cup", "2", "--method", "planned")
    assert lines[0] == "Session 2 drawn with seed 5"
    assert {s.method for s in cup.sessions.all()} == {"planned"}


def test_draw_session_follows_the_worked_example_of_the_docs(cup):
    """docs/seating.md: players 1..8, seed 20261130 -> 1 2 4 3 at table 1, 5 6 8 7 at table 2."""
    lines = run("draw_session", "city-cup", "1", "--seed", "20261130")
    players = [int(re.search(r": (\d+) ", line).group(1)) for line in lines[1:]]
    assert players == [1, 2, 4, 3, 5, 6, 8, 7]


def test_draw_session_without_a_seed_prints_the_fresh_one(cup):
    lines = run("draw_session", "city-cup", "2")
    seed = int(re.fullmatch(r"Session 2 drawn with seed (\d+)", lines[0]).group(1))
    assert cup.sessions.get(number=2).seed == seed


def test_the_same_seed_in_two_tournaments_prints_the_same_seating(cup):
    other = make_tournament(creator=User.objects.get(username="owner"), slug="town-cup")
    make_players(other, 8)
    first = run("draw_session", "city-cup", "1", "--seed", "555")
    second = run("draw_session", "town-cup", "1", "--seed", "555")
    assert first == second
    assert len(first) == 9


def test_draw_session_for_an_unknown_slug_is_an_error(cup):
    with pytest.raises(CommandError, match="No tournament with slug 'nowhere'"):
        run("draw_session", "nowhere", "1", "--seed", "1")
    assert not Session.objects.exists()


def test_a_second_draw_of_the_same_session_is_an_error_and_changes_nothing(cup):
    run("draw_session", "city-cup", "1", "--seed", "111")
    seats = list(Seat.objects.values_list("player__number", "table__number", "seat", "lot"))
    with pytest.raises(CommandError, match="Session 1 is already drawn"):
        run("draw_session", "city-cup", "1", "--seed", "222")
    assert list(Session.objects.values_list("number", "seed")) == [(1, 111)]
    assert list(Seat.objects.values_list("player__number", "table__number", "seat", "lot")) == (
        seats
    )


def test_draw_session_warns_of_a_substitute_beyond_the_federations_limit(cup):
    make_players(cup, 3, start=9)
    make_players(cup, 1, start=12, is_substitute=True)
    services.tournament_update(tournament=cup, substitute_limit=0)
    out, err = io.StringIO(), io.StringIO()
    call_command("draw_session", "city-cup", "1", "--seed", "5", stdout=out, stderr=err)
    assert err.getvalue() == (
        "Seating 12 Player 12 brings the substitutes who have sat at a table to 1: the "
        "federation counts only 0 substitutes.\n"
    )
    assert Seat.objects.filter(player__number=12).exists()
    # Substitute 12 has sat at a table already: seating it again adds nobody.
    err = io.StringIO()
    call_command("draw_session", "city-cup", "2", "--seed", "5", stdout=out, stderr=err)
    assert err.getvalue() == ""


def test_draw_session_out_of_range_is_an_error(cup):
    with pytest.raises(CommandError, match="sessions 1 to 4"):
        run("draw_session", "city-cup", "5", "--seed", "1")
    assert not Session.objects.exists()


def test_draw_session_with_players_missing_is_an_error(cup):
    make_players(cup, 1, start=9)
    with pytest.raises(CommandError, match="Register 3 more substitutes to fill the last table"):
        run("draw_session", "city-cup", "1", "--seed", "1")
    assert not Session.objects.exists()


# ---------------------------------------------------------------- setup_demo


def counts() -> dict[str, int]:
    return {
        "tournaments": Tournament.objects.count(),
        "players": Player.objects.count(),
        "sessions": Session.objects.count(),
        "seats": Seat.objects.count(),
        "hands": Hand.objects.count(),
        "users": User.objects.count(),
    }


def printed_accounts(lines: list[str]) -> dict[str, tuple[str, str]]:
    """role -> (username, password) as printed by setup_demo."""
    accounts = {}
    for line in lines:
        match = re.fullmatch(r"\s*(\w+)\s+user '([^']+)' password '([^']+)'", line)
        if match:
            accounts[match.group(1)] = (match.group(2), match.group(3))
    return accounts


@pytest.fixture
def demo_settings(settings):
    """``make run``'s settings (MCR_DEBUG=1), where the demo may be set up."""
    settings.DEBUG = True
    return settings


@pytest.mark.django_db
def test_setup_demo_refuses_on_a_real_events_server(settings):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="runs only with MCR_DEBUG=1"):
        run("setup_demo")
    assert counts()["tournaments"] == 0
    assert counts()["users"] == 0


@pytest.mark.django_db
@pytest.mark.usefixtures("demo_settings")
def test_setup_demo_loads_the_demo_once():
    first = run("setup_demo")
    assert "Loaded the demo tournament." in first
    after_first = counts()
    assert after_first["tournaments"] == 1
    assert after_first["players"] == 16
    assert after_first["users"] == 2

    second = run("setup_demo")
    assert "Loaded the demo tournament." not in second
    assert counts() == after_first
    assert printed_accounts(second) == printed_accounts(first)


@pytest.mark.django_db
@pytest.mark.usefixtures("demo_settings")
def test_setup_demo_accounts_log_in_with_the_printed_passwords():
    run("setup_demo")
    accounts = printed_accounts(run("setup_demo"))
    assert set(accounts) == {"organiser", "referee"}
    demo = Tournament.objects.get(slug=DEMO_SLUG)
    users = {}
    for role, (username, password) in accounts.items():
        user = authenticate(username=username, password=password)
        assert user is not None, f"{role} cannot log in with the printed password"
        assert authenticate(username=username, password=password + "x") is None
        users[role] = user
    assert list(demo.organisers.all()) == [users["organiser"]]
    assert list(demo.referees.all()) == [users["referee"]]
    assert users["organiser"].has_perm("tournament.add_tournament")
    assert not users["referee"].has_perm("tournament.add_tournament")


@pytest.mark.django_db
@pytest.mark.usefixtures("demo_settings")
def test_setup_demo_leaves_an_existing_tournament_alone():
    owner = make_user("owner", can_create=True)
    # The first tournament of a fresh database, created before the demo is loaded.
    own = Tournament.objects.create(pk=1, name="Our Club Night", slug="club-night")
    own.organisers.add(owner)
    make_players(own, 4)
    run("setup_demo")
    kept = Tournament.objects.filter(slug="club-night").first()
    assert kept is not None
    assert kept.name == "Our Club Night"
    assert list(kept.players.values_list("name", flat=True)) == [
        f"Player {n}" for n in (1, 2, 3, 4)
    ]
    assert Tournament.objects.filter(slug=DEMO_SLUG).exists()


@pytest.mark.django_db
@pytest.mark.usefixtures("demo_settings")
def test_setup_demo_does_not_claim_a_changed_password():
    user = make_user("referee")  # an account that existed before the demo, with its own password
    lines = run("setup_demo")
    user.refresh_from_db()
    assert user.check_password("pw-referee")
    assert any("'referee' password (changed)" in line for line in lines)
    assert not any("demo-referee" in line for line in lines)
