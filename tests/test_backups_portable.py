"""The portable JSON backup (``manage.py backup --json``): its refusals, its header, memory
that does not grow with the event, and an event moved from SQLite to PostgreSQL."""

import gzip
import io
import json
import os
import sys
import tracemalloc
from pathlib import Path

import pytest
from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.migrations.recorder import MigrationRecorder
from django.test import Client
from django.utils import timezone

from tests.conftest import download, make_user
from tests.test_backups import (
    every_row,
    on_postgresql,
    run,
    standings_figures,
    take_backup,
)
from tournament.models import ExportFile, Player, TaskWorker, Tournament
from tournament.server import backups
from tournament.server.backups import portable
from tournament.server.task_worker import beat


def rewrite(path: Path, change) -> None:
    """Apply ``change`` to the JSON backup's decoded content and write it back."""
    with gzip.open(path, "rt", encoding="utf-8") as text:
        content = json.load(text)
    change(content)
    with gzip.open(path, "wt", encoding="utf-8") as text:
        json.dump(content, text)


def test_restore_refuses_a_json_backup_cut_short(tournament, tmp_path):
    path = tmp_path / "mcr.json.gz"
    take_backup(path, portable=True)
    path.write_bytes(path.read_bytes()[:-40])
    with pytest.raises(CommandError, match="is not a backup of this site"):
        call_command("restore", str(path))


def test_restore_refuses_a_json_backup_taken_at_other_migrations(db, tmp_path):
    path = tmp_path / "mcr.json.gz"
    take_backup(path, portable=True)
    last = json.loads(gzip.decompress(path.read_bytes()))["header"]["migrations"]["tournament"][-1]
    rewrite(path, lambda content: content["header"]["migrations"]["tournament"].pop())
    with pytest.raises(CommandError, match=f"applied here, not in the backup: {last}"):
        call_command("restore", str(path))


def test_json_restore_refuses_a_database_not_migrated(db, tmp_path):
    path = tmp_path / "mcr.json.gz"
    take_backup(path, portable=True)
    MigrationRecorder.Migration.objects.all().delete()
    with pytest.raises(CommandError, match=r"not migrated yet: run manage.py migrate"):
        call_command("restore", str(path))


def test_a_damaged_json_backup_restores_nothing(db, tmp_path):
    path = tmp_path / "mcr.json.gz"
    make_user("referee")
    take_backup(path, portable=True)
    User.objects.all().delete()

    def more_users(content):
        content["header"]["counts"]["auth.user"] = 2

    rewrite(path, more_users)
    with pytest.raises(CommandError, match="is damaged"):
        call_command("restore", str(path))
    assert not User.objects.exists()


def test_json_backup_file_is_private_and_headed(tournament, tmp_path):
    path = tmp_path / "mcr.json.gz"
    assert ": portable JSON, " in take_backup(path, portable=True)
    header = json.loads(gzip.decompress(path.read_bytes()))["header"]
    assert oct(path.stat().st_mode & 0o777) == "0o600"  # it holds password hashes
    assert header == portable.header_of(path)
    assert header["format"] == "mcr-tournament-backup"
    assert header["database"] == connection.vendor
    assert header["counts"]["tournament.tournament"] == 1
    assert header["counts"]["auth.user"] == 2
    assert "0001_initial" in header["migrations"]["tournament"]


# ------------------------------------------------------------- memory that does not grow


