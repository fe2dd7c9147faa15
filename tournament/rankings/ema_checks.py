"""The EMA's checks on a tournament's results before they are sent, and the tournament's
ranking weight: plain data in, plain data out, no Django (the page words each check by its
code).

The checks are those the EMA's own desktop manager makes before an official export, and the
rules of its ranking (``docs/federation.md``):

- ``tables_complete``: every table has four seats and its sixteen hands entered (or recorded
  as not played), and is confirmed;
- ``whole_scores``: every score is a whole number;
- ``table_points_seven``: the table points of each table add up to 7;
- ``guests_marked``: a player without an EMA number is marked a guest;
- ``countries_known``: a member's country is one of the EMA's codes (a guest carries none);
- ``substitutes_counted``: at most ``SUBSTITUTES_COUNTED`` substitutes have played;
- ``sessions_closed``: every session of the tournament is drawn and closed.

The weight adds, as the EMA's ranking (MERS) does: the days played (1, 2, 3 or more: +1, +2,
+3), the players (more than 40: +0.5, more than 80: +1; up to three substitutes count), the
countries of the players counted (more than 5: +0.5, 10 or more: +1) and a qualifying
tournament (+1).
"""

from dataclasses import dataclass, field
from fractions import Fraction

SUBSTITUTES_COUNTED = 3
HANDS = 16
TABLE_POINTS_TOTAL = 7
CHECKS = (
    "tables_complete",
    "whole_scores",
    "table_points_seven",
    "guests_marked",
    "countries_known",
    "substitutes_counted",
    "sessions_closed",
)


@dataclass(frozen=True)
class TableFacts:
    session: int
    table: int
    seats: int
    hands: int  # entered, "not played" ones included
    confirmed: bool
    scores: tuple  # each seat's score, as stored
    table_points: tuple[Fraction, ...]


@dataclass(frozen=True)
class PlayerFacts:
    number: int
    name: str
    ema_number: str
    country: str
    is_guest: bool
    is_substitute: bool
    played: bool  # sat at a table that was played


@dataclass(frozen=True)
class TournamentFacts:
    tables: list[TableFacts]
    players: list[PlayerFacts]
    sessions: int  # the tournament's number of sessions
    closed_sessions: list[int]  # drawn and closed
    days: int  # days on which a session was played
    qualifying: bool = False


@dataclass(frozen=True)
class CheckResult:
    code: str
    failures: list[str] = field(default_factory=list)  # what fails it, one line each

    @property
    def passed(self) -> bool:
        return not self.failures


def _tables(facts: TournamentFacts, rule) -> list[str]:
    return [f"{t.session}/{t.table}" for t in facts.tables if not rule(t)]


def ema_checks(facts: TournamentFacts, known_countries: frozenset[str]) -> list[CheckResult]:
    """Each check of ``CHECKS`` with what fails it: a table as "session/table", a player
    as "number name", a session by its number."""
    played = [p for p in facts.players if p.played]
    substitutes = [p for p in played if p.is_substitute]
    results = {
        "tables_complete": _tables(
            facts, lambda t: t.seats == 4 and t.hands == HANDS and t.confirmed
        ),
        "whole_scores": _tables(
            facts, lambda t: all(isinstance(s, int) and not isinstance(s, bool) for s in t.scores)
        ),
        "table_points_seven": _tables(
            facts, lambda t: sum(t.table_points, Fraction(0)) == TABLE_POINTS_TOTAL
        ),
        "guests_marked": [
            f"{p.number} {p.name}" for p in played if not p.ema_number and not p.is_guest
        ],
        "countries_known": [
            f"{p.number} {p.name}"
            for p in played
            if not p.is_guest and p.country not in known_countries
        ],
        "substitutes_counted": [f"{p.number} {p.name}" for p in substitutes]
        if len(substitutes) > SUBSTITUTES_COUNTED
        else [],
        "sessions_closed": [
            str(n) for n in range(1, facts.sessions + 1) if n not in facts.closed_sessions
        ],
    }
    return [CheckResult(code, results[code]) for code in CHECKS]


@dataclass(frozen=True)
class Weight:
    """The tournament's weight, each factor with the figure it comes from."""

    days: int
    players: int  # counted: the regular players who played, and up to 3 substitutes
    countries: int
    qualifying: bool
    factors: dict[str, Fraction]

    @property
    def total(self) -> Fraction:
        return sum(self.factors.values(), Fraction(0))


def ema_weight(facts: TournamentFacts) -> Weight:
    played = [p for p in facts.players if p.played]
    regular = [p for p in played if not p.is_substitute]
    counted = regular + [p for p in played if p.is_substitute][:SUBSTITUTES_COUNTED]
    countries = len({p.country for p in counted if p.country and not p.is_guest})
    players = len(counted)
    factors = {
        "days": Fraction(min(facts.days, 3)),
        "players": Fraction(1) if players > 80 else Fraction(1, 2) if players > 40 else Fraction(0),
        "countries": Fraction(1)
        if countries >= 10
        else Fraction(1, 2)
        if countries > 5
        else Fraction(0),
        "qualifying": Fraction(1) if facts.qualifying else Fraction(0),
    }
    return Weight(
        days=facts.days,
        players=players,
        countries=countries,
        qualifying=facts.qualifying,
        factors=factors,
    )
