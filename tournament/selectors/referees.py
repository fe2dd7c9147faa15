"""The referees' side: the referee's home page (the sessions in play and their tables), and
which referee holds each table.
"""

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import Q

from tournament import seating
from tournament.models import (
    Seat,
    Session,
    Table,
)
from tournament.selectors.seating import ListedPlayer


@dataclass(frozen=True)
class RefereeTable:
    """A table as the referees' pages list it: players, referee and hands entered so far."""

    table: Table  # with its session and its referee
    players: list["ListedPlayer"]  # by starting seat P1..P4

    hands_per_session = seating.HANDS_PER_SESSION

    @property
    def entered(self) -> int:
        return self.table.hands_entered


@dataclass(frozen=True)
class RefereeSession:
    session: Session
    tables: list[RefereeTable]


def _referee_tables(tables, seats, sessions: dict[int, Session]) -> list[RefereeTable]:
    """``tables`` by session and number with their referee, and their players (names, and
    whether they withdrew) from ``seats`` (the same tables' seats): two queries, each
    filtered as the caller's is, so no list of ids grows with the tables; the names read as
    plain values."""
    names: dict[int, list[ListedPlayer]] = {}
    for table_id, number, name, withdrawn_at in seats.order_by("seat").values_list(
        "table_id", "player__number", "player__name", "player__withdrawn_at"
    ):
        player = ListedPlayer(number, name, withdrawn=withdrawn_at is not None)
        names.setdefault(table_id, []).append(player)
    listed = []
    for table in tables.select_related("referee").order_by("session__number", "number"):
        table.session = sessions[table.session_id]
        listed.append(RefereeTable(table=table, players=names.get(table.pk, [])))
    return listed


@dataclass(frozen=True)
class RefereeHome:
    """The referee's home: the sessions in play (normally one) with their tables, and the
    tournament's other sessions, closed or not open yet."""

    in_play: list[RefereeSession]
    closed: list[Session]
    not_open: list[Session]


def referee_home(tournament, *, referee=None) -> RefereeHome:
    """The sessions in play (opened, not closed), each with the tables assigned to
    ``referee``, or every table when ``referee`` is None (an organiser); the other sessions
    only by number. Three queries whatever the number of sessions and tables."""
    # Without the draw input: a session-by-session draw keeps every earlier table in it.
    sessions = list(tournament.sessions.defer("draw_input").order_by("number"))
    in_play = {session.pk: session for session in sessions if session.is_in_play}
    by_session: dict[int, list[RefereeTable]] = {pk: [] for pk in in_play}
    if in_play:
        tables = Table.objects.filter(session__in=list(in_play))
        seats = Seat.objects.filter(session__in=list(in_play))
        if referee is not None:
            tables = tables.filter(referee=referee)
            seats = seats.filter(table__referee=referee)
        for item in _referee_tables(tables, seats, in_play):
            by_session[item.table.session_id].append(item)
    return RefereeHome(
        in_play=[RefereeSession(session=in_play[pk], tables=by_session[pk]) for pk in in_play],
        closed=[session for session in sessions if session.closed_at is not None],
        not_open=[session for session in sessions if session.opened_at is None],
    )


def session_referee_tables(session: Session) -> list[RefereeTable]:
    """Every table of the session with its referee, players and hands entered: two queries."""
    return _referee_tables(
        session.tables.all(), Seat.objects.filter(session=session), {session.pk: session}
    )


def tournament_referees(tournament):
    """The accounts that may referee the tournament's tables: its referees and organisers."""
    return (
        get_user_model()
        .objects.filter(
            Q(pk__in=tournament.referees.values("pk"))
            | Q(pk__in=tournament.organisers.values("pk"))
        )
        .order_by("username")
    )
