"""``manage.py backup`` and ``manage.py restore``: the event back exactly as it was.

The round trip flushes the database (as a fresh machine after ``migrate``) and restores:
every row, the standings and the workbook are what they were, and the accounts log in
with the same passwords. These tests run on SQLite and, with DATABASE_URL, on PostgreSQL.
"""

import gzip
import io
import json
import os
import sqlite3
import subprocess
import sys
import threading
import uuid
from contextlib import closing
from pathlib import Path

import openpyxl
import pytest
from django.contrib.auth import authenticate
from django.contrib.auth.models import Group, Permission, User
from django.core import serializers
from django.core.management import CommandError, call_command
from django.db import connection
from django.utils import timezone

from tests.conftest import give_all_tables, make_user, play_some_sessions
from tests.planner_counts import counted, forget_counts
from tournament import services
from tournament.exports import workbook
from tournament.hall.device_links import device_token, table_for_token
from tournament.models import Hand, Penalty, Player, PlayerImport, SignUp, Table, Tournament
from tournament.players.player_links import player_for_token, player_token
from tournament.selectors.standings import tournament_standings
from tournament.server import backups
from tournament.services.mail import seat_emails_queue

ROOT = Path(__file__).resolve().parent.parent
on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the test database is PostgreSQL's"
)


def standings_figures(tournament) -> list[tuple]:
    return [
        (
            row.rank,
            row.player.number,
            row.player.name,
            row.table_points,
            row.score,
            row.places,
            row.sessions_played,
            row.best_session,
        )
        for row in tournament_standings(tournament)
    ]


def workbook_values(tournament) -> dict[str, list[tuple]]:
    """Every sheet's cell values: the file's bytes differ (zip timestamps), not its content."""
    book = openpyxl.load_workbook(io.BytesIO(workbook.standings_xlsx_bytes(tournament)))
    return {sheet.title: list(sheet.iter_rows(values_only=True)) for sheet in book}


def every_row() -> dict[str, list[dict]]:
    """Every backed-up row, references by natural key (permission ids differ after a flush)."""
    return {
        model._meta.label_lower: serializers.serialize(
            "python", model._base_manager.order_by("pk"), use_natural_foreign_keys=True
        )
        for model in backups.backed_up_models()
    }


def rewrite(path: Path, change) -> None:
    """Apply ``change`` to the backup's decoded content and write it back."""
    with gzip.open(path, "rt", encoding="utf-8") as text:
        content = json.load(text)
    change(content)
    with gzip.open(path, "wt", encoding="utf-8") as text:
        json.dump(content, text)


@pytest.fixture
def played(transactional_db, tournament, organiser, referee):
    """Session 1 committed and played (a penalty, corrections, a reopened table), session 2
    planned and open, its tables given to the referee, hands saved from a tablet with
    submission keys; the referee also belongs to a group with a permission."""
    play_some_sessions(tournament, organiser=organiser, referee=referee, committed=True)
    second = tournament.sessions.get(number=2)
    give_all_tables(second, referee)
    services.session_open(session=second)
    table = second.tables.get(number=2)
    for number in (1, 2):
        services.hand_record(
            table=table,
            entry=services.HandEntry(
                number=number,
                outcome="discard",
                winner=number,
                discarder=0,
                fan=8 + number,
                submission_key=uuid.uuid4(),
            ),
            user=referee,
        )
    # The timetable and the check-in of session 3: one player checked in at the desk.
    services.session_times_set(tournament=tournament, starts={3: timezone.now()})
    services.check_in_open(tournament=tournament, number=3)
    services.player_check_in(player=tournament.players.get(number=1), number=3, ticked_by=organiser)
    # An e-mail waiting for its mail server (none is set in the tests).
    one = tournament.players.get(number=1)
    services.player_save(
        tournament=tournament, player=one, number=1, name="Player 1", email="p1@ex.org"
    )
    seat_emails_queue(session=second, players=[one])
    # A sign-up refused before the event (the form closes with the first draw).
    SignUp.objects.create(
        tournament=tournament, name="Late", email="late@ex.org", status="refused", position=1
    )
    # The player list imported before the event, as its job keeps it once done.
    PlayerImport.objects.create(
        tournament=tournament,
        started_by=organiser,
        fingerprint="0" * 64,
        status="done",
        rows_total=16,
        rows_done=16,
        players_created=16,
        finished_at=timezone.now(),
    )
    # The players are people, ranked by a series.
    services.person_create_for(tournament=tournament, numbers=[1, 2, 3])
    services.series_save(
        user=organiser, tournaments=[tournament], name="Season", slug="season", rule="best"
    )
    group = Group.objects.create(name="Head referees")
    group.permissions.add(Permission.objects.get(codename="change_hand"))
    referee.groups.add(group)
    return tournament


