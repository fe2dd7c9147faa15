"""Seating for MCR sessions: the draw by lot and the seat rotation. Pure Python, no Django."""

from tournament.seating.draw import (
    DrawError,
    SeatAssignment,
    draw_by_lot,
    lot_key,
    new_seed,
)
from tournament.seating.rotation import (
    HANDS_PER_SESSION,
    ROUND_SEATING,
    WINDS,
    HandSlot,
    session_schedule,
)

__all__ = [
    "HANDS_PER_SESSION",
    "ROUND_SEATING",
    "WINDS",
    "DrawError",
    "HandSlot",
    "SeatAssignment",
    "draw_by_lot",
    "lot_key",
    "new_seed",
    "session_schedule",
]
