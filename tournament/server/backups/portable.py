"""The portable backup: gzip-compressed JSON that moves an event between SQLite and PostgreSQL.

The file is a header (format and version, when it was taken, on which database, the applied
migrations of the apps it holds, rows per model) and then every row of the accounts (groups,
users with their password hashes) and of every model of the ``tournament`` app, one row per
line, with their primary keys: one JSON document, which ``zcat`` shows and ``json.load``
reads, laid out so that it can be written and read a row at a time.

Both ways stream: the rows are read from the database in chunks (``iterator()``) and written
as they come; a restore reads the file a piece at a time and saves the rows in batches. What
either holds in memory is a chunk, never the event, whatever its size.

Primary keys are kept: the target database is empty, so the rows keep their ids and every
reference between them holds as it was. Only permissions (and content types), which
``migrate`` creates with ids of its own, are referred to by natural key.
"""

import datetime
import gzip
import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from itertools import islice
from pathlib import Path
from typing import IO

import django
from django.core import serializers
from django.core.serializers.base import DeserializationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DatabaseError
from django.db.models import Model
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.server.backups.base import (
    BackupError,
    applied_migrations,
    backed_up_models,
    migrations_differ,
    refuse_data,
    rows_counted,
    rows_present,
)

FORMAT = "mcr-tournament-backup"
# Raised when the file's layout changes in a way an older restore would misread.
VERSION = 1
# Rows read from the database, serialized, and saved in one go: what memory holds at a time.
CHUNK = 1000
# Characters of the decompressed file read at a time by a restore.
READ_SIZE = 1 << 16
# A row longer than this is not one this site wrote (the largest are a few kilobytes).
LONGEST_ROW = 16 << 20


def _refers_to_rows_outside(model: type[Model], models: list[type[Model]]) -> bool:
    """Whether the model points at rows the backup does not carry (permissions): those are
    found again by natural key, since their ids in the target database may differ."""
    return any(
        (field.many_to_one or field.many_to_many) and field.related_model not in models
        for field in model._meta.get_fields()
        if field.concrete or (field.many_to_many and not field.auto_created)
    )


def _chunks(items: Iterable, size: int) -> Iterator[list]:
    iterator = iter(items)
    while chunk := list(islice(iterator, size)):
        yield chunk


# ------------------------------------------------------------------------- taking a backup


class _Encoder(DjangoJSONEncoder):
    """DjangoJSONEncoder, but times keep their microseconds (it cuts them to milliseconds):
    a restored hand keeps the very timestamp it had."""

    def default(self, o):
        if isinstance(o, datetime.datetime | datetime.time):
            return o.isoformat()
        return super().default(o)


def _dumps(value) -> str:
    return json.dumps(value, cls=_Encoder, ensure_ascii=False)


def serialized_rows(model: type[Model], models: list[type[Model]], using: str) -> Iterator[dict]:
    """Every row of ``model`` in primary key order, as Django's serializers give it, read
    from the database a chunk at a time (with the chunk's many-to-many links)."""
    m2m = [field.name for field in model._meta.many_to_many]
    rows = (
        model._base_manager.using(using)
        .order_by("pk")
        .prefetch_related(*m2m)
        .iterator(chunk_size=CHUNK)
    )
    natural = _refers_to_rows_outside(model, models)
    for chunk in _chunks(rows, CHUNK):
        yield from serializers.serialize("python", chunk, use_natural_foreign_keys=natural)


def write(raw: IO[bytes], *, name: str, connection) -> tuple[str, dict[str, int]]:
    """Write the backup to the binary file ``raw``, inside the caller's read snapshot; when
    it was taken and its rows per model."""
    models = backed_up_models()
    using = connection.alias
    header = {
        "format": FORMAT,
        "version": VERSION,
        "created_at": timezone.now().isoformat(),
        "database": connection.vendor,
        "django": django.get_version(),
        "migrations": applied_migrations(connection, {model._meta.app_label for model in models}),
        "counts": rows_counted(models, using),
    }
    # zlib's default level: gzip's level 9 takes four times as long (3.2 s against 0.8 s for
    # the 52 MB of JSON of 1,000 players and 10 sessions) for a file 13 % smaller.
    with gzip.GzipFile(
        filename=name, mode="wb", fileobj=raw, mtime=0, compresslevel=6
    ) as compressed:
        # The layout version 1 has always had: the header, then one row a line.
        compressed.write(('{"header": ' + _dumps(header) + ',\n"objects": [').encode())
        separator = "\n"
        rows = (row for model in models for row in serialized_rows(model, models, using))
        for chunk in _chunks(rows, CHUNK):
            # A chunk's lines compressed in one call: zlib is slow on many small writes.
            compressed.write((separator + ",\n".join(map(_dumps, chunk))).encode())
            separator = ",\n"
        compressed.write(b"\n]}\n")
    return header["created_at"], header["counts"]


