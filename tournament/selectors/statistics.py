"""The figures of the hands (``tournament.hall.statistics`` computes them from plain rows read
here): a player's record, read each time in one query, and the tournament's figures, cached
under the data version; the referees' desk's, read each time (two small queries).
"""

from dataclasses import dataclass

from tournament.hall import statistics
from tournament.models import Hand, Player, RefereeCall, Ruling, Seat
from tournament.selectors.lookups import cached, data_version
from tournament.selectors.seating import ListedPlayer, PlayedTable, player_tables
from tournament.selectors.standings import rank_history

# A hand's own fields the statistics read, in ``statistics.HandRow``'s order (its table's
# players come between the flowers and the fan names).
_HAND_FIELDS = (
    "number",
    "outcome",
    "winner",
    "discarder",
    "fan",
    "flowers",
    "fan_names",
    "winning_hand",
)
# A hand as the statistics read it: its table's id first (to find the table's players).
_HAND_ROW_FIELDS = ("table_id", "table__session__number", "table__number", *_HAND_FIELDS)


def _table_players(seats) -> dict[int, tuple[int, ...]]:
    """Table id -> its players' ids by starting seat, from ``seats`` (one query)."""
    players: dict[int, list[int]] = {}
    for table_id, seat, player_id in seats.order_by().values_list("table_id", "seat", "player_id"):
        players.setdefault(table_id, [0, 0, 0, 0])[seat] = player_id
    return {table_id: tuple(four) for table_id, four in players.items()}


def _hand_rows(hands, players: dict[int, tuple[int, ...]]) -> list[statistics.HandRow]:
    """``hands`` (a queryset) as plain rows, in one query."""
    return [
        statistics.HandRow(session, table, *fields, players[table_id], names, typed)
        for table_id, session, table, *fields, names, typed in hands.order_by().values_list(
            *_HAND_ROW_FIELDS
        )
    ]


@dataclass(frozen=True)
class PlayerRecord:
    """A player's page figures: statistics of their hands and their rank after each session."""

    statistics: statistics.PlayerStatistics
    ranks: tuple[tuple[int, int | None], ...]  # (session, rank or None while unranked)
    chart: statistics.RankChart | None  # None while the player has no rank


def player_record(
    player: Player, tables: list[PlayedTable] | None = None, *, as_read: bool = False
) -> PlayerRecord:
    """The player's statistics (``compute_player_statistics``, of ``tables`` when the caller
    has read them already) and their ranks from the ``rank_history`` (under the versions
    read with the tournament with ``as_read``)."""
    history = rank_history(player.tournament, as_read=as_read)
    ranks = history.of(player.pk)
    chart = None
    if any(rank is not None for _session, rank in ranks):
        chart = statistics.rank_chart(ranks, max(history.ranked))
    figures = compute_player_statistics(player, tables)
    return PlayerRecord(statistics=figures, ranks=ranks, chart=chart)


# A hand as a player's statistics read it, with each of its penalties (a hand without one
# comes once, with None for these).
_PLAYER_HAND_FIELDS = (
    "table_id",
    *_HAND_FIELDS,
    "penalties__id",
    "penalties__offender",
    "penalties__kind",
    "penalties__points",
)


def compute_player_statistics(
    player: Player, tables: list[PlayedTable] | None = None
) -> statistics.PlayerStatistics:
    """The player's statistics from the hands and penalties of the tables they sat at: their
    tables (``player_tables``, unless given), then one query for the hands with their
    penalties. Not cached: at a big event every hand raises the version it would be kept
    under, and a page rarely comes twice in one version."""
    tables = {table.id: table for table in (player_tables(player) if tables is None else tables)}
    if not tables:
        return statistics.player_statistics(player.pk, ())
    hands: dict[tuple[int, int], statistics.HandRow] = {}
    penalties = []
    rows = Hand.objects.filter(table_id__in=tables).order_by().values_list(*_PLAYER_HAND_FIELDS)
    for table_id, number, *fields, names, typed, penalty, offender, kind, points in rows:
        table = tables[table_id]
        if (table_id, number) not in hands:
            hands[table_id, number] = statistics.HandRow(
                table.session, table.number, number, *fields, table.players, names, typed
            )
        if penalty is not None:
            penalties.append(statistics.PenaltyRow(table.players, offender, kind, points))
    return statistics.player_statistics(
        player.pk, hands.values(), penalties, player.tournament.rules
    )


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
    return cached(key, lambda: compute_tournament_figures(tournament))


def compute_tournament_figures(tournament) -> TournamentFigures:
    """The tournament's statistics from every hand entered: three queries (every seat, every
    hand, the biggest hands' winners), whatever the tournament's size."""
    players = _table_players(Seat.objects.filter(session__tournament=tournament))
    hands = _hand_rows(Hand.objects.filter(table__session__tournament=tournament), players)
    figures = statistics.tournament_statistics(hands, tournament.rules)
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


def desk_figures(tournament) -> tuple[statistics.DeskFigures, ...]:
    """Each session's calls for a referee and rulings (``statistics.desk_statistics``): two
    small queries on each read, the calls and the rulings being few (no cache of their own:
    a page of a thousand players' event reads a few hundred rows)."""
    calls = [
        statistics.CallRow(
            session, called_at, taken_at, ended_at if state == RefereeCall.RESOLVED else None
        )
        for session, called_at, taken_at, ended_at, state in RefereeCall.objects.filter(
            table__session__tournament=tournament
        )
        .order_by()
        .values_list("table__session__number", "called_at", "taken_at", "ended_at", "state")
    ]
    rulings = [
        statistics.RulingRow(session, bool(kind))
        for session, kind in Ruling.objects.filter(table__session__tournament=tournament)
        .order_by()
        .values_list("table__session__number", "penalty_kind")
    ]
    return statistics.desk_statistics(calls, rulings)
