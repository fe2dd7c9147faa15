"""Settle one MCR hand, and turn session scores into places and table points.

Pure Python on plain data: the web app builds a `HandResult`, calls `settle_hand` and
translates a `SettlementError` into a form error using its `code` and `field`. Players are
the indices 0..3 of the four players at the table (P1..P4, the starting seats); settlement
does not depend on winds. The rules are in docs/scoring.md, whose worked examples the
tests assert.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from types import MappingProxyType
from typing import Final

from tournament.core_errors import CoreError, gettext_noop
from tournament.scoring.rules import SEED_RULES, Rules

MIN_FAN: Final = SEED_RULES.minimum_fan
"""Fan a hand needs to win under the seed rules, flowers not counted (a tournament's own
minimum is its ``Rules.minimum_fan``)."""

MAX_FLOWERS: Final = 8
"""There are eight flower tiles in the set."""

BASE_POINTS: Final = 8
"""Base (底分) every other player pays the winner."""

PLAYERS: Final = 4
TABLE_POINTS_BY_PLACE: Final = (4, 2, 1, 0)

Points = tuple[int, int, int, int]


class Outcome(StrEnum):
    """How a hand ended."""

    SELF_DRAWN = "self_drawn"
    DISCARD = "discard"
    DRAW = "draw"
    NOT_PLAYED = "not_played"


class PenaltyKind(StrEnum):
    """Where a penalty's points go."""

    TO_EACH_OTHER = "to_each_other"
    """The offender pays `points` to each of the three other players (false win, false claim)."""

    TO_ONE = "to_one"
    """The offender pays `points` to the `beneficiary` (e.g. exposing that player's tiles)."""

    DEDUCTED = "deducted"
    """The points leave the table (procedural fouls, lateness): not zero-sum."""


@dataclass(frozen=True)
class Penalty:
    """A penalty recorded with a hand; `points` is what the offender pays per recipient."""

    offender: int
    kind: PenaltyKind
    points: int
    beneficiary: int | None = None
    reason: str = ""


@dataclass(frozen=True)
class HandResult:
    """What the referee writes for one hand.

    `fan` excludes flowers; `flowers` is the number of flower tiles the winner holds.
    """

    outcome: Outcome
    winner: int | None = None
    discarder: int | None = None
    fan: int | None = None
    flowers: int = 0
    penalties: tuple[Penalty, ...] = ()


class SettlementInvariantError(AssertionError):
    """A settlement does not balance: a bug in this module, never a user mistake.

    A subclass of AssertionError that is raised explicitly, so the check survives `python -O`.
    """


@dataclass(frozen=True)
class Settlement:
    """The points each player gains (+) or pays (-) in one hand.

    `win_points` come from the win and always sum to zero; `penalty_points` come from the
    penalties and sum to `-deducted`, the points of DEDUCTED penalties that left the table.
    Constructing a Settlement that breaks this raises SettlementInvariantError.
    """

    win_points: Points
    penalty_points: Points
    deducted: int

    def __post_init__(self) -> None:
        # The rules' own check per hand: transfers sum to -(deducted penalties). Raised rather
        # than asserted so that it also runs under `python -O`.
        for name in ("win_points", "penalty_points"):
            value = getattr(self, name)
            if len(value) != PLAYERS or not all(_is_int(v) for v in value):
                raise SettlementInvariantError(f"{name} must be {PLAYERS} integers, got {value!r}")
        if not _is_int(self.deducted) or self.deducted < 0:
            raise SettlementInvariantError(
                f"deducted must be a non-negative integer, got {self.deducted!r}"
            )
        if sum(self.win_points) != 0:
            raise SettlementInvariantError(f"win points {self.win_points} do not sum to zero")
        if sum(self.penalty_points) != -self.deducted:
            raise SettlementInvariantError(
                f"penalty points {self.penalty_points} do not sum to "
                f"-{self.deducted} (the deducted points)"
            )

    @property
    def points(self) -> Points:
        """Each player's total for the hand: win points plus penalty points."""
        w, p = self.win_points, self.penalty_points
        return (w[0] + p[0], w[1] + p[1], w[2] + p[2], w[3] + p[3])


