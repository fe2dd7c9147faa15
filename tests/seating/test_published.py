"""The published schedule by registration number (``seating.published``): pure, no database.

The published promise: the schedule of a tournament's registered players is the output of
``python -m tournament.seating --players N --sessions R --seed S`` with command-line player
i read as the i-th registration number.
"""

import json

import pytest

from tournament.seating.__main__ import main as seating_command
from tournament.seating.published import (
    ReplanChange,
    matches_drawn,
    plan_registered,
    replan_change,
    replan_from_input,
    replan_input,
    replan_registered,
    seat_order_lots,
)
from tournament.seating.schedule import plan_schedule, schedule_stats

# Sixteen registration numbers with gaps, sorted: command-line player i is NUMBERS[i - 1].
NUMBERS = [3, 7, 8, 12, 15, 21, 22, 30, 31, 40, 44, 45, 52, 60, 61, 99]


def command_output(capsys, *args) -> dict:
    assert seating_command([str(a) for a in args]) == 0
    return json.loads(capsys.readouterr().out)


def mapped(sessions, numbers=NUMBERS) -> list[list[list[int]]]:
    """Command-line sessions (players 1..N) read through the registration numbers."""
    return [[[numbers[i - 1] for i in table] for table in tables] for tables in sessions]


def as_tuples(tables) -> list[tuple[int, ...]]:
    return [tuple(table) for table in tables]


@pytest.fixture(scope="module")
def plan():
    return plan_registered(NUMBERS, 4, seed=777, groups={})


# ---------------------------------------------------------------- plan_registered


@pytest.mark.parametrize(("sessions", "seed"), [(4, 777), (6, 20261130)])
def test_the_plan_is_the_command_output_mapped_through_the_numbers(capsys, sessions, seed):
    output = command_output(
        capsys, "--players", len(NUMBERS), "--sessions", sessions, "--seed", seed
    )

    plan = plan_registered(NUMBERS, sessions, seed=seed, groups={})

    assert plan.sessions == mapped(output["sessions"])
    assert plan.sessions == mapped(plan_schedule(len(NUMBERS), sessions, seed=seed).sessions)
    assert plan.stats == output["stats"]
    assert plan.players == NUMBERS
    assert (plan.groups, plan.moved_seats) == ({}, 0)


def test_the_plan_with_groups_is_the_command_output_with_its_groups_file(capsys, tmp_path):
    teams = {number: f"Club {i % 4}" for i, number in enumerate(NUMBERS)}  # four clubs of 4
    plan = plan_registered(NUMBERS, 4, seed=9, groups=teams)
    # The groups file names command-line players: registration number NUMBERS[i - 1] is "i".
    assert plan.groups == {str(i): teams[n] for i, n in enumerate(NUMBERS, start=1)}
    groups_file = tmp_path / "groups.json"
    groups_file.write_text(json.dumps(plan.groups), encoding="utf-8")

    output = command_output(
        capsys, "--players", 16, "--sessions", 4, "--seed", 9, "--groups", groups_file
    )

    assert plan.sessions == mapped(output["sessions"])
    assert plan.stats == output["stats"]
    assert plan.stats["group_conflicts"] == 0


def test_every_planned_session_seats_every_player_once_at_tables_of_four(plan):
    assert len(plan.sessions) == 4
    for tables in plan.sessions:
        assert all(len(table) == 4 for table in tables)
        assert sorted(n for table in tables for n in table) == NUMBERS


def test_a_plan_keeps_the_sessions_already_drawn_exactly(plan):
    # Session 1 as some other method drew it: the first four numbers at table 1, and so on.
    drawn = [NUMBERS[i : i + 4][::-1] for i in range(0, 16, 4)]

    kept = plan_registered(NUMBERS, 4, seed=777, groups={}, fixed=[drawn])

    assert kept.sessions[0] == drawn
    assert len(kept.sessions) == 4
    for tables in kept.sessions[1:]:
        assert sorted(n for table in tables for n in table) == NUMBERS
    assert kept.stats == schedule_stats(kept.sessions).as_dict()


# ---------------------------------------------------------------- matches_drawn


def test_a_plan_matches_before_any_draw_whatever_the_order_of_the_players(plan):
    assert matches_drawn(plan.players, plan.sessions, players=NUMBERS[::-1], drawn={})


def test_a_plan_matches_the_sessions_drawn_from_it(plan):
    drawn = {1: as_tuples(plan.sessions[0]), 2: as_tuples(plan.sessions[1])}
    assert matches_drawn(plan.players, plan.sessions, players=NUMBERS, drawn=drawn)


