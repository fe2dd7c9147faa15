"""What each seating method gives a tournament's players before its first draw."""

import pytest

from tournament.seating.pairings import lower_bound
from tournament.seating.preview import PREVIEWED, method_previews


def test_eight_players_over_four_sessions_cannot_avoid_twenty_repeats():
    # Each of the 8 players meets 12 table-mates among 7 others: 8 × 5 / 2 = 20 repeats.
    found = method_previews(range(1, 9), 4)
    assert (found.players, found.sessions, found.bound) == (8, 4, 20)
    assert found.extra_meetings["planned"] == 20
    assert all(found.extra_meetings[method] >= 20 for method in PREVIEWED)


@pytest.mark.parametrize(("players", "sessions"), [(16, 4), (36, 8), (100, 8)])
def test_with_enough_players_the_plan_needs_no_repeat_and_the_lot_does_not_avoid_them(
    players, sessions
):
    found = method_previews(range(1, players + 1), sessions)
    assert found.bound == lower_bound(players, sessions) == 0
    assert found.extra_meetings["planned"] == 0
    assert found.extra_meetings["lot"] > found.extra_meetings["planned"]


def test_the_same_players_get_the_same_preview():
    assert method_previews(range(1, 17), 5) == method_previews(range(16, 0, -1), 5)
