"""Reads that are more than a lookup: score sheets, session results, standings.

Score sheets are read from the stored hands; standings add up the seat results that the
hand service stores with each hand (``services.results``), cached under the tournament's
version, so a corrected hand changes the standings at once. Table points stay exact
``Fraction``s.
"""

import datetime
import json
from dataclasses import dataclass, field
from fractions import Fraction

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db.models import Count, Exists, F, Max, OuterRef, Prefetch, Q, Subquery, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament import clock, names, scoring, screen, seating, statistics
from tournament.models import (
    SEAT_LABELS,
    SEATING_METHOD_CHOICES,
    SEPARATE_BY_CHOICES,
    DrawCommitment,
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
    TournamentVersion,
)
from tournament.seating import commitment as commitment_rules
from tournament.seating.published import replan_change
from tournament.seating.rotation import HANDS_PER_ROUND
from tournament.seating.schedule import schedule_stats

# Players still in the tournament (not withdrawn).
ACTIVE_PLAYERS = Q(withdrawn_at__isnull=True)
# A seat whose table has been played: at least one hand entered, so its result is stored
# (``services.results``). A table drawn but not started has no place yet; counting it would
# give its four players a shared first place and 7/4 table points each. The standings, the
# rank history and the workbook's session sheets all skip such seats by this one rule.
PLAYED_SEAT = Q(place__isnull=False)


def tournament_by_slug(slug: str) -> Tournament | None:
    return Tournament.objects.filter(slug=slug).first()


def data_version(tournament: Tournament) -> int:
    """The version of the tournament's data as stored now (``TournamentVersion``); 0 before
    it has one. Read before the data cached under it, so the data is never older."""
    found = TournamentVersion.objects.filter(tournament_id=tournament.pk).values_list(
        "number", flat=True
    )
    return found.first() or 0


def seating_version(tournament: Tournament) -> int:
    """The version of the tournament's seating (``TournamentVersion.seating``): raised by
    the writes that can change it, not by hands. 0 before the tournament has one."""
    found = TournamentVersion.objects.filter(tournament_id=tournament.pk).values_list(
        "seating", flat=True
    )
    return found.first() or 0


def session_by_number(tournament, number: int) -> Session | None:
    return Session.objects.filter(tournament=tournament, number=number).first()


def player_by_number(tournament, number: int) -> Player | None:
    """Player ``number``, holding ``tournament`` as read: its pages need no second read."""
    player = Player.objects.filter(tournament=tournament, number=number).first()
    if player is not None:
        player.tournament = tournament
    return player


def table_by_number(tournament, session: int, number: int) -> Table | None:
    """Table ``number`` of session ``session``, with its session and tournament."""
    return (
        Table.objects.select_related("session__tournament")
        .filter(session__tournament=tournament, session__number=session, number=number)
        .first()
    )


@dataclass
class SheetRow:
    """One line of the paper score sheet: the schedule and, once entered, the result."""

    slot: seating.HandSlot
    hand: Hand | None
    running: tuple[int, int, int, int]

    @property
    def number(self) -> int:
        return self.slot.number

    @property
    def dealer_label(self) -> str:
        return SEAT_LABELS[self.slot.dealer]

    @property
    def seats(self):
        """Per player P1..P4: (seat wind, physical seat, points or None, running total)."""
        points = self.hand.points if self.hand else (None,) * 4
        return list(
            zip(self.slot.seat_winds, self.slot.physical_seats, points, self.running, strict=True)
        )


@dataclass
class TableSheet:
    table: Table
    players: list[Player]  # by starting seat P1..P4
    rows: list[SheetRow]
    scores: tuple[int, int, int, int]
    places: tuple[int, ...]
    table_points: tuple[Fraction, ...]

    @property
    def entered(self) -> int:
        return sum(1 for row in self.rows if row.hand is not None)

    @property
    def missing(self) -> list[int]:
        """The hand numbers not entered yet."""
        return [row.number for row in self.rows if row.hand is None]

    @property
    def next_number(self) -> int | None:
        return next((row.number for row in self.rows if row.hand is None), None)

    @property
    def summary(self):
        return list(zip(self.players, self.scores, self.places, self.table_points, strict=True))

    def hand(self, number: int) -> Hand | None:
        """Hand ``number`` as entered, or None (not entered, or not a hand number)."""
        return next((row.hand for row in self.rows if row.number == number), None)


def _hands_prefetch():
    return Prefetch("hands", queryset=Hand.objects.prefetch_related("penalties").order_by("number"))


def table_players(table: Table) -> list[Player]:
    """The table's players by starting seat, P1..P4."""
    return [seat.player for seat in table.seats.select_related("player").order_by("seat")]


def table_sheet(table: Table) -> TableSheet:
    """The score sheet of one table: 16 scheduled hands, entered results, running totals."""
    hands = {h.number: h for h in table.hands.prefetch_related("penalties").order_by("number")}
    return _build_sheet(table, table_players(table), hands)


def _build_sheet(table: Table, players: list[Player], hands: dict[int, Hand]) -> TableSheet:
    running = (0, 0, 0, 0)
    rows = []
    for slot in seating.session_schedule():
        hand = hands.get(slot.number)
        if hand is not None:
            running = tuple(a + b for a, b in zip(running, hand.points, strict=True))
        rows.append(SheetRow(slot=slot, hand=hand, running=running))
    return TableSheet(
        table=table,
        players=players,
        rows=rows,
        scores=running,
        places=scoring.places(running),
        table_points=scoring.table_points(running),
    )


def hand_revisions(table: Table):
    """Every correction made at the table, newest first, with the hand and who made it."""
    return (
        HandRevision.objects.filter(hand__table=table)
        .select_related("hand", "revised_by")
        .order_by("-revised_at", "-id")
    )


def session_sheets(session: Session) -> list[TableSheet]:
    """Every table's sheet for a session, in three queries whatever the number of tables."""
    tables = session.tables.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("seat")),
        _hands_prefetch(),
    ).order_by("number")
    return [
        _build_sheet(
            table,
            [s.player for s in table.seats.all()],
            {h.number: h for h in table.hands.all()},
        )
        for table in tables
    ]


# The paper fallback: a blank score sheet per table, the session's penalty record.

# Rows of the penalty record: enough for a session on one A4 page, the recorded ones first.
PENALTY_RECORD_ROWS = 24
# Blank rows kept after the recorded penalties, even when these fill the page.
PENALTY_RECORD_MIN_BLANK = 4
# Rows of the penalties box at the foot of a table's score sheet.
SCORE_SHEET_PENALTY_ROWS = 4


@dataclass(frozen=True)
class PaperPlayer:
    """A seated player as the paper sheets print them."""

    number: int
    name: str
    name_zh: str = ""
    team: str = ""

    @property
    def display_name(self) -> str:
        return f"{self.name} ({self.name_zh})" if self.name_zh else self.name


@dataclass(frozen=True)
class PaperRow:
    """One hand of a blank score sheet: its place in the schedule; the rest is handwritten."""

    slot: seating.HandSlot
    dealer: PaperPlayer | None  # None on a sheet whose players are left blank

    @property
    def number(self) -> int:
        return self.slot.number

    @property
    def dealer_label(self) -> str:
        return SEAT_LABELS[self.slot.dealer]

    @property
    def opens_round(self) -> bool:
        """The first hand of a round after the first: the players have just changed seats."""
        return self.slot.number > 1 and self.slot.number % HANDS_PER_ROUND == 1


