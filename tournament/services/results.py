"""What the hands add up to, kept beside them: each seat's result at its table, and the version
stamp of a tournament's data.

The hand service stores a table's results in the transaction that saves one of its hands,
so the stored results never disagree with the hands; the standings then add them up in the
database instead of settling every hand of the tournament again. Every write service raises
the tournament's version, under which what is computed from the data is cached.
"""

from collections.abc import Sequence

from django.db import transaction
from django.db.models import Case, F, IntegerField, Value, When

from tournament import scoring
from tournament.models import Hand, Seat, Table, TournamentVersion


def _by_seat(values: Sequence) -> Case:
    return Case(
        *(When(seat=seat, then=Value(value)) for seat, value in enumerate(values)),
        output_field=IntegerField(),
    )


def table_results_store(table: Table) -> None:
    """Store the results of ``table``'s seats from its hands as they are now (in the
    transaction of the write that changed them)."""
    hands = list(
        Hand.objects.filter(table=table).values_list(
            "points_p1", "points_p2", "points_p3", "points_p4"
        )
    )
    results = scoring.table_result(hands)
    scores, places, twelfths = zip(*results, strict=True)
    # One statement for the four seats. Not a save(): the results are derived from the
    # hands, which the history keeps, so they write no history rows of their own.
    Seat.objects.filter(table=table).update(
        score=_by_seat(scores),
        place=_by_seat(places) if hands else None,
        table_points_twelfths=_by_seat(twelfths),
    )
    Table.objects.filter(pk=table.pk).update(hands_entered=len(hands))
    table.hands_entered = len(hands)


@transaction.atomic
def results_restore(*, tournament, tables: Sequence[Table]) -> None:
    """Store again, from their hands, the results of ``tables`` of ``tournament`` (after
    ``manage.py verify_results`` found them different)."""
    for table in tables:
        table_results_store(table)
    tournament_touch(tournament.pk)


def tournament_touch(tournament_id: int) -> None:
    """Raise the tournament's version: its data changed in the transaction under way.

    Last in a write's transaction where it can be: on PostgreSQL the version's row stays
    locked until the commit, so concurrent writes of one tournament queue on it briefly.
    """
    if not TournamentVersion.objects.filter(tournament_id=tournament_id).update(
        number=F("number") + 1
    ):
        # A tournament made before versions existed, or outside the services (the admin).
        TournamentVersion.objects.get_or_create(tournament_id=tournament_id)
