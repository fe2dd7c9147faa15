"""What a player's own link shows on their phone: their next table, seat, wind and time,
their hands as the referee enters them, their place in the standings, and the check-in.

A handful of queries whatever the tournament's size: the seats of the player's tables, the
hands of those tables, the timetable with the player's check-ins, and the standings (cached
under the tournament's version, as every page reads them).
"""

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from fractions import Fraction

from django.db.models import Exists, OuterRef

from tournament.models import CheckIn, Hand, Player, ScheduledSession, Seat
from tournament.scoring import Outcome
from tournament.selectors.seating import PlannedSeat, player_planned_sessions
from tournament.selectors.standings import tournament_standings
from tournament.selectors.withdrawals import REPLACED_FIELDS, replaced_text


@dataclass(frozen=True)
class Opponent:
    seat: int
    number: int
    name: str
    name_zh: str


@dataclass(frozen=True)
class HandLine:
    """One hand of the player's table, as the player lived it: ``kind`` is "won",
    "dealt_in" (their discard gave the win), "lost" (another won; they paid or not),
    "draw" or "not_played"."""

    number: int
    kind: str
    self_drawn: bool
    winner: Opponent | None  # None when the player won, or nobody did
    discarder: Opponent | None  # on a discard won by someone else than the player
    fan: int | None
    flowers: int
    points: int
    running: int


@dataclass
class OwnSession:
    """The player's table in one drawn session: its seats, and its hands so far."""

    number: int
    table: int
    seat: int  # the player's starting seat: 0 = East in the first hand
    status: str  # "drawn", "in_play" or "closed"
    opened_at: datetime | None
    ends_at: datetime | None  # the time limit, once opened
    starts_at: datetime | None  # as the timetable announces it
    confirmed: bool
    opponents: list[Opponent]
    score: int = 0
    place: int | None = None
    table_points: Fraction = Fraction(0)
    table_id: int = 0
    # The withdrawn player whose place a substitute takes ("8 Player 8"): given the seat by
    # hand, or seated by the draw in their stead.
    replaces: str = ""
    # Read for the session shown open only; the others' come when the player opens them.
    hands: list[HandLine] = field(default_factory=list)


@dataclass(frozen=True)
class CheckInState:
    """The check-in open for a session, and whether the player has checked in."""

    session: int
    checked_in: bool
    is_open: bool
    starts_at: datetime | None


@dataclass(frozen=True)
class Standing:
    rank: int | None  # None: a substitute, or not ranked yet
    ranked: int
    table_points: Fraction
    score: int
    sessions_played: int


@dataclass(frozen=True)
class OwnPage:
    player: Player
    current: OwnSession | None  # the first drawn session not closed, if any
    planned: PlannedSeat | None  # else the next seat the published plan gives them
    planned_starts_at: datetime | None
    played: list[OwnSession]  # the closed sessions, the latest first
    check_ins: list[CheckInState]  # the sessions whose check-in is open or holds theirs
    standing: Standing


def _hand_line(row: tuple, seat: int, by_seat: dict[int, Opponent], running: int) -> HandLine:
    number, outcome, winner, discarder, fan, flowers, *points = row
    mine = points[seat]
    if outcome in (Outcome.SELF_DRAWN, Outcome.DISCARD):
        if winner == seat:
            kind = "won"
        elif discarder == seat:
            kind = "dealt_in"
        else:
            kind = "lost"
    else:
        kind = "draw" if outcome == Outcome.DRAW else "not_played"
    return HandLine(
        number=number,
        kind=kind,
        self_drawn=outcome == Outcome.SELF_DRAWN,
        winner=by_seat.get(winner) if winner is not None and winner != seat else None,
        discarder=by_seat.get(discarder) if discarder not in (None, seat) else None,
        fan=fan,
        flowers=flowers,
        points=mine,
        running=running + mine,
    )