@dataclass(frozen=True)
class PaperSheet:
    """One table's blank score sheet: its players by starting seat and the 16 hands."""

    table: int
    players: tuple[PaperPlayer | None, ...]  # P1..P4; each None when left blank
    rows: tuple[PaperRow, ...]

    @property
    def columns(self) -> list[tuple[str, PaperPlayer | None]]:
        """Per starting seat P1..P4: its label and its player."""
        return list(zip(SEAT_LABELS, self.players, strict=True))

    @property
    def penalty_rows(self) -> range:
        """The blank rows of the sheet's penalties box."""
        return range(SCORE_SHEET_PENALTY_ROWS)


def paper_rows(players) -> tuple[PaperRow, ...]:
    """The 16 rows of a blank score sheet for ``players`` (P1..P4, or None each), in hand
    order, from the seat rotation; plain data in and out."""
    return tuple(
        PaperRow(slot=slot, dealer=players[slot.dealer]) for slot in seating.session_schedule()
    )


def _paper_seats(session: Session) -> dict[tuple[int, int], PaperPlayer]:
    """(table number, starting seat) -> the player seated there now: one query."""
    rows = Seat.objects.filter(session=session).values_list(
        "table__number", "seat", "player__number", "player__name", "player__name_zh", "player__team"
    )
    return {
        (table, seat): PaperPlayer(number, name, name_zh, team)
        for table, seat, number, name, name_zh, team in rows
    }


def session_score_sheets(
    session: Session, *, blank: bool = False, table: int | None = None
) -> list[PaperSheet]:
    """The blank score sheets of the session's tables (only table ``table`` if given), in
    table order, with each table's players as seated now; ``blank`` leaves the players out,
    for a table re-seated on paper. One query."""
    seats = _paper_seats(session)
    numbers = sorted({number for number, _seat in seats})
    if table is not None:
        numbers = [number for number in numbers if number == table]
    sheets = []
    for number in numbers:
        players = tuple(
            None if blank else seats.get((number, seat)) for seat in range(len(SEAT_LABELS))
        )
        sheets.append(PaperSheet(table=number, players=players, rows=paper_rows(players)))
    return sheets


@dataclass(frozen=True)
class PenaltyLine:
    """A penalty already recorded in the session, as the paper penalty record lists it."""

    table: int
    hand: int
    offender: int  # starting seat
    player: PaperPlayer | None
    kind: str
    points: int
    beneficiary: int | None  # starting seat, for a penalty paid to one player
    reason: str

    @property
    def offender_label(self) -> str:
        return SEAT_LABELS[self.offender]

    @property
    def beneficiary_label(self) -> str:
        return "" if self.beneficiary is None else SEAT_LABELS[self.beneficiary]


@dataclass(frozen=True)
class PenaltyRecord:
    """The session's penalty record: the recorded penalties, then blank rows to write in."""

    lines: list[PenaltyLine]
    blank_rows: int

    @property
    def blanks(self) -> range:
        return range(self.blank_rows)


def session_penalty_record(session: Session, *, blank: bool = False) -> PenaltyRecord:
    """The penalties recorded in the session by table, hand and entry, with their offenders'
    names (two queries); ``blank`` gives an empty record. Blank rows fill the page, and at
    least ``PENALTY_RECORD_MIN_BLANK`` follow however many are recorded."""
    lines: list[PenaltyLine] = []
    if not blank:
        rows = (
            Penalty.objects.filter(hand__table__session=session)
            .order_by("hand__table__number", "hand__number", "id")
            .values_list(
                "hand__table__number",
                "hand__number",
                "offender",
                "kind",
                "points",
                "beneficiary",
                "reason",
            )
        )
        rows = list(rows)
        seats = _paper_seats(session) if rows else {}
        lines = [
            PenaltyLine(
                table=table,
                hand=hand,
                offender=offender,
                player=seats.get((table, offender)),
                kind=kind,
                points=points,
                beneficiary=beneficiary,
                reason=reason,
            )
            for table, hand, offender, kind, points, beneficiary, reason in rows
        ]
    blank_rows = max(PENALTY_RECORD_ROWS - len(lines), PENALTY_RECORD_MIN_BLANK)
    return PenaltyRecord(lines=lines, blank_rows=blank_rows)


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


@dataclass(frozen=True)
class SessionResult:
    session: int
    table: int
    seat: int
    player: Player
    score: int
    place: int
    table_points: Fraction
    confirmed: bool


def tournament_results(tournament) -> list[SessionResult]:
    """Each player's score, place and table points at every table that has started.

    A table without any hand entered yet has not been played: counting it would
    give its four players a shared first place and 7/4 table points each.
    """
    results = []
    for session in tournament.sessions.order_by("number"):
        for sheet in session_sheets(session):
            if sheet.entered == 0:
                continue
            for seat, (player, score, place, points) in enumerate(sheet.summary):
                results.append(
                    SessionResult(
                        session=session.number,
                        table=sheet.table.number,
                        seat=seat,
                        player=player,
                        score=score,
                        place=place,
                        table_points=points,
                        confirmed=sheet.table.is_confirmed,
                    )
                )
    return results


