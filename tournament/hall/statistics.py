"""Statistics of the hands: each player's wins, deal-ins, biggest hand and penalties; the
tournament's biggest hands, most frequent fans, wins by seat wind and session figures; the
referees' desk's figures by session (calls, waits, rulings); the geometry of a player's rank
chart.

Pure Python on plain rows, like the scoring and seating cores (no Django): ``selectors``
reads the rows in a fixed number of queries and caches what this module returns under the
tournament's version. Players are opaque keys (the selectors pass player ids).

Definitions, which the pages' footnotes repeat:

- a hand **played** is a hand entered with any result but *not played* (wins and draws);
- a **deal-in** is a win on a discard, counted against its discarder;
- the **fan** of a win is the fan the settlement uses: the hand's fan plus its flowers;
- rates and averages are kept as exact integers and rounded only for display
  (``one_decimal``: half up, to one decimal).
"""

import datetime
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from heapq import nsmallest
from typing import NamedTuple

from tournament.scoring import Outcome, PenaltyKind, claims, notation
from tournament.scoring.fans import FANS
from tournament.scoring.hand import HandError
from tournament.scoring.rules import SEED_RULES, Rules
from tournament.seating import WINDS, session_schedule

SELF_DRAWN = Outcome.SELF_DRAWN.value
DISCARD = Outcome.DISCARD.value
NOT_PLAYED = Outcome.NOT_PLAYED.value
WIN_OUTCOMES = frozenset({SELF_DRAWN, DISCARD})
# The tournament page lists this many of the biggest hands, and of the most frequent fans.
BIGGEST_HANDS = 10
FREQUENT_FANS = 20
# Flower Tiles is no fan of the hand (flowers only add to a valid win): never counted as one.
_NOT_A_FAN = claims.FLOWERS
_FAN_ORDER = {fan.key: index for index, fan in enumerate(FANS)}
_SCHEDULE = session_schedule()


class HandRow(NamedTuple):
    """One entered hand. Seats are starting seats 0..3 (P1..P4); ``players`` are the keys
    of the table's four players in that order. (A named tuple: a big tournament's forty
    thousand hands are made in a fraction of a frozen dataclass's time.)"""

    session: int
    table: int
    number: int
    outcome: str
    winner: int | None
    discarder: int | None
    fan: int | None
    flowers: int
    players: tuple[int, ...]
    fan_names: str = ""
    winning_hand: str = ""

    @property
    def is_win(self) -> bool:
        return self.outcome in WIN_OUTCOMES

    @property
    def is_played(self) -> bool:
        return self.outcome != NOT_PLAYED

    @property
    def settled_fan(self) -> int:
        """The fan the settlement pays: fan plus flowers (0 for a hand without a win)."""
        return (self.fan or 0) + self.flowers if self.is_win else 0

    @property
    def winner_player(self) -> int | None:
        return None if self.winner is None else self.players[self.winner]

    @property
    def discarder_player(self) -> int | None:
        return None if self.discarder is None else self.players[self.discarder]


class PenaltyRow(NamedTuple):
    """One penalty: its offender's starting seat at a table of ``players``."""

    players: tuple[int, ...]
    offender: int
    kind: str
    points: int

    @property
    def offender_player(self) -> int:
        return self.players[self.offender]

    @property
    def cost(self) -> int:
        """What the offender paid: the points to each of three players, or the points once."""
        return self.points * 3 if self.kind == PenaltyKind.TO_EACH_OTHER else self.points


# --- the fans of a winning hand -------------------------------------------------------

TYPED = "typed"
CLAIMED = "claimed"


@dataclass(frozen=True)
class HandFans:
    """The fans of one winning hand, in the fan table's order (biggest first): from the
    calculator when the winning hand was typed (``source`` "typed"), else from the fans
    the referee claimed ("claimed"). ``fans`` holds (fan key, times counted)."""

    source: str
    fans: tuple[tuple[str, int], ...]