ERROR_CODES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "outcome_invalid": "outcome",
        "winner_required": "winner",
        "winner_invalid": "winner",
        "winner_not_allowed": "winner",
        "penalised_player_cannot_win": "winner",
        "discarder_required": "discarder",
        "discarder_invalid": "discarder",
        "discarder_is_winner": "discarder",
        "discarder_not_allowed": "discarder",
        "fan_required": "fan",
        "fan_invalid": "fan",
        "fan_below_minimum": "fan",
        "fan_not_allowed": "fan",
        "flowers_invalid": "flowers",
        "flowers_out_of_range": "flowers",
        "flowers_not_allowed": "flowers",
        "flowers_not_played": "flowers",
        "penalties_invalid": "penalties",
        "penalty_invalid": "penalties",
        "penalty_offender_invalid": "penalties",
        "penalty_kind_invalid": "penalties",
        "penalty_points_invalid": "penalties",
        "penalty_beneficiary_required": "penalties",
        "penalty_beneficiary_invalid": "penalties",
        "penalty_beneficiary_is_offender": "penalties",
        "penalty_beneficiary_not_allowed": "penalties",
    }
)
"""Every code SettlementError can carry, with the HandResult field it concerns."""


class SettlementError(CoreError):
    """A HandResult that the rules do not allow.

    `code` is a stable snake_case identifier (a key of ERROR_CODES), `field` the HandResult
    field it concerns, and `index` the position of the offending penalty when `field` is
    "penalties" (None otherwise, or when the penalties as a whole are wrong). `template` (a
    ``gettext_noop`` literal) and `params` make the English `message` (see ``messages``).
    """

    def __init__(
        self,
        code: str,
        template: str,
        params: Mapping[str, object] | None = None,
        *,
        index: int | None = None,
    ) -> None:
        super().__init__(template, params)
        self.code = code
        # Looked up rather than passed so a code can never be reported against two fields.
        self.field = ERROR_CODES[code]
        self.index = index


def _is_int(value: object) -> bool:
    # bool is an int subclass, but True as a fan count or a player is a caller's mistake.
    return isinstance(value, int) and not isinstance(value, bool)


def _is_player(value: object) -> bool:
    return _is_int(value) and 0 <= value < PLAYERS


def _label(player: int) -> str:
    return f"P{player + 1}"


# What a hand without a win cannot have, by outcome: whole sentences, one per outcome.
_NOT_IN = {
    Outcome.DRAW: {
        "winner_not_allowed": gettext_noop("There is no winner in a draw."),
        "discarder_not_allowed": gettext_noop("There is no discarder in a draw."),
        "fan_not_allowed": gettext_noop("There is no fan in a draw."),
        "flowers_not_allowed": gettext_noop("There are no flowers to count in a draw."),
    },
    Outcome.NOT_PLAYED: {
        "winner_not_allowed": gettext_noop("There is no winner in a hand not played."),
        "discarder_not_allowed": gettext_noop("There is no discarder in a hand not played."),
        "fan_not_allowed": gettext_noop("There is no fan in a hand not played."),
        "flowers_not_allowed": gettext_noop("There are no flowers to count in a hand not played."),
    },
}


def validate_hand(hand: HandResult, rules: Rules = SEED_RULES) -> None:
    """Check a HandResult against the rules (``rules``: the tournament's options, the seed
    reading by default); raise SettlementError on the first problem.

    Fields are checked in the order outcome, winner, discarder, fan, flowers, penalties.
    """
    if not isinstance(hand.outcome, Outcome):
        choices = ", ".join(o.value for o in Outcome)
        raise SettlementError(
            "outcome_invalid",
            gettext_noop("Outcome must be one of %(choices)s; got %(value)s."),
            {"choices": choices, "value": repr(hand.outcome)},
        )
    if hand.outcome in (Outcome.SELF_DRAWN, Outcome.DISCARD):
        _validate_win(hand, rules)
    else:
        _validate_no_win(hand)
    _validate_penalties(hand.penalties)
    _validate_penalised_winner(hand)


