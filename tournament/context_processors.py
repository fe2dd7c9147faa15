"""Numbers of the rules that pages quote, from the constants the cores enforce."""

from tournament.scoring import MAX_FLOWERS, MIN_FAN
from tournament.seating import HANDS_PER_SESSION


def rules(request) -> dict:
    """``MIN_FAN``, ``MAX_FLOWERS`` and ``HANDS_PER_SESSION`` for every template, so that a
    page saying "the 8-fan minimum" says what the scoring core checks."""
    return {
        "MIN_FAN": MIN_FAN,
        "MAX_FLOWERS": MAX_FLOWERS,
        "HANDS_PER_SESSION": HANDS_PER_SESSION,
    }