def hand_fans(row: HandRow, rules: Rules = SEED_RULES) -> HandFans | None:
    """The fans of a winning hand as the data holds them, or None when it holds none."""
    if not row.is_win:
        return None
    if row.winning_hand:
        slot = _SCHEDULE[row.number - 1]
        fans = _typed_fans(
            row.winning_hand,
            slot.prevalent_wind,
            slot.seat_winds[row.winner],
            row.outcome == SELF_DRAWN,
            rules,
        )
        if fans is not None:
            return HandFans(TYPED, fans)
    if row.fan_names:
        fans = _claimed_fans(row.fan_names)
        if fans is not None:
            return HandFans(CLAIMED, fans)
    return None


# A typed hand is scored again each time the statistics are computed, which is after every
# write: remembered by what decides its fans, so only the hands entered since are scored.
# Room for every hand of the largest events (1,000 players, 10 sessions: 40,000 hands).
@lru_cache(maxsize=65_536)
def _typed_fans(
    text: str, prevalent_wind: str, seat_wind: str, self_drawn: bool, rules: Rules
) -> tuple[tuple[str, int], ...] | None:
    """The calculator's fans for a typed hand, the winds and self-draw from the sheet, under
    the tournament's rules, as the hand service scored it when it was saved
    (``services.hands.score_winning_hand``)."""
    try:
        hand, _written = notation.parse_hand_with_conditions(text)
        scored = notation.score_hand(
            replace(
                hand,
                prevalent_wind=prevalent_wind,
                seat_wind=seat_wind,
                self_drawn=self_drawn,
                flowers=0,
            ),
            rules,
        )
    except HandError:
        return None
    return tuple((fan.key, fan.count) for fan in scored.fans if fan.key != _NOT_A_FAN)


@lru_cache(maxsize=20_000)
def _claimed_fans(text: str) -> tuple[tuple[str, int], ...] | None:
    try:
        claimed = claims.parse_claimed_fans(text)
    except HandError:
        return None
    fans = [(each.fan.key, each.count) for each in claimed if each.fan.key != _NOT_A_FAN]
    return tuple(sorted(fans, key=lambda fan: _FAN_ORDER[fan[0]]))


# --- figures and their display --------------------------------------------------------


def one_decimal(numerator: int, denominator: int) -> str:
    """``numerator / denominator`` to one decimal, rounded half up in integers: 1/3 is
    "0.3", 1/8 is "0.1", 3/16 is "0.2", 5 is "5.0"."""
    tenths = (20 * numerator + denominator) // (2 * denominator)
    return f"{tenths // 10}.{tenths % 10}"


def percent(numerator: int, denominator: int) -> str:
    """``numerator`` out of ``denominator`` as a percentage to one decimal: 1 of 3 is
    "33.3"; "" when the denominator is 0."""
    return one_decimal(100 * numerator, denominator) if denominator else ""


@dataclass(frozen=True)
class WinningHand:
    """A win worth listing: where it was, who won it and its fans."""

    session: int
    table: int
    number: int
    outcome: str
    fan: int
    flowers: int
    player: int
    fans: HandFans | None

    @property
    def settled_fan(self) -> int:
        return self.fan + self.flowers


def _winning_hand(row: HandRow, rules: Rules) -> WinningHand:
    return WinningHand(
        session=row.session,
        table=row.table,
        number=row.number,
        outcome=row.outcome,
        fan=row.fan,
        flowers=row.flowers,
        player=row.winner_player,
        fans=hand_fans(row, rules),
    )


def _bigger_first(row: HandRow) -> tuple:
    # The biggest settled fan first; among equal hands the earliest.
    return (-row.settled_fan, row.session, row.table, row.number)


# --- one player -----------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerStatistics:
    hands_played: int
    self_drawn: int
    discard_wins: int
    deal_ins: int
    fan_sum: int  # the settled fan of every win, added up
    biggest: WinningHand | None
    penalties: int
    penalty_points: int  # what the player's penalties cost them

    @property
    def wins(self) -> int:
        return self.self_drawn + self.discard_wins

    @property
    def win_rate(self) -> str:
        return percent(self.wins, self.hands_played)

    @property
    def deal_in_rate(self) -> str:
        return percent(self.deal_ins, self.hands_played)

    @property
    def average_fan(self) -> str:
        return one_decimal(self.fan_sum, self.wins) if self.wins else ""


