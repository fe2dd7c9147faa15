"""Pure-Python MCR scoring. Never imports Django.

- ``settlement``: settling one hand (who pays whom), session scores, places and table
  points; its names are exported here (``ERROR_CODES`` is settlement's);
- ``hand``: the winning hand as plain data (tiles, melds, win conditions);
- ``notation``: reading a hand from referee notation or JSON, writing it back, checking it
  is legal, with its own error codes (``notation.ERROR_CODES``);
- ``fans`` and ``calculator``: the 81 fans and the calculator that scores a winning hand
  (``_decompose`` holds its tile arithmetic);
- ``claims``: checking a referee's claimed fans or total against each other and against
  the calculator;
- ``messages``: the translatable messages of the cores' errors (``CoreError``: a
  ``gettext_noop`` template and its params), which the web pages show in the reader's
  language;
- ``__main__``: the command line, ``python -m tournament.scoring``.
"""

from tournament.scoring.settlement import (
    ERROR_CODES,
    MAX_FLOWERS,
    MIN_FAN,
    TWELFTHS,
    HandResult,
    Outcome,
    Penalty,
    PenaltyKind,
    Settlement,
    SettlementError,
    SettlementInvariantError,
    from_twelfths,
    places,
    session_scores,
    settle_hand,
    table_points,
    table_result,
    to_twelfths,
    validate_hand,
)

__all__ = [
    "ERROR_CODES",
    "MAX_FLOWERS",
    "MIN_FAN",
    "TWELFTHS",
    "HandResult",
    "Outcome",
    "Penalty",
    "PenaltyKind",
    "Settlement",
    "SettlementError",
    "SettlementInvariantError",
    "from_twelfths",
    "places",
    "session_scores",
    "settle_hand",
    "table_points",
    "table_result",
    "to_twelfths",
    "validate_hand",
]
