"""Backups while the tablets save: each kind of backup holds the state at one moment, before a
save that commits while it reads, and stops no tablet's save."""

import io
import json
import os
import sqlite3
import sys
import threading
from contextlib import closing
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection

from tests.test_backups import (
    KINDS,
    backup_file,
    on_postgresql,
    on_sqlite,
    played,  # noqa: F401 (a fixture)
    run,
    standings_figures,
)
from tournament import services
from tournament.models import Hand, Penalty, Table, Tournament
from tournament.server import backups
from tournament.server.backups import portable, postgresql


def tablet_saves(table: Table, number: int, errors: list) -> None:
    """A tablet saves hand ``number`` of ``table`` with a penalty, from a connection of its
    own, and commits."""
    late = services.PenaltyEntry(offender=1, kind="deducted", points=5, reason="Late")
    try:
        services.hand_record(
            table=table, entry=services.HandEntry(number=number, outcome="draw", penalties=[late])
        )
    except Exception as error:
        errors.append(error)
    finally:
        connection.close()


def in_a_thread(work, *args) -> None:
    saving = threading.Thread(target=work, args=args)
    saving.start()
    # Longer than SQLite's busy timeout: a backup holding the write lock shows.
    saving.join(timeout=60)


def json_backup_while_a_tablet_saves(path: Path, table: Table) -> tuple[backups.BackupInfo, list]:
    """Back up ``path`` in the portable JSON; just after the backup has read the hands, a
    tablet saves the next hand of ``table`` with a penalty and commits before the backup
    reads the penalties. Returns the backup's header and the tablet's errors."""
    number = table.hands.count() + 1
    errors = []
    read = portable.serialized_rows

    def read_then_let_the_tablet_save(model, *args):
        yield from read(model, *args)
        if model is Hand:
            in_a_thread(tablet_saves, table, number, errors)

    portable.serialized_rows = read_then_let_the_tablet_save
    try:
        return backups.backup(path, portable=True), errors
    finally:
        portable.serialized_rows = read


@on_postgresql
@pytest.mark.parametrize("portable_file", KINDS)
def test_a_backup_while_a_tablet_saves_holds_the_state_before_the_save(
    transactional_db, session_in_play, tmp_path, portable_file, monkeypatch
):
    table = session_in_play.tables.get(number=1)
    services.hand_record(
        table=table, entry=services.HandEntry(number=1, outcome="self_drawn", winner=2, fan=8)
    )
    standings = standings_figures(session_in_play.tournament)
    path = backup_file(tmp_path, portable_file)

    if portable_file:
        info, errors = json_backup_while_a_tablet_saves(path, table)
    else:
        # The dump's snapshot is exported, the rows counted; the tablet saves before pg_dump
        # starts, which reads the snapshot of the counts, not the tablet's save.
        errors = []
        run = postgresql.run_program

        def save_then_run(args, env):
            in_a_thread(tablet_saves, table, 2, errors)
            return run(args, env)

        monkeypatch.setattr(postgresql, "run_program", save_then_run)
        info = backups.backup(path)
        monkeypatch.setattr(postgresql, "run_program", run)

    assert errors == []
    assert (Hand.objects.count(), Penalty.objects.count()) == (2, 1)
    assert (info.counts["tournament.hand"], info.counts["tournament.penalty"]) == (1, 0)
    call_command("flush", interactive=False, verbosity=0)
    call_command("restore", str(path), stdout=io.StringIO())
    assert (Hand.objects.count(), Penalty.objects.count()) == (1, 0)
    assert standings_figures(Tournament.objects.get()) == standings


# Run in a process of its own on a SQLite file in WAL mode, as the site runs: the in-memory
# database of the tests shares one cache between threads, where readers block writers.
SQLITE_TABLET_DURING_BACKUP = """
import json, sqlite3, sys, time
import django
django.setup()
from django.conf import settings
from tests.test_backups_while_saving import json_backup_while_a_tablet_saves, tablet_saves
from tournament.models import Hand, Penalty, Player, Table
from tournament.server import backups

table = Table.objects.get(session__number=2, number=3)
info, errors = json_backup_while_a_tablet_saves(sys.argv[1], table)
result = {"errors": [repr(e) for e in errors], "counts": info.counts,
          "hands": Hand.objects.count(), "penalties": Penalty.objects.count()}

# A tablet's save not committed yet while SQLite's own backup copies the database: the
# backup neither waits for it nor holds it, and the tablet commits after.
tablet = sqlite3.connect(settings.DATABASES["default"]["NAME"], isolation_level=None)
tablet.execute("BEGIN IMMEDIATE")
tablet.execute("UPDATE tournament_player SET name = 'Renamed' WHERE number = 1")
started = time.monotonic()
native = backups.backup(sys.argv[2])
result["native_seconds"] = time.monotonic() - started
tablet.execute("COMMIT")
tablet_saves(table, table.hands.count() + 1, errors)
result["native_counts"] = native.counts
result["native_errors"] = [repr(e) for e in errors]
result["renamed_now"] = Player.objects.filter(name="Renamed").count()
print(json.dumps(result))
"""


@on_sqlite
@pytest.mark.slow
@pytest.mark.usefixtures("played")
def test_backups_on_a_sqlite_file_let_a_tablet_save_and_hold_the_state_before(tmp_path):
    site = {**os.environ, "DJANGO_SETTINGS_MODULE": "tournament.settings"}
    site.pop("DATABASE_URL", None)
    event = {**site, "MCR_DB_PATH": str(tmp_path / "event.sqlite3")}
    new = {**site, "MCR_DB_PATH": str(tmp_path / "new.sqlite3")}
    json_path, native_path = tmp_path / "mcr.json.gz", tmp_path / "mcr.sqlite3"
    # The event on a file: this test's database copied (playing it on a file takes long).
    with closing(sqlite3.connect(event["MCR_DB_PATH"])) as copy:
        connection.ensure_connection()
        connection.connection.backup(copy)
        copy.execute("PRAGMA journal_mode=WAL")

    result = json.loads(
        run(
            event,
            sys.executable,
            "-c",
            SQLITE_TABLET_DURING_BACKUP,
            str(json_path),
            str(native_path),
        ).splitlines()[-1]
    )

    assert result["errors"] == []
    counts = result["counts"]
    assert result["hands"] == counts["tournament.hand"] + 1
    assert result["penalties"] == counts["tournament.penalty"] + 1
    assert result["native_errors"] == [] and result["renamed_now"] == 1
    assert result["native_seconds"] < 5  # it did not wait for the tablet's transaction
    native = result["native_counts"]
    assert native["tournament.hand"] == result["hands"]
    # Each file restored holds the state before the tablet's save: the JSON here, after a
    # flush; the SQLite copy on a "new machine", into a database that does not exist yet.
    call_command("flush", interactive=False, verbosity=0)
    call_command("restore", str(json_path), stdout=io.StringIO())
    assert (Hand.objects.count(), Penalty.objects.count()) == (
        counts["tournament.hand"],
        counts["tournament.penalty"],
    )
    restored = run(new, sys.executable, "manage.py", "restore", str(native_path))
    assert f"tournament.hand {native['tournament.hand']}\n" in restored
    with closing(sqlite3.connect(new["MCR_DB_PATH"])) as copy:
        names = copy.execute("SELECT name FROM tournament_player WHERE number = 1").fetchall()
    assert names and "Renamed" not in {name for (name,) in names}
