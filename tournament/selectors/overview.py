"""The tournament page's figures: the tournaments listed, the sessions with their tables
counted, the days played, and what deleting a tournament takes with it.
"""

import datetime
from dataclasses import dataclass

from django.db.models import Count, Exists, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from tournament.models import (
    Hand,
    HandRevision,
    Penalty,
    Player,
    Seat,
    SeatingPlan,
    Session,
    Table,
    TableReopening,
    Tournament,
)
from tournament.selectors.lookups import ACTIVE_PLAYERS, PUBLISHED_SESSION
from tournament.selectors.undo import session_undo, with_undo_facts
from tournament.selectors.withdrawals import SEATED_SUBSTITUTE, SubstituteCount


@dataclass(frozen=True)
class TournamentOverview:
    # By number, each annotated with table_count, confirmed_count and withdrawn_seated (the
    # withdrawn players still holding one of its seats); for the organisers, with ``undo``:
    # the undo of its last step (``selectors.undo.SessionUndo``), or None.
    sessions: list[Session]
    active_players: int
    substitutes: "SubstituteCount"


def _counted(rows, group: str = "session") -> Coalesce:
    """The number of ``rows`` (a session's seats or tables, or what lies under a tournament:
    filtered by an ``OuterRef`` to the row that the path ``group`` leads to), as a scalar
    subquery. Counted
    so rather than through a join: a join makes the query group the session's 250 tables, and
    SQLite then ran the seats' subquery once per table (410 ms at 1,000 players × 10
    sessions, against 2.4 ms so)."""
    counted = rows.order_by().values(group).annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(counted), 0)


def tournament_overview(
    tournament, *, published_only: bool = False, undo: bool = False
) -> TournamentOverview:
    """The drawn sessions (``published_only``: those the players may see) with their tables
    and confirmed tables counted and the withdrawn players still seated (``undo``: and the
    undo each offers), the number of active players and of substitutes who have sat at a
    table: two queries whatever the number of sessions and tables."""
    # Without the draw input: a session-by-session draw keeps every earlier table in it.
    withdrawn_seats = Seat.objects.filter(
        session=OuterRef("pk"), player__withdrawn_at__isnull=False
    )
    tables = Table.objects.filter(session=OuterRef("pk"))
    sessions = (
        tournament.sessions.defer("draw_input")
        .annotate(
            table_count=_counted(tables),
            confirmed_count=_counted(tables.filter(confirmed_at__isnull=False)),
            withdrawn_seated=_counted(withdrawn_seats),
        )
        .order_by("number")
    )
    if published_only:
        sessions = sessions.filter(PUBLISHED_SESSION)
    if undo:
        sessions = with_undo_facts(sessions)
    sessions = list(sessions)
    for session in sessions:
        session.undo = session_undo(session, review_draws=tournament.review_draws) if undo else None
    counts = tournament.players.aggregate(
        active=Count("pk", filter=ACTIVE_PLAYERS), seated=Count("pk", filter=SEATED_SUBSTITUTE)
    )
    return TournamentOverview(
        sessions=sessions,
        active_players=counts["active"],
        substitutes=SubstituteCount(seated=counts["seated"], limit=tournament.substitute_limit),
    )


def session_dates(tournament) -> list[datetime.date]:
    """The days, on the tournament's own calendar (its time zone) and in order, on which a
    session was opened for play: the tournament's dates as far as its data tells them."""
    opened = tournament.sessions.filter(opened_at__isnull=False).values_list("opened_at", flat=True)
    return sorted({timezone.localdate(moment, tournament.zone) for moment in opened})


def event_days(tournament) -> tuple[datetime.date, datetime.date] | None:
    """The tournament's first and last day: as its organiser gave them (a first day alone is
    a one-day event), else as its data tells them (``tournament_days``); None when neither
    does."""
    if tournament.first_day:
        return tournament.first_day, tournament.last_day or tournament.first_day
    days = tournament_days(tournament)
    return (days[0], days[-1]) if days else None


def tournament_days(tournament) -> list[datetime.date]:
    """The tournament's days as far as its data tells them, on its own calendar (its time
    zone) and in order: the days its timetable gives the sessions, with the days a session
    was opened for play (a session played on another day than announced, or without a
    timetable). One query."""
    planned = tournament.scheduled_sessions.filter(starts_at__isnull=False).values_list(
        "starts_at", flat=True
    )
    opened = tournament.sessions.filter(opened_at__isnull=False).values_list("opened_at", flat=True)
    moments = planned.order_by().union(opened.order_by(), all=True)
    return sorted({timezone.localdate(moment, tournament.zone) for moment in moments})


@dataclass(frozen=True)
class DeletionSummary:
    """What deleting a tournament takes with it, for the organiser to read before confirming."""

    players: int
    sessions: int
    tables: int
    hands: int
    penalties: int
    corrections: int  # hand revisions kept when a referee corrected a hand
    reopenings: int  # confirmed tables reopened by an organiser
    has_seating_plan: bool


def tournament_deletion_summary(tournament: Tournament) -> DeletionSummary:
    """Counts of what lies under the tournament, in one query whatever its size."""
    # Each field of the summary: the model counted, and its path to the tournament.
    under = {
        "players": (Player, "tournament"),
        "sessions": (Session, "tournament"),
        "tables": (Table, "session__tournament"),
        "hands": (Hand, "table__session__tournament"),
        "penalties": (Penalty, "hand__table__session__tournament"),
        "corrections": (HandRevision, "hand__table__session__tournament"),
        "reopenings": (TableReopening, "table__session__tournament"),
    }
    # Named apart from the tournament's own relations (players, sessions), which an
    # annotation may not take the name of.
    counts = (
        Tournament.objects.filter(pk=tournament.pk)
        .values(
            **{
                f"n_{name}": _counted(model.objects.filter(**{path: OuterRef("pk")}), path)
                for name, (model, path) in under.items()
            },
            plan=Exists(SeatingPlan.objects.filter(tournament=OuterRef("pk"))),
        )
        .get()
    )
    return DeletionSummary(
        **{name: counts[f"n_{name}"] for name in under}, has_seating_plan=counts["plan"]
    )