# ------------------------------------------------------------------------------ restoring


class _NotABackup(ValueError):
    pass


class _Reader:
    """The backup's JSON read a piece at a time: ``value()`` decodes the next object, the
    rest of the text is expected token by token. Only objects are decoded, and a prefix of
    an object never decodes: a row cut by the end of the piece read is read again whole."""

    _space = re.compile(r"[ \t\n\r]*")
    _decoder = json.JSONDecoder()

    def __init__(self, text: IO[str]):
        self.text = text
        self.buffer = ""
        self.at = 0

    def _more(self) -> bool:
        piece = self.text.read(READ_SIZE)
        if not piece:
            return False
        self.buffer = self.buffer[self.at :] + piece
        self.at = 0
        return True

    def next_character(self) -> str:
        """The next character that is not white space ('' at the end), left unread."""
        while True:
            self.at = self._space.match(self.buffer, self.at).end()
            if self.at < len(self.buffer) or not self._more():
                return self.buffer[self.at : self.at + 1]

    def expect(self, *tokens: str) -> None:
        """Read ``tokens``, in order, white space around them aside."""
        for token in tokens:
            self.next_character()
            while len(self.buffer) - self.at < len(token) and self._more():
                pass
            if not self.buffer.startswith(token, self.at):
                found = self.buffer[self.at : self.at + 20]
                raise _NotABackup(f"{token!r} expected, found {found!r}")
            self.at += len(token)

    def value(self) -> dict:
        if self.next_character() != "{":
            found = self.buffer[self.at : self.at + 20]
            raise _NotABackup(f"an object expected, found {found!r}")
        while True:
            try:
                value, self.at = self._decoder.raw_decode(self.buffer, self.at)
                return value
            except json.JSONDecodeError:
                if len(self.buffer) - self.at > LONGEST_ROW or not self._more():
                    raise

    def end(self) -> None:
        left = self.next_character()
        if left:
            raise _NotABackup(f"text after the end: {self.buffer[self.at : self.at + 20]!r}")


def _not_a_backup(path: Path, error: Exception) -> BackupError:
    return BackupError(
        _("%(path)s is not a backup of this site (%(error)s).") % {"path": path, "error": error}
    )


# What reading a file that is not a whole backup raises: not gzip or cut short (OSError,
# EOFError), not UTF-8 (UnicodeDecodeError), not JSON or not laid out as a backup (ValueError).
_UNREADABLE = (OSError, EOFError, UnicodeDecodeError, ValueError)


@contextmanager
def opened(path: Path) -> Iterator[tuple[dict, Iterator[dict]]]:
    """The header of a backup file and an iterator over its rows, read as they are asked for;
    BackupError when it is not a backup, whether found in the header or further on."""
    path = Path(path)
    if not path.is_file():
        raise BackupError(_("No file %(path)s.") % {"path": path})
    with gzip.open(path, "rt", encoding="utf-8", newline="") as text:
        reader = _Reader(text)
        try:
            reader.expect("{", '"header"', ":")
            header = reader.value()
        except _NotABackup:
            header = None
        except _UNREADABLE as error:
            raise _not_a_backup(path, error) from error
        if (
            not isinstance(header, dict)
            or header.get("format") != FORMAT
            or not isinstance(header.get("migrations"), dict)
            or not isinstance(header.get("counts"), dict)
        ):
            raise BackupError(
                _("%(path)s is not a backup of this site (it has no backup header).")
                % {"path": path}
            )
        if not isinstance(header.get("version"), int) or header["version"] > VERSION:
            raise BackupError(
                _(
                    "%(path)s was written by a newer version of this site (backup format "
                    "%(version)s): restore it with that version."
                )
                % {"path": path, "version": header.get("version")}
            )

        def rows() -> Iterator[dict]:
            try:
                reader.expect(",", '"objects"', ":", "[")
                row_follows = reader.next_character() != "]"
                while row_follows:
                    yield reader.value()
                    row_follows = reader.next_character() == ","
                    if row_follows:
                        reader.expect(",")
                reader.expect("]", "}")
                reader.end()
            except _UNREADABLE as error:
                raise _not_a_backup(path, error) from error

        yield header, rows()