def test_restore_after_a_flush_brings_the_event_back_exactly(played, referee, tmp_path):
    path = tmp_path / "mcr.json.gz"
    rows = every_row()
    standings = standings_figures(played)
    workbook = workbook_values(played)
    links = {device_token(table): table.pk for table in Table.objects.all()}
    own_links = {player_token(player): player.pk for player in Player.objects.all()}
    # Every model has rows to bring back: a new model needs some in the fixture.
    assert [label for label, model_rows in rows.items() if not model_rows] == []

    out = io.StringIO()
    call_command("backup", str(path), stdout=out)
    assert out.getvalue().startswith(f"{path}: ")
    call_command("flush", interactive=False, verbosity=0)
    assert not Tournament.objects.exists() and not User.objects.exists()
    call_command("restore", str(path), stdout=io.StringIO())

    # Every row as it was, but the standings' stamps: new, so that a server still running
    # does not take the restored standings for those it kept.
    restored = every_row()
    stamps = [
        [row["fields"].pop("standings") for row in each["tournament.tournamentversion"]]
        for each in (rows, restored)
    ]
    assert restored == rows
    assert len(stamps[1]) == 1 and stamps[1] != stamps[0]
    tournament = Tournament.objects.get(slug=played.slug)
    assert standings_figures(tournament) == standings
    assert workbook_values(tournament) == workbook
    assert authenticate(username="referee", password="pw-referee").pk == referee.pk
    assert authenticate(username="referee", password="wrong") is None
    assert User.objects.get(username="organiser").has_perm("tournament.add_tournament")
    assert User.objects.get(username="referee").has_perm("tournament.change_hand")
    # The printed table cards' links still open their tables (same ids, same secret key).
    assert {token: table_for_token(token).pk for token in links} == links
    # The players' badges still open their pages.
    assert {token: player_for_token(token).pk for token in own_links} == own_links


def test_a_restore_leaves_the_planner_counts_of_what_it_loaded(played, tmp_path):
    path = tmp_path / "mcr.json.gz"
    call_command("backup", str(path), stdout=io.StringIO())
    call_command("flush", interactive=False, verbosity=0)
    forget_counts()
    assert not counted("tournament_hand")
    call_command("restore", str(path), stdout=io.StringIO())
    assert counted("tournament_hand")


def test_new_rows_after_a_restore_take_fresh_ids(played, tmp_path):
    """PostgreSQL's sequences restart at 1 after a flush: the restore moves them on."""
    path = tmp_path / "mcr.json.gz"
    last_ids = [model.objects.order_by("pk").last().pk for model in (Player, Hand, User)]
    call_command("backup", str(path), stdout=io.StringIO())
    call_command("flush", interactive=False, verbosity=0)
    call_command("restore", str(path), stdout=io.StringIO())

    tournament = Tournament.objects.get()
    table = tournament.sessions.get(number=2).tables.get(number=3)
    new_rows = [
        services.player_save(tournament=tournament, number=18, name="Late entry"),
        services.hand_record(table=table, entry=services.HandEntry(number=1, outcome="draw")),
        make_user("new-referee"),
    ]
    assert all(row.pk > last for row, last in zip(new_rows, last_ids, strict=True))


def test_restore_refuses_a_database_that_holds_data(tournament, tmp_path):
    path = tmp_path / "mcr.json.gz"
    call_command("backup", str(path), stdout=io.StringIO())
    with pytest.raises(CommandError, match=r"already holds data .*tournament.tournament 1"):
        call_command("restore", str(path))
    assert Tournament.objects.count() == 1


