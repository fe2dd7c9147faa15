"""``manage.py backup`` and ``manage.py restore``: the event back exactly as it was.

The round trips flush the database (as a fresh machine after ``migrate``) and restore, from
the database's own backup (a SQLite copy, a PostgreSQL dump) and from the portable JSON:
every row, the standings and the workbook are what they were, and the accounts log in with
the same passwords. These tests run on SQLite and, with DATABASE_URL, on PostgreSQL; those
of one database only say so in their skip. The portable JSON's own tests are in
``test_backups_portable.py``, backups while tablets save in ``test_backups_while_saving.py``.
"""

import datetime
import gzip
import io
import os
import subprocess
import uuid
from pathlib import Path
from types import SimpleNamespace

import openpyxl
import pytest
from django.contrib.auth import authenticate
from django.contrib.auth.models import Group, Permission, User
from django.core import serializers
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.migrations.recorder import MigrationRecorder
from django.utils import timezone

from tests.conftest import give_all_tables, make_user, play_some_sessions
from tests.planner_counts import counted, forget_counts
from tournament import services
from tournament.exports import workbook
from tournament.hall.device_links import device_token, table_for_token
from tournament.models import Hand, Player, PlayerImport, SignUp, Table, Tournament
from tournament.players.player_links import player_for_token, player_token
from tournament.selectors.standings import tournament_standings
from tournament.server import backups
from tournament.server.backups import postgresql
from tournament.services.mail import seat_emails_queue

ROOT = Path(__file__).resolve().parent.parent
on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="PostgreSQL's own: runs in the PostgreSQL pass"
)
on_sqlite = pytest.mark.skipif(
    connection.vendor != "sqlite", reason="SQLite's own: runs in the SQLite pass"
)
# The database's own kind of backup, and the portable JSON.
KINDS = [pytest.param(False, id="native"), pytest.param(True, id="json")]


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
    """Every sheet's cell values but the heading's line saying when the file was made (two
    files made a minute apart say two minutes): the file's bytes differ (zip timestamps),
    not its content."""
    book = openpyxl.load_workbook(io.BytesIO(workbook.standings_xlsx_bytes(tournament)))
    return {
        sheet.title: [
            row
            for row in sheet.iter_rows(values_only=True)
            if not (isinstance(row[0], str) and row[0].startswith("Made on "))
        ]
        for sheet in book
    }


def every_row() -> dict[str, list[dict]]:
    """Every backed-up row, references by natural key (permission ids differ after a flush)."""
    return {
        model._meta.label_lower: serializers.serialize(
            "python", model._base_manager.order_by("pk"), use_natural_foreign_keys=True
        )
        for model in backups.backed_up_models()
    }


def run(env: dict, *args: str) -> str:
    done = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def backup_file(tmp_path: Path, portable: bool) -> Path:
    kind = backups.Kind.PORTABLE if portable else backups.native_kind(connection)
    return tmp_path / f"mcr{kind.suffix}"


