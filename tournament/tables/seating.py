"""The seating pages' tables: a session's seating by table, the plan's players under a
planned session, the seating by name, and a player's sessions, drawn and planned.

The rows are the seating selectors' (``selectors.seating``); what a seat says in small
print (its lot, whom its player replaces) is worked out here as text, each row's cells are
written by the table's template (``templates/tables/seating*.html``, ``player_*.html``). None
sorts: the seating is read in the order it is drawn, the list by name alphabetically.
"""

from dataclasses import dataclass

from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_tables2 import Column

from tournament.language.formatting import SEAT_LABELS
from tournament.selectors.seating import ListedPlayer, ListedSeat, SeatedTable
from tournament.tables import NumberColumn, RowsTable

WINDS = (gettext_lazy("East"), gettext_lazy("South"), gettext_lazy("West"), gettext_lazy("North"))


def seat_heading(seat: int):
    """ "P1 (East)": a seat's label and its wind."""
    return format_lazy("{} ({})", SEAT_LABELS[seat], WINDS[seat])


def replaced_note(method: str, number: int, name: str) -> str:
    """What a seat given to someone else says of the player it was seated for, as the
    session's method seated them: the lot drew it, the plan gave it, or a session draw."""
    if method == "lot":
        text = _("replaces %(n)s %(name)s, drawn by lot")
    elif method == "planned":
        text = _("replaces %(n)s %(name)s in their planned seat")
    else:
        text = _("replaces %(n)s %(name)s in the seat drawn for them")
    return text % {"n": number, "name": name}


def seat_note(seat: ListedSeat, method: str) -> str:
    """The small print under a seated player: the lot, whom they replace."""
    notes = [f"{_('lot')} {seat.lot}"] if method == "lot" else []
    if seat.replaces:
        notes.append(replaced_note(method, seat.replaces.number, seat.replaces.name))
    elif seat.stands_in_for:  # a substitute the draw seated, standing in for a withdrawn player
        withdrawn = seat.stands_in_for
        notes.append(_("replaces %(n)s %(name)s") % {"n": withdrawn.number, "name": withdrawn.name})
    return " · ".join(notes)


@dataclass(frozen=True)
class SeatCell:
    player: ListedPlayer
    note: str


@dataclass(frozen=True)
class SeatingRow:
    number: int
    seats: list[SeatCell]  # P1..P4 (East..North)


class SeatingTable(RowsTable):
    """A session's tables, each with its players P1..P4, their lots when drawn by lot, whom
    each substitute replaces, and the withdrawn players still seated."""

    table = Column(verbose_name=gettext_lazy("Table"), accessor="number")
    p1 = Column(verbose_name=seat_heading(0))
    p2 = Column(verbose_name=seat_heading(1))
    p3 = Column(verbose_name=seat_heading(2))
    p4 = Column(verbose_name=seat_heading(3))

    caption = gettext_lazy("Seating by table")

    class Meta:
        attrs = {"class": "seating"}
        template_name = "tables/seating.html"
        orderable = False

    def __init__(self, tables: list[SeatedTable], method: str, **kwargs):
        rows = [
            SeatingRow(
                table.number, [SeatCell(s.player, seat_note(s, method)) for s in table.seats]
            )
            for table in tables
        ]
        super().__init__(rows, **kwargs)


class PlanPlayersTable(RowsTable):
    """The planning command's players: its number i, the player it stood for in the first
    plan and, after re-plans, what changed for them since (``PlanPlayer``). On parameters of
    its own (``plan-page``), beside the tables'."""

    index = NumberColumn(verbose_name=gettext_lazy("In the command"))
    player = Column(verbose_name=gettext_lazy("Player"))
    changes = Column(verbose_name=gettext_lazy("Since the first plan"))

    caption = gettext_lazy("Players")

    class Meta:
        attrs = {"class": "compact plan-players"}
        template_name = "tables/plan_players.html"
        orderable = False
        prefix = "plan-"

    def __init__(self, plan_players, *, with_changes: bool, **kwargs):
        super().__init__(plan_players, exclude=() if with_changes else ("changes",), **kwargs)
        self.with_changes = with_changes


class SeatingByNameTable(RowsTable):
    """The session's players in alphabetical order (``ListedSeat``), each linked to their
    page, with their table and starting seat: for finding one's table."""

    player = Column(verbose_name=gettext_lazy("Player"))
    number = NumberColumn(verbose_name=gettext_lazy("Number"), accessor="player__number")
    table = NumberColumn(verbose_name=gettext_lazy("Table"))
    seat = Column(verbose_name=gettext_lazy("Starting seat"))

    caption = gettext_lazy("Players in alphabetical order")

    class Meta:
        attrs = {"class": "by-name"}
        template_name = "tables/seating_by_name.html"
        orderable = False


class PlayerSessionsTable(RowsTable):
    """A player's drawn sessions (``PlayerSeat``): the session (linked to its seating), the
    table, the starting seat with its wind and whom the player replaces, the opponents."""

    session = NumberColumn(verbose_name=gettext_lazy("Session"))
    table = NumberColumn(verbose_name=gettext_lazy("Table"))
    seat = Column(verbose_name=gettext_lazy("Starting seat"))
    opponents = Column(verbose_name=gettext_lazy("Opponents"))

    caption = gettext_lazy("Sessions")

    class Meta:
        attrs = {"class": "player-schedule"}
        template_name = "tables/player_sessions.html"
        orderable = False


class PlannedSessionsTable(PlayerSessionsTable):
    """A player's planned sessions (``PlannedSeat``): session, table, seat, opponents; an
    opponent who withdrew is a seat to be filled."""

    class Meta(PlayerSessionsTable.Meta):
        attrs = {"class": "player-schedule planned"}
        template_name = "tables/player_planned.html"