def _validate_win(hand: HandResult, rules: Rules) -> None:
    if hand.winner is None:
        raise SettlementError("winner_required", gettext_noop("A win needs a winner."))
    if not _is_player(hand.winner):
        raise SettlementError(
            "winner_invalid",
            gettext_noop("The winner must be a player 0..3; got %(value)s."),
            {"value": repr(hand.winner)},
        )

    if hand.outcome is Outcome.DISCARD:
        if hand.discarder is None:
            raise SettlementError(
                "discarder_required", gettext_noop("A discard win needs a discarder.")
            )
        if not _is_player(hand.discarder):
            raise SettlementError(
                "discarder_invalid",
                gettext_noop("The discarder must be a player 0..3; got %(value)s."),
                {"value": repr(hand.discarder)},
            )
        if hand.discarder == hand.winner:
            raise SettlementError(
                "discarder_is_winner",
                gettext_noop("%(player)s cannot win on their own discard."),
                {"player": _label(hand.winner)},
            )
    elif hand.discarder is not None:
        raise SettlementError(
            "discarder_not_allowed", gettext_noop("A self-drawn win has no discarder.")
        )

    if hand.fan is None:
        raise SettlementError("fan_required", gettext_noop("A win needs the winner's fan."))
    if not _is_int(hand.fan):
        raise SettlementError(
            "fan_invalid",
            gettext_noop("Fan must be a whole number; got %(value)s."),
            {"value": repr(hand.fan)},
        )
    if hand.fan < rules.minimum_fan:
        raise SettlementError(
            "fan_below_minimum",
            gettext_noop("A win needs at least %(minimum)s fan, flowers not counted; got %(fan)s."),
            {"minimum": rules.minimum_fan, "fan": hand.fan},
        )

    if not _is_int(hand.flowers):
        raise SettlementError(
            "flowers_invalid",
            gettext_noop("Flowers must be a whole number; got %(value)s."),
            {"value": repr(hand.flowers)},
        )
    if not 0 <= hand.flowers <= MAX_FLOWERS:
        raise SettlementError(
            "flowers_out_of_range",
            gettext_noop("Flowers must be between 0 and %(most)s; got %(flowers)s."),
            {"most": MAX_FLOWERS, "flowers": hand.flowers},
        )
    if hand.flowers and not rules.flowers:
        raise SettlementError(
            "flowers_not_played",
            gettext_noop("This tournament plays without flowers; got %(flowers)s."),
            {"flowers": hand.flowers},
        )


def _validate_no_win(hand: HandResult) -> None:
    sentences = _NOT_IN[hand.outcome]
    # Flowers only count after a valid win, so anything but 0 here is a recording mistake.
    for code, present in (
        ("winner_not_allowed", hand.winner is not None),
        ("discarder_not_allowed", hand.discarder is not None),
        ("fan_not_allowed", hand.fan is not None),
        ("flowers_not_allowed", not (_is_int(hand.flowers) and hand.flowers == 0)),
    ):
        if present:
            raise SettlementError(code, sentences[code])


def _validate_penalties(penalties: object) -> None:
    if not isinstance(penalties, tuple | list):
        raise SettlementError(
            "penalties_invalid",
            gettext_noop("Penalties must be a tuple of Penalty; got %(value)s."),
            {"value": repr(penalties)},
        )
    for index, penalty in enumerate(penalties):
        _validate_penalty(index, penalty)


