"""The whole event in one file while the site runs, and its restore into an empty database.

Three kinds of file, each known by its first bytes (``base.MAGIC``):

- on PostgreSQL, ``pg_dump``'s custom format (``postgresql.py``), restored by ``pg_restore``;
- on SQLite, a copy of the database by SQLite's online backup (``sqlite.py``);
- on either, with ``portable=True``, gzip-compressed JSON of the accounts and the tournament
  app's rows (``portable.py``): the one that moves an event between SQLite and PostgreSQL.

The native kinds are the database's own, fast and of the event's whole database; the JSON is
read and written row by row, so its memory does not grow with the event either, but it takes
longer. Each is written under a temporary name beside the target and renamed when complete,
readable by its owner only (it holds password hashes). ``backup_write(folder)`` is what a
scheduled task calls: a backup named by the time, the older ones beyond ``KEEP`` removed.
"""

import os
import re
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.contrib.contenttypes.models import ContentType
from django.core.management.color import no_style
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, transaction
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.models import TournamentVersion
from tournament.models.tournaments import new_standings_stamp
from tournament.server.backups import portable, postgresql, sqlite
from tournament.server.backups.base import (
    BackupError,
    BackupInfo,
    Kind,
    backed_up_models,
    file_kind,
    rows_counted,
)
from tournament.server.planner_statistics import planner_statistics_refresh

__all__ = [
    "KEEP",
    "BackupError",
    "BackupInfo",
    "Kind",
    "backed_up_models",
    "backup",
    "backup_in_folder",
    "backup_write",
    "file_kind",
    "native_kind",
    "restore",
]

# How many backups ``backup_write`` keeps in its folder: four hours at one every 5 minutes.
KEEP = 48
# The names ``backup_write`` gives, and the only files it removes: mcr-20261201-1405.dump.
_NAME = re.compile(r"^mcr-\d{8}-\d{4}(\.dump|\.sqlite3|\.json\.gz)$")


def native_kind(connection) -> Kind:
    """The kind of backup the database writes of itself; the portable one for another."""
    return {"postgresql": Kind.POSTGRESQL, "sqlite": Kind.SQLITE}.get(
        connection.vendor, Kind.PORTABLE
    )


# ------------------------------------------------------------------------- taking a backup


@contextmanager
def read_snapshot(connection) -> Iterator[None]:
    """One read transaction: every table as it was at one moment, while writers go on.

    PostgreSQL: a REPEATABLE READ, READ ONLY transaction. SQLite (in WAL mode): a deferred
    transaction reads one snapshot; ``atomic()`` would begin IMMEDIATE (the site's setting)
    and stop every tablet's save for as long as the backup takes. Inside a transaction the
    caller opened, that transaction is the snapshot.
    """
    if connection.in_atomic_block:
        yield
    elif connection.vendor == "postgresql":
        with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            yield
    elif connection.vendor == "sqlite":
        # Django keeps SQLite in autocommit mode outside atomic(): this BEGIN is ours to end.
        with connection.cursor() as cursor:
            cursor.execute("BEGIN DEFERRED")
            try:
                yield
            finally:
                cursor.execute("ROLLBACK")
    else:
        with transaction.atomic(using=connection.alias):
            yield


def _write(kind: Kind, part: Path, name: str, connection) -> tuple[str, dict[str, int]]:
    if kind is Kind.SQLITE:
        # SQLite's backup reads its own snapshot, in one step.
        return timezone.now().isoformat(), sqlite.write(part, connection=connection)
    with read_snapshot(connection):
        if kind is Kind.POSTGRESQL:
            return timezone.now().isoformat(), postgresql.dump(part, connection=connection)
        with open(part, "wb") as raw:
            return portable.write(raw, name=name, connection=connection)


