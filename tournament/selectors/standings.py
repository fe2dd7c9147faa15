"""Session results and standings: the seat results the hand service stores, added up and
ranked by the rules' tie-breaks (cached whole in the shared cache under the tournament's
version, so a corrected hand changes the standings at once); the rank after each session;
teams; the penalties; the stored results checked against the hands. Table points stay exact
``Fraction``s.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from django.core.cache import cache
from django.db import DEFAULT_DB_ALIAS

from tournament import scoring
from tournament.models import (
    Penalty,
    Player,
    Seat,
    TournamentVersion,
)
from tournament.players import names
from tournament.selectors.lookups import (
    PLAYED_SEAT,
    STANDINGS_CACHE_SECONDS,
    cached,
    versions,
)
from tournament.selectors.sheets import session_sheets


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

    @property
    def ranked(self) -> bool:
        """Substitutes are never ranked; nor is a player who withdrew without playing."""
        if self.player.is_substitute:
            return False
        return self.player.withdrawn_at is None or self.sessions_played > 0

    @property
    def first_places(self) -> int:
        return self.places[0]


def _twelfths(points: Fraction):
    """Table points as whole twelfths (what they always are), which order as the fractions
    do and compare many times faster; the ``Fraction`` itself if it ever is not."""
    if scoring.TWELFTHS % points.denominator:
        return points
    return points.numerator * (scoring.TWELFTHS // points.denominator)


# Each tiebreak's value of a row, negated so that an ascending sort puts the best first. A
# player with no session yet has no best session and sorts below any real score.
_SORT_VALUES = {
    "table_points": lambda row: -_twelfths(row.table_points),
    "score": lambda row: -row.score,
    "first_places": lambda row: -row.places[0],
    "best_session": lambda row: 10**9 if row.best_session is None else -row.best_session,
}


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


# A player as the cached standings keep them: their field values, in this order.
_PLAYER_ATTNAMES = tuple(field.attname for field in Player._meta.concrete_fields)


class Standings(Sequence):
    """The standings as the pages read them: the ``StandingRow``s in the ranking order, then
    the players not ranked; their teams (``teams``), and a player's row (``row_of``).

    Kept in the cache as plain values, each row built when read: at 1,000 players the rows
    with their ``Player`` instances took 17 ms to unpickle, the plain values about 1 ms, and
    a page of 100 rows or one player's row is all most readers build.
    """

    def __init__(self, rows: list[StandingRow]):
        self.players = [
            tuple(getattr(row.player, name) for name in _PLAYER_ATTNAMES) for row in rows
        ]
        self.figures = [
            (
                row.table_points,
                row.score,
                tuple(row.places),
                row.sessions_played,
                row.best_session,
                row.rank,
            )
            for row in rows
        ]
        self.team_rows = team_standings(rows)
        self.has_teams = any(row.player.team for row in rows)
        self.ranked_count = sum(1 for row in rows if row.rank is not None)

    def _row(self, index: int) -> StandingRow:
        points, score, places, played, best, rank = self.figures[index]
        return StandingRow(
            player=Player.from_db(DEFAULT_DB_ALIAS, _PLAYER_ATTNAMES, self.players[index]),
            table_points=points,
            score=score,
            places=list(places),
            sessions_played=played,
            best_session=best,
            rank=rank,
        )

    def __len__(self) -> int:
        return len(self.players)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self._row(each) for each in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return self._row(index)

    def __iter__(self):
        return (self._row(index) for index in range(len(self)))

    def teams(self) -> list[TeamRow]:
        """``team_standings`` of these rows."""
        return self.team_rows

    def row_of(self, player_id: int) -> StandingRow | None:
        """The player's row, with their rank (None when not ranked)."""
        index = next((i for i, values in enumerate(self.players) if values[0] == player_id), None)
        return None if index is None else self._row(index)


def _standings_version(tournament, *, as_read: bool = False) -> tuple[str | None, list[str]]:
    """The key of the tournament's standings as stored now (its data version and the stamp
    no other state of any tournament shares; None before it has a version, so nothing may be
    cached), and the tie-breaks read in the same query: a caller holding the tournament as
    read before they changed still ranks by the new ones. ``as_read``: as read with the
    tournament, for a page (``lookups.versions``)."""
    if as_read:
        found = versions(tournament, as_read=True)
        if found is None:
            return None, tournament.tiebreaks
        return f"{found[0]}-{found[2]}", tournament.tiebreaks
    found = (
        TournamentVersion.objects.filter(tournament_id=tournament.pk)
        .values_list("number", "standings", "tournament__tiebreak_order")
        .first()
    )
    if found is None:
        return None, tournament.tiebreaks
    number, stamp, order = found
    return f"{number}-{stamp}", [key for key in order.split(",") if key]


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


