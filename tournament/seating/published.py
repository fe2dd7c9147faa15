"""The published whole-tournament schedule of the registered players.

The command line plans for players 1..N; a tournament's players have registration numbers
(say 3, 7, 12, …). ``plan_registered`` plans for 1..N exactly as the command does and maps
player i to the i-th registration number in order, so the published schedule is the
command's output with that table applied. ``replan_registered`` keeps the sessions already
drawn and re-plans the others when the active players or the drawn tables no longer match
the published schedule (a withdrawal, a substitute, a session drawn another way).
``replan_input`` writes a re-plan's input as the command line reads it
(``python -m tournament.seating replan --input FILE.json``) and ``replan_from_input`` runs
it: the web's re-plan and the command's are the same call, so the published input gives
the published schedule.

Tables are listed by registration number, East first; sessions are lists of tables.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournament.seating.replan import check_played, replan
from tournament.seating.schedule import plan_schedule, schedule_stats


@dataclass(frozen=True)
class PublishedSchedule:
    """A schedule by registration number, with its figures.

    ``groups`` is the groups file of the command line (player index as a string → group);
    a re-plan does not come from the command line and leaves it None. ``moved_seats`` counts
    the seats a re-plan moved (0 for a new plan).
    """

    players: list[int]
    sessions: list[list[list[int]]]
    stats: dict[str, int]
    groups: dict[str, str] | None = None
    moved_seats: int = 0


def _as_lists(sessions) -> list[list[list[int]]]:
    return [[list(table) for table in tables] for tables in sessions]


def plan_registered(
    players: Sequence[int],
    session_count: int,
    *,
    seed: int,
    groups: Mapping[int, str],
    fixed: Sequence[Sequence[Sequence[int]]] = (),
) -> PublishedSchedule:
    """Plan ``session_count`` sessions for the registration numbers ``players``.

    ``players`` must be sorted: player i of the command line is ``players[i - 1]``.
    ``groups`` maps registration numbers to groups; ``fixed`` are sessions already drawn,
    by registration number, kept exactly.

    >>> plan = plan_registered([3, 5, 8, 9], 1, seed=1, groups={})
    >>> sorted(plan.sessions[0][0])
    [3, 5, 8, 9]
    """
    players = list(players)
    index = {number: i for i, number in enumerate(players, start=1)}
    schedule = plan_schedule(
        len(players),
        session_count,
        seed=seed,
        groups={index[p]: group for p, group in groups.items()},
        fixed=[[[index[p] for p in table] for table in tables] for tables in fixed],
    )
    return PublishedSchedule(
        players=players,
        sessions=[
            [[players[i - 1] for i in table] for table in tables] for tables in schedule.sessions
        ],
        stats=schedule.stats.as_dict(),
        groups={str(index[p]): group for p, group in sorted(groups.items())},
    )


def matches_drawn(
    published_players: Sequence[int],
    published_sessions: Sequence[Sequence[Sequence[int]]],
    *,
    players: Sequence[int],
    drawn: Mapping[int, Sequence[Sequence[int]]],
) -> bool:
    """True when the published schedule holds exactly ``players`` and the drawn sessions.

    ``drawn`` maps session numbers (1-based) to their tables as drawn.
    """
    published_drawn = {
        n: [tuple(t) for t in published_sessions[n - 1]]
        for n in drawn
        if n <= len(published_sessions)
    }
    as_drawn = {n: [tuple(t) for t in tables] for n, tables in drawn.items()}
    return sorted(published_players) == sorted(players) and published_drawn == as_drawn


def replan_registered(
    published_sessions: Sequence[Sequence[Sequence[int]]],
    *,
    drawn: Sequence[Sequence[Sequence[int]]],
    players: Sequence[int],
    seed: int,
    groups: Mapping[int, str],
) -> PublishedSchedule:
    """Keep the drawn sessions 1..len(drawn) as drawn and re-plan the later published ones
    for ``players`` (sorted registration numbers); see ``replan`` for how seats move."""
    played = len(drawn)
    schedule = [[tuple(t) for t in tables] for tables in drawn] + [
        [tuple(t) for t in tables] for tables in published_sessions[played:]
    ]
    result = replan(schedule, played=played, players=list(players), seed=seed, groups=groups)
    return PublishedSchedule(
        players=list(players),
        sessions=_as_lists(result.sessions),
        stats=schedule_stats(result.sessions, groups).as_dict(),
        moved_seats=result.moved_seats,
    )


def replan_input(
    published_sessions: Sequence[Sequence[Sequence[int]]],
    *,
    drawn: Sequence[Sequence[Sequence[int]]],
    players: Sequence[int],
    seed: int,
    groups: Mapping[int, str],
) -> dict:
    """The input of ``replan_registered`` as plain JSON data, what the command line reads:
    ``schedule`` holds the drawn sessions as drawn, then the published sessions not drawn
    yet; ``played`` says how many are drawn; groups are keyed by registration number.

    >>> replan_input([[[1, 2, 3, 4]], [[1, 2, 3, 4]]], drawn=[[[4, 3, 2, 1]]],
    ...              players=[1, 2, 3, 5], seed=7, groups={})["schedule"]
    [[[4, 3, 2, 1]], [[1, 2, 3, 4]]]
    """
    played = len(drawn)
    return {
        "seed": seed,
        "played": played,
        "players": list(players),
        "groups": {str(number): name for number, name in sorted(groups.items())},
        "schedule": _as_lists(list(drawn) + list(published_sessions[played:])),
    }


def replan_from_input(data: Mapping) -> PublishedSchedule:
    """Run the re-plan that ``replan_input`` describes."""
    played = data["played"]
    schedule = data["schedule"]
    check_played(played, schedule)
    return replan_registered(
        schedule,
        drawn=schedule[:played],
        players=data["players"],
        seed=data["seed"],
        groups={int(number): name for number, name in (data.get("groups") or {}).items()},
    )


@dataclass(frozen=True)
class ReplanChange:
    """Who a re-plan took out of the sessions still to come and who it brought in."""

    before_session: int  # the first session it re-planned
    left: list[int]
    joined: list[int]


def replan_change(data: Mapping) -> ReplanChange:
    """The players a re-plan's input removes from the later sessions and those it adds.

    >>> replan_change({"played": 1, "players": [1, 2, 3, 5],
    ...                "schedule": [[[1, 2, 3, 4]], [[1, 2, 3, 4]]]})
    ReplanChange(before_session=2, left=[4], joined=[5])
    """
    played = data["played"]
    later = {p for tables in data["schedule"][played:] for table in tables for p in table}
    # No session left to re-plan: nobody leaves or joins one.
    players = set(data["players"]) if later else set()
    return ReplanChange(
        before_session=played + 1,
        left=sorted(later - players),
        joined=sorted(players - later),
    )


def seat_order_lots(tables: Sequence[Sequence[int]]) -> list[tuple[tuple[int, ...], list[int]]]:
    """Each table with the number that stands for a seat's lot in methods without one.

    Only the draw by lot has lot numbers; every other method seats in order, the lot of a
    seat being (table − 1)·4 + seat + 1.

    >>> seat_order_lots([(7, 2, 9, 4), (1, 3, 5, 6)])
    [((7, 2, 9, 4), [1, 2, 3, 4]), ((1, 3, 5, 6), [5, 6, 7, 8])]
    """
    return [
        (tuple(table), [index * 4 + seat + 1 for seat in range(4)])
        for index, table in enumerate(tables)
    ]