def player_statistics(
    player: int,
    hands: Iterable[HandRow],
    penalties: Iterable[PenaltyRow] = (),
    rules: Rules = SEED_RULES,
) -> PlayerStatistics:
    """``player``'s figures from the hands of the tables they sat at (others are ignored)
    and the penalties there; fans counted under ``rules`` (the tournament's)."""
    played = self_drawn = discard_wins = deal_ins = fan_sum = 0
    biggest = None
    for row in hands:
        if player not in row.players or not row.is_played:
            continue
        played += 1
        if row.winner_player == player:
            if row.outcome == SELF_DRAWN:
                self_drawn += 1
            else:
                discard_wins += 1
            fan_sum += row.settled_fan
            if biggest is None or _bigger_first(row) < _bigger_first(biggest):
                biggest = row
        elif row.discarder_player == player:
            deal_ins += 1
    own = [penalty for penalty in penalties if penalty.offender_player == player]
    return PlayerStatistics(
        hands_played=played,
        self_drawn=self_drawn,
        discard_wins=discard_wins,
        deal_ins=deal_ins,
        fan_sum=fan_sum,
        biggest=None if biggest is None else _winning_hand(biggest, rules),
        penalties=len(own),
        penalty_points=sum(penalty.cost for penalty in own),
    )


# --- the tournament -------------------------------------------------------------------


@dataclass(frozen=True)
class FanFrequency:
    key: str
    hands: int  # winning hands that count the fan, once or more


@dataclass(frozen=True)
class WindWins:
    wind: str  # the winner's seat wind: E, S, W or N
    self_drawn: int
    discard: int

    @property
    def wins(self) -> int:
        return self.self_drawn + self.discard


@dataclass(frozen=True)
class SessionFigures:
    session: int
    tables: int  # tables with a hand entered
    hands_played: int
    wins: int
    self_drawn: int
    draws: int
    fan_sum: int

    @property
    def hands_per_table(self) -> str:
        return one_decimal(self.hands_played, self.tables) if self.tables else ""

    @property
    def average_fan(self) -> str:
        return one_decimal(self.fan_sum, self.wins) if self.wins else ""

    @property
    def self_draw_share(self) -> str:
        return percent(self.self_drawn, self.wins)


@dataclass(frozen=True)
class TournamentStatistics:
    biggest: tuple[WinningHand, ...]
    fans: tuple[FanFrequency, ...]  # the most frequent first, at most FREQUENT_FANS
    wins: int
    typed_hands: int  # wins whose fans come from the typed winning hand
    claimed_hands: int  # wins whose fans come from the fans claimed (no hand typed)
    winds: tuple[WindWins, ...]  # E, S, W, N
    sessions: tuple[SessionFigures, ...]

    @property
    def hands_with_fans(self) -> int:
        return self.typed_hands + self.claimed_hands

    @property
    def hands_without_fans(self) -> int:
        return self.wins - self.hands_with_fans


def tournament_statistics(
    hands: Iterable[HandRow], rules: Rules = SEED_RULES
) -> TournamentStatistics:
    """The tournament's figures from every entered hand, its fans counted under ``rules``
    (the tournament's). One pass, as plain as it can be: a big tournament has forty
    thousand hands."""
    wins = []
    fan_hands: Counter[str] = Counter()
    sources: Counter[str] = Counter()
    by_wind = {wind: [0, 0] for wind in WINDS}
    # Session -> [tables, hands played, wins, self-drawn, draws, fan of the wins].
    sessions: dict[int, list] = {}
    for row in hands:
        figures = sessions.get(row.session)
        if figures is None:
            figures = sessions[row.session] = [set(), 0, 0, 0, 0, 0]
        figures[0].add(row.table)
        outcome = row.outcome
        if outcome == NOT_PLAYED:
            continue
        figures[1] += 1
        if outcome not in WIN_OUTCOMES:
            figures[4] += 1
            continue
        self_drawn = outcome == SELF_DRAWN
        figures[2] += 1
        figures[3] += self_drawn
        figures[5] += row.fan + row.flowers
        wins.append(row)
        by_wind[_SCHEDULE[row.number - 1].seat_winds[row.winner]][0 if self_drawn else 1] += 1
        if row.winning_hand or row.fan_names:
            fans = hand_fans(row, rules)
            if fans is not None:
                sources[fans.source] += 1
                fan_hands.update(key for key, _count in fans.fans)
    frequent = sorted(fan_hands.items(), key=lambda item: (-item[1], _FAN_ORDER[item[0]]))
    return TournamentStatistics(
        biggest=tuple(
            _winning_hand(row, rules) for row in nsmallest(BIGGEST_HANDS, wins, key=_bigger_first)
        ),
        fans=tuple(FanFrequency(key, count) for key, count in frequent[:FREQUENT_FANS]),
        wins=len(wins),
        typed_hands=sources[TYPED],
        claimed_hands=sources[CLAIMED],
        winds=tuple(WindWins(wind, *by_wind[wind]) for wind in WINDS),
        sessions=tuple(
            SessionFigures(session, len(tables), played, won, self_drawn, draws, fan)
            for session, (tables, played, won, self_drawn, draws, fan) in sorted(sessions.items())
        ),
    )