@dataclass
class StandingRow:
    player: Player
    table_points: Fraction = Fraction(0)
    score: int = 0
    places: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    sessions_played: int = 0
    best_session: int | None = None
    rank: int | None = None

    def __reduce__(self):
        # Cached standings are pickled whenever a write makes them new: the player as its
        # field values, the table points as two integers, not the objects themselves (a
        # model instance pickles its state and caches too, and a thousand of them took a
        # sixth of the standings page's time).
        player = self.player
        fields = tuple(getattr(player, name) for name in _PLAYER_ATTRIBUTES)
        points = (self.table_points.numerator, self.table_points.denominator)
        state = (self.score, self.places, self.sessions_played, self.best_session, self.rank)
        return (_unpickle_standing_row, (player._state.db, fields, points, state))

    @property
    def ranked(self) -> bool:
        """Substitutes are never ranked; nor is a player who withdrew without playing."""
        if self.player.is_substitute:
            return False
        return self.player.withdrawn_at is None or self.sessions_played > 0

    @property
    def first_places(self) -> int:
        return self.places[0]

    def sort_key(self, tiebreaks: list[str]) -> tuple:
        """Best first: the tiebreaks' values, negated. Table points as whole twelfths (what
        they always are), which order as the fractions do and compare many times faster."""
        points = self.table_points
        values = {
            "table_points": points.numerator * (scoring.TWELFTHS // points.denominator)
            if scoring.TWELFTHS % points.denominator == 0
            else points,
            "score": self.score,
            "first_places": self.first_places,
            # A player with no session yet sorts below any real score.
            "best_session": self.best_session if self.best_session is not None else -(10**9),
        }
        return tuple(-values[key] for key in tiebreaks)


_PLAYER_ATTRIBUTES = tuple(field.attname for field in Player._meta.concrete_fields)


def _unpickle_standing_row(db, fields, points, state) -> StandingRow:
    player = Player.from_db(db, _PLAYER_ATTRIBUTES, fields)
    score, places, sessions_played, best_session, rank = state
    return StandingRow(
        player=player,
        table_points=Fraction(*points),
        score=score,
        places=places,
        sessions_played=sessions_played,
        best_session=best_session,
        rank=rank,
    )


PLACES = (1, 2, 3, 4)
# Cached standings are kept under the tournament's version, so they are never stale; an
# hour bounds the memory that versions no longer read hold.
STANDINGS_CACHE_SECONDS = 3600


def standings(tournament) -> list[StandingRow]:
    """Players ordered by the tournament's ranking order; equal players share a rank.

    Substitutes (and players who withdrew before playing) are listed after the
    ranked players, without a rank: a substitute's results count for the
    opponents but the substitute is not ranked.

    Cached under the tournament's version, read first: every write raises it, so the
    standings are never older than the data. (A write service
    that needs the standings computes them with ``compute_standings``: what it reads inside
    its transaction must not be cached under the version from before it.)
    """
    key = f"mcr:standings:{tournament.pk}:{data_version(tournament)}"
    rows = cache.get(key)
    if rows is None:
        rows = compute_standings(tournament)
        cache.set(key, rows, STANDINGS_CACHE_SECONDS)
    return rows


def compute_standings(tournament) -> list[StandingRow]:
    """``standings`` from the database as it is now: the seats' stored results added up,
    one query for the players and one for the totals, whatever the tournament's size."""
    rows = {p.pk: StandingRow(player=p) for p in tournament.players.all()}
    totals = (
        Seat.objects.filter(PLAYED_SEAT, session__tournament=tournament)
        .values("player_id")
        .annotate(
            total=Sum("score"),
            twelfths=Sum("table_points_twelfths"),
            sessions_played=Count("pk"),
            best_session=Max("score"),
            **{f"place_{place}": Count("pk", filter=Q(place=place)) for place in PLACES},
        )
        .order_by()
    )
    for total in totals:
        row = rows[total["player_id"]]
        row.score = total["total"]
        row.table_points = scoring.from_twelfths(total["twelfths"])
        row.places = [total[f"place_{place}"] for place in PLACES]
        row.sessions_played = total["sessions_played"]
        row.best_session = total["best_session"]
    return _ranked(rows.values(), tournament.tiebreaks)


def _ranked(rows, tiebreaks: list[str]) -> list[StandingRow]:
    """``rows`` in the ranking order, each given its rank (shared by equal players); then
    the players not ranked, by number, without one."""
    keyed, others = [], []
    for row in rows:
        if row.ranked:
            keyed.append((row.sort_key(tiebreaks), row.player.number, row))
        else:
            row.rank = None
            others.append(row)
    keyed.sort(key=lambda item: item[:2])
    ranked = []
    previous_key = None
    for position, (key, _number, row) in enumerate(keyed, start=1):
        row.rank = ranked[-1].rank if key == previous_key else position
        previous_key = key
        ranked.append(row)
    return ranked + sorted(others, key=lambda r: r.player.number)


@dataclass(frozen=True)
class RankHistory:
    """Every player's rank after each session with results, as the standings gave it then:
    the seat results of that session and the earlier ones, ranked by ``_ranked``."""

    sessions: tuple[int, ...]
    ranked: tuple[int, ...]  # how many players were ranked after each session
    ranks: dict[int, tuple[int | None, ...]]  # player id -> rank after each (None: unranked)

    def of(self, player_id: int) -> tuple[tuple[int, int | None], ...]:
        """(session, rank) after each session; the rank None while the player is unranked."""
        ranks = self.ranks.get(player_id, (None,) * len(self.sessions))
        return tuple(zip(self.sessions, ranks, strict=True))


def rank_history(tournament, *, version: int | None = None) -> RankHistory:
    """``compute_rank_history``, cached under the tournament's version (see ``standings``);
    ``version`` when the caller has just read it."""
    if version is None:
        version = data_version(tournament)
    key = f"mcr:rank-history:{tournament.pk}:{version}"
    return _cached(key, lambda: compute_rank_history(tournament))


def _cached(key: str, compute):
    """The value cached under ``key`` (which holds the version it was computed at), or
    ``compute()``'s, cached there for the next reader."""
    value = cache.get(key)
    if value is None:
        value = compute()
        cache.set(key, value, STANDINGS_CACHE_SECONDS)
    return value


def compute_rank_history(tournament) -> RankHistory:
    """The standings after each session, from the stored seat results: the sessions added
    one by one and ranked by the same rules as ``compute_standings``, so the rank after the
    last session is the standings' rank. Two queries: the players, every seat result."""
    rows = {p.pk: StandingRow(player=p) for p in tournament.players.all()}
    by_session: dict[int, list[tuple[int, int, int, int]]] = {}
    for session, *result in (
        Seat.objects.filter(PLAYED_SEAT, session__tournament=tournament)
        .order_by()
        .values_list("session__number", "player_id", "score", "table_points_twelfths", "place")
    ):
        by_session.setdefault(session, []).append(result)
    twelfths = dict.fromkeys(rows, 0)
    ranks: dict[int, list[int | None]] = {pk: [] for pk in rows}
    ranked_counts = []
    for session in sorted(by_session):
        for player_id, score, points, place in by_session[session]:
            row = rows[player_id]
            row.score += score
            twelfths[player_id] += points
            row.table_points = scoring.from_twelfths(twelfths[player_id])
            row.places[place - 1] += 1
            row.sessions_played += 1
            row.best_session = score if row.best_session is None else max(row.best_session, score)
        _ranked(rows.values(), tournament.tiebreaks)
        ranked_counts.append(sum(1 for row in rows.values() if row.rank is not None))
        for pk, row in rows.items():
            ranks[pk].append(row.rank)
    return RankHistory(
        sessions=tuple(sorted(by_session)),
        ranked=tuple(ranked_counts),
        ranks={pk: tuple(each) for pk, each in ranks.items()},
    )


# A hand as the statistics read it: its table's id first (to find the table's players).
_HAND_ROW_FIELDS = (
    "table_id",
    "table__session__number",
    "table__number",
    "number",
    "outcome",
    "winner",
    "discarder",
    "fan",
    "flowers",
    "fan_names",
    "winning_hand",
)


def _table_players(seats) -> dict[int, tuple[int, ...]]:
    """Table id -> its players' ids by starting seat, from ``seats`` (one query)."""
    players: dict[int, list[int]] = {}
    for table_id, seat, player_id in seats.order_by().values_list("table_id", "seat", "player_id"):
        players.setdefault(table_id, [0, 0, 0, 0])[seat] = player_id
    return {table_id: tuple(four) for table_id, four in players.items()}


def _hand_rows(hands, players: dict[int, tuple[int, ...]]) -> list[statistics.HandRow]:
    """``hands`` (a queryset) as plain rows, in one query."""
    row = statistics.HandRow
    return [
        row(
            session,
            table,
            number,
            outcome,
            winner,
            discarder,
            fan,
            flowers,
            players[table_id],
            names,
            typed,
        )
        for (
            table_id,
            session,
            table,
            number,
            outcome,
            winner,
            discarder,
            fan,
            flowers,
            names,
            typed,
        ) in hands.order_by().values_list(*_HAND_ROW_FIELDS)
    ]


@dataclass(frozen=True)
class PlayerRecord:
    """A player's page figures: statistics of their hands and their rank after each session."""

    statistics: statistics.PlayerStatistics
    ranks: tuple[tuple[int, int | None], ...]  # (session, rank or None while unranked)
    chart: statistics.RankChart | None  # None while the player has no rank


def player_record(player: Player) -> PlayerRecord:
    """The player's statistics, cached per player under the tournament's version, and
    their ranks from ``rank_history``: the version read once, then (not cached yet) three
    queries for the player's tables and two for the rank history."""
    tournament = player.tournament
    version = data_version(tournament)
    key = f"mcr:player-statistics:{tournament.pk}:{version}:{player.pk}"
    figures = _cached(key, lambda: compute_player_statistics(player))
    history = rank_history(tournament, version=version)
    ranks = history.of(player.pk)
    chart = None
    if any(rank is not None for _session, rank in ranks):
        chart = statistics.rank_chart(ranks, max(history.ranked))
    return PlayerRecord(statistics=figures, ranks=ranks, chart=chart)


def compute_player_statistics(player: Player) -> statistics.PlayerStatistics:
    """The player's statistics from the hands and penalties of the tables they sat at:
    three queries (those tables' seats, hands and penalties), whatever the tournament's size."""
    players = _table_players(Seat.objects.filter(table__seats__player=player))
    hands = _hand_rows(Hand.objects.filter(table__seats__player=player), players)
    penalties = [
        statistics.PenaltyRow(players[table_id], offender, kind, points)
        for table_id, offender, kind, points in Penalty.objects.filter(
            hand__table__seats__player=player
        )
        .order_by()
        .values_list("hand__table_id", "offender", "kind", "points")
    ]
    return statistics.player_statistics(player.pk, hands, penalties)


@dataclass(frozen=True)
class ListedWin:
    """One of the tournament's biggest hands, with its winner."""

    hand: statistics.WinningHand
    player: "ListedPlayer"


@dataclass(frozen=True)
class TournamentFigures:
    statistics: statistics.TournamentStatistics
    biggest: tuple[ListedWin, ...]


def tournament_figures(tournament) -> TournamentFigures:
    """``compute_tournament_figures``, cached under the tournament's version (see
    ``standings``)."""
    key = f"mcr:tournament-statistics:{tournament.pk}:{data_version(tournament)}"
    return _cached(key, lambda: compute_tournament_figures(tournament))


def compute_tournament_figures(tournament) -> TournamentFigures:
    """The tournament's statistics from every hand entered: three queries (every seat, every
    hand, the biggest hands' winners), whatever the tournament's size."""
    players = _table_players(Seat.objects.filter(session__tournament=tournament))
    hands = _hand_rows(Hand.objects.filter(table__session__tournament=tournament), players)
    figures = statistics.tournament_statistics(hands)
    winners = {
        pk: ListedPlayer(number, name, name_zh, is_substitute)
        for pk, number, name, name_zh, is_substitute in Player.objects.filter(
            pk__in={hand.player for hand in figures.biggest}
        ).values_list("pk", "number", "name", "name_zh", "is_substitute")
    }
    return TournamentFigures(
        statistics=figures,
        biggest=tuple(ListedWin(hand, winners[hand.player]) for hand in figures.biggest),
    )


@dataclass(frozen=True)
class StoredResultDifference:
    """A seat whose stored result is not what its table's hands give."""

    session: int
    table: int
    seat: int
    player: Player
    stored: tuple[int, int | None, Fraction]  # score, place, table points
    from_hands: tuple[int, int | None, Fraction]


def stored_results_differences(tournament) -> tuple[int, list[StoredResultDifference]]:
    """Every table's stored seat results checked against its hands, settled again here:
    the number of tables checked, and each seat that differs (none, unless something wrote
    the database behind the services' back)."""
    differences = []
    tables = 0
    for session in tournament.sessions.order_by("number"):
        stored = {
            (seat.table_id, seat.seat): seat
            for seat in Seat.objects.filter(session=session).select_related("player")
        }
        for sheet in session_sheets(session):
            tables += 1
            entered = sheet.entered > 0
            for index, (player, score, place, points) in enumerate(sheet.summary):
                seat = stored[(sheet.table.pk, index)]
                have = (seat.score, seat.place, scoring.from_twelfths(seat.table_points_twelfths))
                want = (score, place, points) if entered else (0, None, Fraction(0))
                if have != want or sheet.table.hands_entered != sheet.entered:
                    differences.append(
                        StoredResultDifference(
                            session=session.number,
                            table=sheet.table.number,
                            seat=index,
                            player=player,
                            stored=have,
                            from_hands=want,
                        )
                    )
    return tables, differences


@dataclass
class TeamRow:
    team: str
    members: list[str]
    table_points: Fraction
    score: int
    rank: int | None = None


def team_standings(rows: list[StandingRow]) -> list[TeamRow]:
    """Teams by the sum of their ranked members' table points, then scores."""
    teams: dict[str, TeamRow] = {}
    for row in rows:
        if not row.ranked or not row.player.team:
            continue
        team = teams.setdefault(row.player.team, TeamRow(row.player.team, [], Fraction(0), 0))
        team.members.append(row.player.name)
        team.table_points += row.table_points
        team.score += row.score
    ordered = sorted(teams.values(), key=lambda t: (-t.table_points, -t.score, t.team))
    for position, team in enumerate(ordered, start=1):
        same = position > 1 and (
            (ordered[position - 2].table_points, ordered[position - 2].score)
            == (team.table_points, team.score)
        )
        team.rank = ordered[position - 2].rank if same else position
    return ordered


def penalties_of(tournament):
    """Every penalty with its hand, table and session, for the sheet and the export."""
    return (
        Penalty.objects.filter(hand__table__session__tournament=tournament)
        .select_related("hand__table__session")
        .order_by("hand__table__session__number", "hand__table__number", "hand__number", "id")
    )


class DrawRefused(Exception):
    """The active players cannot be seated; ``message`` says what is missing."""

    def __init__(self, message: str, code: str):
        super().__init__(message)
        self.message = message
        self.code = code


def shortfall_message(*, players: int, substitutes: int) -> str:
    """Why ``players`` active players (substitutes not counted) and ``substitutes`` active
    substitutes cannot fill tables of four, and the two ways out: register the substitutes
    missing, or withdraw the players left over (fewer would leave a table even shorter).

    Three whole sentences, each with its own count, so that each reads right in the
    singular and the plural."""
    missing = (-players) % 4 - substitutes
    extra = players % 4
    sentences = (
        ngettext(
            "%(players)s active player, not counting substitutes, cannot fill tables of four.",
            "%(players)s active players, not counting substitutes, cannot fill tables of four.",
            players,
        ),
        ngettext(
            "Register %(missing)s more substitute to fill the last table.",
            "Register %(missing)s more substitutes to fill the last table.",
            missing,
        ),
        ngettext(
            "Otherwise, withdraw %(extra)s player so that the others fill whole tables.",
            "Otherwise, withdraw %(extra)s players so that the others fill whole tables.",
            extra,
        ),
    )
    if extra == players:
        # Withdrawing them all would leave nobody to draw: not a way out.
        sentences = sentences[:2]
    counts = {"players": players, "missing": missing, "extra": extra}
    return " ".join(sentence % counts for sentence in sentences)


def players_for_draw(tournament) -> list[Player]:
    """Active regular players, topped up with substitutes (lowest number first) to a multiple of 4.

    Raises DrawRefused saying how many substitutes are missing when even all
    substitutes cannot fill the last table.
    """
    active = list(tournament.players.filter(ACTIVE_PLAYERS).order_by("number"))
    regular = [p for p in active if not p.is_substitute]
    substitutes = [p for p in active if p.is_substitute]
    needed = (-len(regular)) % 4
    if needed > len(substitutes):
        raise DrawRefused(
            shortfall_message(players=len(regular), substitutes=len(substitutes)),
            code="not_multiple_of_four",
        )
    if not regular and not needed:
        raise DrawRefused(_("There are no active players to draw."), code="no_players")
    return regular + substitutes[:needed]


# ---------------------------------------------------------------- the pages' figures


def tournament_list():
    """Every tournament, in the model's order (newest first), for the home page."""
    return Tournament.objects.all()


def tournament_players(tournament):
    """The tournament's players by number, withdrawn ones included."""
    return tournament.players.order_by("number")


@dataclass(frozen=True)
class TournamentOverview:
    # By number, each annotated with table_count, confirmed_count and withdrawn_seated (the
    # withdrawn players still holding one of its seats).
    sessions: list[Session]
    active_players: int
    substitutes: "SubstituteCount"


def _seats_counted(rows) -> Coalesce:
    """The number of ``rows`` (seats filtered by an ``OuterRef``), as a scalar subquery."""
    counted = rows.order_by().values("session").annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(counted), 0)