def _validate_penalty(index: int, penalty: object) -> None:
    def refuse(code: str, template: str, **params: object) -> SettlementError:
        # Penalties are numbered from 1 in the messages, as on the sheet.
        return SettlementError(code, template, {"number": index + 1, **params}, index=index)

    if not isinstance(penalty, Penalty):
        raise refuse(
            "penalty_invalid",
            gettext_noop("Penalty %(number)s must be a Penalty; got %(value)s."),
            value=repr(penalty),
        )
    if not _is_player(penalty.offender):
        raise refuse(
            "penalty_offender_invalid",
            gettext_noop("Penalty %(number)s: the offender must be a player 0..3; got %(value)s."),
            value=repr(penalty.offender),
        )
    if not isinstance(penalty.kind, PenaltyKind):
        raise refuse(
            "penalty_kind_invalid",
            gettext_noop("Penalty %(number)s: the kind must be one of %(choices)s; got %(value)s."),
            choices=", ".join(k.value for k in PenaltyKind),
            value=repr(penalty.kind),
        )
    if not (_is_int(penalty.points) and penalty.points > 0):
        raise refuse(
            "penalty_points_invalid",
            gettext_noop(
                "Penalty %(number)s: points must be a positive whole number; got %(value)s."
            ),
            value=repr(penalty.points),
        )
    if penalty.kind is PenaltyKind.TO_ONE:
        if penalty.beneficiary is None:
            raise refuse(
                "penalty_beneficiary_required",
                gettext_noop("Penalty %(number)s: a penalty paid to one player needs that player."),
            )
        if not _is_player(penalty.beneficiary):
            raise refuse(
                "penalty_beneficiary_invalid",
                gettext_noop(
                    "Penalty %(number)s: the beneficiary must be a player 0..3; got %(value)s."
                ),
                value=repr(penalty.beneficiary),
            )
        if penalty.beneficiary == penalty.offender:
            raise refuse(
                "penalty_beneficiary_is_offender",
                gettext_noop("Penalty %(number)s: %(player)s cannot pay a penalty to themselves."),
                player=_label(penalty.offender),
            )
    elif penalty.beneficiary is not None:
        raise refuse(
            "penalty_beneficiary_not_allowed",
            gettext_noop(
                "Penalty %(number)s: only a penalty paid to one player has a beneficiary."
            ),
        )


def _validate_penalised_winner(hand: HandResult) -> None:
    # The offender of a false win keeps playing but may not win that hand.
    for index, penalty in enumerate(hand.penalties):
        if penalty.kind is PenaltyKind.TO_EACH_OTHER and penalty.offender == hand.winner:
            raise SettlementError(
                "penalised_player_cannot_win",
                gettext_noop(
                    "%(player)s has a penalty paid to each other player (penalty %(number)s, "
                    "a false win or claim) and cannot win this hand."
                ),
                {"player": _label(hand.winner), "number": index + 1},
            )


def settle_hand(hand: HandResult, rules: Rules = SEED_RULES) -> Settlement:
    """Validate a hand and return what each player gains or pays.

    Self-drawn: each other player pays 8 + F, where F is fan plus flowers. Discard win: the
    discarder pays 8 + F and the other two 8 each. Draw and not played: nobody pays.
    Penalties are added on top. Raises SettlementError if the hand breaks the rules (the seed
    reading's, or ``rules``: the minimum fan, flowers played or not), and
    SettlementInvariantError if the result does not balance (see Settlement).
    """
    validate_hand(hand, rules)
    penalty_points, deducted = _penalty_points(hand.penalties)
    # Settlement checks on construction that the points balance against `deducted`.
    return Settlement(
        win_points=_win_points(hand), penalty_points=penalty_points, deducted=deducted
    )


def _win_points(hand: HandResult) -> Points:
    if hand.winner is None:
        return (0, 0, 0, 0)
    total_fan = hand.fan + hand.flowers
    points = [0] * PLAYERS
    for player in range(PLAYERS):
        if player != hand.winner:
            pays_fan = hand.outcome is Outcome.SELF_DRAWN or player == hand.discarder
            points[player] = -BASE_POINTS - (total_fan if pays_fan else 0)
    # The winner receives exactly what the others pay: 3 × (8 + F) or 24 + F.
    points[hand.winner] = -sum(points)
    return _four(points)


