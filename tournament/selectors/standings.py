"""Session results and standings: the seat results the hand service stores, added up and
ranked by the rules' tie-breaks (cached whole in the shared cache under the tournament's
version, so a corrected hand changes the standings at once); the rank after each session;
teams; the penalties; the stored results checked against the hands. Table points are
added up as whole twelfths (what they always are) and handed out as exact ``Fraction``s.
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


def _ranked_player(is_substitute: bool, withdrawn_at, sessions_played: int) -> bool:
    """Whether a player is ranked: substitutes never are; nor is a player who withdrew
    without playing."""
    return not is_substitute and (withdrawn_at is None or sessions_played > 0)


@dataclass
class StandingRow:
    player: Player
    table_points: Fraction = Fraction(0)
    score: int = 0
    places: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    sessions_played: int = 0
    best_session: int | None = None
    rank: int | None = None
    hands_won: int = 0

    @property
    def ranked(self) -> bool:
        return _ranked_player(
            self.player.is_substitute, self.player.withdrawn_at, self.sessions_played
        )

    @property
    def first_places(self) -> int:
        return self.places[0]

    @property
    def second_places(self) -> int:
        return self.places[1]

    @property
    def third_places(self) -> int:
        return self.places[2]

    @property
    def fourth_places(self) -> int:
        return self.places[3]


# Each tie-break's value of a player's tally (``_Tally``), negated where more is better so
# that an ascending sort puts the best first. Table points are compared as whole twelfths,
# which order as the fractions do. A player with no session yet has no best session and
# sorts below any score. More 1st, 2nd and 3rd places rank higher; more 4th places lower (a
# 4th place is the worst result a table gives: counting it as an honour would rank a player
# up for losing; between players with as many sessions and the same 1st to 3rd places it
# cannot differ, so it only tells apart players who played a different number of sessions).
# The player number ranks the lower first and is never shared: after it no two players tie.
_SORT_VALUES = {
    "table_points": lambda tally: -tally.twelfths,
    "score": lambda tally: -tally.score,
    "first_places": lambda tally: -tally.places[0],
    "second_places": lambda tally: -tally.places[1],
    "third_places": lambda tally: -tally.places[2],
    "fourth_places": lambda tally: tally.places[3],
    "best_session": lambda tally: 10**9 if tally.best is None else -tally.best,
    "hands_won": lambda tally: -tally.won,
    "player_number": lambda tally: tally.values[_NUMBER],
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
    return _teams(
        (row.player.team, row.player.name, scoring.to_twelfths(row.table_points), row.score)
        for row in rows
        if row.ranked
    )


def _teams(members) -> list[TeamRow]:
    """``team_standings`` of the ranked players' (team, name, table points in twelfths,
    score), in the standings' order; a player without a team counts for none."""
    teams: dict[str, list] = {}
    for team, name, twelfths, score in members:
        if team:
            totals = teams.setdefault(team, [[], 0, 0])
            totals[0].append(name)
            totals[1] += twelfths
            totals[2] += score
    ordered = sorted(teams.items(), key=lambda item: (-item[1][1], -item[1][2], item[0]))
    rows = []
    previous = None
    for position, (team, (members, twelfths, score)) in enumerate(ordered, start=1):
        rank = rows[-1].rank if (twelfths, score) == previous else position
        previous = (twelfths, score)
        rows.append(TeamRow(team, members, scoring.from_twelfths(twelfths), score, rank))
    return rows


# A player as the cached standings keep them: their field values, in this order.
_PLAYER_ATTNAMES = tuple(field.attname for field in Player._meta.concrete_fields)
_ID, _NUMBER, _NAME, _TEAM, _SUBSTITUTE, _WITHDRAWN_AT = (
    _PLAYER_ATTNAMES.index(name)
    for name in ("id", "number", "name", "team", "is_substitute", "withdrawn_at")
)


