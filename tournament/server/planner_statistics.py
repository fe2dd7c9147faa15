"""The database's own counts of its tables, refreshed after a bulk load.

A database's query planner picks each plan from what it last counted of the tables (row
counts, distinct values). After a bulk load, a generated rehearsal or a restored backup, it
still has the counts of an almost empty database, and it reads whole tables where an index
would do, until PostgreSQL's autovacuum gets round to counting again: a player's schedule at
10,000 players took 46 ms instead of 1.4 ms. ``ANALYZE`` counts them at once (PostgreSQL
and SQLite both have it).
"""

from django.db import DEFAULT_DB_ALIAS, connections


def planner_statistics_refresh(using: str = DEFAULT_DB_ALIAS) -> None:
    """Count every table again for the planner (a few seconds at 10,000 players)."""
    with connections[using].cursor() as cursor:
        cursor.execute("ANALYZE")