# --- the referees' desk ---------------------------------------------------------------


class CallRow(NamedTuple):
    """A call for a referee: when it was made, taken (None: not yet, or never) and resolved
    by a ruling (None: open, or cancelled)."""

    session: int
    called_at: datetime.datetime
    taken_at: datetime.datetime | None
    resolved_at: datetime.datetime | None


class RulingRow(NamedTuple):
    session: int
    gives_penalty: bool


_MICROSECONDS = 1_000_000


def median_seconds(durations: Sequence[datetime.timedelta]) -> int | None:
    """The median of ``durations`` in whole seconds, rounded half up in integers (of 10 s
    and 15 s, 13 s); None for none."""
    if not durations:
        return None
    micro = sorted(duration // datetime.timedelta(microseconds=1) for duration in durations)
    middle = len(micro) // 2
    if len(micro) % 2:
        return (2 * micro[middle] + _MICROSECONDS) // (2 * _MICROSECONDS)
    return (micro[middle - 1] + micro[middle] + _MICROSECONDS) // (2 * _MICROSECONDS)


def duration_text(seconds: int | None) -> str:
    """A duration as a clock writes it: "4:05" (minutes and seconds), "1:02:30" from an
    hour; "" for none."""
    if seconds is None:
        return ""
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"


@dataclass(frozen=True)
class DeskFigures:
    """A session's calls for a referee and rulings."""

    session: int
    calls: int  # made, whatever became of them
    resolved: int  # resolved by a ruling
    median_wait: int | None  # seconds from the call until a referee took it
    median_resolution: int | None  # seconds from the call until its ruling
    rulings: int  # given, on a call or without one
    penalties: int  # rulings that give a penalty

    @property
    def wait_text(self) -> str:
        return duration_text(self.median_wait)

    @property
    def resolution_text(self) -> str:
        return duration_text(self.median_resolution)


def desk_statistics(
    calls: Iterable[CallRow], rulings: Iterable[RulingRow]
) -> tuple[DeskFigures, ...]:
    """Each session's desk figures, for the sessions with a call or a ruling. The wait of a
    call is until a referee took it, or until it was resolved when nobody took it first; a
    call cancelled before anyone took it has no wait."""
    # Session -> [calls, resolved, waits, times to resolve, rulings, penalties].
    sessions: dict[int, list] = {}

    def of(session: int) -> list:
        return sessions.setdefault(session, [0, 0, [], [], 0, 0])

    for call in calls:
        figures = of(call.session)
        figures[0] += 1
        reached = call.taken_at or call.resolved_at
        if reached is not None:
            figures[2].append(reached - call.called_at)
        if call.resolved_at is not None:
            figures[1] += 1
            figures[3].append(call.resolved_at - call.called_at)
    for ruling in rulings:
        figures = of(ruling.session)
        figures[4] += 1
        figures[5] += ruling.gives_penalty
    return tuple(
        DeskFigures(
            session=session,
            calls=made,
            resolved=resolved,
            median_wait=median_seconds(waits),
            median_resolution=median_seconds(resolutions),
            rulings=given,
            penalties=penalties,
        )
        for session, (made, resolved, waits, resolutions, given, penalties) in sorted(
            sessions.items()
        )
    )


# --- a player's rank after each session, as a chart ------------------------------------

CHART_WIDTH = 640
CHART_HEIGHT = 220
# Room for the rank labels (up to four digits) on the left and the session labels below.
_LEFT, _RIGHT, _TOP, _BOTTOM = 52, 16, 14, 36


@dataclass(frozen=True)
class ChartPoint:
    session: int
    rank: int
    x: float
    y: float


@dataclass(frozen=True)
class RankChart:
    """Where to draw a player's ranks: rank 1 at the top, the last rank at the bottom, the
    sessions from left to right. Coordinates in the SVG's own units (its viewBox)."""

    points: tuple[ChartPoint, ...]
    lines: tuple[str, ...]  # polylines' points ("x,y x,y"), broken where there is no rank
    rank_ticks: tuple[tuple[int, float], ...]  # (rank, y)
    session_ticks: tuple[tuple[int, float], ...]  # (session, x)
    ranked: int  # the number of ranked players the scale goes down to
    width: int = CHART_WIDTH
    height: int = CHART_HEIGHT
    left: int = _LEFT
    right: int = CHART_WIDTH - _RIGHT
    top: int = _TOP
    bottom: int = CHART_HEIGHT - _BOTTOM

    @property
    def middle(self) -> float:
        """Where the sessions' axis title is centred."""
        return (self.left + self.right) / 2

    @property
    def rank_label_x(self) -> int:
        return self.left - 8

    @property
    def session_label_y(self) -> int:
        return self.bottom + 16

    @property
    def axis_title_y(self) -> int:
        return self.height - 2


def rank_ticks(ranked: int) -> tuple[int, ...]:
    """The ranks the chart's axis labels: 1, the multiples of a round step (1, 2 or 5
    times a power of ten, so at most five of them) and the last rank, which replaces a
    multiple too close to it: 4 players give 1 2 3 4, 12 give 1 5 12, 30 give 1 10 20 30,
    1,000 give 1 200 400 600 800 1000."""
    step = 1
    while ranked > 5 * step:
        step = step * 5 // 2 if str(step).startswith("2") else step * 2
    ticks = sorted({1, *range(step, ranked + 1, step)})
    if ticks[-1] != ranked:
        # The last rank is the axis's end: labelled, instead of a tick too close to it.
        if ranked - ticks[-1] < step / 2 and len(ticks) > 1:
            ticks.pop()
        ticks.append(ranked)
    return tuple(ticks)


def rank_chart(ranks: Sequence[tuple[int, int | None]], ranked: int) -> RankChart:
    """The chart of ``ranks``, (session, rank or None when not ranked) in session order,
    on a scale from 1 to ``ranked`` players."""
    ranked = max(ranked, 1)
    plot_width = CHART_WIDTH - _LEFT - _RIGHT
    plot_height = CHART_HEIGHT - _TOP - _BOTTOM

    def x_of(index: int) -> float:
        if len(ranks) == 1:
            return _LEFT + plot_width / 2
        return round(_LEFT + index * plot_width / (len(ranks) - 1), 1)

    def y_of(rank: int) -> float:
        if ranked == 1:
            return _TOP + plot_height / 2
        return round(_TOP + (rank - 1) * plot_height / (ranked - 1), 1)

    points = []
    lines: list[list[str]] = [[]]
    for index, (session, rank) in enumerate(ranks):
        if rank is None:
            lines.append([])
            continue
        point = ChartPoint(session=session, rank=rank, x=x_of(index), y=y_of(rank))
        points.append(point)
        lines[-1].append(f"{point.x},{point.y}")
    return RankChart(
        points=tuple(points),
        lines=tuple(" ".join(line) for line in lines if len(line) > 1),
        rank_ticks=tuple((rank, y_of(rank)) for rank in rank_ticks(ranked)),
        session_ticks=tuple((session, x_of(i)) for i, (session, _rank) in enumerate(ranks)),
        ranked=ranked,
    )