def _penalty_points(penalties: Iterable[Penalty]) -> tuple[Points, int]:
    points = [0] * PLAYERS
    deducted = 0
    for penalty in penalties:
        offender, paid = penalty.offender, penalty.points
        match penalty.kind:
            case PenaltyKind.TO_EACH_OTHER:
                for player in range(PLAYERS):
                    if player != offender:
                        points[player] += paid
                        points[offender] -= paid
            case PenaltyKind.TO_ONE:
                points[penalty.beneficiary] += paid
                points[offender] -= paid
            case PenaltyKind.DEDUCTED:
                points[offender] -= paid
                deducted += paid
    return _four(points), deducted


def _four(values: Sequence[int]) -> Points:
    a, b, c, d = values
    return (a, b, c, d)


def session_scores(settlements: Iterable[Settlement]) -> Points:
    """Sum the hands of a session: each player's session score (signed, not 500 + score)."""
    totals = [0] * PLAYERS
    for settlement in settlements:
        for player, points in enumerate(settlement.points):
            totals[player] += points
    return _four(totals)


def places(scores: Sequence[int]) -> tuple[int, ...]:
    """Place of each score, 1 = best, in the input order.

    Tied players share the best place of their group: 10, 10, 5, -25 -> 1, 1, 3, 4.
    """
    return tuple(1 + sum(other > score for other in scores) for score in scores)


def table_points(scores: Sequence[int]) -> tuple[Fraction, ...]:
    """Table points (标准分) of the four players at a table, in the input order.

    Places 1..4 earn 4, 2, 1, 0. Tied players share equally the points of the places they
    occupy together: two tied first get 3 each, all four tied get 7/4 each. Exact
    fractions, never floats. Raises ValueError unless there are exactly four scores.
    """
    if len(scores) != PLAYERS:
        raise ValueError(f"table points need exactly {PLAYERS} scores, got {len(scores)}")
    result = []
    for score, place in zip(scores, places(scores), strict=True):
        tied = sum(other == score for other in scores)
        shared = TABLE_POINTS_BY_PLACE[place - 1 : place - 1 + tied]
        result.append(Fraction(sum(shared), tied))
    return tuple(result)


# Table points are 4, 2, 1, 0, shared by 2, 3 or 4 tied players: every share is a whole
# number of twelfths (7/3 = 28/12, 7/4 = 21/12), which the database stores exactly.
TWELFTHS = 12


def to_twelfths(points: Fraction) -> int:
    """Table points as a whole number of twelfths: 7/3 -> 28. ValueError for any other."""
    twelfths = Fraction(points) * TWELFTHS
    if twelfths.denominator != 1:
        raise ValueError(f"{points} table points are not a whole number of twelfths")
    return twelfths.numerator


def from_twelfths(twelfths: int) -> Fraction:
    """The exact table points of ``twelfths``: 28 -> 7/3."""
    return Fraction(twelfths, TWELFTHS)


def table_result(hands: Iterable[Sequence[int]]) -> list[tuple[int, int | None, int]]:
    """(score, place, table points in twelfths) of each player P1..P4 at a table, from the
    points of the hands entered there; no place and nothing won while none is entered.

    >>> table_result([(24, -8, -8, -8), (-8, 24, -8, -8)])
    [(16, 1, 36), (16, 1, 36), (-16, 3, 6), (-16, 3, 6)]
    """
    hands = list(hands)
    if not hands:
        return [(0, None, 0)] * PLAYERS
    scores = tuple(sum(points[player] for points in hands) for player in range(PLAYERS))
    return [
        (score, place, to_twelfths(share))
        for score, place, share in zip(scores, places(scores), table_points(scores), strict=True)
    ]
