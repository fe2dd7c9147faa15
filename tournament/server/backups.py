"""The whole event in one portable file, and its restore into an empty database.

A backup is gzip-compressed JSON: a header (format and version, when it was taken, on which
database, the applied migrations of the apps it holds, rows per model) and then every row
of the accounts (groups, users with their password hashes) and of every model of the
``tournament`` app, one row per line, with their primary keys. It is read in one snapshot
(see ``_read_snapshot``), so the file is consistent while the tablets keep saving hands,
and it restores on SQLite or PostgreSQL whichever database it came from.

Primary keys are kept: the target database is empty, so the rows keep their ids and every
reference between them holds as it was. Only permissions (and content types), which
``migrate`` creates with ids of its own, are referred to by natural key.
"""

import datetime
import gzip
import json
import os
import tempfile
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import django
from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core import serializers
from django.core.management.color import no_style
from django.core.serializers.base import DeserializationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, transaction
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder
from django.db.models import Model
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.models import ExportFile, ScheduledJob, TaskWorker, TournamentVersion
from tournament.models.tournaments import new_standings_stamp
from tournament.server.planner_statistics import planner_statistics_refresh

# The running site's state, not the event's: left out of the JSON.
NOT_EVENT_DATA = (TaskWorker, ScheduledJob)

FORMAT = "mcr-tournament-backup"
# Raised when the file's layout changes in a way an older restore would misread.
VERSION = 1


class BackupError(Exception):
    """A backup that cannot be written, or a file that cannot be restored here, and why."""


@dataclass(frozen=True)
class BackupInfo:
    """What a backup file holds, as its header says."""

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


def _refers_to_rows_outside(model: type[Model], models: list[type[Model]]) -> bool:
    """Whether the model points at rows the backup does not carry (permissions): those are
    found again by natural key, since their ids in the target database may differ."""
    return any(
        (field.many_to_one or field.many_to_many) and field.related_model not in models
        for field in model._meta.get_fields()
        if field.concrete or (field.many_to_many and not field.auto_created)
    )


# ------------------------------------------------------------------------- taking a backup


class _Encoder(DjangoJSONEncoder):
    """DjangoJSONEncoder, but times keep their microseconds (it cuts them to milliseconds):
    a restored hand keeps the very timestamp it had."""

    def default(self, o):
        if isinstance(o, datetime.datetime | datetime.time):
            return o.isoformat()
        return super().default(o)


@contextmanager
def _read_snapshot(connection) -> Iterator[None]:
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


def _applied_migrations(connection, app_labels: set[str]) -> dict[str, list[str]]:
    applied = MigrationRecorder(connection).applied_migrations()
    return {
        label: sorted(name for app, name in applied if app == label) for label in sorted(app_labels)
    }


def _serialized_rows(model: type[Model], models: list[type[Model]], using: str) -> list[dict]:
    """Every row of ``model`` in primary key order, as Django's serializers give it."""
    m2m = [field.name for field in model._meta.many_to_many]
    rows = model._base_manager.using(using).order_by("pk").prefetch_related(*m2m)
    return serializers.serialize(
        "python",
        rows,
        use_natural_foreign_keys=_refers_to_rows_outside(model, models),
    )


def _lines(header: dict, rows: Iterator[dict]) -> Iterator[str]:
    """The file's text: the header, then one row per line, readable with zcat."""
    yield '{"header": ' + json.dumps(header, cls=_Encoder, ensure_ascii=False) + ',\n"objects": ['
    for index, row in enumerate(rows):
        yield ("\n" if index == 0 else ",\n") + json.dumps(row, cls=_Encoder, ensure_ascii=False)
    yield "\n]}\n"


