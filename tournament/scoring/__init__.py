"""Pure-Python MCR scoring: hand settlement and table points. Never imports Django."""

from tournament.scoring.settlement import (
    ERROR_CODES,
    MAX_FLOWERS,
    MIN_FAN,
    HandResult,
    Outcome,
    Penalty,
    PenaltyKind,
    Settlement,
    SettlementError,
    SettlementInvariantError,
    places,
    session_scores,
    settle_hand,
    table_points,
    validate_hand,
)

__all__ = [
    "ERROR_CODES",
    "MAX_FLOWERS",
    "MIN_FAN",
    "HandResult",
    "Outcome",
    "Penalty",
    "PenaltyKind",
    "Settlement",
    "SettlementError",
    "SettlementInvariantError",
    "places",
    "session_scores",
    "settle_hand",
    "table_points",
    "validate_hand",
]
