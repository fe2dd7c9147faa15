"""Whether the database's planner has counted a table's rows (``ANALYZE``), on SQLite and on
PostgreSQL: for the tests of what refreshes those counts after a bulk load."""

from django.db import connection


def forget_counts() -> None:
    """Leave the planner without counts, as a new database is (SQLite keeps them in a table
    of its own, PostgreSQL in ``pg_class``, which a flush's TRUNCATE resets)."""
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("SELECT name FROM sqlite_master WHERE name = 'sqlite_stat1'")
            if cursor.fetchone():
                cursor.execute("DELETE FROM sqlite_stat1")


def counted(table: str) -> bool:
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("SELECT name FROM sqlite_master WHERE name = 'sqlite_stat1'")
            if not cursor.fetchone():
                return False
            cursor.execute("SELECT stat FROM sqlite_stat1 WHERE tbl = %s", [table])
        else:
            cursor.execute(
                "SELECT reltuples FROM pg_class WHERE relname = %s AND reltuples > 0", [table]
            )
        return bool(cursor.fetchall())
