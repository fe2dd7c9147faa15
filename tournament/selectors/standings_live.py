"""The standings kept up to date table by table: what the standings pages, the players' ranks
and the rank history read while a session is played.

At a big event every hand raises the tournament's version, and standings recomputed from
every seat on the first read after it (``compute_standings``: at 10,000 players half a second,
and as much again for the rank history) would take more of the machine than the hands and
the spectators together. Instead each process keeps the players' totals as plain numbers,
checked against the database on every read:

- ``TournamentVersion.standings`` is a random stamp that every write changing the standings
  other than by a table's results replaces (players, seats, the tie-breaks): on a new stamp
  everything is read again (two queries);
- a write that only stores tables' results stamps each of them with the version it raises
  (``Table.results_version``): on a new version only the seats of the tables stamped after
  the version held are read again (one query), their players' totals recounted and moved in
  the sorted ranking.

So a read is never older than the version it read, as with the cache: the version is read
first, then what changed up to it (a write committed in between is read too, harmlessly: a
table's seats replace what was held of them). Nothing here is needed by another process or
server: each derives the same standings from the same database. ``compute_standings`` stays
what a write service reads inside its transaction; the tests hold both equal.
"""

import threading
from bisect import bisect_left, insort
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field

from tournament import scoring
from tournament.models import Player, Seat, TournamentVersion
from tournament.selectors.lookups import NOT_HELD, PLAYED_SEAT, versions_held
from tournament.selectors.prepared import PreparedRead
from tournament.selectors.standings import StandingRow, TeamRow

# A player's totals: score, table points in twelfths, places (1st to 4th), sessions played,
# best session's score (None before any).
Totals = tuple[int, int, tuple[int, int, int, int], int, int | None]
NO_TOTALS: Totals = (0, 0, (0, 0, 0, 0), 0, None)

# A played seat: (player id, session number, score, table points in twelfths, place).
SeatResult = tuple[int, int, int, int, int]
# What is read of a seat: its table and index, then its ``SeatResult`` (the place None while
# its table has not been played).
SEAT_COLUMNS = (
    "table_id",
    "seat",
    "player_id",
    "session__number",
    "score",
    "table_points_twelfths",
    "place",
)

# A player is kept as their field values, in this order (``Player.from_db`` takes them).
_PLAYER_ATTRIBUTES = tuple(field.attname for field in Player._meta.concrete_fields)
_NAME = _PLAYER_ATTRIBUTES.index("name")
_NUMBER = _PLAYER_ATTRIBUTES.index("number")
_TEAM = _PLAYER_ATTRIBUTES.index("team")
_SUBSTITUTE = _PLAYER_ATTRIBUTES.index("is_substitute")
_WITHDRAWN = _PLAYER_ATTRIBUTES.index("withdrawn_at")

# Each tiebreak's value of a player's totals, negated so that an ascending sort puts the
# best first (``selectors.standings._SORT_VALUES``, on plain totals).
_SORT_VALUES = {
    "table_points": lambda totals: -totals[1],
    "score": lambda totals: -totals[0],
    "first_places": lambda totals: -totals[2][0],
    "best_session": lambda totals: 10**9 if totals[4] is None else -totals[4],
}


# The seats of the tables whose results were stored after a version: every process reads
# them after nearly every hand at a big event, so the statement is compiled once.
_changed_seats = PreparedRead(
    lambda tournament_id, version: (
        Seat.objects.filter(
            session__tournament_id=tournament_id, table__results_version__gt=version
        )
        .order_by()
        .values_list(*SEAT_COLUMNS)
    ),
    987_654_321,
    987_654_322,
)


def totals_of(seats) -> Totals:
    """A player's totals from their played seats (``SeatResult``s)."""
    score = twelfths = played = 0
    places = [0, 0, 0, 0]
    best = None
    for _player, _session, seat_score, seat_twelfths, place in seats:
        score += seat_score
        twelfths += seat_twelfths
        places[place - 1] += 1
        played += 1
        best = seat_score if best is None else max(best, seat_score)
    return (score, twelfths, tuple(places), played, best)