class _Tally:
    """One player's totals while the sessions are added up (``_by_session``): their field
    values as read and plain numbers, table points as whole twelfths."""

    __slots__ = ("best", "places", "played", "rank", "score", "twelfths", "values", "won")

    def __init__(self, values: tuple):
        self.values = values
        self.twelfths = self.score = self.played = self.won = 0
        self.places = [0, 0, 0, 0]
        self.best: int | None = None
        self.rank: int | None = None

    @property
    def ranked(self) -> bool:
        return _ranked_player(self.values[_SUBSTITUTE], self.values[_WITHDRAWN_AT], self.played)


class Standings(Sequence):
    """The standings as the pages read them: the ``StandingRow``s in the ranking order, then
    the players not ranked; their teams (``teams``), and a player's row (``row_of``).

    Kept in the cache as plain values (the players' fields, their figures with table points
    in twelfths), each row built when read, its table points an exact ``Fraction`` again: a
    page of 100 rows or one player's row is all most readers build, and plain values
    unpickle many times faster than model instances and fractions.
    """

    def __init__(self, tallies: list[_Tally]):
        self.players = [tally.values for tally in tallies]
        self.figures = [
            (
                tally.twelfths,
                tally.score,
                tuple(tally.places),
                tally.played,
                tally.best,
                tally.rank,
                tally.won,
            )
            for tally in tallies
        ]
        self.team_rows = _teams(
            (tally.values[_TEAM], tally.values[_NAME], tally.twelfths, tally.score)
            for tally in tallies
            if tally.ranked
        )
        self.has_teams = any(tally.values[_TEAM] for tally in tallies)
        self.ranked_count = sum(1 for tally in tallies if tally.rank is not None)

    def _row(self, index: int) -> StandingRow:
        twelfths, score, places, played, best, rank, won = self.figures[index]
        return StandingRow(
            player=Player.from_db(DEFAULT_DB_ALIAS, _PLAYER_ATTNAMES, self.players[index]),
            table_points=scoring.from_twelfths(twelfths),
            score=score,
            places=list(places),
            sessions_played=played,
            best_session=best,
            rank=rank,
            hands_won=won,
        )

    def __len__(self) -> int:
        return len(self.players)

    def __getitem__(self, index):
        # A range's indexing: negative indices count from the end, one beyond raises IndexError.
        if isinstance(index, slice):
            return [self._row(each) for each in range(len(self))[index]]
        return self._row(range(len(self))[index])

    def __iter__(self):
        return (self._row(index) for index in range(len(self)))

    def teams(self) -> list[TeamRow]:
        """``team_standings`` of these rows."""
        return self.team_rows

    def row_of(self, player_id: int) -> StandingRow | None:
        """The player's row, with their rank (None when not ranked)."""
        index = next((i for i, values in enumerate(self.players) if values[_ID] == player_id), None)
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


# The layout of what ``_kept`` keeps (``Standings``: table points as twelfths since 2), in
# its keys: a value kept by a release with another layout, still in Redis after an upgrade,
# is never read as this one's. (3: each row's hands won.)
KEPT_LAYOUT = 3


def _kept(tournament, kind: str, as_read: bool):
    """The standings ("standings") or the rank history ("history") as cached under the
    tournament's version. Both come from one reading of the seats (``_by_session``), under
    one lock: after a hand the first reader of either computes both and keeps both, and the
    readers of either wait for it instead of computing them again."""
    version, tiebreaks = _standings_version(tournament, as_read=as_read)

    def both() -> dict:
        standings, history = _by_session(tournament, tiebreaks)
        return {"standings": standings, "history": history}

    if version is None:
        return both()[kind]
    keys = {
        "standings": f"mcr:standings:{KEPT_LAYOUT}:{tournament.pk}:{version}",
        "history": f"mcr:rank-history:{KEPT_LAYOUT}:{tournament.pk}:{version}",
    }

    def compute():
        computed = both()
        other = "history" if kind == "standings" else "standings"
        cache.set(keys[other], computed[other], STANDINGS_CACHE_SECONDS)
        return computed[kind]

    return cached(keys[kind], compute, lock=f"mcr:standings-lock:{tournament.pk}:{version}")


def compute_standings(tournament, *, tiebreaks: list[str] | None = None) -> list[StandingRow]:
    """``standings`` from the database as it is now: the seats' stored results added up,
    one query for the players and one for the seats, whatever the tournament's size.
    Ranked by ``tiebreaks`` (the tournament's as it holds them, by default)."""
    return list(_by_session(tournament, tiebreaks)[0])