def tournament_overview(tournament) -> TournamentOverview:
    """The drawn sessions with their tables and confirmed tables counted and the withdrawn
    players still seated, the number of active players and of substitutes who have sat at
    a table: two queries whatever the number of sessions and tables."""
    # Without the draw input: a session-by-session draw keeps every earlier table in it.
    withdrawn_seats = Seat.objects.filter(
        session=OuterRef("pk"), player__withdrawn_at__isnull=False
    )
    sessions = (
        tournament.sessions.defer("draw_input")
        .annotate(
            table_count=Count("tables"),
            confirmed_count=Count("tables", filter=Q(tables__confirmed_at__isnull=False)),
            withdrawn_seated=_seats_counted(withdrawn_seats),
        )
        .order_by("number")
    )
    counts = tournament.players.aggregate(
        active=Count("pk", filter=ACTIVE_PLAYERS), seated=Count("pk", filter=SEATED_SUBSTITUTE)
    )
    return TournamentOverview(
        sessions=list(sessions),
        active_players=counts["active"],
        substitutes=SubstituteCount(seated=counts["seated"], limit=tournament.substitute_limit),
    )


def session_dates(tournament) -> list[datetime.date]:
    """The days, in the site's time zone and in order, on which a session was opened for
    play: the tournament's dates as far as its data tells them."""
    opened = tournament.sessions.filter(opened_at__isnull=False).values_list("opened_at", flat=True)
    return sorted({timezone.localdate(moment) for moment in opened})


