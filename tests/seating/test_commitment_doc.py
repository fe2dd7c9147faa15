"""The worked example of "A draw committed before it is made" in docs/seating.md, checked.

The record, the commands and what they print are read from the document: the record must be
the one the rules make from the example's inputs, and the command run on it (and on the
changed copy the document describes) must print exactly what the document shows.
"""

import datetime
import hashlib
import json
import re
import subprocess

import pytest

from tests.seating.test_rotation import SEATING_DOC
from tests.seating.test_seating_cli import run
from tournament.seating import commitment as rules
from tournament.seating import draw_by_lot

SECTION = SEATING_DOC.read_text(encoding="utf-8").split("## A draw committed before it is made")[1]
NAMES = [
    "Ana Lima",
    "Ben Cho",
    "Chen Jie",
    "Dara Kim",
    "Eva Novak",
    "Femi Ade",
    "Gao Yan",
    "Hugo Roy",
]
SEED = 123456789
SALT = "5f0c3e1a9b7d4c2e8f6a1b3c5d7e9f01"
PUBLIC_VALUE = "07 12 19 28 33 41"


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", SECTION, flags=re.DOTALL)


def commands() -> list[tuple[str, list[str]]]:
    """Every command of the console blocks (after ``$ ``) with the lines it prints."""
    found = []
    for block in blocks("console"):
        for line in block.rstrip("\n").split("\n"):
            if line.startswith("$ "):
                found.append((line[2:], []))
            else:
                found[-1][1].append(line)
    return found


def console(command_start: str) -> tuple[str, list[str]]:
    """The documented command that starts with ``command_start`` and the lines it prints."""
    for command, printed in commands():
        if command.startswith(command_start):
            return command, printed
    raise AssertionError(f"no console command starting with {command_start}")


RECORD = json.loads(blocks("json")[0])


def test_the_documented_record_is_what_the_rules_make_of_the_example():
    document = rules.commitment_document(
        tournament="Spring Open",
        players=[rules.CommittedPlayer(n, name) for n, name in enumerate(NAMES, 1)],
        method="lot",
        options={},
        committed_at=datetime.datetime(2026, 12, 4, 18, 0, tzinfo=datetime.UTC),
        public_value_source="lottery of 2026-12-05",
        software=RECORD["commitment"]["software"],
    )
    assert RECORD["commitment"] == document
    assert RECORD["hash"] == rules.commitment_hash(document, seed=SEED, salt=SALT)
    assert (RECORD["seed"], RECORD["salt"], RECORD["public_value"]) == (SEED, SALT, PUBLIC_VALUE)
    seed = rules.draw_seed(SEED, PUBLIC_VALUE)
    seats = sorted(draw_by_lot(range(1, 9), seed), key=lambda s: (s.table, s.seat))
    tables = [[s.player for s in seats[:4]], [s.player for s in seats[4:]]]
    assert RECORD["seating"] == {"1": tables}
    assert f"table 1 seats players {', '.join(map(str, tables[0][:3]))}, {tables[0][3]}" in (
        " ".join(SECTION.split())
    )


def expected_output(lines: list[str]) -> list[str]:
    # The document was written with version 0.1.0: a later version checks the same record.
    return [
        line.replace("checked with mcr-tournament 0.1.0", f"checked with {rules.SOFTWARE}")
        for line in lines
    ]


@pytest.mark.parametrize(
    ("file", "status"), [("fairness.json", 0), ("changed.json", 1)], ids=["as drawn", "changed"]
)
def test_the_documented_commands_print_what_the_document_shows(tmp_path, file, status):
    command, printed = console(f"python -m tournament.seating verify {file}")
    record = json.loads(json.dumps(RECORD))
    if file == "changed.json":
        # "player 9 in place of player 8"
        assert record["commitment"]["players"][7]["number"] == 8
        record["commitment"]["players"][7]["number"] = 9
    (tmp_path / file).write_text(json.dumps(record), encoding="utf-8")
    arguments = command.split()[3:]
    assert arguments[:2] == ["verify", file]
    result = run(*arguments[:1], tmp_path / file, *arguments[2:])
    assert result.returncode == status, result.stderr
    assert result.stdout.splitlines() == expected_output(printed)


def test_the_page_s_command_is_the_documented_one():
    command, _printed = console("python -m tournament.seating verify fairness.json")
    assert command == f"python -m tournament.seating verify fairness.json --hash {RECORD['hash']}"


def test_the_shell_checks_of_the_hash_and_the_draw_seed(tmp_path):
    extract, _nothing = console("python3 -c")
    (tmp_path / "fairness.json").write_text(json.dumps(RECORD), encoding="utf-8")
    subprocess.run(extract, shell=True, cwd=tmp_path, check=True, timeout=60)
    canonical = (tmp_path / "commitment.json").read_bytes()
    assert canonical == rules.canonical_bytes(RECORD["commitment"])
    hashing, printed = console("{ cat commitment.json;")
    done = subprocess.run(
        hashing, shell=True, cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert done.stdout.splitlines() == printed == [f"{RECORD['hash']}  -"]

    _command, printed = console("printf '%s' '123456789:07 12 19 28 33 41' | sha256sum")
    digest = hashlib.sha256(f"{SEED}:{PUBLIC_VALUE}".encode()).hexdigest()
    assert printed == [f"{digest}  -"]
    reduce, printed = console('python3 -c "print(100000000')
    done = subprocess.run(reduce, shell=True, capture_output=True, text=True, timeout=60)
    assert done.stdout.splitlines() == printed == [str(rules.draw_seed(SEED, PUBLIC_VALUE))]


def test_the_documented_tables_name_what_the_code_uses():
    for key in rules.commitment_document(
        tournament="x",
        players=[],
        method="lot",
        options={},
        committed_at=datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC),
    ):
        assert f"| `{key}` |" in SECTION or key == "format"
    assert f'"format": "{rules.FORMAT}"' in SECTION
    assert f"`mcr-tournament {rules.SOFTWARE.split()[1]}`" in SECTION
