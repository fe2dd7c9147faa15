"""What the three kinds of backup share: what they hold, how a file says its kind, the checks
a restore makes of the file's migrations and of the database it goes into."""

import enum
import subprocess
from dataclasses import dataclass
from pathlib import Path

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder
from django.db.models import Model
from django.utils.translation import gettext as _

from tournament.models import ExportFile, ScheduledJob, TaskWorker

# The running site's state, not the event's: left out of the JSON.
NOT_EVENT_DATA = (TaskWorker, ScheduledJob)


class BackupError(Exception):
    """A backup that cannot be written, or a file that cannot be restored here, and why."""


class Kind(enum.StrEnum):
    """The kinds of backup file, each known by its first bytes (``MAGIC``)."""

    POSTGRESQL = "postgresql"  # pg_dump's custom format: PostgreSQL only
    SQLITE = "sqlite"  # a copy of the SQLite database file: SQLite only
    PORTABLE = "json"  # gzip-compressed JSON, one row a line: from and into either

    @property
    def suffix(self) -> str:
        return {"postgresql": ".dump", "sqlite": ".sqlite3", "json": ".json.gz"}[self.value]

    @property
    def label(self) -> str:
        return {
            "postgresql": _("PostgreSQL dump (pg_dump's custom format)"),
            "sqlite": _("SQLite database copy"),
            "json": _("portable JSON"),
        }[self.value]


# The first bytes of each kind of file: pg_dump's custom format, SQLite's database header, gzip.
MAGIC = (
    (b"PGDMP", Kind.POSTGRESQL),
    (b"SQLite format 3\x00", Kind.SQLITE),
    (b"\x1f\x8b", Kind.PORTABLE),
)


@dataclass(frozen=True)
class BackupInfo:
    """A backup written or restored: its kind, when it was taken, from which database, and
    its rows per model."""

    kind: Kind
    created_at: str
    database: str
    counts: dict[str, int]

    @property
    def rows(self) -> int:
        return sum(self.counts.values())


def backed_up_models() -> list[type[Model]]:
    """Groups, users, then every model of the tournament app (history tables included) but
    the downloads' files (``ExportFile``): copies of the data, built again when asked for,
    which would make a backup as large as every workbook; nor the task workers' beats and
    the scheduled jobs' times (``NOT_EVENT_DATA``), which are the running site's, not the
    event's.

    Users come after groups, which they name; other references need no order, since
    Django makes foreign keys deferrable (checked at commit) on SQLite and PostgreSQL.
    """
    tournament_models = apps.get_app_config("tournament").get_models()
    models = [Group, get_user_model(), *tournament_models]
    return [
        model
        for model in models
        if not model._meta.proxy and model not in (ExportFile, *NOT_EVENT_DATA)
    ]


def file_kind(path: Path) -> Kind:
    """The kind of backup ``path`` is, from its first bytes; BackupError if none."""
    try:
        with open(path, "rb") as file:
            start = file.read(16)
    except FileNotFoundError as error:
        raise BackupError(_("No file %(path)s.") % {"path": path}) from error
    except OSError as error:
        raise BackupError(
            _("Cannot read %(path)s: %(error)s") % {"path": path, "error": error}
        ) from error
    for magic, kind in MAGIC:
        if start.startswith(magic):
            return kind
    raise BackupError(
        _(
            "%(path)s is not a backup of this site (neither a PostgreSQL dump, a SQLite "
            "database nor gzip-compressed JSON)."
        )
        % {"path": path}
    )


def rows_counted(models: list[type[Model]], using: str) -> dict[str, int]:
    return {model._meta.label_lower: model._base_manager.using(using).count() for model in models}


def rows_present(models: list[type[Model]], using: str) -> dict[str, int]:
    return {label: count for label, count in rows_counted(models, using).items() if count}


def refuse_data(present: dict[str, int], *, native: bool) -> None:
    if present:
        listed = ", ".join(f"{label} {count}" for label, count in present.items())
        new = (
            _("Use a new database (just created, not migrated)")
            if native
            else _("Use a new database (manage.py migrate, create no accounts)")
        )
        raise BackupError(
            _(
                "This database already holds data (%(rows)s): a backup restores only "
                "into an empty database. %(new)s, or empty this one with manage.py flush "
                "if its data may go."
            )
            % {"rows": listed, "new": new}
        )