def compute_rank_history(tournament, *, tiebreaks: list[str] | None = None) -> RankHistory:
    """The rank after each session with results, from the database as it is now
    (``_by_session``)."""
    return _by_session(tournament, tiebreaks)[1]


def _ranked(tallies, tiebreaks: list[str]) -> list[_Tally]:
    """``tallies`` in the ranking order, each given its rank (shared by equal players); then
    the players not ranked, by number, without one."""
    keyed, others = [], []
    values = [_SORT_VALUES[key] for key in tiebreaks]
    for tally in tallies:
        if tally.ranked:
            keyed.append((tuple([value(tally) for value in values]), tally.values[_NUMBER], tally))
        else:
            tally.rank = None
            others.append(tally)
    keyed.sort(key=lambda item: item[:2])
    ranked = []
    previous_key = None
    for position, (key, _number, tally) in enumerate(keyed, start=1):
        tally.rank = ranked[-1].rank if key == previous_key else position
        previous_key = key
        ranked.append(tally)
    return ranked + sorted(others, key=lambda tally: tally.values[_NUMBER])


def _by_session(tournament, tiebreaks: list[str] | None) -> tuple[Standings, RankHistory]:
    """The standings and the rank after each session, from the stored seat results: the
    sessions added one by one, each time ranked by ``_ranked`` (by ``tiebreaks``, the
    tournament's as it holds them by default). After the last session the tallies are the
    standings, so the rank after it is the standings' rank. Two queries: the players' fields,
    every seat result; plain values throughout (no model instance)."""
    if tiebreaks is None:
        tiebreaks = tournament.tiebreaks
    tallies = {
        values[_ID]: _Tally(values)
        for values in Player.objects.filter(tournament_id=tournament.pk)
        .order_by()
        .values_list(*_PLAYER_ATTNAMES)
    }
    by_session: dict[int, list[tuple[int, int, int, int, int]]] = {}
    for session, *result in (
        Seat.objects.filter(PLAYED_SEAT, session__tournament=tournament)
        .order_by()
        .values_list(
            "session__number", "player_id", "score", "table_points_twelfths", "place", "hands_won"
        )
    ):
        by_session.setdefault(session, []).append(result)
    ranks: dict[int, list[int | None]] = {pk: [] for pk in tallies}
    ranked_counts = []
    # The tallies ranked after the last session added: the standings (all unranked before
    # any).
    standings = _ranked(tallies.values(), tiebreaks) if not by_session else []
    for session in sorted(by_session):
        for player_id, score, twelfths, place, won in by_session[session]:
            tally = tallies[player_id]
            tally.score += score
            tally.won += won
            tally.twelfths += twelfths
            tally.places[place - 1] += 1
            tally.played += 1
            tally.best = score if tally.best is None else max(tally.best, score)
        standings = _ranked(tallies.values(), tiebreaks)
        ranked_counts.append(sum(1 for tally in tallies.values() if tally.rank is not None))
        for pk, tally in tallies.items():
            ranks[pk].append(tally.rank)
    history = RankHistory(
        sessions=tuple(sorted(by_session)),
        ranked=tuple(ranked_counts),
        ranks={pk: tuple(each) for pk, each in ranks.items()},
    )
    return Standings(standings), history


@dataclass(frozen=True)
class StoredResultDifference:
    """A seat whose stored result is not what its table's hands give."""

    session: int
    table: int
    seat: int
    player: Player
    stored: tuple[int, int | None, Fraction, int]  # score, place, table points, hands won
    from_hands: tuple[int, int | None, Fraction, int]


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
            winners = [row.hand.winner for row in sheet.rows if row.hand is not None]
            for index, (player, score, place, points) in enumerate(sheet.summary):
                seat = stored[(sheet.table.pk, index)]
                have = (
                    seat.score,
                    seat.place,
                    scoring.from_twelfths(seat.table_points_twelfths),
                    seat.hands_won,
                )
                won = winners.count(index)
                want = (score, place, points, won) if entered else (0, None, Fraction(0), 0)
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
