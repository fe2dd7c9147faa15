"""The native backup on SQLite: a copy of the database file by SQLite's own online backup.

``sqlite3.Connection.backup`` copies every page of the database in one step, inside one read
transaction: the copy is the database as it was at one moment. In WAL mode (the site's) a
reader does not stop writers, so the tablets go on saving while it copies, and their saves
are in the next backup. Copying ``db.sqlite3`` with ``cp`` is not a backup: the latest saves
may still be in ``db.sqlite3-wal``, and a copy made while SQLite writes may be inconsistent.

The copy is a plain database file (rollback journal, no ``-wal`` beside it): ``sqlite3
FILE`` opens it. A restore copies it back into the site's database by the same backup API,
through SQLite's locks, so no stale ``-wal`` file of the target can be replayed over it.
"""

import datetime
import sqlite3
import urllib.parse
from contextlib import closing
from pathlib import Path

from django.db.migrations.recorder import MigrationRecorder
from django.utils.translation import gettext as _

from tournament.server.backups.base import (
    BackupError,
    backed_up_models,
    migrations_by_app,
    native_restore_check,
)


def _counts(database: sqlite3.Connection) -> dict[str, int]:
    counts = {}
    for model in backed_up_models():
        table = model._meta.db_table.replace('"', '""')
        (counts[model._meta.label_lower],) = database.execute(
            f'SELECT COUNT(*) FROM "{table}"'
        ).fetchone()
    return counts


def write(part: Path, *, connection) -> dict[str, int]:
    """Copy the site's database into the empty file ``part``; its rows per model. A failure
    is SQLite's own error (``sqlite3.Error``)."""
    connection.ensure_connection()
    with closing(sqlite3.connect(part)) as copy:
        # pages=-1: one step, one read snapshot (a writer between steps restarts the copy).
        connection.connection.backup(copy, pages=-1)
        # A file of its own, readable without a -wal file beside it.
        copy.execute("PRAGMA journal_mode=DELETE")
        return _counts(copy)


def _open_read_only(path: Path) -> sqlite3.Connection:
    uri = "file:" + urllib.parse.quote(str(Path(path).resolve())) + "?mode=ro"
    return sqlite3.connect(uri, uri=True)


def restore(path: Path, *, connection) -> str:
    """Copy the backup ``path`` into the site's database after the checks of a native
    restore; when the backup was taken (the file's time)."""
    try:
        with closing(_open_read_only(path)) as source:
            (check,) = source.execute("PRAGMA quick_check").fetchone()
            if check != "ok":
                raise BackupError(
                    _("%(path)s is damaged (%(error)s): use an earlier backup.")
                    % {"path": path, "error": check}
                )
            table = MigrationRecorder.Migration._meta.db_table
            try:
                rows = source.execute(f'SELECT app, name FROM "{table}"').fetchall()
            except sqlite3.OperationalError:
                rows = []
            native_restore_check(path, connection, migrations_by_app(rows))
            connection.ensure_connection()
            source.backup(connection.connection, pages=-1)
    except sqlite3.DatabaseError as error:
        raise BackupError(
            _("%(path)s cannot be restored: %(error)s") % {"path": path, "error": error}
        ) from error
    taken = datetime.datetime.fromtimestamp(Path(path).stat().st_mtime, datetime.UTC)
    return taken.isoformat()