# ---------------------------------------------------------------- substitutes and withdrawals

# A substitute who has sat at a table: holds a seat in a drawn session (played or to play).
SEATED_SUBSTITUTE = Q(is_substitute=True) & Exists(Seat.objects.filter(player=OuterRef("pk")))


@dataclass(frozen=True)
class SubstituteCount:
    """The substitutes who have sat at a table, and how many the federation counts."""

    seated: int
    limit: int

    @property
    def beyond_limit(self) -> int:
        """Seated substitutes the federation does not count."""
        return max(0, self.seated - self.limit)


def substitute_count(tournament) -> SubstituteCount:
    """How many substitutes have sat at a table (a seat in any drawn session, whether its
    table has started or not), against the tournament's limit: one query."""
    seated = tournament.players.filter(SEATED_SUBSTITUTE).count()
    return SubstituteCount(seated=seated, limit=tournament.substitute_limit)


def substitute_limit_warning(tournament, players) -> str:
    """What to tell the organiser before seating ``players`` (a seat given, a session
    drawn): "" unless it brings substitutes who have not sat at a table yet beyond the
    federation's limit, which still lets them play but counts only that many. One query
    when ``players`` hold a substitute, none otherwise."""
    substitutes = [player for player in players if player.is_substitute]
    if not substitutes:
        return ""
    already = set(tournament.players.filter(SEATED_SUBSTITUTE).values_list("number", flat=True))
    newcomers = sorted(p.number for p in substitutes if p.number not in already)
    total = len(already) + len(newcomers)
    if not newcomers or total <= tournament.substitute_limit:
        return ""
    names = {p.number: str(p) for p in substitutes}
    return ngettext(
        "Seating %(players)s brings the substitutes who have sat at a table to %(total)s: "
        "the federation counts only %(limit)s substitute.",
        "Seating %(players)s brings the substitutes who have sat at a table to %(total)s: "
        "the federation counts only %(limit)s substitutes.",
        tournament.substitute_limit,
    ) % {
        "players": ", ".join(names[n] for n in newcomers),
        "total": total,
        "limit": tournament.substitute_limit,
    }


def draw_substitute_warning(tournament) -> str:
    """``substitute_limit_warning`` for the players the next draw seats ("" if none, or if
    the draw would be refused anyway): every method seats ``players_for_draw``."""
    try:
        players = players_for_draw(tournament)
    except DrawRefused:
        return ""
    return substitute_limit_warning(tournament, players)


def last_sessions_played(tournament) -> dict[int, int]:
    """Player id -> the last session in which each withdrawn player played a table (those
    who withdrew before playing are not in it): one query."""
    return dict(
        Seat.objects.filter(
            PLAYED_SEAT, session__tournament=tournament, player__withdrawn_at__isnull=False
        )
        .values("player_id")
        .annotate(last=Max("session__number"))
        .order_by()
        .values_list("player_id", "last")
    )


@dataclass(frozen=True)
class WithdrawnSeat:
    """A withdrawn player still holding a seat of a session."""

    table: int
    player: Player


def withdrawn_seated(session: Session) -> list[WithdrawnSeat]:
    """The session's seats held by withdrawn players, by table and seat: one query."""
    seats = (
        Seat.objects.filter(session=session, player__withdrawn_at__isnull=False)
        .select_related("player", "table")
        .order_by("table__number", "seat")
    )
    return [WithdrawnSeat(table=seat.table.number, player=seat.player) for seat in seats]


def unconfirmed_table_count(tournament) -> int:
    """Drawn tables not confirmed yet: while there are any, the standings may still change."""
    return Table.objects.filter(session__tournament=tournament, confirmed_at__isnull=True).count()


@dataclass(frozen=True)
class RegistrationSummary:
    """The player list's figures: who is registered, and what the next draw would seat."""

    active: int
    substitutes: int  # active substitutes
    withdrawn: int
    draw_ready: bool
    draw_problem: str  # why the draw would be refused, when it would
    table_count: int  # tables of four the next draw fills; 0 when it would be refused

    @property
    def spare_substitutes(self) -> int:
        """Active substitutes the next draw leaves out."""
        return self.active - self.table_count * 4 if self.draw_ready else 0


def registration_summary(tournament) -> RegistrationSummary:
    """Players counted in one query, and the outcome of drawing them now."""
    counts = tournament.players.aggregate(
        active=Count("pk", filter=ACTIVE_PLAYERS),
        substitutes=Count("pk", filter=ACTIVE_PLAYERS & Q(is_substitute=True)),
        withdrawn=Count("pk", filter=~ACTIVE_PLAYERS),
    )
    try:
        drawn = players_for_draw(tournament)
    except DrawRefused as refusal:
        return RegistrationSummary(
            **counts, draw_ready=False, draw_problem=refusal.message, table_count=0
        )
    return RegistrationSummary(
        **counts, draw_ready=True, draw_problem="", table_count=len(drawn) // 4
    )


