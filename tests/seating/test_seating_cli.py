"""The seating command line, ``python -m tournament.seating ...``, run as a subprocess."""

import json
import os
import subprocess
import sys
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run(*args, hash_seed="0"):
    env = dict(os.environ, PYTHONHASHSEED=hash_seed)
    env.pop("DJANGO_SETTINGS_MODULE", None)
    return subprocess.run(
        [sys.executable, "-m", "tournament.seating", *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def test_output_format_and_figures():
    result = run("--players", 16, "--sessions", 5, "--seed", 42)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert list(data) == ["seed", "players", "sessions", "stats"]
    assert data["seed"] == 42
    assert data["players"] == 16
    assert len(data["sessions"]) == 5
    pairs = Counter()
    seats = {}
    for tables in data["sessions"]:
        assert sorted(p for t in tables for p in t) == list(range(1, 17))
        for table in tables:
            assert len(table) == 4
            for seat, player in enumerate(table):
                seats.setdefault(player, Counter())[seat] += 1
            pairs.update(frozenset(p) for p in combinations(table, 2))
    stats = data["stats"]
    for key in ("extra_meetings", "max_meetings", "group_conflicts", "seat_spread", "lower_bound"):
        assert isinstance(stats[key], int)
    assert stats["extra_meetings"] == sum(c - 1 for c in pairs.values())
    assert stats["max_meetings"] == max(pairs.values())
    assert stats["group_conflicts"] == 0
    assert stats["lower_bound"] == 0
    assert (
        stats["seat_spread"]
        == max(max(c[s] for s in range(4)) - min(c[s] for s in range(4)) for c in seats.values())
        == 1
    )


def test_byte_identical_for_the_same_seed():
    first = run("--players", 24, "--sessions", 7, "--seed", 7, hash_seed="1")
    second = run("--players", 24, "--sessions", 7, "--seed", 7, hash_seed="2")
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout


def test_fresh_seed_is_printed_and_reproduces():
    first = run("--players", 8, "--sessions", 3)
    assert first.returncode == 0, first.stderr
    seed = json.loads(first.stdout)["seed"]
    assert isinstance(seed, int)
    again = run("--players", 8, "--sessions", 3, "--seed", seed)
    assert again.stdout == first.stdout


def test_groups_file(tmp_path):
    groups = {str(p): f"Club {(p - 1) // 4}" for p in range(1, 17)}
    path = tmp_path / "groups.json"
    path.write_text(json.dumps(groups), encoding="utf-8")
    result = run("--players", 16, "--sessions", 4, "--seed", 3, "--groups", path)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    conflicts = sum(
        1
        for tables in data["sessions"]
        for table in tables
        for a, b in combinations(table, 2)
        if groups[str(a)] == groups[str(b)]
    )
    assert data["stats"]["group_conflicts"] == conflicts


def write(tmp_path, text):
    path = tmp_path / "groups.json"
    path.write_text(text, encoding="utf-8")
    return path


BAD_ARGUMENTS = {
    "not a multiple of 4": (["--players", 10, "--sessions", 3], "multiple of 4"),
    "zero players": (["--players", 0, "--sessions", 3], "multiple of 4"),
    "negative players": (["--players", -4, "--sessions", 3], "multiple of 4"),
    "no sessions": (["--players", 8, "--sessions", 0], "--sessions"),
    "players not an integer": (["--players", "eight", "--sessions", 3], "--players"),
    "players a decimal": (["--players", "8.0", "--sessions", 3], "--players"),
    "sessions not an integer": (["--players", 8, "--sessions", "x"], "--sessions"),
    "seed not an integer": (["--players", 8, "--sessions", 3, "--seed", "abc"], "--seed"),
    "negative seed": (["--players", 8, "--sessions", 3, "--seed", -1], "--seed"),
    "players missing": (["--sessions", 3], "--players"),
    "unknown option": (["--players", 8, "--sessions", 3, "--tables", 2], "--tables"),
}


@pytest.mark.parametrize("case", sorted(BAD_ARGUMENTS))
def test_bad_arguments_exit_2(case):
    args, message = BAD_ARGUMENTS[case]
    result = run(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert message in result.stderr


BAD_GROUP_FILES = {
    "unknown player": ('{"1": "A", "9": "B"}', "player 9"),
    "player zero": ('{"0": "A"}', "player 0"),
    "not a number": ('{"one": "A"}', "'one'"),
    "invalid JSON": ('{"1": "A",', "not valid JSON"),
    "not an object": ('["A", "B"]', "JSON object"),
    "group not a string": ('{"1": 5}', "group names"),
    "empty group": ('{"1": ""}', "group names"),
}


@pytest.mark.parametrize("case", sorted(BAD_GROUP_FILES))
def test_bad_groups_files_exit_2(case, tmp_path):
    text, message = BAD_GROUP_FILES[case]
    path = write(tmp_path, text)
    result = run("--players", 8, "--sessions", 2, "--seed", 1, "--groups", path)
    assert result.returncode == 2
    assert result.stdout == ""
    assert message in result.stderr


def test_unreadable_groups_file(tmp_path):
    result = run("--players", 8, "--sessions", 2, "--groups", tmp_path / "missing.json")
    assert result.returncode == 2
    assert "cannot read the groups file" in result.stderr


# ---------------------------------------------------------------- replan --input


def test_replan_reruns_a_published_replan(tmp_path):
    from tournament.seating.published import plan_registered, replan_from_input, replan_input

    numbers = list(range(101, 117))
    plan = plan_registered(numbers, 4, seed=31, groups={})
    players = sorted([n for n in numbers if n != 105] + [117])
    data = replan_input(plan.sessions, drawn=plan.sessions[:2], players=players, seed=31, groups={})
    path = tmp_path / "replan-1.json"
    path.write_text(json.dumps(data), encoding="utf-8")

    first = run("replan", "--input", path, hash_seed="0")
    second = run("replan", "--input", path, hash_seed="123")

    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    printed = json.loads(first.stdout)
    expected = replan_from_input(data)
    assert list(printed) == ["seed", "played", "moved_seats", "sessions"]
    assert printed["sessions"] == expected.sessions
    assert printed["moved_seats"] == expected.moved_seats
    assert printed["sessions"][:2] == plan.sessions[:2]
    assert all(105 not in table for tables in printed["sessions"][2:] for table in tables)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("[]", "must be a JSON object"),
        ('{"seed": 1, "played": 0, "players": [1, 2, 3, 4]}', "must be a JSON object"),
        (
            '{"seed": 1, "played": 0, "players": [1, 2, 3], "schedule": [[[1, 2, 3, 4]]]}',
            "cannot re-plan this input: The number of players must be a positive multiple of 4",
        ),
        (
            '{"seed": 1, "played": 2, "players": [1, 2, 3, 4], "schedule": [[[1, 2, 3, 4]]]}',
            "cannot re-plan this input: played must be from 0 to 1",
        ),
        ('{"seed": 1, "played": 0, "players": "abcd", "schedule": 5}', "cannot re-plan"),
        ("not json", "is not valid JSON"),
    ],
)
def test_replan_refuses_a_bad_input(tmp_path, content, message):
    path = tmp_path / "replan.json"
    path.write_text(content, encoding="utf-8")
    result = run("replan", "--input", path)
    assert result.returncode == 2
    assert message in result.stderr
    assert result.stdout == ""