def test_a_plan_does_not_match_other_players(plan):
    players = [n for n in NUMBERS if n != 15] + [100]
    drawn = {1: as_tuples(plan.sessions[0])}
    assert not matches_drawn(plan.players, plan.sessions, players=players, drawn=drawn)


def test_a_plan_does_not_match_a_session_seated_otherwise(plan):
    first = as_tuples(plan.sessions[0])
    east, south, west, north = first[0]
    swapped_seats = [(south, east, west, north), *first[1:]]
    swapped_tables = [first[1], first[0], *first[2:]]
    for tables in (swapped_seats, swapped_tables):
        assert not matches_drawn(plan.players, plan.sessions, players=NUMBERS, drawn={1: tables})


def test_a_plan_does_not_match_a_session_drawn_beyond_it(plan):
    drawn = {1: as_tuples(plan.sessions[0]), 5: as_tuples(plan.sessions[0])}
    assert not matches_drawn(plan.players, plan.sessions, players=NUMBERS, drawn=drawn)


# ---------------------------------------------------------------- replan_registered


def test_a_substitute_takes_the_seats_of_the_player_who_withdrew(plan):
    players = sorted([n for n in NUMBERS if n != 15] + [100])

    replanned = replan_registered(
        plan.sessions, drawn=plan.sessions[:1], players=players, seed=777, groups={}
    )

    substituted = [
        [[100 if n == 15 else n for n in table] for table in tables] for tables in plan.sessions
    ]
    assert replanned.sessions[0] == plan.sessions[0]
    assert replanned.sessions[1:] == substituted[1:]
    assert replanned.moved_seats == 0
    assert replanned.players == players
    assert replanned.groups is None


def test_a_replan_for_fewer_tables_keeps_the_drawn_session_and_seats_everyone_left(plan):
    players = NUMBERS[:12]

    replanned = replan_registered(
        plan.sessions, drawn=plan.sessions[:1], players=players, seed=777, groups={}
    )

    assert replanned.sessions[0] == plan.sessions[0]
    assert len(replanned.sessions) == 4
    for tables in replanned.sessions[1:]:
        assert len(tables) == 3
        assert sorted(n for table in tables for n in table) == players
    assert replanned.stats == schedule_stats(replanned.sessions).as_dict()


# ---------------------------------------------------------------- a re-plan's input


def test_a_replan_input_round_trips_through_json_to_the_same_schedule(plan):
    # Player 15 withdrew after session 1, which a substitute's seat change made different
    # from the plan; the groups are keyed by registration number.
    drawn = [[[100 if n == 15 else n for n in table] for table in plan.sessions[0]]]
    players = sorted([n for n in NUMBERS if n != 15] + [100, 101, 102, 103])[:16]
    groups = {3: "Red", 7: "Red", 100: "Blue"}
    data = replan_input(plan.sessions, drawn=drawn, players=players, seed=777, groups=groups)

    assert data["played"] == 1
    assert data["schedule"] == drawn + plan.sessions[1:]
    assert data["groups"] == {"3": "Red", "7": "Red", "100": "Blue"}
    direct = replan_registered(plan.sessions, drawn=drawn, players=players, seed=777, groups=groups)
    from_file = replan_from_input(json.loads(json.dumps(data)))
    assert from_file.sessions == direct.sessions
    assert from_file.moved_seats == direct.moved_seats
    assert from_file.sessions[0] == drawn[0]


def test_a_replan_change_names_who_left_and_who_joined(plan):
    players = sorted([n for n in NUMBERS if n not in (15, 40)] + [100, 101])
    data = replan_input(plan.sessions, drawn=plan.sessions[:2], players=players, seed=1, groups={})
    assert replan_change(data) == ReplanChange(before_session=3, left=[15, 40], joined=[100, 101])


def test_a_replan_with_no_session_left_changes_nobody(plan):
    data = replan_input(plan.sessions, drawn=plan.sessions, players=[1, 2, 3, 4], seed=1, groups={})
    assert replan_change(data) == ReplanChange(before_session=5, left=[], joined=[])


# ---------------------------------------------------------------- seat_order_lots


def test_seat_order_lots_number_the_seats_table_after_table():
    tables = [[7, 2, 9, 4], (1, 3, 5, 6), [8, 10, 11, 12]]
    assert seat_order_lots(tables) == [
        ((7, 2, 9, 4), [1, 2, 3, 4]),
        ((1, 3, 5, 6), [5, 6, 7, 8]),
        ((8, 10, 11, 12), [9, 10, 11, 12]),
    ]


def test_seat_order_lots_of_no_table_is_empty():
    assert seat_order_lots([]) == []


def test_the_examples_in_the_docstrings_hold():
    import doctest

    from tournament.seating import published

    result = doctest.testmod(published)
    assert result.attempted >= 2
    assert result.failed == 0