def drawn_tables(tournament) -> dict[int, list[tuple[int, ...]]]:
    """Session number -> its tables in table order, each the players' numbers East..North."""
    sessions: dict[int, dict[int, list[tuple[int, int]]]] = {}
    # Unordered (sorted below): the model's default order would sort every seat first.
    for session, table, seat, player in (
        Seat.objects.filter(session__tournament=tournament)
        .order_by()
        .values_list("session__number", "table__number", "seat", "player__number")
    ):
        sessions.setdefault(session, {}).setdefault(table, []).append((seat, player))
    return {
        session: [tuple(p for _seat, p in sorted(tables[t])) for t in sorted(tables)]
        for session, tables in sessions.items()
    }


def seating_groups(tournament, players) -> dict[int, str]:
    """Player number -> group (team or country, as the tournament separates), when given."""
    field = tournament.separate_by
    if not field:
        return {}
    return {p.number: getattr(p, field) for p in players if getattr(p, field).strip()}


@dataclass(frozen=True)
class PlanPlayer:
    """A player of the planning command: its number i, the registered player it stood for
    when the schedule was first planned ("12 Li Wei", or ""), and what re-plans changed for
    them since ("out from session 3 (re-plan 1)"; "" if nothing)."""

    index: int
    player: str
    changes: str


@dataclass(frozen=True)
class ReplanStep:
    """One re-plan of the schedule as the seating page publishes it: who left the sessions
    still to come and who joined, and its input for ``python -m tournament.seating replan``."""

    number: int  # 1 for the first re-plan
    before_session: int  # the first session it re-planned
    left: list[str]  # "5 Player 5"
    joined: list[str]
    input_json: str

    @property
    def filename(self) -> str:
        return f"replan-{self.number}.json"

    @property
    def command(self) -> str:
        return f"python -m tournament.seating replan --input {self.filename}"


@dataclass
class SeatingFigures:
    """What the seating page shows about how the seats were chosen, and how well."""

    plan: SeatingPlan | None
    plan_stats: dict[str, int] | None
    drawn_stats: dict[str, int]
    drawn_sessions: int
    command: str
    groups_json: str
    # Command-line number i -> the player it stood for in the first plan, and what changed.
    plan_players: list[PlanPlayer]
    # Each re-plan since, in order, with the input that reproduces it.
    replan_steps: list[ReplanStep] = field(default_factory=list)

    @property
    def replans_not_kept(self) -> int:
        """Re-plans made before their inputs were kept: the page cannot publish them."""
        return self.plan.replans - len(self.replan_steps) if self.plan else 0

    # Sessions drawn under the tournament's commitment (see the fairness page). Commitments
    # change only before the first draw, and a draw raises the seating version: cached here.
    committed_sessions: list[int] = field(default_factory=list)


def seating_figures(tournament) -> SeatingFigures:
    """The plan (if any) with its figures and reproducing command, and the figures of the
    sessions drawn so far, recounted from the stored seats.

    Cached under the tournament's seating version, read first (see ``standings``): the
    figures are recounted from every seat of every drawn session, the seating pages are
    read by every player at once when a session is drawn, and the hands entered while it
    is played leave the figures (and that version) as they are."""
    key = f"mcr:seating-figures:{tournament.pk}:{seating_version(tournament)}"
    figures = cache.get(key)
    if figures is None:
        figures = compute_seating_figures(tournament)
        cache.set(key, figures, STANDINGS_CACHE_SECONDS)
    return figures


def compute_seating_figures(tournament) -> SeatingFigures:
    """``seating_figures`` from the database as it is now: four queries (the plan, the
    players, the seats, the commitment), the seats read as plain values."""
    plan = SeatingPlan.objects.filter(tournament=tournament).first()
    group_field = tournament.separate_by
    players: dict[int, tuple[int, str]] = {}  # player id -> (number, name)
    groups: dict[int, str] = {}  # player number -> group, as ``seating_groups`` gives
    for pk, number, name, group in tournament.players.values_list(
        "pk", "number", "name", group_field or "name"
    ):
        players[pk] = (number, name)
        if group_field and group.strip():
            groups[number] = group
    # Session number -> table id -> the players' numbers East..North. Table order does not
    # change the figures, only which players share a table, their seats and session order.
    drawn: dict[int, dict[int, list[int]]] = {}
    # Unordered: the model's default order would sort every seat of the tournament first.
    for session, table, seat, player in (
        Seat.objects.filter(session__tournament=tournament)
        .order_by()
        .values_list("session__number", "table_id", "seat", "player_id")
    ):
        drawn.setdefault(session, {}).setdefault(table, [0, 0, 0, 0])[seat] = players[player][0]
    drawn_stats = schedule_stats([list(drawn[n].values()) for n in sorted(drawn)], groups).as_dict()
    command = groups_json = ""
    plan_players: list[PlanPlayer] = []
    steps: list[ReplanStep] = []
    if plan is not None:
        # The command plans for the players of the first plan, whatever re-plans changed.
        first = plan.first_players or plan.players
        command = (
            f"python -m tournament.seating --players {len(first)}"
            f" --sessions {len(plan.sessions)} --seed {plan.seed}"
        )
        if plan.groups:
            command += " --groups groups.json"
            groups_json = json.dumps(plan.groups, ensure_ascii=False, sort_keys=False)
        by_number = dict(players.values())

        def named(number: int) -> str:
            return f"{number} {by_number[number]}" if number in by_number else str(number)

        changes: dict[int, list[str]] = {}
        for number, data in enumerate(plan.replan_inputs, start=1):
            change = replan_change(data)
            names = {"step": number, "n": change.before_session}
            for player in change.left:
                changes.setdefault(player, []).append(
                    _("out from session %(n)s (re-plan %(step)s)") % names
                )
            for player in change.joined:
                changes.setdefault(player, []).append(
                    _("in from session %(n)s (re-plan %(step)s)") % names
                )
            steps.append(
                ReplanStep(
                    number=number,
                    before_session=change.before_session,
                    left=[named(p) for p in change.left],
                    joined=[named(p) for p in change.joined],
                    input_json=json.dumps(data, ensure_ascii=False),
                )
            )
        plan_players = [
            PlanPlayer(
                index=i,
                player=f"{n} {by_number[n]}" if n in by_number else "",
                changes="; ".join(changes.get(n, [])),
            )
            for i, n in enumerate(first, start=1)
        ]
    committed = (
        DrawCommitment.objects.filter(
            tournament=tournament, withdrawn_at__isnull=True, revealed_at__isnull=False
        )
        .values_list("drawn", flat=True)
        .first()
    )
    return SeatingFigures(
        plan=plan,
        plan_stats=plan.stats if plan else None,
        drawn_stats=drawn_stats,
        drawn_sessions=len(drawn),
        command=command,
        groups_json=groups_json,
        plan_players=plan_players,
        committed_sessions=sorted(int(number) for number in committed or {}),
        replan_steps=steps,
    )


@dataclass
class PlayerSeat:
    """Where a player starts one session, and against whom (by starting seat)."""

    session: Session
    table: Table
    seat: int
    opponents: list[tuple[str, Player]]

    @property
    def seat_label(self) -> str:
        return SEAT_LABELS[self.seat]


@dataclass(frozen=True)
class ListedPlayer:
    """A seated player as the seating pages show them; ``withdrawn`` until their seat is
    given to someone else."""

    number: int
    name: str
    name_zh: str = ""
    is_substitute: bool = False
    withdrawn: bool = False


@dataclass(frozen=True)
class ListedSeat:
    """A seat as the seating pages list it: table number, seat, lot and players."""

    table: int
    seat: int
    lot: int
    player: ListedPlayer
    replaces: ListedPlayer | None  # the player the lot gave this seat, when replaced


