"""The hall's screens' cycle, on plain values: which session a screen shows, the panels of one
turn and the step each poll asks for. No database, no Django."""

import pytest

from tests.purity import assert_imports_no_django
from tournament.hall.screen import (
    CLOSED,
    DRAWN,
    IN_PLAY,
    NAMES,
    NAMES_PER_PAGE,
    ROWS,
    STANDINGS,
    STANDINGS_PER_PAGE,
    TABLES,
    TABLES_PER_PAGE,
    WELCOME,
    Panel,
    current_session,
    cycle,
    panel_at,
    phase,
    requested_step,
)


@pytest.mark.parametrize(
    ("sessions", "current"),
    [
        ([], None),
        ([(1, DRAWN)], 1),
        ([(1, IN_PLAY)], 1),
        ([(1, CLOSED)], 1),
        # The session in play, even with the next one already drawn.
        ([(1, CLOSED), (2, IN_PLAY), (3, DRAWN)], 2),
        ([(3, DRAWN), (2, IN_PLAY), (1, CLOSED)], 2),
        # None in play: the latest drawn, closed or not open yet.
        ([(1, CLOSED), (2, DRAWN)], 2),
        ([(1, CLOSED), (2, CLOSED)], 2),
        # Two open at once (an organiser's slip): the later one.
        ([(1, IN_PLAY), (2, IN_PLAY)], 2),
    ],
)
def test_the_screen_shows_the_session_in_play_else_the_latest_drawn(sessions, current):
    assert current_session(sessions) == current


def covered(panels: list[Panel], kind: str) -> list[int]:
    """The positions of every item the panels of ``kind`` show, in the order shown."""
    return [i for panel in panels if panel.kind == kind for i in range(panel.start, panel.stop)]


@pytest.mark.parametrize("players", [4, 40, 64, 100, 196, 1000, 2000])
@pytest.mark.parametrize("status", [DRAWN, IN_PLAY])
def test_a_turn_shows_every_table_and_player_once_in_order(players, status):
    tables = players // 4
    panels = cycle(status=status, tables=tables, players=players)
    assert covered(panels, TABLES) == list(range(tables))
    assert covered(panels, NAMES) == list(range(tables * 4))
    assert covered(panels, STANDINGS) == list(range(players))
    # Seating by table, then by name, then the standings.
    kinds = [panel.kind for panel in panels]
    assert kinds == sorted(kinds, key=[TABLES, NAMES, STANDINGS].index)


@pytest.mark.parametrize(
    ("kind", "per_page", "total"),
    [
        (TABLES, TABLES_PER_PAGE, 250),
        (NAMES, NAMES_PER_PAGE, 1000),
        (STANDINGS, STANDINGS_PER_PAGE, 1003),
    ],
)
def test_pages_are_full_but_the_last(kind, per_page, total):
    players = total if kind == STANDINGS else 1000
    panels = [p for p in cycle(status=IN_PLAY, tables=250, players=players) if p.kind == kind]
    assert [p.page for p in panels] == list(range(1, len(panels) + 1))
    assert {p.pages for p in panels} == {len(panels)}
    assert {p.total for p in panels} == {total}
    assert all(p.stop - p.start == per_page for p in panels[:-1])
    assert 1 <= panels[-1].stop - panels[-1].start <= per_page


def test_a_thousand_players_turn_through_69_panels():
    panels = cycle(status=IN_PLAY, tables=250, players=1000)
    # 250 tables by 16, 1,000 names by 48, 1,000 standings rows by 32.
    assert [sum(p.kind == kind for p in panels) for kind in (TABLES, NAMES, STANDINGS)] == [
        16,
        21,
        32,
    ]


def test_a_closed_session_shows_the_standings_only():
    panels = cycle(status=CLOSED, tables=10, players=40)
    assert {panel.kind for panel in panels} == {STANDINGS}
    assert covered(panels, STANDINGS) == list(range(40))


@pytest.mark.parametrize(("status", "players"), [(None, 0), (None, 16), (DRAWN, 0)])
def test_before_a_draw_the_screen_welcomes(status, players):
    assert cycle(status=status, tables=0, players=players) == [Panel(kind=WELCOME)]


def test_a_panels_items_fall_into_columns_of_the_panels_rows():
    panel = Panel(kind=NAMES, page=2, pages=3, start=48, stop=100, total=100)
    assert ROWS == 16
    assert panel.columns == [(48, 64), (64, 80), (80, 96), (96, 100)]
    assert panel.first == 49


@pytest.mark.parametrize(
    ("text", "step"),
    [
        ("0", 0),
        ("7", 7),
        ("68", 68),
        (None, 0),
        ("", 0),
        ("-1", 0),
        ("2.5", 0),
        ("seven", 0),
        # Digits of other scripts are digits to Python, not to a screen.
        ("٣", 0),
        ("1234567890", 0),
    ],
)
def test_a_poll_asks_for_a_whole_step_or_starts_again(text, step):
    assert requested_step(text) == step


def test_steps_go_round_the_cycle():
    panels = cycle(status=IN_PLAY, tables=25, players=100)
    assert len(panels) == 2 + 3 + 4
    assert panel_at(panels, 0) == (0, panels[0])
    assert panel_at(panels, 8) == (8, panels[8])
    assert panel_at(panels, 9) == (0, panels[0])
    # A step from a longer cycle (players withdrew meanwhile) still shows a panel.
    assert panel_at(panels, 30) == (3, panels[3])


def test_the_phase_names_the_session_and_its_state():
    assert phase(None, None) == "none"
    assert phase(3, IN_PLAY) == "3-in_play"
    assert phase(3, CLOSED) != phase(3, IN_PLAY) != phase(4, IN_PLAY)


def test_importing_the_screen_does_not_import_django():
    assert_imports_no_django("tournament.hall.screen")