def backup(path: Path, *, portable: bool = False, using: str = DEFAULT_DB_ALIAS) -> BackupInfo:
    """Write the whole event to ``path`` from one snapshot while the site runs: the
    database's own format, or with ``portable`` the JSON that restores into either database.

    The file appears whole or not at all: it is written beside ``path`` and renamed, so an
    interrupted backup never leaves half a file under the name of a good one. It holds
    password hashes: it is created readable by its owner only. Call it outside a transaction:
    inside one, that transaction is the snapshot read (and PostgreSQL exports no snapshot
    from a savepoint's).
    """
    path = Path(path)
    connection = connections[using]
    kind = Kind.PORTABLE if portable else native_kind(connection)
    if MigrationExecutor(connection).migration_plan(MigrationLoader(connection).graph.leaf_nodes()):
        # The site's code is newer than the database: its rows would not read as its models.
        raise BackupError(
            _(
                "This database is not migrated to this version of the site: run manage.py "
                "migrate, then back up."
            )
        )
    part = None
    try:
        handle, part = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
        os.close(handle)
        created_at, counts = _write(kind, Path(part), path.name, connection)
        os.replace(part, path)
    except OSError as error:
        raise BackupError(
            _("Cannot write %(path)s: %(error)s") % {"path": path, "error": error}
        ) from error
    except (DatabaseError, sqlite3.Error) as error:
        raise BackupError(_("Cannot read the database: %(error)s") % {"error": error}) from error
    finally:
        if part and os.path.exists(part):
            os.unlink(part)
    return BackupInfo(kind=kind, created_at=created_at, database=connection.vendor, counts=counts)


def backup_in_folder(
    folder: Path,
    *,
    portable: bool = False,
    keep: int = KEEP,
    using: str = DEFAULT_DB_ALIAS,
) -> tuple[Path, BackupInfo]:
    """A backup in ``folder`` named by the time (``mcr-20261201-1405.dump``), then the
    backups of that folder beyond the ``keep`` newest removed; the file and what it holds.

    A second backup within the same minute replaces the first. Only files named as this
    function names them are ever removed.
    """
    folder = Path(folder)
    kind = Kind.PORTABLE if portable else native_kind(connections[using])
    path = folder / f"mcr-{timezone.localtime():%Y%m%d-%H%M}{kind.suffix}"
    info = backup(path, portable=portable, using=using)
    written = sorted(
        (entry for entry in folder.iterdir() if _NAME.match(entry.name)),
        key=lambda entry: entry.name[4:17],
        reverse=True,
    )
    for old in written[max(keep, 1) :]:
        if old != path:
            old.unlink(missing_ok=True)
    return path, info


def backup_write(folder: Path, *, keep: int = KEEP) -> Path:
    """What a scheduled task calls every few minutes, without a request: the database's own
    backup in ``folder`` (``backup_in_folder``), the ``keep`` newest kept; the file written.
    Raises BackupError when it cannot (the folder missing, the database unreadable)."""
    return backup_in_folder(folder, keep=keep)[0]


# ------------------------------------------------------------------------------ restoring


def _restored(connection) -> None:
    """What every restore does last, in the restore's transaction: PostgreSQL's id
    sequences moved past the restored ids, and new standings stamps: a server still running
    keeps the standings it read before under the old ones, which the restored data must not
    be taken for."""
    statements = connection.ops.sequence_reset_sql(no_style(), backed_up_models())
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)
    for version in TournamentVersion.objects.using(connection.alias).only("pk"):
        TournamentVersion.objects.using(connection.alias).filter(pk=version.pk).update(
            standings=new_standings_stamp()
        )
    # A native restore brings the content types' ids of the backup's machine.
    ContentType.objects.clear_cache()


def restore(path: Path, *, using: str = DEFAULT_DB_ALIAS) -> BackupInfo:
    """Restore a backup of any kind into this database, if it is one this database takes.

    A native backup (PostgreSQL dump, SQLite copy) goes into the database of its kind, which
    holds no data: just created, or migrated and empty. The portable JSON goes into either
    database, migrated and empty. Both must be of this version of the site (its migrations).
    A refused or failed restore leaves the database as it was. The audit trail records
    nothing for the restore: its history comes from the file.
    """
    path = Path(path)
    connection = connections[using]
    kind = file_kind(path)
    if kind is Kind.PORTABLE:
        with transaction.atomic(using=using):
            header, counts = portable.restore(path, connection=connection)
            _restored(connection)
        created_at, database = header.get("created_at", ""), header.get("database", "")
    else:
        if native_kind(connection) is not kind:
            raise BackupError(
                _(
                    "%(path)s is a backup of a %(kind)s database: it restores only into "
                    "one (this is %(here)s). A backup taken with --json moves an event "
                    "between SQLite and PostgreSQL."
                )
                % {
                    "path": path,
                    "kind": "PostgreSQL" if kind is Kind.POSTGRESQL else "SQLite",
                    "here": connection.display_name,
                }
            )
        native = postgresql if kind is Kind.POSTGRESQL else sqlite
        created_at = native.restore(path, connection=connection)
        with transaction.atomic(using=using):
            _restored(connection)
        database, counts = connection.vendor, rows_counted(backed_up_models(), using)
    planner_statistics_refresh(using)
    return BackupInfo(kind=kind, created_at=created_at, database=database, counts=counts)
