"""Seat rotation within one session: who deals and which seat wind each player has.

A session is four rounds of four hands (digest section 1). Players are named by their
starting seat P1..P4 (index 0..3), the seat the draw by lot gave them. Physical seats and
winds are written E, S, W, N.
"""

from dataclasses import dataclass

WINDS: tuple[str, str, str, str] = ("E", "S", "W", "N")

HANDS_PER_ROUND = 4
ROUNDS_PER_SESSION = 4
HANDS_PER_SESSION = HANDS_PER_ROUND * ROUNDS_PER_SESSION

# The mandated seat swaps (digest section 2, GB appendix). ROUND_SEATING[r - 1][p] is the
# starting-seat index (0 = P1 .. 3 = P4) of the player in physical seat WINDS[p] during
# round r. Kept as data, not derived, because it is the published table referees check.
ROUND_SEATING: tuple[tuple[int, int, int, int], ...] = (
    (0, 1, 2, 3),  # round 1, East:  P1 P2 P3 P4
    (1, 0, 3, 2),  # round 2, South: P2 P1 P4 P3
    (2, 3, 1, 0),  # round 3, West:  P3 P4 P2 P1
    (3, 2, 0, 1),  # round 4, North: P4 P3 P1 P2
)


@dataclass(frozen=True, slots=True)
class HandSlot:
    """One hand of the session as the referee screen and table card show it.

    ``dealer`` is a starting-seat index (0 = P1 .. 3 = P4). ``seat_winds`` and
    ``physical_seats`` are indexed by starting seat too: element 0 is P1's, element 3 is P4's.
    """

    number: int
    prevalent_wind: str
    dealer: int
    seat_winds: tuple[str, str, str, str]
    physical_seats: tuple[str, str, str, str]


def _hand_slot(number: int) -> HandSlot:
    round_index, hand_in_round = divmod(number - 1, HANDS_PER_ROUND)
    seating = ROUND_SEATING[round_index]
    # Physical seat index of each starting seat in this round.
    seat_of = tuple(seating.index(player) for player in range(4))
    # The deal passes counter-clockwise, which is the order E, S, W, N of the physical
    # seats, so hand h of a round is dealt from physical seat h. The dealer is East and
    # the winds follow counter-clockwise, hence the offset (p - h).
    seat_winds = tuple(WINDS[(seat - hand_in_round) % 4] for seat in seat_of)
    return HandSlot(
        number=number,
        prevalent_wind=WINDS[round_index],
        dealer=seating[hand_in_round],
        seat_winds=seat_winds,
        physical_seats=tuple(WINDS[seat] for seat in seat_of),
    )


# The schedule never changes, so it is built once; tuples and frozen slots make sharing safe.
_SCHEDULE: tuple[HandSlot, ...] = tuple(
    _hand_slot(number) for number in range(1, HANDS_PER_SESSION + 1)
)


def session_schedule() -> tuple[HandSlot, ...]:
    """Return the 16 hands of a session in order (hand 1 first).

    The dealer never repeats, so this schedule holds whatever happens in play; hands cut off
    by the time limit keep their slot and are recorded as not played.
    """
    return _SCHEDULE
