"""The hall's screens: which session a screen shows, the panels it cycles through, and which
panel each of its polls asks for.

Pure Python on plain values, no Django. A screen (a projector at 1920 x 1080) shows one
panel at a time and asks the server for the next one every few seconds: the current
session's seating by table, then by name, then the standings, each cut into pages of what
fits on the screen in type read from the back of a hall (``templates/screen``,
``css/screen.css``). A turn of the cycle shows every table and every player once.
"""

from collections.abc import Iterable
from dataclasses import dataclass

# What one panel holds at 1080 pixels high: 16 rows under the panel's title, in one table of
# tables (a row each, the four players across), three columns of names (name, table, seat),
# or two of standings (rank, name, table points and score need the room of two).
ROWS = 16
TABLES_PER_PAGE = ROWS
NAMES_PER_PAGE = ROWS * 3
STANDINGS_PER_PAGE = ROWS * 2

# The panels' kinds: the seating by table, by name, the standings; the welcome panel until
# a session is drawn.
TABLES = "tables"
NAMES = "names"
STANDINGS = "standings"
WELCOME = "welcome"

# The sessions' states (``Session.status``).
DRAWN = "drawn"
IN_PLAY = "in_play"
CLOSED = "closed"


@dataclass(frozen=True)
class Panel:
    """One panel of the cycle: page ``page`` of ``pages`` of its kind, the items
    ``start`` (from 0) to ``stop`` (not included) of ``total``."""

    kind: str
    page: int = 1
    pages: int = 1
    start: int = 0
    stop: int = 0
    total: int = 0

    @property
    def first(self) -> int:
        """The first item's position, from 1, as the panel's title says it ("17–32 of 250")."""
        return self.start + 1

    @property
    def columns(self) -> list[tuple[int, int]]:
        """The panel's items cut into columns of ``ROWS``: (start, stop) of each."""
        return [(i, min(i + ROWS, self.stop)) for i in range(self.start, self.stop, ROWS)]


def current_session(sessions: Iterable[tuple[int, str]]) -> int | None:
    """The session a screen shows, from (number, status) of each drawn session: the latest
    one open for play, else the latest drawn (not open yet, or closed); None before any
    draw."""
    drawn = list(sessions)
    in_play = [number for number, status in drawn if status == IN_PLAY]
    if in_play:
        return max(in_play)
    return max((number for number, _status in drawn), default=None)


def _pages(kind: str, total: int, per_page: int) -> list[Panel]:
    pages = -(-total // per_page)
    return [
        Panel(
            kind=kind,
            page=page,
            pages=pages,
            start=(page - 1) * per_page,
            stop=min(page * per_page, total),
            total=total,
        )
        for page in range(1, pages + 1)
    ]


def cycle(*, status: str | None, tables: int, players: int) -> list[Panel]:
    """The panels of one turn of a screen, in order: every page of the seating by table and
    by name (``tables`` tables of four), then every page of the standings (``players``
    rows, every registered player's), for a session ``status`` drawn or in play.

    A closed session's seating sends nobody anywhere: its standings only. Before any
    session is drawn (``status`` None), or without players, the welcome panel alone."""
    if status is None or players == 0:
        return [Panel(kind=WELCOME)]
    standings = _pages(STANDINGS, players, STANDINGS_PER_PAGE)
    if status == CLOSED:
        return standings
    return (
        _pages(TABLES, tables, TABLES_PER_PAGE)
        + _pages(NAMES, tables * 4, NAMES_PER_PAGE)
        + standings
    )


def phase(session: int | None, status: str | None) -> str:
    """What a poll says it was showing: a screen whose session or its state changed since
    starts the new cycle from its first panel (a new draw: table 1 first)."""
    return "none" if session is None else f"{session}-{status}"


def requested_step(text: str | None) -> int:
    """The step a poll asks for, as it came in the query: a whole number from 0, else 0 (a
    screen is never shown an error)."""
    if text is None or not text.isascii() or not text.isdigit() or len(text) > 9:
        return 0
    return int(text)


def panel_at(panels: list[Panel], step: int) -> tuple[int, Panel]:
    """The panel that ``step`` shows, and its place in the cycle: steps go round it, so a
    step past the end of a cycle that became shorter since the last poll still shows one."""
    index = step % len(panels)
    return index, panels[index]