@dataclass(frozen=True)
class Snapshot:
    """The standings at one version: read by any number of requests, never changed (a newer
    version is a new snapshot)."""

    players: dict[int, tuple]  # player id -> the Player's field values
    tiebreaks: tuple[str, ...]
    totals: dict[int, Totals]
    keys: list[tuple]  # the ranked players, best first: (tiebreak values, number, id)
    others: list[int]  # the players not ranked, by number
    sessions: tuple[int, ...]  # the sessions with a table played, in order
    # Ranks after each session but the last (those of the last are the standings'), and how
    # many players were ranked then: filled on first use, by ``LiveStandings``.
    earlier: dict = field(default_factory=dict, compare=False)
    db: str = "default"
    # The teams of the ranked players: team -> (table points in twelfths, score, members
    # ranked), the teams sorted best first as (-twelfths, -score, name), and each team's
    # players (ranked or not). Kept up to date with the totals, like ``keys``.
    team_totals: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    team_keys: list[tuple] = field(default_factory=list)
    team_players: dict[str, list[int]] = field(default_factory=dict)
    # Each team's ranked members' names in the ranking's order, filled on first use and
    # handed on to the next snapshot but for the teams whose members' totals moved.
    team_members: dict[str, list[str]] = field(default_factory=dict, compare=False)

    def rank_at(self, index: int) -> int:
        """The rank of the ranked player at ``index``: shared by equal players."""
        key = self.keys[index][0]
        return bisect_left(self.keys, (key,)) + 1

    def row(self, player_id: int, rank: int | None) -> StandingRow:
        score, twelfths, places, played, best = self.totals.get(player_id, NO_TOTALS)
        return StandingRow(
            player=Player.from_db(self.db, _PLAYER_ATTRIBUTES, self.players[player_id]),
            table_points=scoring.from_twelfths(twelfths),
            score=score,
            places=list(places),
            sessions_played=played,
            best_session=best,
            rank=rank,
        )

    def rank_of(self, player_id: int) -> int | None:
        """The player's rank now; None while they are not ranked."""
        fields = self.players.get(player_id)
        if fields is None:
            return None
        key = sort_key(self.tiebreaks, self.totals.get(player_id, NO_TOTALS))
        found = bisect_left(self.keys, (key, fields[_NUMBER], player_id))
        if found == len(self.keys) or self.keys[found][2] != player_id:
            return None
        return bisect_left(self.keys, (key,)) + 1


def sort_key(tiebreaks, totals: Totals) -> tuple:
    return tuple(_SORT_VALUES[name](totals) for name in tiebreaks)


def is_ranked(fields: tuple, totals: Totals) -> bool:
    """``StandingRow.ranked`` on plain values: substitutes never; a player who withdrew only
    once they have played."""
    if fields[_SUBSTITUTE]:
        return False
    return fields[_WITHDRAWN] is None or totals[3] > 0


class _RowsAsked(Sequence):
    """A sequence of rows built only for the indexes asked for (``_rows``)."""

    def __init__(self, snapshot: Snapshot):
        self.snapshot = snapshot

    def _rows(self, start: int, stop: int, step: int) -> list:
        raise NotImplementedError

    def __getitem__(self, index):
        if isinstance(index, slice):
            return self._rows(*index.indices(len(self)))
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return self._rows(index, index + 1, 1)[0]

    def __iter__(self):
        return iter(self._rows(0, len(self), 1))


class Standings(_RowsAsked):
    """The standings of a snapshot as ``StandingRow``s, in the ranking order then the players
    not ranked: built only for the rows asked for (a page of them, one player's), so that
    the first page of 10,000 players costs a hundred rows."""

    def __len__(self) -> int:
        return len(self.snapshot.keys) + len(self.snapshot.others)

    def _rows(self, start: int, stop: int, step: int) -> list[StandingRow]:
        snapshot = self.snapshot
        keys = snapshot.keys
        rows = []
        previous, rank = None, None
        for index in range(start, stop, step):
            if index >= len(keys):
                rows.append(snapshot.row(snapshot.others[index - len(keys)], None))
                continue
            key, _number, player_id = keys[index]
            if step != 1 or previous is None:
                rank = snapshot.rank_at(index)
            elif key != previous:
                rank = index + 1
            previous = key
            rows.append(snapshot.row(player_id, rank))
        return rows

    @property
    def ranked_count(self) -> int:
        return len(self.snapshot.keys)

    def row_of(self, player_id: int) -> StandingRow | None:
        """The player's row, with their rank (None when not ranked)."""
        if player_id not in self.snapshot.players:
            return None
        return self.snapshot.row(player_id, self.snapshot.rank_of(player_id))

    @property
    def has_teams(self) -> bool:
        return bool(self.snapshot.team_players)

    def teams(self) -> "TeamStandings":
        """``team_standings`` of these rows, kept with the totals: built for the rows asked
        for."""
        return TeamStandings(self.snapshot)