def take_backup(path: Path, portable: bool) -> str:
    out = io.StringIO()
    call_command("backup", str(path), *(["--json"] if portable else []), stdout=out)
    return out.getvalue()


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
    # The desk: a call resolved by a ruling that gave a penalty in hand 2, appealed, decided;
    # another call waiting (so the backup keeps open ones as they are).
    call = services.call_make(table=table, reason="foul", hand=2, key=uuid.uuid4(), user=referee)
    offender = table.seats.get(seat=3).player
    ruling = services.ruling_give(
        table=table,
        referee=referee,
        call=call,
        decision="Exposed P1's tiles.",
        offence="exposed_tiles",
        penalty_kind="to_one",
        penalty_points=10,
        offender=offender,
        beneficiary=table.seats.get(seat=0).player,
    )
    appeal = services.appeal_lodge(ruling=ruling, user=referee, grounds="Not exposed.")
    services.appeal_decide(appeal=appeal, user=organiser, decision="upheld")
    services.call_make(table=table, reason="time", user=referee)
    # The rules changed after play started, with the reason kept.
    services.rules_change(
        tournament=tournament, user=organiser, reason="A 6-fan minimum.", minimum_fan=6
    )
    tournament.refresh_from_db()
    # Another, waiting for the task queue (the backup keeps it waiting).
    services.rules_change_ask(
        tournament=tournament,
        user=organiser,
        reason="The League's kong.",
        melded_and_concealed_kong=5,
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


@pytest.mark.parametrize("portable", KINDS)
def test_restore_after_a_flush_brings_the_event_back_exactly(played, referee, tmp_path, portable):
    path = backup_file(tmp_path, portable)
    rows = every_row()
    standings = standings_figures(played)
    workbook = workbook_values(played)
    links = {device_token(table): table.pk for table in Table.objects.all()}
    own_links = {player_token(player): player.pk for player in Player.objects.all()}
    # Every model has rows to bring back: a new model needs some in the fixture.
    assert [label for label, model_rows in rows.items() if not model_rows] == []

    assert take_backup(path, portable).startswith(f"{path}: ")
    call_command("flush", interactive=False, verbosity=0)
    assert not Tournament.objects.exists() and not User.objects.exists()
    forget_counts()
    assert not counted("tournament_hand")
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
    # The planner has counted what was loaded (a restore is a bulk load).
    assert counted("tournament_hand")


@pytest.mark.parametrize("portable", KINDS)
def test_new_rows_after_a_restore_take_fresh_ids(
    transactional_db, session_in_play, tmp_path, portable
):
    """PostgreSQL's sequences restart at 1 after a flush: the restore moves them on."""
    table = session_in_play.tables.get(number=1)
    services.hand_record(table=table, entry=services.HandEntry(number=1, outcome="draw"))
    path = backup_file(tmp_path, portable)
    last_ids = [model.objects.order_by("pk").last().pk for model in (Player, Hand, User)]
    take_backup(path, portable)
    call_command("flush", interactive=False, verbosity=0)
    call_command("restore", str(path), stdout=io.StringIO())

    tournament = Tournament.objects.get()
    table = tournament.sessions.get(number=1).tables.get(number=1)
    new_rows = [
        services.player_save(tournament=tournament, number=99, name="Late entry"),
        services.hand_record(table=table, entry=services.HandEntry(number=2, outcome="draw")),
        make_user("new-referee"),
    ]
    assert all(row.pk > last for row, last in zip(new_rows, last_ids, strict=True))


@pytest.mark.parametrize("portable", KINDS)
def test_restore_refuses_a_database_that_holds_data(transactional_db, tmp_path, portable):
    path = backup_file(tmp_path, portable)
    take_backup(path, portable)
    make_user("admin")
    with pytest.raises(CommandError, match=r"already holds data \(auth.user 1\)"):
        call_command("restore", str(path))
    assert list(User.objects.values_list("username", flat=True)) == ["admin"]


def test_restore_refuses_a_tournament_made_before_it(tournament, tmp_path):
    path = tmp_path / "mcr.json.gz"
    take_backup(path, portable=True)
    with pytest.raises(CommandError, match=r"already holds data .*tournament.tournament 1"):
        call_command("restore", str(path))
    assert Tournament.objects.count() == 1


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
        (b"SQLite format 3\x00" + bytes(100), r"SQLite|cannot be restored"),
        (b"PGDMP" + bytes(100), "PostgreSQL"),
    ],
    ids=[
        "csv",
        "binary",
        "not-json",
        "dumpdata",
        "other-format",
        "newer-format",
        "not-sqlite",
        "not-pg-dump",
    ],
)
def test_restore_refuses_a_file_that_is_not_a_backup(db, tmp_path, content, message):
    path = tmp_path / "file.backup"
    path.write_bytes(content)
    with pytest.raises(CommandError, match=message):
        call_command("restore", str(path))


def test_restore_refuses_a_native_backup_of_the_other_database(transactional_db, tmp_path):
    """A SQLite copy restores only into SQLite, a PostgreSQL dump only into PostgreSQL: the
    message sends to the portable JSON."""
    path = tmp_path / "mcr.dump"
    take_backup(path, portable=False)
    other = b"PGDMP" if connection.vendor == "sqlite" else b"SQLite format 3\x00"
    path.write_bytes(other + path.read_bytes()[len(other) :])
    with pytest.raises(CommandError, match=r"restores only into one .*--json moves an event"):
        call_command("restore", str(path))


