"""The native backup on PostgreSQL: ``pg_dump``'s custom format, restored by ``pg_restore``.

The dump is the whole database (tables, sequences, migrations, every row) compressed, as
PostgreSQL reads it back. It is taken from one snapshot: the backup opens a REPEATABLE READ,
READ ONLY transaction, counts the rows in it, exports its snapshot and has ``pg_dump`` read
that same snapshot (``--snapshot``), so the counts it prints are the dump's, and the tablets
go on saving while it reads (a reader stops no writer in PostgreSQL).

``pg_dump`` and ``pg_restore`` run as programs (no shell), with the connection settings of
Django's DATABASES: host, port, user, database name and SSL options in the environment
(``PGHOST``, …), the password in ``PGPASSWORD``, never on a command line. They must be of
the server's major version or newer (``apt-get install postgresql-client-15`` for a server
15); a dump restores with a ``pg_restore`` at least as new as the ``pg_dump`` that wrote it.
"""

import os
import re
import shutil
from pathlib import Path

from django.db.migrations.recorder import MigrationRecorder
from django.utils.translation import gettext as _

from tournament.server.backups.base import (
    BackupError,
    backed_up_models,
    migrations_by_app,
    native_restore_check,
    rows_counted,
    run_program,
)

# libpq's environment variables for the connection OPTIONS that dj-database-url may set.
_OPTIONS_ENVIRONMENT = {
    "sslmode": "PGSSLMODE",
    "sslrootcert": "PGSSLROOTCERT",
    "sslcert": "PGSSLCERT",
    "sslkey": "PGSSLKEY",
    "passfile": "PGPASSFILE",
    "service": "PGSERVICE",
    "connect_timeout": "PGCONNECT_TIMEOUT",
}


def _program(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(
            _(
                "%(program)s is not installed: install PostgreSQL's client programs of the "
                "server's version (apt-get install postgresql-client)."
            )
            % {"program": name}
        )
    return found


def _environment(connection) -> dict[str, str]:
    """The environment that points libpq's programs at Django's database."""
    settings = connection.settings_dict
    env = {**os.environ}
    for key, variable in (
        ("HOST", "PGHOST"),
        ("PORT", "PGPORT"),
        ("USER", "PGUSER"),
        ("PASSWORD", "PGPASSWORD"),
        ("NAME", "PGDATABASE"),
    ):
        if settings.get(key):
            env[variable] = str(settings[key])
    for option, variable in _OPTIONS_ENVIRONMENT.items():
        if settings.get("OPTIONS", {}).get(option):
            env[variable] = str(settings["OPTIONS"][option])
    return env


def dump(part: Path, *, connection) -> dict[str, int]:
    """Dump the database into ``part``, from the snapshot of the caller's transaction (a
    REPEATABLE READ one: ``backups.read_snapshot``); its rows per model."""
    program = _program("pg_dump")
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_export_snapshot()")
        (snapshot,) = cursor.fetchone()
    counts = rows_counted(backed_up_models(), connection.alias)
    run_program(
        [
            program,
            "--format=custom",
            f"--file={part}",
            f"--snapshot={snapshot}",
            "--no-password",
        ],
        _environment(connection),
    )
    return counts


_CREATED = re.compile(r"^;\s+Archive created at (.+)$", re.MULTILINE)
_COPY = re.compile(r"^COPY \S*django_migrations \(([^)]*)\) FROM stdin;$")


def _migrations(path: Path, program: str, env: dict[str, str]) -> dict[str, list[str]]:
    """The django_migrations rows of the dump, from its data as pg_restore prints it."""
    table = MigrationRecorder.Migration._meta.db_table
    text = run_program(
        [program, "--data-only", f"--table={table}", "--file=-", str(path)], env
    ).splitlines()
    rows = []
    for index, line in enumerate(text):
        match = _COPY.match(line)
        if match:
            columns = [name.strip() for name in match.group(1).split(",")]
            app, name = columns.index("app"), columns.index("name")
            for row in text[index + 1 :]:
                if row == "\\.":
                    break
                values = row.split("\t")
                rows.append((values[app], values[name]))
            break
    return migrations_by_app(rows)


def restore(path: Path, *, connection) -> str:
    """Restore the dump into the site's database after the checks of a native restore, in
    one transaction of ``pg_restore``'s: all or nothing. When the dump was taken."""
    program = _program("pg_restore")
    env = _environment(connection)
    try:
        listing = run_program([program, "--list", str(path)], env)
        taken_at = _migrations(path, program, env)
    except BackupError as error:
        raise BackupError(
            _("%(path)s cannot be read as a PostgreSQL dump (%(error)s).")
            % {"path": path, "error": error}
        ) from error
    created = _CREATED.search(listing)
    native_restore_check(path, connection, taken_at)
    # The checks' queries ran in autocommit: this connection holds no lock that would keep
    # pg_restore from replacing the tables.
    arguments = [
        program,
        f"--dbname={connection.settings_dict['NAME']}",
        "--no-password",
        # The tables of a migrated, empty database are replaced (the check above refused
        # one with rows, or at other migrations).
        "--clean",
        "--if-exists",
        # Owned by this site's user, whoever owned them on the machine of the backup.
        "--no-owner",
        "--no-privileges",
        "--single-transaction",
        "--exit-on-error",
        str(path),
    ]
    try:
        run_program(arguments, env)
    except BackupError as error:
        raise BackupError(
            _("%(path)s cannot be restored (%(error)s); the database is as it was.")
            % {"path": path, "error": error}
        ) from error
    # Its statements were prepared on the tables pg_restore replaced.
    connection.close()
    return created.group(1).strip() if created else ""