def peak_memory(work) -> int:
    """The peak of the memory Python allocates while ``work`` runs, in bytes."""
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_the_json_backup_and_restore_stream_their_rows(
    transactional_db, tournament, tmp_path, monkeypatch
):
    """Four times the players, about the same peak of memory, both ways: the rows go through
    in chunks (made small here), never all at once. Read whole, the 1,500 more rows take
    over 1 MB more (each row's model instance, its dict, its JSON text), at each end."""
    monkeypatch.setattr(portable, "CHUNK", 100)
    # What a first backup allocates once (the migrations read, the serializers loaded).
    backups.backup(tmp_path / "first.json.gz", portable=True)
    peaks = {}
    for players in (500, 2000):
        Player.objects.bulk_create(
            Player(tournament=tournament, number=number, name=f"Player {number}")
            for number in range(len(peaks) * 500 + 1, players + 1)
        )
        path = tmp_path / f"mcr-{players}.json.gz"
        backup_peak = peak_memory(lambda path=path: backups.backup(path, portable=True))
        call_command("flush", interactive=False, verbosity=0)
        restore_peak = peak_memory(lambda path=path: backups.restore(path))
        assert Player.objects.count() == players
        peaks[players] = (backup_peak, restore_peak)
        tournament = Tournament.objects.get()
    (small_backup, small_restore), (large_backup, large_restore) = peaks[500], peaks[2000]
    assert large_backup - small_backup < 400_000, peaks
    assert large_restore - small_restore < 400_000, peaks


# ------------------------------------------------------- from SQLite to PostgreSQL


# An event on SQLite (in memory: its tables made from the models, its migrations recorded as
# applied, which is what migrate leaves and takes a fraction of the time), played, then its
# JSON backup and its rows as the test compares them.
SQLITE_EVENT = """
import json, sys
import django
django.setup()
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder
from django.test import Client
from django.utils import timezone

migrations = MigrationLoader(None, ignore_no_migrations=True).disk_migrations
class NoMigrations:
    def __contains__(self, app):
        return True
    def __getitem__(self, app):
        return None
settings.MIGRATION_MODULES = NoMigrations()
call_command("migrate", run_syncdb=True, verbosity=0)
for app, name in migrations:
    MigrationRecorder(connection).record_applied(app, name)

from tests.conftest import make_tournament, make_user, play_some_sessions
from tests.test_backups import every_row, standings_figures
organiser = make_user("organiser", can_create=True)
referee = make_user("referee")
tournament = make_tournament(creator=organiser)
play_some_sessions(tournament, organiser=organiser, referee=referee, committed=True)
call_command("backup", "--json", sys.argv[1], stdout=sys.stderr)
print(json.dumps({"rows": every_row(), "standings": standings_figures(tournament)},
                 default=str))
"""


@on_postgresql
def test_a_json_backup_moves_an_event_from_sqlite_to_postgresql(transactional_db, tmp_path):
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tournament.settings_test"}
    env.pop("DATABASE_URL", None)
    path = tmp_path / "event.json.gz"
    event = json.loads(run(env, sys.executable, "-c", SQLITE_EVENT, str(path)).splitlines()[-1])
    assert portable.header_of(path)["database"] == "sqlite"

    out = io.StringIO()
    call_command("restore", str(path), stdout=out)

    assert "(portable JSON, backup of " in out.getvalue()
    restored = every_row()
    for each in (event["rows"], restored):
        for row in each["tournament.tournamentversion"]:
            row["fields"].pop("standings")
    assert json.loads(json.dumps(restored, default=str)) == event["rows"]
    tournament = Tournament.objects.get()
    assert json.loads(json.dumps(standings_figures(tournament), default=str)) == event["standings"]
    assert authenticate(username="referee", password="pw-referee") is not None


def test_the_downloads_files_and_the_workers_state_stay_behind_and_are_built_again(
    transactional_db, tournament, tmp_path
):
    path = tmp_path / "mcr.json.gz"
    url = f"/t/{tournament.slug}/standings.xlsx"
    download(Client(), url)
    beat("worker-1", started_at=timezone.now())
    assert ExportFile.objects.filter(status="ready").count() == 1
    call_command("backup", "--json", str(path), stdout=io.StringIO())
    counts = portable.header_of(path)["counts"]
    assert {"tournament.exportfile", "tournament.taskworker"} & set(counts) == set()
    call_command("flush", interactive=False, verbosity=0)
    call_command("restore", str(path), stdout=io.StringIO())
    assert not ExportFile.objects.exists() and not TaskWorker.objects.exists()
    assert Client().get(url).status_code == 202
    assert download(Client(), url).status_code == 200