class TeamStandings(_RowsAsked):
    """The teams by their ranked members' table points then scores, as ``TeamRow``s; each
    team's members in the ranking's order."""

    def __len__(self) -> int:
        return len(self.snapshot.team_keys)

    def _rows(self, start: int, stop: int, step: int) -> list[TeamRow]:
        snapshot = self.snapshot
        keys = snapshot.team_keys
        rows = []
        for index in range(start, stop, step):
            minus_twelfths, minus_score, name = keys[index]
            rank = bisect_left(keys, (minus_twelfths, minus_score)) + 1
            rows.append(
                TeamRow(
                    name,
                    self._members(name),
                    scoring.from_twelfths(-minus_twelfths),
                    -minus_score,
                    rank,
                )
            )
        return rows

    def _members(self, team: str) -> list[str]:
        snapshot = self.snapshot
        members = snapshot.team_members.get(team)
        if members is None:
            members = snapshot.team_members[team] = self._members_ranked(team)
        return members

    def _members_ranked(self, team: str) -> list[str]:
        snapshot = self.snapshot
        ranked = []
        for pk in snapshot.team_players.get(team, ()):
            fields, totals = snapshot.players[pk], snapshot.totals.get(pk, NO_TOTALS)
            if is_ranked(fields, totals):
                ranked.append((sort_key(snapshot.tiebreaks, totals), fields[_NUMBER], pk))
        return [snapshot.players[pk][_NAME] for _key, _number, pk in sorted(ranked)]


def team_index(players: dict[int, tuple], totals: dict[int, Totals]):
    """``Snapshot``'s team fields from every player's fields and totals."""
    team_totals: dict[str, tuple[int, int, int]] = {}
    team_players: dict[str, list[int]] = {}
    for pk, fields in players.items():
        team = fields[_TEAM]
        if not team:
            continue
        team_players.setdefault(team, []).append(pk)
        each = totals.get(pk, NO_TOTALS)
        if is_ranked(fields, each):
            twelfths, score, members = team_totals.get(team, (0, 0, 0))
            team_totals[team] = (twelfths + each[1], score + each[0], members + 1)
    keys = sorted((-twelfths, -score, team) for team, (twelfths, score, _n) in team_totals.items())
    return team_totals, keys, team_players


def _move_team(team_totals, team_keys, team: str, old: Totals | None, new: Totals | None):
    """Move ``team`` in the sorted ``team_keys`` for a member whose counted totals go from
    ``old`` to ``new`` (None: not ranked, so not counted)."""
    twelfths, score, members = team_totals.get(team, (0, 0, 0))
    if members:
        del team_keys[bisect_left(team_keys, (-twelfths, -score, team))]
    if old is not None:
        twelfths, score, members = twelfths - old[1], score - old[0], members - 1
    if new is not None:
        twelfths, score, members = twelfths + new[1], score + new[0], members + 1
    if members:
        team_totals[team] = (twelfths, score, members)
        insort(team_keys, (-twelfths, -score, team))
    else:
        team_totals.pop(team, None)


@dataclass(frozen=True)
class LiveRankHistory:
    """``RankHistory``'s reading side (``of``, ``sessions``, ``ranked``) from a snapshot: the
    ranks after the earlier sessions kept, the last session's read from the standings."""

    sessions: tuple[int, ...]
    ranked: tuple[int, ...]
    earlier: dict[int, tuple[int | None, ...]]
    snapshot: Snapshot
    version: int  # the tournament's version it is up to

    def of(self, player_id: int) -> tuple[tuple[int, int | None], ...]:
        if not self.sessions:
            return ()
        before = self.earlier.get(player_id, (None,) * (len(self.sessions) - 1))
        ranks = (*before, self.snapshot.rank_of(player_id))
        return tuple(zip(self.sessions, ranks, strict=True))