def applied_migrations(connection, app_labels: set[str]) -> dict[str, list[str]]:
    applied = MigrationRecorder(connection).applied_migrations()
    return {
        label: sorted(name for app, name in applied if app == label) for label in sorted(app_labels)
    }


def migrations_differ(
    taken_at: dict[str, list[str]], here: dict[str, list[str]], *, site: bool = False
) -> str | None:
    """What differs between the migrations the backup was taken at and this database's
    (``site``: this version of the site's)."""
    lines = []
    for label in sorted(set(taken_at) | set(here)):
        missing = sorted(set(taken_at.get(label, [])) - set(here.get(label, [])))
        extra = sorted(set(here.get(label, [])) - set(taken_at.get(label, [])))
        if missing:
            template = (
                _("%(app)s: not in this version of the site: %(names)s")
                if site
                else _("%(app)s: not applied here: %(names)s")
            )
            lines.append(template % {"app": label, "names": ", ".join(missing)})
        if extra:
            template = (
                _("%(app)s: in this version of the site, not in the backup: %(names)s")
                if site
                else _("%(app)s: applied here, not in the backup: %(names)s")
            )
            lines.append(template % {"app": label, "names": ", ".join(extra)})
    return "; ".join(lines) or None


def migrations_by_app(rows: list[tuple[str, str]]) -> dict[str, list[str]]:
    """The ``(app, name)`` rows of a django_migrations table, as the header lists them."""
    taken_at: dict[str, list[str]] = {}
    for app, name in rows:
        taken_at.setdefault(app, []).append(name)
    return {app: sorted(names) for app, names in sorted(taken_at.items())}


def native_restore_check(path: Path, connection, taken_at: dict[str, list[str]]) -> None:
    """Refuse a native backup of another version of the site, or a database it must not
    go into.

    The file brings the whole database, tables and migrations included. It must be of this
    site (the tournament app's migrations) at this version's migrations: the site's code
    reads its tables. The database must hold no data: either no table at all (just
    created), or migrated by this version and without rows; its tables are replaced.
    """
    if connection.in_atomic_block:
        # SQLite copies into no connection with a transaction open; on PostgreSQL, its locks
        # would keep pg_restore from replacing the tables for ever.
        raise BackupError(_("A restore cannot run inside a transaction."))
    if not taken_at.get("tournament"):
        raise BackupError(
            _("%(path)s is not a backup of this site (it has no tournament tables).")
            % {"path": path}
        )
    installed = {config.label for config in apps.get_app_configs()}
    taken_at = {app: names for app, names in taken_at.items() if app in installed}
    on_disk = migrations_by_app(list(MigrationLoader(None, ignore_no_migrations=True).graph.nodes))
    differences = migrations_differ(taken_at, on_disk, site=True)
    if differences:
        raise BackupError(
            _(
                "The backup was taken by another version of this site (%(diff)s). Restore "
                "it with the version that took it, then update the site and migrate."
            )
            % {"diff": differences}
        )
    tables = connection.introspection.table_names()
    if not tables:
        return
    if MigrationRecorder.Migration._meta.db_table not in tables:
        raise BackupError(
            _(
                "This database holds tables that are not this site's (%(tables)s): restore "
                "into a new, empty database."
            )
            % {"tables": ", ".join(sorted(tables)[:5])}
        )
    here = {app: names for app, names in applied_migrations(connection, installed).items() if names}
    differences = migrations_differ(taken_at, here)
    if differences:
        raise BackupError(
            _(
                "The backup was taken at other migrations than this database has (%(diff)s). "
                "Restore it into a database just created: it brings its own tables."
            )
            % {"diff": differences}
        )
    refuse_data(rows_present(backed_up_models(), connection.alias), native=True)


def run_program(args: list[str], env: dict[str, str]) -> str:
    """Run a database program (no shell); its output, or BackupError with what it said."""
    try:
        done = subprocess.run(args, env=env, capture_output=True, text=True, check=False)
    except OSError as error:
        raise BackupError(
            _("Cannot run %(program)s: %(error)s") % {"program": args[0], "error": error}
        ) from error
    if done.returncode:
        said = done.stderr.strip() or done.stdout.strip()
        raise BackupError(
            _("%(program)s failed: %(error)s")
            % {"program": Path(args[0]).name, "error": said[-2000:]}
        )
    return done.stdout
