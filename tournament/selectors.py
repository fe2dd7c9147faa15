"""Reads that are more than a lookup: score sheets, session results, standings.

Score sheets are read from the stored hands; standings add up the seat results that the
hand service stores with each hand (``services.results``), cached under the tournament's
version, so a corrected hand changes the standings at once. Table points stay exact
``Fraction``s.
"""

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

from tournament import clock, scoring, screen, seating
from tournament.models import (
    SEAT_LABELS,
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
from tournament.seating.schedule import schedule_stats

# Players still in the tournament (not withdrawn).
ACTIVE_PLAYERS = Q(withdrawn_at__isnull=True)


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


@dataclass(frozen=True)
class RefereeTable:
    """A table as the referees' pages list it: players, referee and hands entered so far."""

    table: Table  # with its session and its referee
    players: list[str]  # the players' names by starting seat P1..P4

    hands_per_session = seating.HANDS_PER_SESSION

    @property
    def entered(self) -> int:
        return self.table.hands_entered


@dataclass(frozen=True)
class RefereeSession:
    session: Session
    tables: list[RefereeTable]


def _referee_tables(tables, seats, sessions: dict[int, Session]) -> list[RefereeTable]:
    """``tables`` by session and number with their referee, and their players' names from
    ``seats`` (the same tables' seats): two queries, each filtered as the caller's is, so no
    list of ids grows with the tables; the names read as plain values."""
    names: dict[int, list[str]] = {}
    for table_id, name in seats.order_by("seat").values_list("table_id", "player__name"):
        names.setdefault(table_id, []).append(name)
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
        Seat.objects.filter(session__tournament=tournament, place__isnull=False)
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
    tiebreaks = tournament.tiebreaks
    keys = {row.player.pk: row.sort_key(tiebreaks) for row in rows.values() if row.ranked}
    ranked = sorted((rows[pk] for pk in keys), key=lambda r: (keys[r.player.pk], r.player.number))
    previous_key = None
    for position, row in enumerate(ranked, start=1):
        key = keys[row.player.pk]
        row.rank = ranked[position - 2].rank if key == previous_key else position
        previous_key = key
    substitutes = sorted((r for r in rows.values() if not r.ranked), key=lambda r: r.player.number)
    return ranked + substitutes


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
        missing = needed - len(substitutes)
        raise DrawRefused(
            ngettext(
                "%(players)s active players cannot fill tables of four: %(missing)s substitute is "
                "missing (register it, or withdraw a player).",
                "%(players)s active players cannot fill tables of four: %(missing)s substitutes "
                "are missing (register them, or withdraw players).",
                missing,
            )
            % {"players": len(regular) + len(substitutes), "missing": missing},
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
    sessions: list[Session]  # by number, each annotated with table_count and confirmed_count
    active_players: int


def tournament_overview(tournament) -> TournamentOverview:
    """The drawn sessions with their tables and confirmed tables counted, and the number
    of active players: two queries whatever the number of sessions and tables."""
    # Without the draw input: a session-by-session draw keeps every earlier table in it.
    sessions = (
        tournament.sessions.defer("draw_input")
        .annotate(
            table_count=Count("tables"),
            confirmed_count=Count("tables", filter=Q(tables__confirmed_at__isnull=False)),
        )
        .order_by("number")
    )
    return TournamentOverview(
        sessions=list(sessions),
        active_players=tournament.players.filter(ACTIVE_PLAYERS).count(),
    )


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


@dataclass
class SeatingFigures:
    """What the seating page shows about how the seats were chosen, and how well."""

    plan: SeatingPlan | None
    plan_stats: dict[str, int] | None
    drawn_stats: dict[str, int]
    drawn_sessions: int
    command: str
    groups_json: str
    # Command-line number i -> the registered player it stands for ("12 Li Wei"), or "".
    plan_players: list[tuple[int, str]]


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
    """``seating_figures`` from the database as it is now: three queries (the plan, the
    players, the seats), the seats read as plain values."""
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
    plan_players = []
    if plan is not None:
        command = (
            f"python -m tournament.seating --players {len(plan.players)}"
            f" --sessions {len(plan.sessions)} --seed {plan.seed}"
        )
        if plan.groups:
            command += " --groups groups.json"
            groups_json = json.dumps(plan.groups, ensure_ascii=False, sort_keys=False)
        by_number = dict(players.values())
        plan_players = [
            (i, f"{n} {by_number[n]}" if n in by_number else "")
            for i, n in enumerate(plan.players, start=1)
        ]
    return SeatingFigures(
        plan=plan,
        plan_stats=plan.stats if plan else None,
        drawn_stats=drawn_stats,
        drawn_sessions=len(drawn),
        command=command,
        groups_json=groups_json,
        plan_players=plan_players,
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
    """A seated player as the seating pages show them."""

    number: int
    name: str
    name_zh: str = ""
    is_substitute: bool = False


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
            "replaces__number",
            "replaces__name",
        )
    )
    return [
        ListedSeat(
            table=table,
            seat=seat,
            lot=lot,
            player=ListedPlayer(number, name, name_zh, is_substitute),
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
            replaced,
            replaced_name,
        ) in rows
    ]


def session_seats_by_name(session: Session) -> list[ListedSeat]:
    """The session's seats, players in alphabetical order (for players finding their table)."""
    return sorted(_listed_seats(session), key=lambda s: (s.player.name.casefold(), s.player.number))


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

    Only for a tournament seated by the whole-tournament plan; the plan can still change
    if players withdraw or join before those sessions.
    """
    tournament = player.tournament
    if tournament.seating_method != "planned":
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
    by_number = {p.number: p for p in tournament.players.filter(number__in=opponents)}
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