class LiveStandings:
    """One tournament's standings in this process, brought up to the version read."""

    def __init__(self, tournament_id: int):
        self.tournament_id = tournament_id
        self.lock = threading.Lock()
        self.stamp = None
        self.version = -1
        self.snapshot: Snapshot | None = None
        self.seats: dict[tuple[int, int], SeatResult] = {}
        self.by_player: dict[int, dict[tuple[int, int], SeatResult]] = {}
        self.session_seats: dict[int, int] = {}

    def current(self, tournament) -> Snapshot:
        """The standings at the tournament's version (``lookups.versions``: as read with it
        in this request, or now)."""
        return self.at_version(tournament)[1]

    def at_version(self, tournament) -> tuple[int, Snapshot]:
        """The tournament's version (as read with it in this request, or now) and the
        standings at it."""
        # The tie-breaks with the version: a change of them gives a new stamp, and what is
        # read under it must rank by them, not by those of an older copy of the tournament.
        # The versions read with the tournament in this request come with its tie-breaks,
        # from the same query.
        held = versions_held(tournament)
        if held is NOT_HELD:
            found = (
                TournamentVersion.objects.filter(tournament_id=self.tournament_id)
                .values_list("number", "standings", "tournament__tiebreak_order")
                .first()
            )
        else:
            # Read with the tournament in this request, in the same query as its tie-breaks.
            found = None if held is None else (held[0], held[2], tournament.tiebreak_order)
        version, stamp, tiebreak_order = found or (0, None, tournament.tiebreak_order)
        tiebreaks = tuple(key for key in tiebreak_order.split(",") if key)
        with self.lock:
            held = self.snapshot
            same = held is not None and stamp is not None and stamp == self.stamp
            if same and version <= self.version:
                # What is held is as new (or newer: another thread's read), never older.
                return version, held
            try:
                if held is None or stamp is None or stamp != self.stamp:
                    self._read_all(tournament, tiebreaks)
                else:
                    self._read_tables_after(self.version, tournament, tiebreaks)
            except BaseException:
                # Half read (the database gone mid-read): read everything next time.
                self.snapshot, self.stamp, self.version = None, None, -1
                raise
            self.stamp, self.version = stamp, version
            return version, self.snapshot

    def _read_all(self, tournament, tiebreaks: tuple[str, ...]) -> None:
        players = {
            fields[0]: fields
            for fields in tournament.players.order_by().values_list(*_PLAYER_ATTRIBUTES)
        }
        self.seats, self.by_player, self.session_seats = {}, {}, {}
        results = (
            Seat.objects.filter(PLAYED_SEAT, session__tournament_id=self.tournament_id)
            .order_by()
            .values_list(*SEAT_COLUMNS)
        )
        for table_id, seat, *result in results:
            self._hold((table_id, seat), tuple(result))
        totals = {pk: totals_of(seats.values()) for pk, seats in self.by_player.items()}
        keys, others = [], []
        for pk, fields in players.items():
            each = totals.get(pk, NO_TOTALS)
            if is_ranked(fields, each):
                keys.append((sort_key(tiebreaks, each), fields[_NUMBER], pk))
            else:
                others.append(pk)
        keys.sort()
        others.sort(key=lambda pk: players[pk][_NUMBER])
        team_totals, team_keys, team_players = team_index(players, totals)
        self.snapshot = Snapshot(
            players=players,
            tiebreaks=tiebreaks,
            totals=totals,
            keys=keys,
            others=others,
            sessions=tuple(sorted(self.session_seats)),
            db=tournament._state.db or "default",
            team_totals=team_totals,
            team_keys=team_keys,
            team_players=team_players,
        )

    def _hold(self, place: tuple[int, int], result: SeatResult | None) -> None:
        """Hold ``result`` as the seat's (None: the seat not played), dropping what was held."""
        held = self.seats.pop(place, None)
        if held is not None:
            self.by_player[held[0]].pop(place, None)
            self._count_session(held[1], -1)
        if result is not None:
            self.seats[place] = result
            self.by_player.setdefault(result[0], {})[place] = result
            self._count_session(result[1], +1)

    def _count_session(self, session: int, change: int) -> None:
        count = self.session_seats.get(session, 0) + change
        if count:
            self.session_seats[session] = count
        else:
            self.session_seats.pop(session, None)

    def _read_tables_after(self, version: int, tournament, tiebreaks) -> None:
        changed = _changed_seats.rows(self.tournament_id, version)
        held = self.snapshot
        sessions_before = held.sessions
        touched: dict[int, None] = {}
        earlier_changed = False
        last = sessions_before[-1] if sessions_before else None
        for table_id, seat, player_id, session, score, twelfths, place in changed:
            before = self.seats.get((table_id, seat))
            result = None if place is None else (player_id, session, score, twelfths, place)
            if before == result:
                continue
            for each in (before, result):
                if each is not None:
                    touched[each[0]] = None
                    earlier_changed |= last is None or each[1] < last
            self._hold((table_id, seat), result)
        if not touched:
            return
        sessions = tuple(sorted(self.session_seats))
        totals = dict(held.totals)
        keys = list(held.keys)
        team_totals, team_keys = held.team_totals, held.team_keys
        others_changed = False
        for pk in touched:
            fields = held.players.get(pk)
            if fields is None:  # a seat of a player this snapshot does not know: read all
                self._read_all(tournament, tiebreaks)
                return
            old = held.totals.get(pk, NO_TOTALS)
            new = totals_of(self.by_player.get(pk, {}).values())
            totals[pk] = new
            was_ranked, ranked = is_ranked(fields, old), is_ranked(fields, new)
            if was_ranked:
                del keys[bisect_left(keys, (sort_key(held.tiebreaks, old), fields[_NUMBER], pk))]
            if ranked:
                insort(keys, (sort_key(held.tiebreaks, new), fields[_NUMBER], pk))
            if fields[_TEAM] and (was_ranked or ranked):
                if team_keys is held.team_keys:  # the held snapshot's stay as they are
                    team_totals, team_keys = dict(team_totals), list(team_keys)
                counted = (old if was_ranked else None), (new if ranked else None)
                _move_team(team_totals, team_keys, fields[_TEAM], *counted)
            # A substitute's hands leave the players not ranked as they are.
            others_changed |= was_ranked != ranked
        others = held.others
        if others_changed:
            others = sorted(
                (
                    pk
                    for pk, fields in held.players.items()
                    if not is_ranked(fields, totals.get(pk, NO_TOTALS))
                ),
                key=lambda pk: held.players[pk][_NUMBER],
            )
        keep_earlier = not earlier_changed and sessions == sessions_before
        # Copied at once (requests fill it without the lock), then the teams moved dropped.
        members = dict(held.team_members)
        for pk in touched:
            members.pop(held.players[pk][_TEAM], None)
        self.snapshot = Snapshot(
            players=held.players,
            tiebreaks=held.tiebreaks,
            totals=totals,
            keys=keys,
            others=others,
            sessions=sessions,
            earlier=held.earlier if keep_earlier else {},
            db=held.db,
            team_totals=team_totals,
            team_keys=team_keys,
            team_players=held.team_players,
            team_members=members,
        )

    def rank_history(self, tournament) -> LiveRankHistory:
        version, _read = self.at_version(tournament)
        with self.lock:
            # The snapshot the seats held now belong to: the one just read, or a newer one
            # another thread brought in since (as exact for the version read).
            snapshot = self.snapshot
            if "ranks" not in snapshot.earlier and snapshot.sessions:
                snapshot.earlier.update(self._earlier_ranks(snapshot))
        earlier = snapshot.earlier
        return LiveRankHistory(
            sessions=snapshot.sessions,
            ranked=(*earlier.get("ranked", ()), len(snapshot.keys)) if snapshot.sessions else (),
            earlier=earlier.get("ranks", {}),
            snapshot=snapshot,
            version=version,
        )

    def _earlier_ranks(self, snapshot: Snapshot) -> dict:
        """The ranks after each session but the last, as ``compute_rank_history`` gives them."""
        by_session: dict[int, list[SeatResult]] = {}
        for result in self.seats.values():
            by_session.setdefault(result[1], []).append(result)
        seats: dict[int, list[SeatResult]] = {}
        ranks: dict[int, list[int | None]] = {pk: [] for pk in snapshot.players}
        ranked_counts = []
        for session in snapshot.sessions[:-1]:
            for result in by_session.get(session, ()):
                seats.setdefault(result[0], []).append(result)
            keyed = []
            for pk, fields in snapshot.players.items():
                totals = totals_of(seats.get(pk, ()))
                if is_ranked(fields, totals):
                    keyed.append((sort_key(snapshot.tiebreaks, totals), fields[_NUMBER], pk))
                else:
                    ranks[pk].append(None)
            keyed.sort()
            previous, rank = None, None
            for position, (key, _number, pk) in enumerate(keyed, start=1):
                rank = rank if key == previous else position
                previous = key
                ranks[pk].append(rank)
            ranked_counts.append(len(keyed))
        return {
            "ranks": {pk: tuple(each) for pk, each in ranks.items()},
            "ranked": tuple(ranked_counts),
        }


# The tournaments this process keeps, the most recently read last: an event's servers serve
# one or two at a time, but a person's page and a series read each of theirs.
KEPT = 64
_live: OrderedDict[int, LiveStandings] = OrderedDict()
_live_lock = threading.Lock()


def live_standings(tournament) -> LiveStandings:
    with _live_lock:
        held = _live.get(tournament.pk)
        if held is None:
            held = _live[tournament.pk] = LiveStandings(tournament.pk)
            while len(_live) > KEPT:
                _live.popitem(last=False)
        _live.move_to_end(tournament.pk)
    return held


def current_standings(tournament) -> Standings:
    """The tournament's standings as stored now (see the module's text)."""
    return Standings(live_standings(tournament).current(tournament))


def current_rank_history(tournament) -> LiveRankHistory:
    """Every player's rank after each session with results, as stored now, and the
    tournament's version it is up to."""
    return live_standings(tournament).rank_history(tournament)


def forget_all() -> None:
    """Drop what this process keeps (the tests' fresh start)."""
    with _live_lock:
        _live.clear()
