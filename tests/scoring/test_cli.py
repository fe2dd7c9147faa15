"""The command line, `python -m tournament.scoring`, as other tools and referees use it."""

import io
import json
import select
import subprocess
import sys
from pathlib import Path

import pytest

from tournament.scoring import __main__ as cli

ROOT = Path(__file__).resolve().parents[2]

GOOD = {
    "id": 1,
    "concealed": ["E", "8s", "1m", "2m", "3m", "7s", "E"],
    "melds": [
        {"kind": "pung", "tiles": ["5p", "5p", "5p"], "concealed": False, "claimed_from": 3},
        {"kind": "kong", "tiles": ["C", "C", "C", "C"], "concealed": True, "claimed_from": None},
    ],
    "win_tile": "9s",
    "self_drawn": True,
    "fourth_tile": False,
    "kong": True,
    "last_tile": False,
    "seat_wind": "E",
    "prevalent_wind": "S",
    "flowers": 2,
}
# Worked by hand: 123m 789s EE, an exposed pung of 5p, a concealed kong of red dragons, the
# 9s drawn as the replacement tile of the kong (Self-Drawn is not counted with it).
GOOD_FANS = {
    ("Out with Replacement Tile", "杠上开花", 8, 1),
    ("All Types", "五门齐", 6, 1),
    ("Dragon Pung", "箭刻", 2, 1),
    ("Concealed Kong", "暗杠", 2, 1),
    ("Flower Tiles", "花牌", 1, 2),
}
GOOD_NOTATION = "123m78sEE [555p:3] {CCCC} +9s | self kong seat=E wind=S flowers=2"
NOT_WINNING = {
    "id": 5,
    "concealed": ["1m", "3m", "5m", "7m", "9m", "2p", "4p", "6p", "8p", "1s", "3s", "5s", "7s"],
    "win_tile": "9s",
}


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tournament.scoring", *args],
        input=stdin.encode(),
        capture_output=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def answers(completed: subprocess.CompletedProcess) -> list[dict]:
    assert completed.returncode == 0, completed.stderr.decode()
    return [json.loads(line) for line in completed.stdout.decode("utf-8").splitlines()]


def fans(answer: dict) -> set[tuple]:
    return {(f["name_en"], f["name_zh"], f["points"], f["count"]) for f in answer["fans"]}


def test_jsonl_answers_every_line_in_order_and_keeps_the_ids():
    lines = [
        json.dumps(GOOD),
        json.dumps({**GOOD, "id": "two", "concealed": GOOD["concealed"][:-1]}),
        "{not json",
        "",
        json.dumps([GOOD]),
        json.dumps(NOT_WINNING),
        json.dumps({**GOOD, "id": {"table": 3, "hand": 9}, "seat_wind": 5}),
        json.dumps({**GOOD, "id": None, "flowers": 9}),
        json.dumps({**GOOD, "id": 9, "flowers": 0}),
    ]
    out = answers(run("--jsonl", stdin="\n".join(lines) + "\n"))

    assert len(out) == len(lines)
    assert [answer["id"] for answer in out] == [
        1,
        "two",
        None,
        None,
        None,
        5,
        {"table": 3, "hand": 9},
        None,
        9,
    ]
    codes = [answer.get("error", {}).get("code") for answer in out]
    assert codes == [
        None,
        "wrong_tile_count",
        "invalid_json",
        "empty_line",
        "not_an_object",
        "not_a_winning_hand",
        "wrong_type",
        "invalid_flowers",
        None,
    ]
    for answer in out:
        if "error" in answer:
            assert set(answer) == {"id", "error"}
            assert set(answer["error"]) == {"code", "message"}
            assert answer["error"]["message"]


def test_jsonl_output_follows_the_contract():
    (answer,) = answers(run("--jsonl", stdin=json.dumps(GOOD) + "\n"))
    assert set(answer) == {"id", "fans", "total", "total_without_flowers", "valid"}
    assert fans(answer) == GOOD_FANS
    assert (answer["total"], answer["total_without_flowers"], answer["valid"]) == (20, 18, True)


