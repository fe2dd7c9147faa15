"""``python -m tournament.seating verify FILE.json [--hash HEX]``, run as a subprocess."""

import json

import pytest

from tests.seating.test_commitment import SEED, record
from tests.seating.test_seating_cli import run
from tournament.seating import commitment as rules


def write(tmp_path, data, name="fairness.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path


def test_a_record_that_matches_exits_0_and_says_so(tmp_path):
    data = record("lot", source="drand round 7", public_value="9f1c")
    result = run("verify", write(tmp_path, data), "--hash", data["hash"])
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    draw_seed = rules.draw_seed(SEED, "9f1c")
    assert lines == [
        f"commitment hash  {data['hash']}",
        f'draw seed        {draw_seed} (seed {SEED} mixed with the public value "9f1c")',
        f"match    published hash: {data['hash']}",
        f"match    --hash: {data['hash']}",
        "match    session 1: 2 tables as published",
        f"software         committed with {rules.SOFTWARE}, checked with {rules.SOFTWARE}",
        "verified: every check matches",
    ]
    assert result.stderr == ""


def test_without_hash_and_public_value(tmp_path):
    data = record("planned")
    result = run("verify", write(tmp_path, data))
    assert result.returncode == 0, result.stderr
    assert f"draw seed        {SEED} (the committed seed)" in result.stdout
    assert "--hash" not in result.stdout
    for number in (1, 2, 3):
        assert f"match    session {number}: 4 tables as published" in result.stdout


def test_a_changed_player_list_exits_1(tmp_path):
    data = record("lot")
    data["commitment"]["players"][3]["name"] = "Someone else"
    result = run("verify", write(tmp_path, data), "--hash", data["hash"])
    assert result.returncode == 1
    assert f"MISMATCH published hash: {data['hash']}" in result.stdout
    assert f"MISMATCH --hash: {data['hash']}" in result.stdout
    assert result.stdout.splitlines()[-1] == "NOT verified: 2 of 3 checks do not match"


def test_a_changed_seed_exits_1(tmp_path):
    data = record("lot")
    data["seed"] += 1
    result = run("verify", write(tmp_path, data))
    assert result.returncode == 1
    assert "MISMATCH session 1: table 1 is" in result.stdout


def test_a_wrong_hash_given_exits_1(tmp_path):
    data = record("lot")
    result = run("verify", write(tmp_path, data), "--hash", "ab" * 32)
    assert result.returncode == 1
    assert f"MISMATCH --hash: {'ab' * 32}" in result.stdout
    assert f"match    published hash: {data['hash']}" in result.stdout


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "is not valid JSON"),
        ('{"format": "other"}', "not a fairness record"),
        (None, "the seed is not revealed yet"),
    ],
)
def test_a_file_that_is_not_a_record_exits_2(tmp_path, content, message):
    path = tmp_path / "fairness.json"
    if content is None:
        unrevealed = record("lot")
        unrevealed.update(seed=None, salt=None, seating={})
        content = json.dumps(unrevealed)
    path.write_text(content, encoding="utf-8")
    result = run("verify", path)
    assert result.returncode == 2
    assert message in result.stderr
    assert result.stdout == ""


def test_a_missing_file_or_argument_exits_2(tmp_path):
    missing = run("verify", tmp_path / "nowhere.json")
    assert missing.returncode == 2
    assert "cannot read" in missing.stderr
    assert run("verify").returncode == 2


def test_the_other_commands_still_work(tmp_path):
    planned = run("--players", 8, "--sessions", 1, "--seed", 3)
    assert planned.returncode == 0, planned.stderr
    assert json.loads(planned.stdout)["seed"] == 3
    session = write(
        tmp_path, {"mode": "random", "seed": 5, "players": [1, 2, 3, 4]}, name="session.json"
    )
    result = run("session", "--input", session)
    assert result.returncode == 0, result.stderr
    assert sorted(json.loads(result.stdout)["tables"][0]) == [1, 2, 3, 4]


def test_the_module_docstring_documents_every_command():
    from tournament.seating import __main__

    for usage in (
        "python -m tournament.seating --players N --sessions R",
        "python -m tournament.seating session --input FILE.json",
        "python -m tournament.seating verify FILE.json [--hash HEX]",
    ):
        assert usage in __main__.__doc__
