"""The event's database under writers in several processes at once, as tablets on several
server workers write: the SQLite file that `make run` configures, or the PostgreSQL that
DATABASE_URL names (then a database of its own on that server, made for each test).

Each writer is a process of its own that, Django started, waits for the word to go, given to
all at once when all are ready, so that their writes meet; every test then checks what the
database holds: no hand lost, none twice, no change on a confirmed table.
"""

import json
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Each test makes a database of its own, on the server DATABASE_URL names (SQLite without it),
# a copy of the demo one pytest worker sets up once (tests/conftest.py, SHARED_SET_UP) in a
# copy of the migrated test database (tests/event_databases.py).
pytestmark = [pytest.mark.slow, pytest.mark.database]
ON_POSTGRESQL = bool(os.environ.get("DATABASE_URL"))

# One writer: says it is ready, waits for the word to go, runs its actions at one table of
# the demo's session 2, and prints what each action answered.
WRITER = """
import json, sys, uuid
import django
django.setup()
from django.core.exceptions import ValidationError
from tournament import services
from tournament.models import Table
plan = json.loads(sys.argv[1])
table = Table.objects.get(session__tournament__slug="demo-open-2026", session__number=2,
                          number=plan["table"])
print("ready", flush=True)
sys.stdin.readline()
answers = []
for action in plan["actions"]:
    try:
        if action.get("do") == "confirm":
            services.table_confirm(table=table, user=None, record_missing_as_not_played=True)
            answers.append(["confirmed", None])
            continue
        hand = services.hand_record(table=table, entry=services.HandEntry(
            number=action["number"], outcome="self_drawn",
            winner=action["winner"], fan=action["fan"], version=action.get("version"),
            submission_key=uuid.UUID(action["key"]) if action.get("key") else None))
        answers.append(["saved", hand.pk])
    except ValidationError as error:
        answers.append(["refused", sorted({e.code for e in error.error_list} if not
                        hasattr(error, "error_dict") else
                        {e.code for es in error.error_dict.values() for e in es})])
print(json.dumps(answers))
"""


def manage(env, *args):
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )


def _with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


def _admin(sql: str) -> None:
    import psycopg

    with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as admin:
        admin.execute(sql)


@pytest.fixture(scope="module")
def demo_database(migrated_database):
    """The demo set up once, in a copy of the migrated database (tests/event_databases.py);
    each test writes in a copy of it."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tournament.settings"}
    database = migrated_database(os.environ.get("DATABASE_URL")).copy()
    try:
        if ON_POSTGRESQL:
            name = database.name
            env["DATABASE_URL"] = _with_database(os.environ["DATABASE_URL"], name)
        else:
            name = database.env["MCR_DB_PATH"]
            env["MCR_DB_PATH"] = name
        manage({**env, "MCR_DEBUG": "1"}, "setup_demo")  # the demo is set up as make run does
        yield name
    finally:
        database.close()


@pytest.fixture
def event_database(demo_database, tmp_path):
    """A database as the site runs it, migrated, with the demo tournament."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tournament.settings"}
    if ON_POSTGRESQL:
        name = f"mcr_concurrency_{uuid.uuid4().hex[:12]}"
        _admin(f'CREATE DATABASE "{name}" TEMPLATE "{demo_database}"')
        env["DATABASE_URL"] = _with_database(os.environ["DATABASE_URL"], name)
        yield env
        _admin(f'DROP DATABASE "{name}" WITH (FORCE)')
    else:
        copy = tmp_path / "db.sqlite3"
        shutil.copyfile(demo_database, copy)
        env["MCR_DB_PATH"] = str(copy)
        yield env


def run_writers(env, plans: list[dict]) -> list[list]:
    """Start one process per plan, all writing from the same moment; their answers."""
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, json.dumps(plan)],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for plan in plans
    ]
    # Each has started Django and read its table: the word to go, to all at once (rather
    # than a start time guessed long enough for every process to get there).
    ready = [w.stdout.readline().strip() for w in writers]
    if ready == ["ready"] * len(writers):
        for writer in writers:
            writer.stdin.write("go\n")
            writer.stdin.flush()
    results = [w.communicate(timeout=180) for w in writers]
    assert ready == ["ready"] * len(writers), [e for _, e in results]
    assert [w.returncode for w in writers] == [0] * len(writers), [e for _, e in results]
    return [json.loads(out.splitlines()[-1]) for out, _ in results]


def query(env, code: str):
    """What ``code`` (a Python expression over the models) gives, read in another process."""
    script = f"import json\nfrom tournament.models import *\nprint(json.dumps({code}, default=str))"
    return json.loads(manage(env, "shell", "-c", script).stdout.splitlines()[-1])


HANDS_OF = (
    "list(Hand.objects.filter(table__session__number=2, table__number={table})"
    ".order_by('number').values_list('number', 'outcome', 'winner', 'fan', 'version'))"
)


@pytest.mark.skipif(ON_POSTGRESQL, reason="SQLite's journal mode")
def test_the_sqlite_file_runs_in_wal_mode(event_database):
    out = manage(
        event_database,
        "shell",
        "-c",
        "from django.db import connection\n"
        "c = connection.cursor(); c.execute('PRAGMA journal_mode')\n"
        "print(c.fetchone()[0])",
    )
    assert out.stdout.split()[-1] == "wal"


def test_four_tablets_saving_at_once_at_their_tables_all_succeed(event_database):
    # The demo's session 2 had 9, 6, 12 and 3 hands entered at tables 1 to 4.
    first = {1: 10, 2: 7, 3: 13, 4: 4}
    plans = [
        {
            "table": table,
            "actions": [{"number": n, "winner": n % 4, "fan": 8} for n in range(first[table], 17)],
        }
        for table in range(1, 5)
    ]
    answers = run_writers(event_database, plans)
    assert [[a[0] for a in each] for each in answers] == [
        ["saved"] * (17 - first[table]) for table in range(1, 5)
    ]
    counts = query(event_database, "Hand.objects.filter(table__session__number=2).count()")
    assert counts == 64