def tournament_standings(tournament, *, as_read: bool = False) -> Standings:
    """Players ordered by the tournament's ranking order; equal players share a rank.

    Substitutes (and players who withdrew before playing) are listed after the
    ranked players, without a rank: a substitute's results count for the
    opponents but the substitute is not ranked.

    ``compute_standings``, cached whole in the shared cache under the tournament's version,
    read first: never older than the last write. (A write service that needs the standings
    computes them with ``compute_standings``: what it reads inside its transaction must be
    what it sees there.) ``as_read``: under the versions read with the tournament, for a
    page (``lookups.versions``).
    """
    return _kept(tournament, "standings", as_read)


def rank_history(tournament, *, as_read: bool = False) -> RankHistory:
    """Every player's rank after each session with results: ``compute_rank_history``, cached
    under the tournament's version as the standings are (see ``tournament_standings``)."""
    return _kept(tournament, "history", as_read)


def _kept(tournament, kind: str, as_read: bool):
    """The standings ("standings") or the rank history ("history") as cached under the
    tournament's version. Both come from one reading of the seats (``_by_session``): the
    reader who computes one keeps the other too, so that after a hand the players and the
    seats are read once, not once for each."""
    version, tiebreaks = _standings_version(tournament, as_read=as_read)

    def compute():
        rows, history = _by_session(tournament, tiebreaks)
        both = {"standings": Standings(rows), "history": history}
        if version is not None:
            other = "history" if kind == "standings" else "standings"
            cache.set(keys[other], both[other], STANDINGS_CACHE_SECONDS)
        return both[kind]

    if version is None:
        return compute()
    keys = {
        "standings": f"mcr:standings:{tournament.pk}:{version}",
        "history": f"mcr:rank-history:{tournament.pk}:{version}",
    }
    return cached(keys[kind], compute)


def compute_standings(tournament, *, tiebreaks: list[str] | None = None) -> list[StandingRow]:
    """``standings`` from the database as it is now: the seats' stored results added up,
    one query for the players and one for the seats, whatever the tournament's size.
    Ranked by ``tiebreaks`` (the tournament's as it holds them, by default)."""
    return _by_session(tournament, tiebreaks)[0]


def compute_rank_history(tournament, *, tiebreaks: list[str] | None = None) -> RankHistory:
    """The rank after each session with results, from the database as it is now
    (``_by_session``)."""
    return _by_session(tournament, tiebreaks)[1]


def _ranked(rows, tiebreaks: list[str]) -> list[StandingRow]:
    """``rows`` in the ranking order, each given its rank (shared by equal players); then
    the players not ranked, by number, without one."""
    keyed, others = [], []
    values = [_SORT_VALUES[key] for key in tiebreaks]
    for row in rows:
        if row.ranked:
            keyed.append((tuple([value(row) for value in values]), row.player.number, row))
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


def _by_session(tournament, tiebreaks: list[str] | None) -> tuple[list[StandingRow], RankHistory]:
    """The standings and the rank after each session, from the stored seat results: the
    sessions added one by one, each time ranked by ``_ranked`` (by ``tiebreaks``, the
    tournament's as it holds them by default). After the last session the rows are the
    standings, so the rank after it is the standings' rank. Two queries: the players, every
    seat result."""
    if tiebreaks is None:
        tiebreaks = tournament.tiebreaks
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
    # The rows ranked after the last session added: the standings (all unranked before any).
    standings = _ranked(rows.values(), tiebreaks) if not by_session else []
    for session in sorted(by_session):
        for player_id, score, points, place in by_session[session]:
            row = rows[player_id]
            row.score += score
            twelfths[player_id] += points
            row.places[place - 1] += 1
            row.sessions_played += 1
            row.best_session = score if row.best_session is None else max(row.best_session, score)
        for pk, total in twelfths.items():
            rows[pk].table_points = scoring.from_twelfths(total)
        standings = _ranked(rows.values(), tiebreaks)
        ranked_counts.append(sum(1 for row in rows.values() if row.rank is not None))
        for pk, row in rows.items():
            ranks[pk].append(row.rank)
    history = RankHistory(
        sessions=tuple(sorted(by_session)),
        ranked=tuple(ranked_counts),
        ranks={pk: tuple(each) for pk, each in ranks.items()},
    )
    return standings, history


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


def penalties_of(tournament):
    """Every penalty with its hand, table and session, for the sheet and the export."""
    return (
        Penalty.objects.filter(hand__table__session__tournament=tournament)
        .select_related("hand__table__session")
        .order_by("hand__table__session__number", "hand__table__number", "hand__number", "id")
    )


def standings_found(rows, query: str) -> list:
    """The standings' rows of the players a search finds (``names.matches``: a name or part
    of it, its pinyin or initials, the number), or whose team it names; each keeps its rank
    in the whole standings. Every row for an empty search: ``rows`` themselves."""
    if not query.strip():
        return rows
    return [
        row
        for row in rows
        if names.matches(
            query, name=row.player.name, name_zh=row.player.name_zh, number=row.player.number
        )
        or names.matches(query, name=row.player.team, name_zh="", number=row.player.number)
    ]