def _own_sessions(
    player: Player, minutes: int, starts: dict[int, datetime | None]
) -> list[OwnSession]:
    """The player's published sessions by number, without their hands: one query."""
    seats = (
        Seat.objects.filter(table__seats__player=player, session__published_at__isnull=False)
        .order_by("session__number", "seat")
        .values_list(
            "session__number",
            "session__opened_at",
            "session__closed_at",
            "table_id",
            "table__number",
            "table__confirmed_at",
            "table__extra_minutes",
            "seat",
            "player_id",
            "player__number",
            "player__name",
            "player__name_zh",
            "score",
            "place",
            "table_points_twelfths",
            *REPLACED_FIELDS,
        )
    )
    sessions: dict[int, OwnSession] = {}  # by table id
    tables: dict[int, list[tuple]] = {}
    for row in seats:
        tables.setdefault(row[3], []).append(row)
    for table_id, rows in tables.items():
        own = next(row for row in rows if row[8] == player.pk)
        number, opened_at, closed_at, _pk, table, confirmed_at, extra, seat = own[:8]
        status = "closed" if closed_at else "in_play" if opened_at else "drawn"
        sessions[table_id] = OwnSession(
            number=number,
            table=table,
            seat=seat,
            status=status,
            opened_at=opened_at,
            ends_at=opened_at + timedelta(minutes=minutes + extra) if opened_at else None,
            starts_at=starts.get(number),
            confirmed=confirmed_at is not None,
            opponents=[
                Opponent(row[7], row[9], row[10], row[11]) for row in rows if row is not own
            ],
            score=own[12],
            place=own[13],
            table_points=Fraction(own[14], 12),
            table_id=table_id,
            replaces=replaced_text(*own[15:19]),
        )
    return sorted(sessions.values(), key=lambda each: each.number)


def _with_hands(session: OwnSession) -> OwnSession:
    """``session`` with its table's hands as the player lived them: one query."""
    hands = (
        Hand.objects.filter(table_id=session.table_id)
        .order_by("table_id", "number")
        .values_list(
            "number",
            "outcome",
            "winner",
            "discarder",
            "fan",
            "flowers",
            "points_p1",
            "points_p2",
            "points_p3",
            "points_p4",
        )
    )
    by_seat = {opponent.seat: opponent for opponent in session.opponents}
    for row in hands:
        running = session.hands[-1].running if session.hands else 0
        session.hands.append(_hand_line(row, session.seat, by_seat, running))
    return session


def _standing(player: Player) -> Standing:
    """The player's figures from the standings (``tournament_standings``)."""
    rows = tournament_standings(player.tournament)
    row = rows.row_of(player.pk)
    if row is None:
        return Standing(None, rows.ranked_count, Fraction(0), 0, 0)
    return Standing(row.rank, rows.ranked_count, row.table_points, row.score, row.sessions_played)


def player_own_page(player: Player) -> OwnPage:
    """Everything the player's own link shows (see the module's docstring)."""
    tournament = player.tournament
    timetable = list(
        ScheduledSession.objects.filter(tournament=tournament)
        .annotate(
            checked_in=Exists(
                CheckIn.objects.filter(scheduled_session=OuterRef("pk"), player=player)
            )
        )
        .order_by("number")
    )
    starts = {scheduled.number: scheduled.starts_at for scheduled in timetable}
    sessions = _own_sessions(player, tournament.session_minutes, starts)
    current = next((each for each in sessions if each.status != "closed"), None)
    played = [each for each in reversed(sessions) if each.status == "closed"]
    planned = None
    if current is None:
        planned = next(iter(player_planned_sessions(player)), None)
    # The hands of the session shown open: the one under way, else the last one played.
    shown = current if current is not None else next(iter(played), None)
    if shown is not None:
        _with_hands(shown)
    return OwnPage(
        player=player,
        current=current,
        planned=planned,
        planned_starts_at=starts.get(planned.session) if planned else None,
        played=played,
        check_ins=[
            CheckInState(
                session=scheduled.number,
                checked_in=scheduled.checked_in,
                is_open=scheduled.check_in_is_open,
                starts_at=scheduled.starts_at,
            )
            for scheduled in timetable
            if scheduled.check_in_is_open
        ],
        standing=_standing(player),
    )


def player_session_hands(player: Player, number: int) -> OwnSession | None:
    """The player's session ``number`` with its hands, when they sat it and it is published
    (the hands of a session played, opened on the page): two queries."""
    for each in _own_sessions(player, player.tournament.session_minutes, {}):
        if each.number == number:
            return _with_hands(each)
    return None
