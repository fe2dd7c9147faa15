"""Whom each substitute a draw seats stands in for: plain data in, plain data out.

A draw seats a substitute because a regular player withdrew. The seat records that player
when one can be named, by these rules in order:

1. **The published plan's seat.** The substitute sits where the plan published before this
   draw (before any re-plan the draw made) put a player who has since withdrawn: they stand
   in for that player.
2. **The same player as before.** A substitute who stood in for a withdrawn player in an
   earlier session (by a draw or given the seat by hand) stands in for them again.
3. **In turn.** The substitutes still unnamed, by number, stand in for the withdrawn players
   still unreplaced (those the plan put in this session or who have played), in the order
   they withdrew.

A substitute seated with nobody withdrawn to stand in for (the regular players are not a
multiple of four) stands in for nobody; a withdrawn player is stood in for once a session.
"""

from collections.abc import Iterable, Mapping, Sequence


def substitutes_standing_in(
    *,
    tables: Sequence[Sequence[int]],
    substitutes: Iterable[int],
    withdrawn: Sequence[int],
    planned: Sequence[Sequence[int]] | None = None,
    earlier: Mapping[int, int] | None = None,
) -> dict[int, int]:
    """Substitute number -> the number of the withdrawn player they stand in for.

    ``tables``: the session as drawn, each table its four players by seat; ``substitutes``:
    the substitutes' numbers; ``withdrawn``: the withdrawn regular players who held a place
    (planned in this session, or played before), in the order they withdrew; ``planned``:
    this session in the plan published before the draw (None without one); ``earlier``:
    substitute -> the player they stood in for in the sessions before."""
    candidates = list(withdrawn)
    waiting = set(candidates)
    seated = {player for table in tables for player in table}
    unnamed = sorted(set(substitutes) & seated)
    named: dict[int, int] = {}

    def stand_in(substitute: int, player: int) -> None:
        named[substitute] = player
        waiting.discard(player)
        unnamed.remove(substitute)

    if planned is not None:
        for table, planned_table in zip(tables, planned, strict=False):
            for player, planned_player in zip(table, planned_table, strict=False):
                if player in unnamed and planned_player in waiting:
                    stand_in(player, planned_player)
    for substitute, player in (earlier or {}).items():
        if substitute in unnamed and player in waiting:
            stand_in(substitute, player)
    for substitute in list(unnamed):
        remaining = [player for player in candidates if player in waiting]
        if not remaining:
            break
        stand_in(substitute, remaining[0])
    return named