@dataclass(frozen=True)
class SeatedTable:
    number: int
    seats: list[ListedSeat]  # P1..P4 (East..North)


def _listed_seats(session: Session) -> list[ListedSeat]:
    """The session's seats by table and seat: one query, read as plain values, since a
    session of 2,000 players would spend more time making models than reading rows."""
    rows = (
        Seat.objects.filter(session=session)
        .order_by("table__number", "seat")
        .values_list(
            "table__number",
            "seat",
            "lot",
            "player__number",
            "player__name",
            "player__name_zh",
            "player__is_substitute",
            "player__withdrawn_at",
            "replaces__number",
            "replaces__name",
        )
    )
    return [
        ListedSeat(
            table=table,
            seat=seat,
            lot=lot,
            player=ListedPlayer(
                number, name, name_zh, is_substitute, withdrawn=withdrawn_at is not None
            ),
            replaces=None if replaced is None else ListedPlayer(replaced, replaced_name),
        )
        for (
            table,
            seat,
            lot,
            number,
            name,
            name_zh,
            is_substitute,
            withdrawn_at,
            replaced,
            replaced_name,
        ) in rows
    ]


def session_seats_by_name(session: Session, query: str = "") -> list[ListedSeat]:
    """The session's seats, players in alphabetical order (Chinese names by their pinyin), for
    players finding their table; with a query, only the players it finds (names.matches)."""
    seats = [
        seat
        for seat in _listed_seats(session)
        if names.matches(
            query, name=seat.player.name, name_zh=seat.player.name_zh, number=seat.player.number
        )
    ]
    return sorted(seats, key=lambda s: (names.sort_key(s.player.name), s.player.number))


def session_tables(session: Session) -> list[SeatedTable]:
    """The session's tables by number with their seats in seat order: one query."""
    tables: list[SeatedTable] = []
    for seat in _listed_seats(session):
        if not tables or tables[-1].number != seat.table:
            tables.append(SeatedTable(number=seat.table, seats=[]))
        tables[-1].seats.append(seat)
    return tables


def player_schedule(player: Player) -> list[PlayerSeat]:
    """Every drawn session of the player: table, starting seat and the three opponents.

    One query: the seats of every table the player sits at, with their sessions (without
    the draw input, which a session-by-session draw fills with every earlier table)."""
    seats = (
        Seat.objects.filter(table__seats__player=player)
        .select_related("session", "table", "player")
        .defer("session__draw_input")
        .order_by("session__number", "seat")
    )
    by_table: dict[int, list[Seat]] = {}
    for seat in seats:
        by_table.setdefault(seat.table_id, []).append(seat)
    schedule = []
    for table_seats in by_table.values():
        own = next(seat for seat in table_seats if seat.player_id == player.pk)
        schedule.append(
            PlayerSeat(
                session=own.session,
                table=own.table,
                seat=own.seat,
                opponents=[(SEAT_LABELS[o.seat], o.player) for o in table_seats if o is not own],
            )
        )
    return schedule


@dataclass(frozen=True)
class PlannedSeat:
    """A seat of the published plan in a session not drawn yet."""

    session: int
    table: int
    seat: int
    opponents: list[tuple[str, Player | None]]

    @property
    def seat_label(self) -> str:
        return SEAT_LABELS[self.seat]


def player_planned_sessions(player: Player) -> list[PlannedSeat]:
    """The player's seats in the sessions the published plan holds but that are not drawn yet.

    Only for a tournament seated by the whole-tournament plan, and a player still in it (a
    withdrawn player will not play them); the plan can still change if players withdraw or
    join before those sessions. An opponent who withdrew is None: their seat is to be filled
    (by a substitute or a re-plan, when the session is drawn).
    """
    tournament = player.tournament
    if tournament.seating_method != "planned" or not player.is_active:
        return []
    plan = SeatingPlan.objects.filter(tournament=tournament).only("sessions").first()
    if plan is None:
        return []
    drawn = set(tournament.sessions.values_list("number", flat=True))
    found = []  # (session, table, the table's players' numbers East..North)
    for session, tables in enumerate(plan.sessions, start=1):
        if session in drawn:
            continue
        for table, numbers in enumerate(tables, start=1):
            if player.number in numbers:
                found.append((session, table, numbers))
    # Only the opponents: at most three a session, however many players are registered.
    opponents = {n for _session, _table, numbers in found for n in numbers} - {player.number}
    by_number = {
        p.number: p for p in tournament.players.filter(ACTIVE_PLAYERS, number__in=opponents)
    }
    return [
        PlannedSeat(
            session=session,
            table=table,
            seat=numbers.index(player.number),
            opponents=[
                (SEAT_LABELS[i], by_number.get(n))
                for i, n in enumerate(numbers)
                if n != player.number
            ],
        )
        for session, table, numbers in found
    ]


def seats_waiting_for_play(player: Player):
    """The player's seats at tables where no hand has been entered yet."""
    return (
        Seat.objects.filter(player=player, table__hands__isnull=True)
        .select_related("table", "session")
        .order_by("session__number")
        .distinct()
    )


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

    def count(model, path: str):
        # One scalar subquery per model, grouped by the tournament it leads to.
        rows = model.objects.filter(**{path: OuterRef("pk")}).order_by().values(path)
        return Coalesce(Subquery(rows.annotate(n=Count("pk")).values("n")), 0)

    counts = (
        Tournament.objects.filter(pk=tournament.pk)
        .annotate(
            n_players=count(Player, "tournament"),
            n_sessions=count(Session, "tournament"),
            n_tables=count(Table, "session__tournament"),
            n_hands=count(Hand, "table__session__tournament"),
            n_penalties=count(Penalty, "hand__table__session__tournament"),
            n_corrections=count(HandRevision, "hand__table__session__tournament"),
            n_reopenings=count(TableReopening, "table__session__tournament"),
            plan=Exists(SeatingPlan.objects.filter(tournament=OuterRef("pk"))),
        )
        .values(
            "n_players",
            "n_sessions",
            "n_tables",
            "n_hands",
            "n_penalties",
            "n_corrections",
            "n_reopenings",
            "plan",
        )
        .get()
    )
    return DeletionSummary(
        players=counts["n_players"],
        sessions=counts["n_sessions"],
        tables=counts["n_tables"],
        hands=counts["n_hands"],
        penalties=counts["n_penalties"],
        corrections=counts["n_corrections"],
        reopenings=counts["n_reopenings"],
        has_seating_plan=counts["plan"],
    )


def table_clock(table: Table, now=None) -> clock.TableClock | None:
    """The table's session clock read at ``now`` (the present by default); None unless its
    session is open for play (drawn but not opened, or closed)."""
    session = table.session
    if not session.is_in_play:
        return None
    return clock.time_left(
        opened_at=session.opened_at,
        session_minutes=session.tournament.session_minutes,
        extra_minutes=table.extra_minutes,
        now=now or timezone.now(),
    )


# ---------------------------------------------------------------- the committed draw


def draw_commitments(tournament) -> list[DrawCommitment]:
    """Every commitment of the tournament, the newest first (withdrawn ones included)."""
    return list(
        DrawCommitment.objects.filter(tournament=tournament).order_by("-committed_at", "-id")
    )


def pending_commitment(tournament, *, lock: bool = False) -> DrawCommitment | None:
    """The live commitment whose draw is not made yet, if any; ``lock`` for a write."""
    found = DrawCommitment.objects.filter(
        tournament=tournament, withdrawn_at__isnull=True, revealed_at__isnull=True
    )
    if lock:
        found = found.select_for_update()
    return found.first()