def header_of(path: Path) -> dict:
    """The header of a portable backup (its first line): what a reader of the file sees."""
    with opened(path) as (header, _rows):
        return header


class _Batches:
    """The deserialized rows saved in batches of one model: the rows raw, as ``loaddata``
    saves them (no ``save()``, no signals, timestamps as they are), then their many-to-many
    links as rows of their own (``.set()`` would send ``m2m_changed``, and the audit trail
    would record the restore as a change on top of the history the backup brings)."""

    def __init__(self, connection):
        self.connection = connection
        self.model: type[Model] | None = None
        self.rows: list[tuple[Model, dict]] = []
        self.loaded: Counter = Counter()

    def add(self, row) -> None:
        model = type(row.object)
        if model is not self.model or len(self.rows) >= CHUNK:
            self.flush()
            self.model = model
        self.rows.append((row.object, row.m2m_data or {}))

    def flush(self) -> None:
        if not self.rows:
            return
        model, connection = self.model, self.connection
        fields = model._meta.local_concrete_fields
        quote = connection.ops.quote_name
        statement = "INSERT INTO {} ({}) VALUES ({})".format(
            quote(model._meta.db_table),
            ", ".join(quote(field.column) for field in fields),
            ", ".join(["%s"] * len(fields)),
        )
        values = [
            [field.get_db_prep_save(getattr(obj, field.attname), connection) for field in fields]
            for obj, _links in self.rows
        ]
        with connection.cursor() as cursor:
            cursor.executemany(statement, values)
        for field in model._meta.many_to_many:
            through = field.remote_field.through
            source = through._meta.get_field(field.m2m_field_name()).attname
            target = through._meta.get_field(field.m2m_reverse_field_name()).attname
            through._base_manager.using(connection.alias).bulk_create(
                through(**{source: obj.pk, target: pk})
                for obj, links in self.rows
                for pk in links.get(field.name, ())
            )
        self.loaded[model._meta.label_lower] += len(self.rows)
        self.rows = []


def restore(path: Path, *, connection) -> tuple[dict, dict[str, int]]:
    """Load the backup into this database after its checks (the file's header, the
    migrations, an empty database), inside the caller's transaction: what fails or is
    refused half-way leaves nothing when it rolls back. The file's header and its rows
    per model."""
    using = connection.alias
    models = backed_up_models()
    with opened(path) as (header, rows):
        here = applied_migrations(connection, set(header["migrations"]))
        if not any(here.values()):
            raise BackupError(
                _("This database is not migrated yet: run manage.py migrate, then restore.")
            )
        differences = migrations_differ(header["migrations"], here)
        if differences:
            raise BackupError(
                _(
                    "The backup was taken at other migrations than this database has "
                    "(%(diff)s). Restore with the version of the site that took the backup: "
                    "manage.py migrate on an empty database, restore, then update the site "
                    "and migrate."
                )
                % {"diff": differences}
            )
        unknown = set(header["counts"]) - {model._meta.label_lower for model in models}
        if unknown:
            raise BackupError(
                _("%(path)s holds rows this site does not know (%(models)s).")
                % {"path": path, "models": ", ".join(sorted(unknown))}
            )
        refuse_data(rows_present(models, using), native=False)
        batches = _Batches(connection)
        try:
            for row in serializers.deserialize("python", rows, using=using):
                batches.add(row)
            batches.flush()
            tables = [model._meta.db_table for model in models] + [
                field.remote_field.through._meta.db_table
                for model in models
                for field in model._meta.many_to_many
            ]
            connection.check_constraints(table_names=tables)
        except (DeserializationError, DatabaseError, KeyError, TypeError, ValueError) as error:
            # A row that is not a model's row (a damaged file) or breaks a constraint.
            raise BackupError(
                _("%(path)s cannot be restored: %(error)s") % {"path": path, "error": error}
            ) from error
        counts = {label: count for label, count in header["counts"].items() if count}
        if counts != dict(batches.loaded):
            raise BackupError(
                _("%(path)s is damaged: its rows do not match the counts in its header.")
                % {"path": path}
            )
    return header, header["counts"]