def test_restore_refuses_accounts_made_before_it(db, tmp_path):
    path = tmp_path / "mcr.json.gz"
    call_command("backup", str(path), stdout=io.StringIO())
    make_user("admin")
    with pytest.raises(CommandError, match=r"already holds data \(auth.user 1\)"):
        call_command("restore", str(path))


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"number,name\n1,Alice\n", "is not a backup of this site"),
        (gzip.compress(b"\xff\xfe not text"), "is not a backup of this site"),
        (gzip.compress(b"not json"), "is not a backup of this site"),
        (
            gzip.compress(b'[{"model": "tournament.player", "pk": 1, "fields": {}}]'),
            "no backup header",
        ),
        (gzip.compress(b'{"header": {"format": "other"}, "objects": []}'), "no backup header"),
        (
            gzip.compress(
                b'{"header": {"format": "mcr-tournament-backup", "version": 99, '
                b'"migrations": {}, "counts": {}}, "objects": []}'
            ),
            "newer version of this site",
        ),
    ],
    ids=["csv", "binary", "not-json", "dumpdata", "other-format", "newer-format"],
)
def test_restore_refuses_a_file_that_is_not_a_backup(db, tmp_path, content, message):
    path = tmp_path / "file.json.gz"
    path.write_bytes(content)
    with pytest.raises(CommandError, match=message):
        call_command("restore", str(path))


def test_restore_refuses_a_backup_cut_short(tournament, tmp_path):
    path = tmp_path / "mcr.json.gz"
    call_command("backup", str(path), stdout=io.StringIO())
    path.write_bytes(path.read_bytes()[:-40])
    with pytest.raises(CommandError, match="is not a backup of this site"):
        call_command("restore", str(path))


def test_restore_refuses_a_missing_file(db, tmp_path):
    with pytest.raises(CommandError, match="No file"):
        call_command("restore", str(tmp_path / "nothing.json.gz"))


def test_restore_refuses_a_backup_taken_at_other_migrations(db, tmp_path):
    path = tmp_path / "mcr.json.gz"
    call_command("backup", str(path), stdout=io.StringIO())
    last = json.loads(gzip.decompress(path.read_bytes()))["header"]["migrations"]["tournament"][-1]
    rewrite(path, lambda content: content["header"]["migrations"]["tournament"].pop())
    with pytest.raises(CommandError, match=f"applied here, not in the backup: {last}"):
        call_command("restore", str(path))


def test_a_damaged_backup_restores_nothing(db, tmp_path):
    path = tmp_path / "mcr.json.gz"
    make_user("referee")
    call_command("backup", str(path), stdout=io.StringIO())
    User.objects.all().delete()

    def more_users(content):
        content["header"]["counts"]["auth.user"] = 2

    rewrite(path, more_users)
    with pytest.raises(CommandError, match="is damaged"):
        call_command("restore", str(path))
    assert not User.objects.exists()


def test_backup_refuses_a_folder_that_does_not_exist(db, tmp_path):
    with pytest.raises(CommandError, match="Cannot write"):
        call_command("backup", str(tmp_path / "missing" / "mcr.json.gz"))
    assert list(tmp_path.iterdir()) == []


@pytest.mark.django_db(transaction=True)
def test_backup_refuses_a_database_behind_the_sites_migrations(tmp_path):
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    executor.migrate([("tournament", "0010_history")])
    try:
        with pytest.raises(CommandError, match=r"run manage\.py migrate, then back up"):
            call_command("backup", str(tmp_path / "mcr.json.gz"))
        assert list(tmp_path.iterdir()) == []
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(latest)


def test_backup_file_is_private_and_headed(tournament, tmp_path):
    path = tmp_path / "mcr.json.gz"
    call_command("backup", str(path), stdout=io.StringIO())
    header = json.loads(gzip.decompress(path.read_bytes()))["header"]
    assert oct(path.stat().st_mode & 0o777) == "0o600"  # it holds password hashes
    assert header["format"] == "mcr-tournament-backup"
    assert header["database"] == connection.vendor
    assert header["counts"]["tournament.tournament"] == 1
    assert header["counts"]["auth.user"] == 2
    assert "0001_initial" in header["migrations"]["tournament"]


# ------------------------------------------------------------------ while tablets write