def live_commitment(commitments: list[DrawCommitment]) -> DrawCommitment | None:
    """The one not withdrawn, among ``draw_commitments``' list."""
    return next((c for c in commitments if c.withdrawn_at is None), None)


def fairness_record(commitment: DrawCommitment) -> dict:
    """The record ``python -m tournament.seating verify`` checks: the seed, the salt and the
    seating only once the draw revealed them (or the withdrawal, which has no seating)."""
    public = commitment.seed_is_public
    return commitment_rules.fairness_record(
        document=json.loads(commitment.document),
        hash=commitment.hash,
        seed=commitment.secret_seed if public else None,
        salt=commitment.salt if public else None,
        public_value=commitment.public_value or None,
        seating={int(number): tables for number, tables in commitment.drawn.items()},
    )


@dataclass
class CoveredSession:
    """A session drawn under the commitment, and whether it still stands as drawn."""

    number: int
    tables: int
    # "standing": drawn as committed; "redrawn": cancelled and drawn again without the
    # commitment; "cancelled": cancelled and not drawn again.
    state: str


@dataclass
class FairnessPage:
    """What the fairness page shows: the live commitment with its document read, the
    withdrawn ones, the sessions it covers and the command that checks it."""

    live: DrawCommitment | None
    withdrawn: list[DrawCommitment]
    document: dict | None
    method_label: str
    # The method's options in words: (label, value).
    options: list[tuple[str, str]]
    draw_seed: int | None
    covered: list[CoveredSession]
    command: str


def _options_in_words(options: dict) -> list[tuple[str, str]]:
    words = []
    if "sessions" in options:
        words.append((_("Sessions planned"), str(options["sessions"])))
    if "separate_by" in options:
        apart = dict(SEPARATE_BY_CHOICES).get(options["separate_by"], options["separate_by"])
        words.append((_("Keep apart players of the same"), str(apart)))
    if "top" in options:
        words.append((_("Top tables"), str(options["top"])))
    return words


def _tables_as_drawn(tournament, numbers: list[int]) -> dict[int, list[tuple[int, ...]]]:
    """Sessions ``numbers`` as drawn (a substitute's seat counted as the drawn player's),
    each its tables in order, the players East..North: one query."""
    sessions: dict[int, dict[int, list[tuple[int, int]]]] = {}
    for session, table, seat, player, replaced in (
        Seat.objects.filter(session__tournament=tournament, session__number__in=numbers)
        .order_by()
        .values_list(
            "session__number", "table__number", "seat", "player__number", "replaces__number"
        )
    ):
        sessions.setdefault(session, {}).setdefault(table, []).append((seat, replaced or player))
    return {
        session: [tuple(p for _seat, p in sorted(tables[t])) for t in sorted(tables)]
        for session, tables in sessions.items()
    }


def fairness_page(tournament) -> FairnessPage:
    """The tournament's commitments and, for the live one, the sessions it covers and
    whether they stand as drawn: two queries."""
    commitments = draw_commitments(tournament)
    live = live_commitment(commitments)
    withdrawn = [c for c in commitments if c.withdrawn_at is not None]
    document = json.loads(live.document) if live else None
    method_label = ""
    options = []
    draw_seed = None
    covered = []
    command = ""
    if live is not None:
        method_label = str(dict(SEATING_METHOD_CHOICES).get(document["method"], document["method"]))
        options = _options_in_words(document["options"])
        command = f"python -m tournament.seating verify fairness.json --hash {live.hash}"
    if live is not None and live.revealed_at is not None:
        draw_seed = commitment_rules.draw_seed(live.secret_seed, live.public_value or None)
        as_drawn = _tables_as_drawn(tournament, [int(number) for number in live.drawn])
        for key, tables in sorted(live.drawn.items(), key=lambda item: int(item[0])):
            number = int(key)
            if number not in as_drawn:
                state = "cancelled"
            elif as_drawn[number] != [tuple(table) for table in tables]:
                state = "redrawn"
            else:
                state = "standing"
            covered.append(CoveredSession(number=number, tables=len(tables), state=state))
    return FairnessPage(
        live=live,
        withdrawn=withdrawn,
        document=document,
        method_label=method_label,
        options=options,
        draw_seed=draw_seed,
        covered=covered,
        command=command,
    )


# ---------------------------------------------------------------- the hall's screens


def tournament_with_versions(slug: str) -> tuple[Tournament, int, int] | None:
    """The tournament ``slug`` with its data and seating versions (0 before it has them), in
    one query: all that a hall's screen reads while nothing has changed."""
    found = list(
        Tournament.objects.filter(slug=slug)
        .annotate(data_number=F("version__number"), seating_number=F("version__seating"))
        .order_by()[:1]
    )
    if not found:
        return None
    tournament = found[0]
    return tournament, tournament.data_number or 0, tournament.seating_number or 0


@dataclass(frozen=True)
class ScreenState:
    """What a hall's screen shows around its panels, and how many of each it cycles through:
    the tournament's name, its current session (``screen.current_session``) with that
    session's tables, the number of players, and whether the standings may still change."""

    name: str
    session_minutes: int
    session: Session | None  # without its draw input
    tables: int  # the current session's
    extra_time_tables: int  # the current session's tables given extra time
    players: int  # every registered player: the standings list them all
    unconfirmed_tables: int  # of every session: while there are any, standings are provisional

    @property
    def status(self) -> str | None:
        return self.session.status if self.session else None

    @property
    def panels(self) -> list[screen.Panel]:
        return screen.cycle(status=self.status, tables=self.tables, players=self.players)

    @property
    def phase(self) -> str:
        return screen.phase(self.session.number if self.session else None, self.status)

    def session_clock(self, now=None) -> clock.TableClock | None:
        """The session's own clock (without any table's extra time) while it is in play."""
        if self.status != screen.IN_PLAY:
            return None
        return clock.time_left(
            opened_at=self.session.opened_at,
            session_minutes=self.session_minutes,
            extra_minutes=0,
            now=now or timezone.now(),
        )


def screen_state(tournament: Tournament, version: int) -> ScreenState:
    """The screen's state under the tournament's data ``version`` (read first): cached,
    so the screens of a hall share it until the next write."""
    key = f"mcr:screen-state:{tournament.pk}:{version}"
    state = cache.get(key)
    if state is None:
        state = compute_screen_state(tournament)
        cache.set(key, state, STANDINGS_CACHE_SECONDS)
    return state


def compute_screen_state(tournament: Tournament) -> ScreenState:
    """``screen_state`` from the database as it is now: two queries, the sessions with
    their tables counted and the players counted."""
    sessions = {
        session.number: session
        for session in tournament.sessions.defer("draw_input")
        .annotate(
            table_count=Count("tables"),
            extra_time_count=Count("tables", filter=Q(tables__extra_minutes__gt=0)),
            unconfirmed_count=Count("tables", filter=Q(tables__confirmed_at__isnull=True)),
        )
        .order_by()
    }
    number = screen.current_session((s.number, s.status) for s in sessions.values())
    session = sessions.get(number)
    return ScreenState(
        name=tournament.name,
        session_minutes=tournament.session_minutes,
        session=session,
        tables=session.table_count if session else 0,
        extra_time_tables=session.extra_time_count if session else 0,
        players=tournament.players.count(),
        unconfirmed_tables=sum(s.unconfirmed_count for s in sessions.values()),
    )