def backup(path: Path, *, using: str = DEFAULT_DB_ALIAS) -> BackupInfo:
    """Write the whole event to ``path`` (gzip-compressed JSON) from one snapshot.

    The file appears whole or not at all: it is written beside ``path`` and renamed, so an
    interrupted backup never leaves half a file under the name of a good one. It holds
    password hashes: it is created readable by its owner only.
    """
    path = Path(path)
    connection = connections[using]
    models = backed_up_models()
    if MigrationExecutor(connection).migration_plan(MigrationLoader(connection).graph.leaf_nodes()):
        # The site's code is newer than the database: its rows would not read as its models.
        raise BackupError(
            _(
                "This database is not migrated to this version of the site: run manage.py "
                "migrate, then back up."
            )
        )
    try:
        handle, part = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    except OSError as error:
        raise BackupError(
            _("Cannot write %(path)s: %(error)s") % {"path": path, "error": error}
        ) from error
    try:
        with (
            os.fdopen(handle, "wb") as raw,
            gzip.GzipFile(filename=path.name, mode="wb", fileobj=raw, mtime=0) as compressed,
            _read_snapshot(connection),
        ):
            header = {
                "format": FORMAT,
                "version": VERSION,
                "created_at": timezone.now().isoformat(),
                "database": connection.vendor,
                "django": django.get_version(),
                "migrations": _applied_migrations(
                    connection, {model._meta.app_label for model in models}
                ),
                "counts": {
                    model._meta.label_lower: model._base_manager.using(using).count()
                    for model in models
                },
            }
            rows = (row for model in models for row in _serialized_rows(model, models, using))
            for text in _lines(header, rows):
                compressed.write(text.encode("utf-8"))
        os.replace(part, path)
    except OSError as error:
        raise BackupError(
            _("Cannot write %(path)s: %(error)s") % {"path": path, "error": error}
        ) from error
    except DatabaseError as error:
        raise BackupError(_("Cannot read the database: %(error)s") % {"error": error}) from error
    finally:
        if os.path.exists(part):
            os.unlink(part)
    return BackupInfo(
        created_at=header["created_at"], database=header["database"], counts=header["counts"]
    )


# ------------------------------------------------------------------------------ restoring


def read_backup(path: Path) -> tuple[dict, list[dict]]:
    """The header and the rows of a backup file; BackupError when it is not one."""
    path = Path(path)
    try:
        with gzip.open(path, "rt", encoding="utf-8") as text:
            content = json.load(text)
    except FileNotFoundError as error:
        raise BackupError(_("No file %(path)s.") % {"path": path}) from error
    except (OSError, EOFError, UnicodeDecodeError, ValueError) as error:
        # Not gzip, cut short, not text, not JSON: OSError, EOFError, the others ValueError.
        raise BackupError(
            _("%(path)s is not a backup of this site (%(error)s).") % {"path": path, "error": error}
        ) from error
    header = content.get("header") if isinstance(content, dict) else None
    rows = content.get("objects") if isinstance(content, dict) else None
    if (
        not isinstance(header, dict)
        or header.get("format") != FORMAT
        or not isinstance(header.get("migrations"), dict)
        or not isinstance(header.get("counts"), dict)
        or not isinstance(rows, list)
    ):
        raise BackupError(
            _("%(path)s is not a backup of this site (it has no backup header).") % {"path": path}
        )
    if not isinstance(header.get("version"), int) or header["version"] > VERSION:
        raise BackupError(
            _(
                "%(path)s was written by a newer version of this site (backup format "
                "%(version)s): restore it with that version."
            )
            % {"path": path, "version": header.get("version")}
        )
    return header, rows


def _migrations_differ(taken_at: dict[str, list[str]], here: dict[str, list[str]]) -> str | None:
    """What differs between the migrations the backup was taken at and this database's."""
    lines = []
    for label in sorted(taken_at):
        missing = sorted(set(taken_at[label]) - set(here[label]))
        extra = sorted(set(here[label]) - set(taken_at[label]))
        if missing:
            lines.append(
                _("%(app)s: not applied here: %(names)s")
                % {"app": label, "names": ", ".join(missing)}
            )
        if extra:
            lines.append(
                _("%(app)s: applied here, not in the backup: %(names)s")
                % {"app": label, "names": ", ".join(extra)}
            )
    return "; ".join(lines) or None


def _rows_present(models: list[type[Model]], using: str) -> dict[str, int]:
    counts = {model._meta.label_lower: model._base_manager.using(using).count() for model in models}
    return {label: count for label, count in counts.items() if count}