def backup_while_a_tablet_saves(path: Path, table: Table) -> tuple[backups.BackupInfo, list]:
    """Back up ``path``; just after the backup has read the hands, a tablet saves the next
    hand of ``table`` with a penalty, from a connection of its own, and commits before the
    backup reads the penalties. Returns the backup's header and the tablet's errors."""
    number = table.hands.count() + 1
    errors = []

    def tablet():
        late = services.PenaltyEntry(offender=1, kind="deducted", points=5, reason="Late")
        try:
            services.hand_record(
                table=table,
                entry=services.HandEntry(number=number, outcome="draw", penalties=[late]),
            )
        except Exception as error:
            errors.append(error)
        finally:
            connection.close()

    read = backups._serialized_rows

    def read_then_let_the_tablet_save(model, *args):
        rows = read(model, *args)
        if model is Hand:
            saving = threading.Thread(target=tablet)
            saving.start()
            # Longer than SQLite's busy timeout: a backup holding the write lock shows.
            saving.join(timeout=60)
        return rows

    backups._serialized_rows = read_then_let_the_tablet_save
    try:
        return backups.backup(path), errors
    finally:
        backups._serialized_rows = read


@on_postgresql
def test_a_backup_while_a_tablet_saves_holds_the_state_before_the_save(
    transactional_db, session_in_play, tmp_path
):
    table = session_in_play.tables.get(number=1)
    services.hand_record(
        table=table, entry=services.HandEntry(number=1, outcome="self_drawn", winner=2, fan=8)
    )
    standings = standings_figures(session_in_play.tournament)
    path = tmp_path / "mcr.json.gz"

    info, errors = backup_while_a_tablet_saves(path, table)

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
import json, sys
import django
django.setup()
from tests.test_backups import backup_while_a_tablet_saves
from tournament.models import Hand, Penalty, Table
table = Table.objects.get(session__tournament__slug="demo-open-2026", session__number=2, number=4)
info, errors = backup_while_a_tablet_saves(sys.argv[1], table)
print(json.dumps({"errors": [repr(e) for e in errors], "counts": info.counts,
                  "hands": Hand.objects.count(), "penalties": Penalty.objects.count()}))
"""


def run(env: dict, *args: str, fails: bool = False) -> str:
    done = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert (done.returncode != 0) == fails, done.stderr
    return done.stderr if fails else done.stdout


@pytest.mark.slow
def test_a_backup_on_a_sqlite_file_lets_a_tablet_save_and_holds_the_state_before(tmp_path):
    site = {**os.environ, "DJANGO_SETTINGS_MODULE": "tournament.settings"}
    site.pop("DATABASE_URL", None)
    event = {**site, "MCR_DB_PATH": str(tmp_path / "event.sqlite3")}
    spare = {**site, "MCR_DB_PATH": str(tmp_path / "spare.sqlite3")}
    unmigrated = {**site, "MCR_DB_PATH": str(tmp_path / "unmigrated.sqlite3")}
    path = tmp_path / "mcr.json.gz"
    run(event, sys.executable, "manage.py", "migrate", "--noinput", "-v0")
    # A migrated empty database for the restore, without migrating a second time (slow).
    with (
        closing(sqlite3.connect(event["MCR_DB_PATH"])) as source,
        closing(sqlite3.connect(spare["MCR_DB_PATH"])) as copy,
    ):
        source.backup(copy)
    run({**event, "MCR_DEBUG": "1"}, sys.executable, "manage.py", "setup_demo")

    result = json.loads(
        run(event, sys.executable, "-c", SQLITE_TABLET_DURING_BACKUP, str(path)).splitlines()[-1]
    )

    assert result["errors"] == []
    counts = result["counts"]
    assert result["hands"] == counts["tournament.hand"] + 1
    assert result["penalties"] == counts["tournament.penalty"] + 1
    refused = run(unmigrated, sys.executable, "manage.py", "restore", str(path), fails=True)
    assert "This database is not migrated yet: run manage.py migrate, then restore." in refused
    restored = run(spare, sys.executable, "manage.py", "restore", str(path))
    assert f"tournament.hand {counts['tournament.hand']}\n" in restored
    assert f"tournament.penalty {counts['tournament.penalty']}\n" in restored
