"""The databases of the tests that run the event's server (`make serve`, bench/hall.py): each
such test has a database of its own, copied from a migrated one (a SQLite file's copy, or
PostgreSQL's ``CREATE DATABASE ... TEMPLATE``) instead of migrating its own, which takes
seconds every time.

The migrated database copied is the test run's own test database, copied once as soon as
pytest-django has migrated it (``copy_test_database``, from tests/conftest.py's
``django_db_setup``): the same migrations, run once per test process instead of twice
(``manage.py migrate`` on a database of its own took about 16 s a process). Another kind of
database than the run's (a SQLite file in the PostgreSQL pass) is migrated on first use.
"""

import contextlib
import os
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from hall import EventDatabase

# The copy of the test database made at the start of the run, by the server's URL (None: a
# SQLite file), for ``migrated_database``.
_COPIED: dict[str | None, EventDatabase] = {}


def copy_test_database() -> None:
    """The test database of this process, copied while it holds what the migrations made and
    nothing else (later tests flush it, or walk its migrations back and forth). Called with
    the database unblocked."""
    from django.db import connection

    if connection.vendor == "sqlite":
        database = EventDatabase(None)
        connection.ensure_connection()
        with contextlib.closing(sqlite3.connect(database.env["MCR_DB_PATH"])) as target:
            connection.connection.backup(target)
        database.migrated = True
        _COPIED[None] = database
    elif connection.vendor == "postgresql":
        # PostgreSQL copies a database that nobody is connected to: this process's
        # connection, the only one, is closed (the next query opens it again).
        connection.close()
        template = SimpleNamespace(name=connection.settings_dict["NAME"], migrated=True)
        url = os.environ["DATABASE_URL"]
        _COPIED[url] = EventDatabase(url, template=template)


def drop_test_database_copies() -> None:
    for database in _COPIED.values():
        database.close()
    _COPIED.clear()


@pytest.fixture(scope="session")
def migrated_database() -> Callable[[str | None], EventDatabase]:
    """``migrated_database(postgres_url)``: the migrated database of that server (None: a
    SQLite file) to ``copy()``: the copy of the test database, or one migrated on first use
    and dropped at the end of the run."""
    made: dict[str | None, EventDatabase] = {}

    def migrated(postgres_url: str | None) -> EventDatabase:
        if postgres_url in _COPIED:
            return _COPIED[postgres_url]
        if postgres_url not in made:
            made[postgres_url] = EventDatabase(postgres_url)
            made[postgres_url].migrate()
        return made[postgres_url]

    yield migrated
    for database in made.values():
        database.close()
