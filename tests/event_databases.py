"""The databases of the tests that run the event's server (`make serve`, bench/hall.py): each
such test has a database of its own, copied from one migrated once per test process (a
SQLite file's copy, or PostgreSQL's ``CREATE DATABASE ... TEMPLATE``) instead of migrating
its own, which takes seconds every time."""

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from hall import EventDatabase


@pytest.fixture(scope="session")
def migrated_database() -> Callable[[str | None], EventDatabase]:
    """``migrated_database(postgres_url)``: the migrated database of that server (None: a
    SQLite file) to ``copy()``, made on first use, dropped at the end of the run."""
    made: dict[str | None, EventDatabase] = {}

    def migrated(postgres_url: str | None) -> EventDatabase:
        if postgres_url not in made:
            made[postgres_url] = EventDatabase(postgres_url)
            made[postgres_url].migrate()
        return made[postgres_url]

    yield migrated
    for database in made.values():
        database.close()
