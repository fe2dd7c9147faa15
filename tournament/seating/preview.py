"""What each seating method gives a tournament's players, before its first draw.

The organiser chooses a method when the players are known; what it will give them depends
on their number and the sessions: 8 players over 4 sessions cannot avoid 20 repeated
meetings whatever the method, 36 over 8 need none. ``method_previews`` seats the players
with each method that needs no standings, with a fixed seed (a sample of the method: the
real draw uses its own seed), and counts the extra meetings, beside the counting bound no
seating can beat. The methods by standings depend on the results, unknown before play.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournament.seating.draw import lot_tables
from tournament.seating.modes import seat_session
from tournament.seating.pairings import extra_meetings, lower_bound
from tournament.seating.schedule import plan_schedule

# Any fixed seed: the same players always get the same preview.
PREVIEW_SEED = 20261204
# The methods previewed: the others seat by standings.
PREVIEWED = ("planned", "random", "lot")


@dataclass(frozen=True)
class MethodPreviews:
    """``bound``: the fewest extra meetings any seating can reach (the counting bound);
    ``extra_meetings``: per method of ``PREVIEWED``, what a draw with it gave."""

    players: int
    sessions: int
    bound: int
    extra_meetings: Mapping[str, int]


def method_previews(
    players: Sequence[int],
    sessions: int,
    *,
    groups: Mapping[int, str] | None = None,
    seed: int = PREVIEW_SEED,
) -> MethodPreviews:
    """Seat ``players`` (a multiple of four) for ``sessions`` sessions with each previewed
    method and count the extra meetings (meetings of a pair beyond its first)."""
    players = sorted(players)
    planned = plan_schedule(players, sessions, seed=seed, groups=groups).stats.extra_meetings
    at_random: list = []
    for session in range(sessions):
        at_random.append(
            seat_session(
                "random", players=players, seed=seed + session, history=at_random, groups=groups
            )
        )
    by_lot = [lot_tables(players, seed + session) for session in range(sessions)]
    return MethodPreviews(
        players=len(players),
        sessions=sessions,
        bound=lower_bound(len(players), sessions),
        extra_meetings={
            "planned": planned,
            "random": extra_meetings(at_random),
            "lot": extra_meetings(by_lot),
        },
    )