def test_flowers_are_the_fan_flower_tiles_counted_once_per_flower():
    no_flowers, eight = answers(
        run(
            "--jsonl",
            stdin=json.dumps({**GOOD, "flowers": 0}) + "\n" + json.dumps({**GOOD, "flowers": 8}),
        )
    )
    assert "Flower Tiles" not in {fan["name_en"] for fan in no_flowers["fans"]}
    assert (no_flowers["total"], no_flowers["total_without_flowers"]) == (18, 18)
    assert ("Flower Tiles", "花牌", 1, 8) in fans(eight)
    assert (eight["total"], eight["total_without_flowers"]) == (26, 18)


def test_a_hand_under_eight_fan_is_scored_but_not_valid():
    # 234m 456p 789s 11s and a claimed pung of East: Prevalent Wind, Seat Wind, Single Wait.
    hand = {
        "id": "low",
        "concealed": ["2m", "3m", "4m", "4p", "5p", "6p", "7s", "8s", "9s", "1s"],
        "melds": [{"kind": "pung", "tiles": ["E", "E", "E"]}],
        "win_tile": "1s",
    }
    (answer,) = answers(run("--jsonl", stdin=json.dumps(hand)))
    assert answer["total_without_flowers"] < 8
    assert answer["valid"] is False


def test_each_answer_is_written_before_the_next_line_is_read():
    process = subprocess.Popen(
        [sys.executable, "-m", "tournament.scoring", "--jsonl"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        cwd=ROOT,
    )
    try:
        for ident in ("a", "b"):
            process.stdin.write((json.dumps({**GOOD, "id": ident}) + "\n").encode())
            process.stdin.flush()
            ready, _, _ = select.select([process.stdout], [], [], 30)
            assert ready, "no answer while stdin is still open"
            assert json.loads(process.stdout.readline())["id"] == ident
    finally:
        process.stdin.close()
        process.wait(timeout=30)
        process.stdout.close()
    assert process.returncode == 0


def test_notation_mode_numbers_the_lines_and_locates_mistakes():
    lines = [GOOD_NOTATION, "123m X +9s", "", "123m456p789s11sEE +E | flowers=9"]
    out = answers(run("--notation", stdin="\n".join(lines)))
    assert [answer["id"] for answer in out] == [1, 2, 3, 4]
    assert fans(out[0]) == GOOD_FANS
    assert out[1]["error"]["code"] == "unknown_tile"
    assert out[1]["error"]["position"] == 5
    assert out[2]["error"]["code"] == "empty_line"
    assert out[3]["error"]["code"] == "invalid_flowers"
    assert out[3]["error"]["position"] == 31


def test_without_a_mode_it_prints_the_usage_and_exits_2():
    for args in ((), ("--json",), ("--jsonl", "--notation")):
        completed = run(*args, stdin=json.dumps(GOOD))
        assert completed.returncode == 2
        assert completed.stdout == b""
        assert b"usage: python -m tournament.scoring --jsonl | --notation" in completed.stderr
    helped = run("--help")
    assert helped.returncode == 0
    assert helped.stdout.startswith(b"usage:")


def test_an_unexpected_failure_is_reported_on_its_line_and_the_run_goes_on(monkeypatch):
    def broken(hand, rules):
        raise RuntimeError("boom")

    monkeypatch.setattr(cli, "score_hand", broken)
    stdout = io.StringIO()
    status = cli.main(["--jsonl"], io.StringIO(json.dumps(GOOD) + "\n\n"), stdout)
    first, second = (json.loads(line) for line in stdout.getvalue().splitlines())
    assert status == 0
    assert first == {"id": 1, "error": {"code": "internal_error", "message": "RuntimeError: boom"}}
    assert second["error"]["code"] == "empty_line"


def test_scoring_from_the_command_line_does_not_import_django():
    code = (
        "import io, sys\n"
        "from tournament.scoring.__main__ import main\n"
        "out = io.StringIO()\n"
        f"main(['--notation'], io.StringIO({GOOD_NOTATION!r}), out)\n"
        "assert 'fans' in out.getvalue(), out.getvalue()\n"
        "assert not [m for m in sys.modules if m.split('.')[0] == 'django']\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, timeout=60, check=False
    )
    assert completed.returncode == 0, completed.stderr.decode()


# --- one bad line never stops the run ------------------------------------------------------


def test_a_line_nested_too_deeply_is_invalid_json_and_the_run_goes_on():
    deep = '{"id":' + "[" * 100_000 + "]" * 100_000 + "}"
    lines = [deep, json.dumps({**GOOD, "id": "after"})]
    out = answers(run("--jsonl", stdin="\n".join(lines) + "\n"))
    assert len(out) == 2
    assert out[0]["id"] is None
    assert out[0]["error"]["code"] == "invalid_json"
    assert "nested too deeply" in out[0]["error"]["message"]
    assert out[1]["id"] == "after" and fans(out[1]) == GOOD_FANS


def test_a_lone_surrogate_is_written_escaped_and_the_run_goes_on():
    # The JSON escape \ud800 reads as a lone surrogate, which UTF-8 cannot encode.
    lines = [
        '{"id": "\\ud800", "concealed": []}',
        json.dumps({**GOOD, "id": "第二"}, ensure_ascii=False),
        '{"id": 3, "concealed": ["\\udfff"], "win_tile": "1m"}',
    ]
    completed = run("--jsonl", stdin="\n".join(lines) + "\n")
    out = answers(completed)
    assert len(out) == 3
    assert out[0] == {
        "id": "\ud800",
        "error": {"code": "missing_field", "message": "the field 'win_tile' is required"},
    }
    raw = completed.stdout.decode("utf-8").splitlines()
    assert "\\ud800" in raw[0]
    # Other lines keep Chinese readable.
    assert out[1]["id"] == "第二" and fans(out[1]) == GOOD_FANS
    assert '"第二"' in raw[1] and "杠上开花" in raw[1]
    assert out[2]["id"] == 3 and out[2]["error"]["code"] == "unknown_tile"


@pytest.mark.parametrize(
    "value", ["NaN", "Infinity", "-Infinity", "1e400", "-1e400", "[1, NaN]", "1" * 5000]
)
def test_non_standard_numbers_are_invalid_json(value):
    answer = cli.answer_json_line(f'{{"id": {value}, "concealed": [], "win_tile": "1m"}}')
    assert answer["id"] is None
    assert answer["error"]["code"] == "invalid_json"


def test_output_is_standard_json_even_when_an_answer_is_not(monkeypatch):
    monkeypatch.setattr(cli, "answer_json_line", lambda line, rules: {"id": float(line), "x": 1})
    stdout = io.StringIO()
    status = cli.main(["--jsonl"], io.StringIO("nan\n2\n"), stdout)
    first, second = stdout.getvalue().splitlines()
    assert status == 0
    assert "NaN" not in first
    assert json.loads(first)["error"]["code"] == "internal_error"
    assert json.loads(second) == {"id": 2.0, "x": 1}


def test_every_line_of_a_mixed_batch_is_answered_in_order():
    lines = [
        "NaN",
        "[" * 5000,
        '{"id": "\\udc80"}',
        "{" * 3,
        '{"id": 1e999}',
        json.dumps({**GOOD, "id": "last"}),
    ]
    out = answers(run("--jsonl", stdin="\n".join(lines) + "\n"))
    assert [answer.get("error", {}).get("code") for answer in out] == [
        "invalid_json",
        "invalid_json",
        "missing_field",
        "invalid_json",
        "invalid_json",
        None,
    ]
    assert out[-1]["id"] == "last"