def _tables(models: list[type[Model]]) -> list[str]:
    """The models' tables with their many-to-many tables (user groups, organisers, …)."""
    tables = [model._meta.db_table for model in models]
    for model in models:
        tables += [field.remote_field.through._meta.db_table for field in model._meta.many_to_many]
    return tables


def _save_links(obj: Model, m2m_data: dict[str, list], using: str) -> None:
    """The object's many-to-many links (a tournament's referees, a user's groups), written
    as rows: ``.set()`` would send ``m2m_changed``, and the audit trail would record the
    restore as a change on top of the history the backup brings."""
    for name, related_pks in m2m_data.items():
        field = obj._meta.get_field(name)
        through = field.remote_field.through
        source = through._meta.get_field(field.m2m_field_name()).attname
        target = through._meta.get_field(field.m2m_reverse_field_name()).attname
        through._base_manager.using(using).bulk_create(
            through(**{source: obj.pk, target: pk}) for pk in related_pks
        )


def restore(path: Path, *, using: str = DEFAULT_DB_ALIAS) -> BackupInfo:
    """Load a backup into this database, which must be migrated and hold no data.

    All in one transaction: a refused or failing restore leaves the database as it was.
    Rows are saved raw, as ``loaddata`` saves them, and links without signals: the audit
    trail records nothing for the restore, its history comes from the file.
    """
    header, rows = read_backup(path)
    connection = connections[using]
    models = backed_up_models()
    here = _applied_migrations(connection, set(header["migrations"]))
    if not any(here.values()):
        raise BackupError(
            _("This database is not migrated yet: run manage.py migrate, then restore.")
        )
    differences = _migrations_differ(header["migrations"], here)
    if differences:
        raise BackupError(
            _(
                "The backup was taken at other migrations than this database has (%(diff)s). "
                "Restore with the version of the site that took the backup: manage.py "
                "migrate on an empty database, restore, then update the site and migrate."
            )
            % {"diff": differences}
        )
    unknown = set(header["counts"]) - {model._meta.label_lower for model in models}
    if unknown:
        raise BackupError(
            _("%(path)s holds rows this site does not know (%(models)s).")
            % {"path": path, "models": ", ".join(sorted(unknown))}
        )
    with transaction.atomic(using=using):
        present = _rows_present(models, using)
        if present:
            listed = ", ".join(f"{label} {count}" for label, count in present.items())
            raise BackupError(
                _(
                    "This database already holds data (%(rows)s): a backup restores only "
                    "into an empty database. Use a new database (manage.py migrate, create "
                    "no accounts), or empty this one with manage.py flush if its data may go."
                )
                % {"rows": listed}
            )
        loaded = Counter()
        try:
            for row in serializers.deserialize("python", rows, using=using):
                links = row.m2m_data or {}  # save() forgets them
                row.save(using=using, force_insert=True, save_m2m=False)
                _save_links(row.object, links, using)
                loaded[row.object._meta.label_lower] += 1
            connection.check_constraints(table_names=_tables(models))
        except (DeserializationError, DatabaseError, KeyError, TypeError, ValueError) as error:
            # A row that is not a model's row (a damaged file) or breaks a constraint.
            raise BackupError(
                _("%(path)s cannot be restored: %(error)s") % {"path": path, "error": error}
            ) from error
        counts = header["counts"]
        if {label: count for label, count in counts.items() if count} != dict(loaded):
            raise BackupError(
                _("%(path)s is damaged: its rows do not match the counts in its header.")
                % {"path": path}
            )
        # PostgreSQL's id sequences still start at 1: move them past the restored ids.
        statements = connection.ops.sequence_reset_sql(no_style(), models)
        with connection.cursor() as cursor:
            for statement in statements:
                cursor.execute(statement)
        # New standings stamps: a server still running keeps the standings it read before
        # under the old ones, which the restored data must not be taken for.
        for version in TournamentVersion.objects.using(using).only("pk"):
            TournamentVersion.objects.using(using).filter(pk=version.pk).update(
                standings=new_standings_stamp()
            )
    planner_statistics_refresh(using)
    return BackupInfo(
        created_at=header.get("created_at", ""),
        database=header.get("database", ""),
        counts=counts,
    )