@pytest.mark.parametrize("portable", KINDS)
def test_restore_refuses_a_backup_cut_short_and_changes_nothing(
    transactional_db, tmp_path, portable
):
    make_user("referee")
    path = backup_file(tmp_path, portable)
    take_backup(path, portable)
    call_command("flush", interactive=False, verbosity=0)
    path.write_bytes(path.read_bytes()[: path.stat().st_size * 3 // 4])
    with pytest.raises(CommandError, match=r"not a backup of this site|cannot be|damaged"):
        call_command("restore", str(path))
    assert not User.objects.exists()
    assert MigrationRecorder(connection).applied_migrations()


def test_restore_refuses_a_missing_file(db, tmp_path):
    with pytest.raises(CommandError, match="No file"):
        call_command("restore", str(tmp_path / "nothing.json.gz"))


def test_restore_refuses_a_native_backup_of_another_version(transactional_db, tmp_path):
    """A migration this site does not have: the backup was taken by a newer version."""
    path = tmp_path / "mcr.dump"
    recorded = MigrationRecorder(connection)
    recorded.record_applied("tournament", "9999_from_the_future")
    try:
        take_backup(path, portable=False)
    finally:
        recorded.record_unapplied("tournament", "9999_from_the_future")
    with pytest.raises(
        CommandError,
        match=r"another version of this site \(tournament: not in this version of the site: "
        r"9999_from_the_future\)",
    ):
        call_command("restore", str(path))


def test_backup_refuses_a_folder_that_does_not_exist(db, tmp_path):
    with pytest.raises(CommandError, match="Cannot write"):
        call_command("backup", str(tmp_path / "missing" / "mcr.json.gz"))
    assert list(tmp_path.iterdir()) == []


def test_backup_refuses_a_database_behind_the_sites_migrations(db, tmp_path):
    """The database has not recorded the site's last migration: ``migrate`` has not run."""
    MigrationRecorder.Migration.objects.filter(app="tournament").order_by("-name")[0].delete()
    with pytest.raises(CommandError, match=r"run manage\.py migrate, then back up"):
        call_command("backup", str(tmp_path / "mcr.json.gz"))
    assert list(tmp_path.iterdir()) == []


def test_native_backup_file_is_private_and_of_the_databases_kind(transactional_db, tmp_path):
    make_user("referee")
    path = tmp_path / "mcr.backup"
    said = take_backup(path, portable=False)
    kind = backups.native_kind(connection)
    assert said.startswith(f"{path}: {kind.label}, ")
    assert backups.file_kind(path) is kind
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    assert [p.name for p in tmp_path.iterdir()] == ["mcr.backup"]  # no temporary file left


def test_a_native_backup_named_as_json_is_written_and_says_so(transactional_db, tmp_path):
    """A cron line of the JSON days: the backup is taken all the same (a missed backup is
    worse than a misleading name), and a line on stderr asks for a better name."""
    path = tmp_path / "mcr-1405.json.gz"
    err = io.StringIO()
    call_command("backup", str(path), stdout=io.StringIO(), stderr=err)
    assert backups.file_kind(path) is backups.native_kind(connection)
    assert "not JSON: name it" in err.getvalue()


def test_backups_in_a_folder_are_named_by_the_time_and_the_newest_kept(
    transactional_db, tmp_path, monkeypatch
):
    make_user("referee")
    kind = backups.native_kind(connection)
    other = tmp_path / "notes.txt"
    other.write_text("not ours")
    times = iter(["2026-12-01T13:55", "2026-12-01T14:00", "2026-12-01T14:05", "2026-12-02T09:00"])
    monkeypatch.setattr(
        backups.timezone,
        "localtime",
        lambda: timezone.make_aware(datetime.datetime.fromisoformat(next(times))),
    )
    written = [backups.backup_write(tmp_path, keep=2) for _ in range(3)]
    out = io.StringIO()
    call_command("backup", "--folder", str(tmp_path), "--keep", "2", stdout=out)

    assert [path.name for path in written] == [
        f"mcr-20261201-1355{kind.suffix}",
        f"mcr-20261201-1400{kind.suffix}",
        f"mcr-20261201-1405{kind.suffix}",
    ]
    assert out.getvalue().startswith(f"{tmp_path / f'mcr-20261202-0900{kind.suffix}'}: ")
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        f"mcr-20261201-1405{kind.suffix}",
        f"mcr-20261202-0900{kind.suffix}",
        "notes.txt",
    ]


def test_pg_dump_and_pg_restore_connect_with_djangos_settings_from_their_environment():
    """Host, port, user, database and SSL options as libpq reads them; the password in
    PGPASSWORD, never on a command line (where ``ps`` shows it)."""
    database = SimpleNamespace(
        settings_dict={
            "NAME": "mcr",
            "USER": "mcr",
            "PASSWORD": "s3cret",
            "HOST": "10.0.0.5",
            "PORT": 5433,
            "OPTIONS": {"sslmode": "require", "connect_timeout": 5},
        }
    )
    env = postgresql._environment(database)
    inherited = {name: value for name, value in os.environ.items() if name.startswith("PG")}
    assert {name: value for name, value in env.items() if name.startswith("PG")} == inherited | {
        "PGDATABASE": "mcr",
        "PGUSER": "mcr",
        "PGPASSWORD": "s3cret",
        "PGHOST": "10.0.0.5",
        "PGPORT": "5433",
        "PGSSLMODE": "require",
        "PGCONNECT_TIMEOUT": "5",
    }
