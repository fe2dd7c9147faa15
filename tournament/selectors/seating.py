"""Who sits where: the drawn tables, the players the next draw seats (the seating core's
rule applied to the active players), the seating figures of the whole-tournament plan, the
seat lists by table and by name, and a player's schedule.
"""

import json
from dataclasses import dataclass, field

from django.core.cache import cache
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _

from tournament import seating
from tournament.language.formatting import SEAT_LABELS
from tournament.models import (
    SEATING_METHOD_CHOICES,
    DrawCommitment,
    Player,
    Seat,
    SeatingPlan,
    Session,
)
from tournament.players import names
from tournament.seating import preview
from tournament.seating.preview import MethodPreviews
from tournament.seating.published import replan_change
from tournament.seating.schedule import schedule_stats
from tournament.selectors.lookups import (
    ACTIVE_PLAYERS,
    LOCK_SECONDS,
    PUBLISHED_SESSION,
    STANDINGS_CACHE_SECONDS,
    cached,
    data_version,
    seating_key,
)


def drawn_tables(
    tournament, numbers: list[int] | None = None, *, as_drawn: bool = False
) -> dict[int, list[tuple[int, ...]]]:
    """Session number -> its tables in table order, each the numbers of the players holding
    its seats, East..North: in the order of their lots, which every draw gives in seat order
    (players recorded in each other's seats after the draw keep their lots:
    ``services.table_seats_swap``). Of sessions ``numbers`` only, when given; ``as_drawn``: a
    substitute given a seat by hand counted as the drawn player it replaces. One query."""
    seats = Seat.objects.filter(session__tournament=tournament)
    if numbers is not None:
        seats = seats.filter(session__number__in=numbers)
    player = Coalesce("replaces__number", "player__number") if as_drawn else "player__number"
    sessions: dict[int, dict[int, list[tuple[int, int]]]] = {}
    # Unordered (sorted below): the model's default order would sort every seat first.
    for session, table, lot, number in seats.order_by().values_list(
        "session__number", "table__number", "lot", player
    ):
        sessions.setdefault(session, {}).setdefault(table, []).append((lot, number))
    return {
        session: [tuple(p for _lot, p in sorted(tables[t])) for t in sorted(tables)]
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


def seating_figures(tournament, *, version: str | None = None) -> SeatingFigures:
    """The plan (if any) with its figures and reproducing command, and the figures of the
    sessions drawn so far, recounted from the stored seats.

    Cached under the tournament's seating version, read first (see ``standings``): the
    figures are recounted from every seat of every drawn session, the seating pages are
    read by every player at once when a session is drawn, and the hands entered while it
    is played leave the figures (and that version) as they are. ``version``: the
    ``seating_key``, when the caller has just read it."""
    if version is None:
        version = seating_key(tournament)
    key = f"mcr:seating-figures:{tournament.pk}:{version}"
    return cached(key, lambda: compute_seating_figures(tournament))


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

    session: "Numbered"
    table: "Numbered"
    seat: int
    opponents: list[tuple[str, "ListedPlayer"]]
    # The withdrawn player this seat's substitute replaces (given the seat by hand, or
    # seated by the draw in their stead), if any.
    replaces: "ListedPlayer | None" = None

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
    # The withdrawn player a substitute the draw seated stands in for (``Seat.stands_in_for``),
    # while the seat holds that substitute.
    stands_in_for: ListedPlayer | None = None


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
            "stands_in_for__number",
            "stands_in_for__name",
        )
    )
    return [
        ListedSeat(
            table=table,
            seat=seat,
            lot=lot,
            player=_listed(number, name, name_zh, is_substitute, withdrawn_at),
            replaces=None if replaced is None else ListedPlayer(replaced, replaced_name),
            stands_in_for=None
            if stood_in_for is None or replaced is not None
            else ListedPlayer(stood_in_for, stood_in_for_name),
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
            stood_in_for,
            stood_in_for_name,
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


@dataclass(frozen=True)
class Numbered:
    """A session or a table as a player's schedule shows it: by its number."""

    number: int


@dataclass(frozen=True)
class PlannedSeat:
    """A seat of the published plan in a session not drawn yet."""

    session: int
    table: int
    seat: int
    opponents: list[tuple[str, "ListedPlayer | None"]]

    @property
    def seat_label(self) -> str:
        return SEAT_LABELS[self.seat]


# A player's page's seating: their schedule, planned sessions and tables (``player_seating``).
Seating = tuple[list["PlayerSeat"], list[PlannedSeat], list["PlayedTable"]]


def player_seating(player: Player, *, version: str | None = None) -> Seating:
    """The player's schedule (every published session: table, starting seat and the three
    opponents), planned sessions (``player_planned_sessions``) and tables (``player_tables``)
    for the player's page, cached under the player and the tournament's seating key
    (``version``, when the caller has just read it): a draw, a publication, a new plan or a
    player's change raise it, a hand does not.

    After a draw every player looks up their seat within minutes: the first page read under
    a new key computes every player's seating in one reading (a few queries, as one player's
    costs) and keeps each under its player's key. While it does, other players' pages
    compute their own instead of waiting for it."""
    tournament = player.tournament
    if version is None:
        version = seating_key(tournament)
    found = cache.get(_player_seating_key(player.pk, version))
    if found is not None:
        return found
    lock = f"mcr:players-seating-lock:{tournament.pk}:{version}"
    if not cache.add(lock, 1, LOCK_SECONDS):  # held, or the cache is away
        return _seating(tournament, player)[player.pk]
    try:
        everyone = _seating(tournament)
        cache.set_many(
            {_player_seating_key(pk, version): each for pk, each in everyone.items()},
            STANDINGS_CACHE_SECONDS,
        )
    finally:
        cache.delete(lock)
    # A player added since the version was read is not among them yet.
    return everyone.get(player.pk) or _seating(tournament, player)[player.pk]


def _player_seating_key(player_pk: int, version: str) -> str:
    return f"mcr:player-seating:{player_pk}:{version}"


def _seating(tournament, player: Player | None = None) -> dict[int, Seating]:
    """Player id -> their seating (``player_seating``): of every player of the tournament,
    or of ``player`` alone."""
    published, seats = _published_tables(tournament, player)
    planned = _planned(tournament, set(published), player)
    players = tournament.players.values_list("pk", flat=True) if player is None else [player.pk]
    seating = {}
    for pk in players:
        schedule, tables = seats.get(pk, ([], []))
        seating[pk] = (schedule, planned.get(pk, []), tables)
    return seating


@dataclass(frozen=True)
class PlayedTable:
    """A table of a published session that a player sat at, with its four players' ids by
    starting seat: what their statistics read the hands of."""

    id: int
    session: int
    number: int
    players: tuple[int, int, int, int]


def player_tables(player: Player) -> list[PlayedTable]:
    """The tables the player sat at in the published sessions, in session order (hands are
    entered only in sessions open for play, which are published first)."""
    return _published_tables(player.tournament, player)[1].get(player.pk, ([], []))[1]


def player_planned_sessions(player: Player) -> list[PlannedSeat]:
    """The player's seats in the sessions the published plan holds but that are not drawn yet.

    Only for a tournament seated by the whole-tournament plan, and a player still in it (a
    withdrawn player will not play them); the plan can still change if players withdraw or
    join before those sessions. An opponent who withdrew is None: their seat is to be filled
    (by a substitute or a re-plan, when the session is drawn).
    """
    drawn = player.tournament.sessions.filter(PUBLISHED_SESSION).values_list("number", flat=True)
    return _planned(player.tournament, set(drawn), player).get(player.pk, [])


# A player's fields as ``_listed`` reads them.
_LISTED_FIELDS = ("number", "name", "name_zh", "is_substitute", "withdrawn_at")
# A seat of a player's table as ``_published_tables`` reads it.
_TABLE_SEAT_FIELDS = (
    "table_id",
    "session__number",
    "table__number",
    "seat",
    "player_id",
    "replaces_id",
    "stands_in_for_id",
    *(f"player__{name}" for name in _LISTED_FIELDS),
)


def _listed(number, name, name_zh, is_substitute, withdrawn_at) -> ListedPlayer:
    return ListedPlayer(number, name, name_zh, is_substitute, withdrawn_at is not None)


def _published_tables(
    tournament, player: Player | None = None
) -> tuple[tuple[int, ...], dict[int, tuple[list[PlayerSeat], list[PlayedTable]]]]:
    """The sessions published (a draw under review is not shown yet: its session is shown as
    planned), and player id -> their seats in them with their opponents, and their tables,
    in session order: of every player, or of ``player`` alone (a player seated in none has
    no entry). Two queries (three when a seat replaces a withdrawn player)."""
    published = tuple(
        sorted(tournament.sessions.filter(PUBLISHED_SESSION).values_list("number", flat=True))
    )
    seats = Seat.objects.filter(session__tournament=tournament, session__number__in=published)
    if player is not None:
        seats = seats.filter(table__seats__player=player)
    tables: dict[int, tuple[int, int, list[tuple[int, int, int | None]]]] = {}
    players: dict[int, ListedPlayer] = {}
    for (
        table_id,
        session,
        table,
        seat,
        player_id,
        replaces,
        stands_in_for,
        *listed,
    ) in seats.order_by().values_list(*_TABLE_SEAT_FIELDS):
        players[player_id] = _listed(*listed)
        tables.setdefault(table_id, (session, table, []))[2].append(
            (seat, player_id, replaces or stands_in_for)
        )
    shown = None if player is None else {player.pk}
    # The withdrawn players whose seats the shown players took: read unless seated too.
    replaced = (
        {
            each
            for _s, _t, seats_of in tables.values()
            for _seat, pk, each in seats_of
            if shown is None or pk in shown
        }
        - {None}
        - players.keys()
    )
    if replaced:
        found = tournament.players.filter(pk__in=replaced).values_list("pk", *_LISTED_FIELDS)
        players.update((pk, _listed(*listed)) for pk, *listed in found)
    by_player: dict[int, tuple[list[PlayerSeat], list[PlayedTable]]] = {}
    for table_id, (session, table, seats_of) in sorted(tables.items(), key=lambda t: t[1][:2]):
        seats_of.sort()
        by_seat = [0, 0, 0, 0]
        for seat, player_id, _replaced in seats_of:
            by_seat[seat] = player_id
        played = PlayedTable(table_id, session, table, tuple(by_seat))
        for seat, player_id, replaces in seats_of:
            if shown is not None and player_id not in shown:
                continue
            schedule, tables_of = by_player.setdefault(player_id, ([], []))
            tables_of.append(played)
            schedule.append(
                PlayerSeat(
                    session=Numbered(session),
                    table=Numbered(table),
                    seat=seat,
                    opponents=[
                        (SEAT_LABELS[other], players[other_id])
                        for other, other_id, _replaced in seats_of
                        if other_id != player_id
                    ],
                    replaces=players.get(replaces),
                )
            )
    return published, by_player


def _planned(
    tournament, drawn: set[int], player: Player | None = None
) -> dict[int, list[PlannedSeat]]:
    """Player id -> ``player_planned_sessions``, with the sessions shown: of every player
    still in, or of ``player`` alone (when still in); their tables of the published plan
    (read from it once: a few milliseconds at 1,000 players) and the opponents still in."""
    if tournament.seating_method != "planned":
        return {}
    if player is not None and not player.is_active:
        return {}
    plan = (
        SeatingPlan.objects.filter(tournament_id=tournament.pk)
        .values_list("sessions", flat=True)
        .first()
    )
    if plan is None:
        return {}
    found: dict[int, list[tuple[int, int, list[int]]]] = {}
    for session, tables in enumerate(plan, start=1):
        if session in drawn:
            continue
        for table, numbers in enumerate(tables, start=1):
            for number in numbers:
                if player is None or number == player.number:
                    found.setdefault(number, []).append((session, table, numbers))
    still_in = tournament.players.filter(ACTIVE_PLAYERS)
    if player is not None:  # the player's opponents (every player's are nearly everyone)
        still_in = still_in.filter(
            number__in={
                number for _s, _t, numbers in found.get(player.number, ()) for number in numbers
            }
        )
    active = {
        number: (pk, ListedPlayer(number, name, name_zh, is_substitute))
        for pk, number, name, name_zh, is_substitute in still_in.values_list(
            "pk", "number", "name", "name_zh", "is_substitute"
        )
    }
    return {
        active[number][0]: [
            PlannedSeat(
                session=session,
                table=table,
                seat=numbers.index(number),
                opponents=[
                    (SEAT_LABELS[i], active[n][1] if n in active else None)
                    for i, n in enumerate(numbers)
                    if n != number
                ],
            )
            for session, table, numbers in seats
        ]
        for number, seats in found.items()
        if number in active
    }


def players_for_draw(tournament) -> list[Player]:
    """The active players the next draw seats, by the seating core's rule
    (``seating.players_to_draw``: the regular players topped up with substitutes, lowest
    number first); raises its ``DrawError`` when they cannot fill tables of four."""
    active = {p.number: p for p in tournament.players.filter(ACTIVE_PLAYERS).order_by("number")}
    drawn = seating.players_to_draw(
        [number for number, player in active.items() if not player.is_substitute],
        [number for number, player in active.items() if player.is_substitute],
    )
    return [active[number] for number in drawn]


@dataclass(frozen=True)
class MethodPreviewRow:
    method: str
    label: str
    extra_meetings: int


def method_previews(tournament) -> tuple[MethodPreviews, list[MethodPreviewRow]] | None:
    """Before the first draw, what each seating method gives the players the draw would seat
    over the tournament's sessions (``seating.preview``), cached under the tournament's data
    version, with a row per method as the draw page lists them; None once a session is drawn,
    or while the players cannot fill tables of four."""
    if tournament.sessions.exists():
        return None
    try:
        players = players_for_draw(tournament)
    except seating.DrawError:
        return None
    groups = seating_groups(tournament, players)
    key = (
        f"mcr:method-previews:{tournament.pk}:{data_version(tournament)}"
        f":{tournament.session_count}:{tournament.separate_by}"
    )
    found = cached(
        key,
        lambda: preview.method_previews(
            [p.number for p in players], tournament.session_count, groups=groups
        ),
    )
    labels = dict(SEATING_METHOD_CHOICES)
    rows = [
        MethodPreviewRow(method, str(labels[method]), found.extra_meetings[method])
        for method in preview.PREVIEWED
    ]
    return found, rows
