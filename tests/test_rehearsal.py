"""``tournament.server.rehearsal`` and ``manage.py generate_tournament``: a synthetic
tournament played through the services, complete and the same for the same seed."""

import io
from collections import Counter

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command

from tests.conftest import make_user
from tests.planner_counts import counted, forget_counts
from tournament.models import Hand, Penalty, Seat
from tournament.scoring import MIN_FAN
from tournament.seating import HANDS_PER_SESSION
from tournament.selectors.lookups import tournament_by_slug
from tournament.selectors.standings import team_standings, tournament_standings
from tournament.server import rehearsal
from tournament.services.hands import settle

# The smallest size that the whole-tournament planner seats at once: with 8 or 12 players
# meetings cannot all be avoided, and its search spends its whole budget looking.
PLAYERS, SESSIONS = 16, 2


def build(seed: int = 5, slug: str = "rehearsal-a", **extra):
    return rehearsal.build_tournament(
        players=PLAYERS, sessions=SESSIONS, seed=seed, slug=slug, name="Rehearsal", **extra
    )


def snapshot(tournament) -> tuple:
    """The players, seats, hands and penalties of ``tournament`` as plain tuples."""
    players = tuple(
        tournament.players.order_by("number").values_list(
            "number", "name", "name_zh", "team", "country", "is_substitute"
        )
    )
    seats = tuple(
        Seat.objects.filter(session__tournament=tournament)
        .order_by("session__number", "table__number", "seat")
        .values_list("session__number", "table__number", "seat", "player__number")
    )
    hand_order = ("table__session__number", "table__number", "number")
    hands = tuple(
        Hand.objects.filter(table__session__tournament=tournament)
        .order_by(*hand_order)
        .values_list(
            *hand_order,
            "outcome",
            "winner",
            "discarder",
            "fan",
            "flowers",
            "points_p1",
            "points_p2",
            "points_p3",
            "points_p4",
            "deducted",
        )
    )
    penalties = tuple(
        Penalty.objects.filter(hand__table__session__tournament=tournament)
        .order_by("hand__table__session__number", "hand__table__number", "hand__number", "id")
        .values_list(
            "hand__table__session__number",
            "hand__table__number",
            "hand__number",
            "offender",
            "kind",
            "points",
            "beneficiary",
            "reason",
        )
    )
    return players, seats, hands, penalties


def run(*args) -> list[str]:
    out = io.StringIO()
    call_command("generate_tournament", *args, stdout=out)
    return out.getvalue().splitlines()


# ---------------------------------------------------------------- the build


@pytest.mark.django_db
def test_a_build_is_complete_every_table_confirmed_every_session_closed():
    tournament = build()

    sessions = list(tournament.sessions.order_by("number"))
    assert [s.number for s in sessions] == [1, 2]
    assert all(s.closed_at is not None for s in sessions)
    assert {s.method for s in sessions} == {tournament.seating_method}
    for session in sessions:
        tables = list(session.tables.all())
        assert len(tables) == PLAYERS // 4
        for table in tables:
            assert table.confirmed_at is not None
            assert sorted(table.hands.values_list("number", flat=True)) == list(
                range(1, HANDS_PER_SESSION + 1)
            )
    rows = tournament_standings(tournament)
    assert len(rows) == PLAYERS
    assert all(row.rank is not None and row.sessions_played == SESSIONS for row in rows)
    assert team_standings(rows), "some players play for a team"
    assert tournament.players.exclude(country="").exists()


@pytest.mark.django_db
def test_a_build_mixes_both_wins_and_draws_with_legal_fans():
    tournament = build()
    hands = Hand.objects.filter(table__session__tournament=tournament)
    outcomes = Counter(hands.values_list("outcome", flat=True))
    assert outcomes["discard"] > outcomes["self_drawn"] > 0
    assert outcomes["draw"] > 0
    wins = hands.filter(outcome__in=Hand.WINS)
    assert all(fan >= MIN_FAN for fan in wins.values_list("fan", flat=True))
    assert set(wins.values_list("flowers", flat=True)) <= {0, 1, 2, 3}


