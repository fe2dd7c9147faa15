"""What the hands add up to, kept beside them: each seat's result at its table, and the version
stamp of a tournament's data.

The hand service stores a table's results in the transaction that saves one of its hands,
so the stored results never disagree with the hands; the standings then add them up in the
database instead of settling every hand of the tournament again. Every write service raises
the tournament's version, under which what is computed from the data is cached.
"""

from collections.abc import Sequence
from functools import cache

from django.db import connection, transaction
from django.db.models import F

from tournament import scoring
from tournament.models import Hand, Seat, Table, TournamentVersion
from tournament.models.tournaments import new_standings_stamp

SEAT_RESULT_FIELDS = ("score", "place", "table_points_twelfths", "hands_won")


@cache
def _seat_results_sql() -> str:
    """One UPDATE for a table's four seats, each field set by seat.

    Written out because it runs with every hand saved, and the ORM's Case/When spends
    several milliseconds building the same statement each time. Plain SQL that SQLite and
    PostgreSQL both take; the CASTs give PostgreSQL the type of a NULL place.
    """
    name = connection.ops.quote_name
    meta = Seat._meta
    seat = name(meta.get_field("seat").column)
    by_seat = " ".join(f"WHEN {n} THEN CAST(%s AS INTEGER)" for n in range(4))
    assignments = ", ".join(
        f"{name(meta.get_field(field).column)} = CASE {seat} {by_seat} END"
        for field in SEAT_RESULT_FIELDS
    )
    return (
        f"UPDATE {name(meta.db_table)} SET {assignments}"
        f" WHERE {name(meta.get_field('table').column)} = %s"
    )


def table_results_store(table: Table) -> None:
    """Store the results of ``table``'s seats from its hands as they are now (in the
    transaction of the write that changed them, which then raises the tournament's version:
    ``tournament_touch``)."""
    rows = list(
        Hand.objects.filter(table=table).values_list(
            "points_p1", "points_p2", "points_p3", "points_p4", "winner"
        )
    )
    hands = [row[:4] for row in rows]
    results = scoring.table_result(hands)
    scores, places, twelfths = zip(*results, strict=True)
    winners = [row[4] for row in rows]
    won = [winners.count(seat) for seat in range(4)]
    # One statement for the four seats. Not a save(): the results are derived from the
    # hands, which the history keeps, so they write no history rows of their own.
    if not hands:
        places = (None,) * 4
    with connection.cursor() as cursor:
        cursor.execute(_seat_results_sql(), [*scores, *places, *twelfths, *won, table.pk])
    Table.objects.filter(pk=table.pk).update(hands_entered=len(hands))
    table.hands_entered = len(hands)


@transaction.atomic
def results_restore(*, tournament, tables: Sequence[Table]) -> None:
    """Store again, from their hands, the results of ``tables`` of ``tournament`` (after
    ``manage.py verify_results`` found them different)."""
    for table in tables:
        table_results_store(table)
    tournament_touch(tournament.pk, seating=False)


def tournament_touch(tournament_id: int, *, seating: bool = True, standings: bool = True) -> None:
    """Raise the tournament's version: its data changed in the transaction under way. With
    ``seating=False``, from a write that cannot change the seating (see
    ``TournamentVersion``), its seating version stays. With ``standings=False`` too, from a
    write that cannot change the standings but by the tables' results it stored: the
    standings' stamp stays, and with it the seating's key (``lookups.seating_key``).

    Last in a write's transaction where it can be: on PostgreSQL the version's row stays
    locked until the commit, so concurrent writes of one tournament queue on it briefly.
    """
    raised = {"number": F("number") + 1}
    if seating:
        raised["seating"] = F("seating") + 1
        # The desk names the players at each table: who sits where is on it too.
        raised["desk"] = F("desk") + 1
    if seating or standings:
        raised["standings"] = new_standings_stamp()
    if not TournamentVersion.objects.filter(tournament_id=tournament_id).update(**raised):
        # A tournament made before versions existed, or outside the services (the admin).
        TournamentVersion.objects.get_or_create(tournament_id=tournament_id)
