"""Seating for MCR tournaments: who sits where, session by session. Pure Python, no Django.

- ``draw``: the draw by lot of one session, verifiable with ``sha256sum``;
- ``rotation``: the seat rotation within a session (who deals, the seat winds);
- ``pairings``: whole-tournament table plans, who sits with whom in every session;
- ``seats``: the starting-seat balance of such a plan (East, South, West, North);
- ``schedule``: the two together, a whole-tournament schedule and its figures;
- ``published``: that schedule by registration number, as published to the players;
- ``replan``: re-planning the sessions not yet played after a withdrawal or a substitute;
- ``modes``: the session-by-session modes (random, by standings, serpentine, top tables);
- ``replacements``: whom each substitute a draw seats stands in for;
- ``commitment``: a draw committed before it is made, its hash and the check of its record;
- ``__main__``: the command line, ``python -m tournament.seating``.

The package exports the draw, the rotation and ``SeatingError`` (``errors``: what every module
raises for players it cannot seat); import the other modules directly.
"""

from tournament.seating.draw import (
    DrawError,
    SeatAssignment,
    check_seed,
    draw_by_lot,
    lot_key,
    new_seed,
    players_to_draw,
)
from tournament.seating.errors import SeatingError
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
    "SeatingError",
    "check_seed",
    "draw_by_lot",
    "lot_key",
    "new_seed",
    "players_to_draw",
    "session_schedule",
]
