"""The check-in as the desk and the draw page read it: who is expected for a session, who has
checked in, who has not, and the seats of those who did not come."""

from dataclasses import dataclass
from datetime import datetime

from tournament import seating
from tournament.models import CheckIn, Player, ScheduledSession, Seat, Session
from tournament.players import names
from tournament.selectors.lookups import ACTIVE_PLAYERS
from tournament.selectors.seating import players_for_draw


def timetable(tournament) -> list[ScheduledSession]:
    """Sessions 1 to the tournament's count, each with its stored timetable row or an unsaved
    empty one: one query."""
    stored = {row.number: row for row in tournament.scheduled_sessions.all()}
    return [
        stored.get(number) or ScheduledSession(tournament=tournament, number=number)
        for number in range(1, tournament.session_count + 1)
    ]


def desk_session_number(tournament, asked: int | None) -> int:
    """The session the check-in desk shows: the one asked for, else the first whose check-in
    is open, else the first session not closed yet (the last one once all are)."""
    if asked is not None and 1 <= asked <= tournament.session_count:
        return asked
    open_now = (
        tournament.scheduled_sessions.filter(
            check_in_opened_at__isnull=False, check_in_closed_at__isnull=True
        )
        .order_by("number")
        .values_list("number", flat=True)
        .first()
    )
    if open_now is not None:
        return open_now
    closed = set(
        tournament.sessions.filter(closed_at__isnull=False).values_list("number", flat=True)
    )
    return next(
        (n for n in range(1, tournament.session_count + 1) if n not in closed),
        tournament.session_count,
    )


@dataclass(frozen=True)
class CheckInRow:
    player: Player
    expected: bool  # seated in the session, or one the next draw seats
    checked_in_at: datetime | None
    at_desk: bool  # ticked by an organiser, not by the player's link

    @property
    def name_order(self) -> tuple:
        """The key that sorts the player's name as a reader says it (``names.sort_key``)."""
        return names.sort_key(self.player.name)


@dataclass(frozen=True)
class CheckInSheet:
    number: int
    scheduled: ScheduledSession | None
    session: Session | None  # once drawn
    rows: list[CheckInRow]  # active players by number, then withdrawn ones who checked in

    @property
    def opened(self) -> bool:
        return self.scheduled is not None and self.scheduled.check_in_opened_at is not None

    @property
    def is_open(self) -> bool:
        return self.scheduled is not None and self.scheduled.check_in_is_open

    @property
    def expected(self) -> int:
        return sum(1 for row in self.rows if row.expected)

    @property
    def checked_in(self) -> int:
        """The players expected who have checked in."""
        return sum(1 for row in self.rows if row.expected and row.checked_in_at is not None)

    @property
    def others_checked_in(self) -> int:
        """Those checked in whom the session does not need yet (substitutes, most often)."""
        return sum(1 for row in self.rows if not row.expected and row.checked_in_at is not None)

    @property
    def absent(self) -> list[Player]:
        """The players expected who have not checked in."""
        return [row.player for row in self.rows if row.expected and row.checked_in_at is None]


def _expected(tournament, session: Session | None, active: list[Player]) -> set[int]:
    """The players (by id) a session needs: its seated players once drawn, else those the
    next draw seats (the regular players, or while they cannot fill tables, all of them)."""
    if session is not None:
        return set(Seat.objects.filter(session=session).values_list("player_id", flat=True))
    try:
        return {player.pk for player in players_for_draw(tournament)}
    except seating.DrawError:
        return {player.pk for player in active if not player.is_substitute}


def check_in_sheet(tournament, number: int) -> CheckInSheet:
    """Session ``number``'s check-in: every active player with whether the session expects
    them and when they checked in. Four queries, whatever the tournament's size."""
    scheduled = tournament.scheduled_sessions.filter(number=number).first()
    session = tournament.sessions.filter(number=number).defer("draw_input").first()
    active = list(tournament.players.filter(ACTIVE_PLAYERS).order_by("number"))
    expected = _expected(tournament, session, active)
    check_ins = {}
    if scheduled is not None:
        check_ins = {
            check_in.player_id: check_in
            for check_in in CheckIn.objects.filter(scheduled_session=scheduled).select_related(
                "player"
            )
        }
    players = active + sorted(
        (c.player for c in check_ins.values() if not c.player.is_active), key=lambda p: p.number
    )
    rows = [
        CheckInRow(
            player=player,
            expected=player.pk in expected,
            checked_in_at=check_ins[player.pk].checked_in_at if player.pk in check_ins else None,
            at_desk=player.pk in check_ins and check_ins[player.pk].ticked_by_id is not None,
        )
        for player in players
    ]
    return CheckInSheet(number=number, scheduled=scheduled, session=session, rows=rows)


def desk_rows(sheet: CheckInSheet, query: str = "", *, only_absent: bool = False) -> list:
    """The rows of ``sheet`` the desk shows: those ``query`` finds by name, Chinese name, team
    or number (``names.matches``); with ``only_absent``, only the players expected who have
    not checked in."""
    return [
        row
        for row in sheet.rows
        if names.matches(
            query,
            name=row.player.name,
            name_zh=row.player.name_zh,
            number=row.player.number,
            team=row.player.team,
        )
        and (not only_absent or (row.expected and row.checked_in_at is None))
    ]


@dataclass(frozen=True)
class AbsentSeat:
    """A seat of a drawn session whose player has not checked in."""

    seat: Seat
    player: Player


@dataclass(frozen=True)
class AbsentSeats:
    session: Session
    seats: list[AbsentSeat]
    candidates: list[tuple[Player, bool]]  # who can take a seat, and whether checked in


def session_check_ins(session: Session) -> set[int] | None:
    """The players (by id) checked in for ``session``; None while its check-in was never
    opened."""
    scheduled = ScheduledSession.objects.filter(
        tournament_id=session.tournament_id, number=session.number
    ).first()
    if scheduled is None or scheduled.check_in_opened_at is None:
        return None
    return set(
        CheckIn.objects.filter(scheduled_session=scheduled).values_list("player_id", flat=True)
    )


def absent_seats(session: Session) -> AbsentSeats:
    """The seats of ``session`` held by players who have not checked in (none while its
    check-in was never opened; a table that has started is no longer changed), and the
    players who could take them: active, not seated in the session, those checked in first,
    substitutes before regular players."""
    present = session_check_ins(session)
    if present is None:
        return AbsentSeats(session, [], [])
    seats = (
        Seat.objects.filter(session=session, table__hands__isnull=True)
        .exclude(player_id__in=present)
        .select_related("player", "table")
        .order_by("table__number", "seat")
        .distinct()
    )
    found = [AbsentSeat(seat=seat, player=seat.player) for seat in seats]
    seated = Seat.objects.filter(session=session).values("player_id")
    free = Player.objects.filter(ACTIVE_PLAYERS, tournament_id=session.tournament_id).exclude(
        pk__in=seated
    )
    candidates = sorted(
        ((player, player.pk in present) for player in free),
        key=lambda each: (not each[1], not each[0].is_substitute, each[0].number),
    )
    return AbsentSeats(session, found, candidates)


def next_draw_check_in(tournament) -> CheckInSheet | None:
    """The check-in of the first session not drawn yet, for the draw page; None when every
    session is drawn or that session's check-in was never opened."""
    drawn = set(tournament.sessions.values_list("number", flat=True))
    number = next((n for n in range(1, tournament.session_count + 1) if n not in drawn), None)
    if number is None:
        return None
    sheet = check_in_sheet(tournament, number)
    return sheet if sheet.opened else None