@pytest.mark.django_db
def test_the_organiser_creates_the_tournament_and_enters_the_hands():
    organiser = make_user("rehearsal-organiser")
    tournament = build(organiser=organiser)
    assert list(tournament.organisers.all()) == [organiser]
    entered_by = set(
        Hand.objects.filter(table__session__tournament=tournament).values_list(
            "entered_by", flat=True
        )
    )
    assert entered_by == {organiser.pk}


@pytest.mark.django_db
def test_the_same_seed_gives_the_same_tournament_and_another_seed_other_hands():
    first = snapshot(build(seed=5, slug="rehearsal-a"))
    again = snapshot(build(seed=5, slug="rehearsal-b"))
    other = snapshot(build(seed=6, slug="rehearsal-c"))

    assert again == first
    players, seats, hands, _penalties = first
    assert len(players) == PLAYERS
    assert len(seats) == PLAYERS * SESSIONS
    assert len(hands) == PLAYERS // 4 * SESSIONS * HANDS_PER_SESSION
    assert other[2] != hands


def test_the_planned_hands_follow_the_mix_the_scoring_core_accepts():
    """Over 1,000 tables (no database): the shares of outcomes, fans, flowers, penalties and
    tables cut short by time are those the module promises, and every hand settles."""
    tables = [
        rehearsal.planned_hands(seed=11, session=session, table=table)
        for session in range(1, 11)
        for table in range(1, 101)
    ]
    hands = [hand for table in tables for hand in table]
    outcomes = Counter(hand["outcome"] for hand in hands)
    assert 0.60 < outcomes["discard"] / len(hands) < 0.70
    assert 0.22 < outcomes["self_drawn"] / len(hands) < 0.28
    assert 0.08 < outcomes["draw"] / len(hands) < 0.12
    fans = [hand["fan"] for hand in hands if "fan" in hand]
    assert min(fans) == MIN_FAN and max(fans) == 88
    assert sum(MIN_FAN <= fan <= 16 for fan in fans) / len(fans) > 0.75
    flowers = Counter(hand["flowers"] for hand in hands if "fan" in hand)
    assert set(flowers) == {0, 1, 2, 3} and flowers[0] > flowers[1] > flowers[3]
    penalised = [hand for hand in hands if hand.get("penalties")]
    assert 0.002 < len(penalised) / len(hands) < 0.01
    assert {p.kind for hand in penalised for p in hand["penalties"]} == {
        "to_each_other",
        "to_one",
        "deducted",
    }
    cut = [table for table in tables if len(table) < HANDS_PER_SESSION]
    assert 0.08 < len(cut) / len(tables) < 0.22
    assert {len(table) for table in cut} == {13, 14, 15}
    for hand in hands:
        entry = {k: v for k, v in hand.items() if k not in ("number", "penalties")}
        settle(
            **{"winner": None, "discarder": None, "fan": None, "flowers": 0, **entry},
            penalties=hand.get("penalties", ()),
        )


def test_the_players_are_the_same_for_a_seed_and_some_play_for_teams():
    planned = rehearsal.planned_players(players=40, seed=3)
    assert planned == rehearsal.planned_players(players=40, seed=3)
    assert planned != rehearsal.planned_players(players=40, seed=4)
    assert [p["number"] for p in planned] == list(range(1, 41))
    teams = Counter(p["team"] for p in planned if p["team"])
    assert len(teams) >= 2 and max(teams.values()) >= 2
    assert any(p["name_zh"] for p in planned)