def test_tablets_racing_for_the_same_hands_store_each_hand_once(event_database):
    # Three tablets (a double entry by mistake) enter hands 4 to 16 of table 4 at once, each
    # with its own figure: every hand is stored once, the figure of the one told "saved".
    plans = [
        {
            "table": 4,
            "actions": [{"number": n, "winner": n % 4, "fan": 8 + tablet} for n in range(4, 17)],
        }
        for tablet in range(3)
    ]
    answers = run_writers(event_database, plans)
    stored = {
        n: fan
        for n, _outcome, _winner, fan, _version in query(event_database, HANDS_OF.format(table=4))
    }
    assert sorted(stored) == list(range(1, 17))
    for index, number in enumerate(range(4, 17)):
        saved_by = [t for t in range(3) if answers[t][index][0] == "saved"]
        assert len(saved_by) == 1, (number, [answers[t][index] for t in range(3)])
        assert stored[number] == 8 + saved_by[0]
        for t in set(range(3)) - set(saved_by):
            assert answers[t][index] == ["refused", ["hand_already_entered"]]


def test_the_same_form_sent_from_three_workers_at_once_stores_one_hand(event_database):
    # A retry that reaches another worker while the first attempt is still being saved.
    keys = [str(uuid.uuid4()) for _ in range(4, 17)]
    plans = [
        {
            "table": 4,
            "actions": [
                {"number": n, "winner": n % 4, "fan": 8, "key": key}
                for n, key in zip(range(4, 17), keys, strict=True)
            ],
        }
        for _ in range(3)
    ]
    answers = run_writers(event_database, plans)
    # Every attempt is told "saved", with the same hand.
    for index in range(len(keys)):
        assert len({tuple(answers[t][index]) for t in range(3)}) == 1
        assert answers[0][index][0] == "saved"
    stored = query(event_database, HANDS_OF.format(table=4))
    assert [row[0] for row in stored] == list(range(1, 17))
    assert query(event_database, "HandSubmission.objects.count()") == len(keys)


def test_one_form_key_sent_with_two_hands_at_once_stores_one_the_other_a_conflict(
    event_database,
):
    # An entry edited on the tablet and sent again under its key while its first send, the
    # answer lost, is still being saved by another worker: one is stored and told "saved",
    # the other told of the conflict; never both "saved" with one dropped.
    keys = [str(uuid.uuid4()) for _ in range(4, 17)]
    plans = [
        {
            "table": 4,
            "actions": [
                {"number": n, "winner": n % 4, "fan": 8 + tablet, "key": key}
                for n, key in zip(range(4, 17), keys, strict=True)
            ],
        }
        for tablet in range(2)
    ]
    answers = run_writers(event_database, plans)
    stored = {
        n: fan
        for n, _outcome, _winner, fan, _version in query(event_database, HANDS_OF.format(table=4))
    }
    for index, number in enumerate(range(4, 17)):
        saved_by = [t for t in range(2) if answers[t][index][0] == "saved"]
        assert len(saved_by) == 1, (number, [answers[t][index] for t in range(2)])
        assert stored[number] == 8 + saved_by[0]
        assert answers[1 - saved_by[0]][index] == ["refused", ["submission_key_conflict"]]
    assert query(event_database, "HandSubmission.objects.count()") == len(keys)


def test_corrections_from_the_same_version_change_the_hand_once(event_database):
    # Hand 1 of table 4 is at version 1: three tablets correct it at once from that version.
    plans = [
        {"table": 4, "actions": [{"number": 1, "winner": 0, "fan": 20 + t, "version": 1}]}
        for t in range(3)
    ]
    answers = run_writers(event_database, plans)
    saved = [t for t in range(3) if answers[t][0][0] == "saved"]
    assert len(saved) == 1
    for t in set(range(3)) - set(saved):
        assert answers[t][0][0] == "refused"
    number, _outcome, _winner, fan, version = query(event_database, HANDS_OF.format(table=4))[0]
    assert (number, fan, version) == (1, 20 + saved[0], 2)
    assert (
        query(
            event_database,
            "HandRevision.objects.filter(hand__number=1, "
            "hand__table__number=4, hand__table__session__number=2).count()",
        )
        == 1
    )


def test_a_confirmation_racing_with_entries_leaves_no_hand_after_it(event_database):
    # Time is called at table 4 while two tablets are still entering its hands.
    plans = [
        {
            "table": 4,
            "actions": [{"number": n, "winner": n % 4, "fan": 8 + t} for n in range(4, 17)],
        }
        for t in range(2)
    ] + [{"table": 4, "actions": [{"do": "confirm"}]}]
    answers = run_writers(event_database, plans)
    assert answers[2] == [["confirmed", None]]
    stored = {
        n: (outcome, fan)
        for n, outcome, _w, fan, _v in query(event_database, HANDS_OF.format(table=4))
    }
    assert sorted(stored) == list(range(1, 17))
    for index, number in enumerate(range(4, 17)):
        saved_by = [t for t in range(2) if answers[t][index][0] == "saved"]
        # Saved before the confirmation (then stored as typed), or refused: never both, and
        # a hand recorded as not played was saved by nobody.
        assert len(saved_by) <= 1
        if saved_by:
            assert stored[number] == ("self_drawn", 8 + saved_by[0])
        else:
            assert stored[number][0] == "not_played"
