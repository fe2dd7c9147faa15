"""A table's score sheet as the tablet shows it: the players, the 16 hands with their
settlement and running totals, the corrections kept, and the session clock of the table.
"""

import hashlib
import json
from dataclasses import dataclass
from fractions import Fraction

from django.db.models import Prefetch
from django.utils import timezone

from tournament import scoring, seating
from tournament.hall import clock
from tournament.language.formatting import SEAT_LABELS
from tournament.models import (
    Hand,
    HandRevision,
    Player,
    Seat,
    Session,
    Table,
)


@dataclass
class SheetRow:
    """One line of the paper score sheet: the schedule and, once entered, the result."""

    slot: seating.HandSlot
    hand: Hand | None
    running: tuple[int, int, int, int]

    @property
    def number(self) -> int:
        return self.slot.number

    @property
    def dealer_label(self) -> str:
        return SEAT_LABELS[self.slot.dealer]

    @property
    def seats(self):
        """Per player P1..P4: (seat wind, physical seat, points or None, running total)."""
        points = self.hand.points if self.hand else (None,) * 4
        return list(
            zip(self.slot.seat_winds, self.slot.physical_seats, points, self.running, strict=True)
        )


@dataclass
class TableSheet:
    table: Table
    players: list[Player]  # by starting seat P1..P4
    rows: list[SheetRow]
    scores: tuple[int, int, int, int]
    places: tuple[int, ...]
    table_points: tuple[Fraction, ...]

    @property
    def entered(self) -> int:
        return sum(1 for row in self.rows if row.hand is not None)

    @property
    def missing(self) -> list[int]:
        """The hand numbers not entered yet."""
        return [row.number for row in self.rows if row.hand is None]

    @property
    def next_number(self) -> int | None:
        return next((row.number for row in self.rows if row.hand is None), None)

    @property
    def summary(self):
        return list(zip(self.players, self.scores, self.places, self.table_points, strict=True))

    def hand(self, number: int) -> Hand | None:
        """Hand ``number`` as entered, or None (not entered, or not a hand number)."""
        return next((row.hand for row in self.rows if row.number == number), None)


def table_players(table: Table) -> list[Player]:
    """The table's players by starting seat, P1..P4."""
    return list(Player.objects.filter(seats__table_id=table.pk).order_by("seats__seat"))


def table_sheet(table: Table) -> TableSheet:
    """The score sheet of one table: 16 scheduled hands, entered results, running totals."""
    hands = {h.number: h for h in table.hands.prefetch_related("penalties").order_by("number")}
    return _build_sheet(table, table_players(table), hands)


def _build_sheet(table: Table, players: list[Player], hands: dict[int, Hand]) -> TableSheet:
    running = (0, 0, 0, 0)
    rows = []
    for slot in seating.session_schedule():
        hand = hands.get(slot.number)
        if hand is not None:
            running = tuple(a + b for a, b in zip(running, hand.points, strict=True))
        rows.append(SheetRow(slot=slot, hand=hand, running=running))
    return TableSheet(
        table=table,
        players=players,
        rows=rows,
        scores=running,
        places=scoring.places(running),
        table_points=scoring.table_points(running),
    )


def sheet_version(sheet: TableSheet) -> str:
    """What the review of ``sheet`` shows, as one digest: who sits in each seat, and every
    hand entered with its number, version, result, points and penalties.

    The review page carries it and the confirmation is refused when the table's sheet, read
    again under its lock, gives another (``services.tables.table_review_unchanged``): the
    players' initials seal only what they checked. A digest of the data itself, not a
    counter kept by each writer, so that no way of changing a hand, a penalty or a seat
    (an entry, a correction, a seat swap, a seat given to a substitute) can forget to move
    it. The hands' penalties must be read with them (``table_sheet`` does).
    """
    hands = []
    for row in sheet.rows:
        hand = row.hand
        if hand is None:
            continue
        penalties = [
            [p.offender, p.kind, p.points, p.beneficiary, p.reason] for p in hand.penalties.all()
        ]
        hands.append(
            [
                hand.number,
                hand.version,
                hand.outcome,
                hand.winner,
                hand.discarder,
                hand.fan,
                hand.flowers,
                hand.fan_names,
                hand.winning_hand,
                hand.computed_fan,
                hand.referee_figure_kept,
                list(hand.points),
                hand.deducted,
                penalties,
            ]
        )
    content = {"seats": [player.pk for player in sheet.players], "hands": hands}
    text = json.dumps(content, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def hand_revisions(sheet: TableSheet):
    """Every correction made at the sheet's table, newest first, with the hand and who made
    it; none, without a query, while every hand is at its first version: a correction is
    kept as a revision when it raises the hand's version, and only then."""
    if all(row.hand is None or row.hand.version == 1 for row in sheet.rows):
        return HandRevision.objects.none()
    return (
        HandRevision.objects.filter(hand__table=sheet.table)
        .select_related("hand", "revised_by")
        .order_by("-revised_at", "-id")
    )


def session_sheets(session: Session) -> list[TableSheet]:
    """Every table's sheet for a session, in three queries whatever the number of tables."""
    tables = session.tables.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("seat")),
        Prefetch("hands", queryset=Hand.objects.prefetch_related("penalties").order_by("number")),
    ).order_by("number")
    return [
        _build_sheet(
            table,
            [s.player for s in table.seats.all()],
            {h.number: h for h in table.hands.all()},
        )
        for table in tables
    ]


def table_clock(table: Table, now=None) -> clock.TableClock | None:
    """The table's session clock read at ``now`` (the present by default); None unless its
    session is open for play (drawn but not opened, or closed)."""
    session = table.session
    if not session.is_in_play:
        return None
    tournament = session.tournament
    return clock.time_left(
        opened_at=session.opened_at,
        session_minutes=tournament.session_minutes,
        extra_minutes=table.extra_minutes,
        now=now or timezone.now(),
        gong_minute=tournament.gong_minute if tournament.session_end == "gong" else None,
    )


def session_end(sheet: TableSheet, table_clock: clock.TableClock | None) -> clock.SessionEnd:
    """What the sheet says of the session's end (``clock.session_end``). The hand in play
    when the gong sounded is found from when the server stored each hand (the hands' history):
    one query, once the gong has sounded. A hand kept on a tablet offline and sent after the
    gong counts as entered after it; the referee, who knows, enters the next hand anyway."""
    if table_clock is None:
        return clock.SessionEnd("playing")
    before_gong = []
    if table_clock.gong_sounded:
        before_gong = (
            Hand.history.model.objects.filter(
                table_id=sheet.table.pk, history_type="+", history_date__lt=table_clock.gong_at
            )
            .values_list("number", flat=True)
            .distinct()
        )
    return clock.session_end(
        table_clock,
        entered=[row.number for row in sheet.rows if row.hand is not None],
        entered_before_gong=before_gong,
        hands=len(sheet.rows),
    )