# ---------------------------------------------------------------- refusals


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("--players", "7"), "multiple of 4, at least 4"),
        (("--players", "0"), "multiple of 4, at least 4"),
        (("--sessions", "0"), "from 1 to 30"),
        (("--sessions", "31"), "from 1 to 30"),
        (("--seed", "-1"), "zero or more"),
        (("--organiser", "nobody"), "No account with the username nobody"),
        (("--slug", "not a slug"), "slug"),
        (("--played", "2"), "from 0 to 1: got 2"),
        (("--played", "-1"), "from 0 to 1: got -1"),
    ],
)
def test_the_command_refuses_bad_arguments_and_writes_nothing(arguments, message):
    defaults = {"--players": "4", "--sessions": "1", "--seed": "1"}
    given = dict(zip(arguments[::2], arguments[1::2], strict=True))
    argv = [item for pair in {**defaults, **given}.items() for item in pair]
    with pytest.raises(CommandError, match=message):
        run(*argv)
    assert not Hand.objects.exists()
    assert not Seat.objects.exists()


@pytest.mark.django_db
def test_the_command_refuses_a_short_name_already_taken():
    run("--players", "4", "--sessions", "1", "--seed", "1")
    with pytest.raises(CommandError, match="rehearsal-4x1-s1 already exists"):
        run("--players", "4", "--sessions", "1", "--seed", "1")


@pytest.mark.django_db
def test_build_tournament_refuses_with_the_argument_concerned():
    with pytest.raises(ValidationError) as refused:
        rehearsal.build_tournament(players=10, sessions=1, seed=1, slug="x")
    assert refused.value.error_dict["players"][0].code == "bad_player_count"


@pytest.mark.django_db
def test_a_build_stopped_after_some_sessions_has_the_next_open_for_play():
    tournament = rehearsal.build_tournament(players=16, sessions=4, seed=5, slug="mid", played=2)
    sessions = {s.number: s for s in tournament.sessions.all()}
    assert sorted(sessions) == [1, 2, 3]
    assert all(sessions[n].closed_at is not None for n in (1, 2))
    third = sessions[3]
    assert third.opened_at is not None and third.closed_at is None
    assert third.tables.count() == 4
    assert not Hand.objects.filter(table__session=third).exists()
    rows = tournament_standings(tournament)
    assert {row.sessions_played for row in rows} == {2}
    # The first two sessions are those of a whole build with the same seed.
    whole = rehearsal.build_tournament(players=16, sessions=4, seed=5, slug="whole")
    played = Hand.objects.filter(table__session__number__lte=2)
    assert list(
        played.filter(table__session__tournament=tournament)
        .order_by("table__session__number", "table__number", "number")
        .values_list("table__session__number", "table__number", "number", "points_p1")
    ) == list(
        played.filter(table__session__tournament=whole)
        .order_by("table__session__number", "table__number", "number")
        .values_list("table__session__number", "table__number", "number", "points_p1")
    )


@pytest.mark.django_db
def test_no_session_played_leaves_the_first_drawn_and_open():
    tournament = rehearsal.build_tournament(players=8, sessions=2, seed=1, slug="none", played=0)
    assert list(tournament.sessions.values_list("number", "closed_at")) == [(1, None)]


# ---------------------------------------------------------------- the command


@pytest.mark.django_db
def test_the_command_prints_each_session_and_the_total():
    organiser = make_user("host")
    lines = run(
        "--players", "4", "--sessions", "2", "--seed", "9", "--name", "Dry run",
        "--organiser", "host",
    )  # fmt: skip
    assert lines[0].startswith("Session 1/2: drawn in ")
    assert "1 tables, 16 hands in " in lines[0]
    assert lines[1].startswith("Session 2/2: ")
    assert lines[2].startswith("Built rehearsal-4x2-s9: 4 players, 2 sessions, 32 hands in ")
    assert lines[2].endswith(" ms per hand).")
    tournament = tournament_by_slug("rehearsal-4x2-s9")
    assert tournament.name == "Dry run"
    assert list(tournament.organisers.all()) == [organiser]


@pytest.mark.django_db
def test_a_build_leaves_the_planner_counts_of_what_it_loaded():
    forget_counts()
    rehearsal.build_tournament(players=16, sessions=1, seed=2, slug="counted")
    assert counted("tournament_seat")
    assert counted("tournament_hand")
