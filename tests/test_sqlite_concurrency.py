"""The default SQLite file database, as `make run` configures it, under concurrent writers.

Several referee tablets save at once. With WAL, immediate transactions and a busy
timeout, four processes writing at the same moment must all succeed.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow

WRITER = """
import django, sys
django.setup()
from tournament import services
from tournament.models import Table
table = Table.objects.get(session__tournament__slug="demo-open-2026", session__number=2,
                          number=int(sys.argv[1]))
start = table.hands.count() + 1
for number in range(start, 17):
    services.hand_record(table=table, number=number, outcome="self_drawn", winner=number % 4,
                         fan=8)
print(17 - start)
"""


def manage(env, *args, code=None):
    command = (
        [sys.executable, "manage.py", *args]
        if code is None
        else [sys.executable, "-c", code, *args]
    )
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=True)


@pytest.fixture
def file_database(tmp_path):
    env = {
        **os.environ,
        "MCR_DB_PATH": str(tmp_path / "db.sqlite3"),
        "DJANGO_SETTINGS_MODULE": "tournament.settings",
    }
    manage(env, "migrate", "--noinput")
    manage(env, "setup_demo")
    return env


def test_the_file_database_runs_in_wal_mode(file_database):
    out = manage(
        file_database,
        "shell",
        "-c",
        "from django.db import connection\n"
        "c = connection.cursor(); c.execute('PRAGMA journal_mode')\n"
        "print(c.fetchone()[0])",
    )
    assert out.stdout.split()[-1] == "wal"


def test_four_tablets_saving_at_once_all_succeed(file_database):
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(table)],
            cwd=ROOT,
            env=file_database,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for table in range(1, 5)
    ]
    results = [w.communicate(timeout=120) for w in writers]
    assert [w.returncode for w in writers] == [0, 0, 0, 0], [err for _, err in results]
    # The demo's session 2 had 9, 6, 12 and 3 hands entered: the rest were written now.
    assert [int(out) for out, _ in results] == [7, 10, 4, 13]
    count = manage(
        file_database,
        "shell",
        "-c",
        "from tournament.models import Hand\n"
        "print(Hand.objects.filter(table__session__number=2).count())",
    )
    assert count.stdout.split()[-1] == "64"
