"""The paper fallback: a blank score sheet per table, one A4 page each, and the session's
penalty record on whole A4 pages (one but in a session of many penalties), for when a tablet
fails.
"""

from dataclasses import dataclass

from tournament import seating
from tournament.language.formatting import SEAT_LABELS
from tournament.models import (
    Penalty,
    Seat,
    Session,
)
from tournament.seating.rotation import HANDS_PER_ROUND

# Rows of the penalty record on each A4 page, the recorded ones first.
PENALTY_RECORD_ROWS = 24


# Blank rows kept after the recorded penalties: when these leave fewer on the page, the
# record goes on to another page.
PENALTY_RECORD_MIN_BLANK = 4


# Rows of the penalties box at the foot of a table's score sheet.
SCORE_SHEET_PENALTY_ROWS = 4


@dataclass(frozen=True)
class PaperPlayer:
    """A seated player as the paper sheets print them."""

    number: int
    name: str
    name_zh: str = ""
    team: str = ""

    @property
    def display_name(self) -> str:
        return f"{self.name} ({self.name_zh})" if self.name_zh else self.name


@dataclass(frozen=True)
class PaperRow:
    """One hand of a blank score sheet: its place in the schedule; the rest is handwritten."""

    slot: seating.HandSlot
    dealer: PaperPlayer | None  # None on a sheet whose players are left blank

    @property
    def number(self) -> int:
        return self.slot.number

    @property
    def dealer_label(self) -> str:
        return SEAT_LABELS[self.slot.dealer]

    @property
    def opens_round(self) -> bool:
        """The first hand of a round after the first: the players have just changed seats."""
        return self.slot.number > 1 and self.slot.number % HANDS_PER_ROUND == 1


@dataclass(frozen=True)
class PaperSheet:
    """One table's blank score sheet: its players by starting seat and the 16 hands."""

    table: int
    players: tuple[PaperPlayer | None, ...]  # P1..P4; each None when left blank
    rows: tuple[PaperRow, ...]

    @property
    def columns(self) -> list[tuple[str, PaperPlayer | None]]:
        """Per starting seat P1..P4: its label and its player."""
        return list(zip(SEAT_LABELS, self.players, strict=True))

    @property
    def penalty_rows(self) -> range:
        """The blank rows of the sheet's penalties box."""
        return range(SCORE_SHEET_PENALTY_ROWS)


def paper_rows(players) -> tuple[PaperRow, ...]:
    """The 16 rows of a blank score sheet for ``players`` (P1..P4, or None each), in hand
    order, from the seat rotation; plain data in and out."""
    return tuple(
        PaperRow(slot=slot, dealer=players[slot.dealer]) for slot in seating.session_schedule()
    )


def _paper_seats(session: Session) -> dict[tuple[int, int], PaperPlayer]:
    """(table number, starting seat) -> the player seated there now: one query."""
    rows = Seat.objects.filter(session=session).values_list(
        "table__number", "seat", "player__number", "player__name", "player__name_zh", "player__team"
    )
    return {
        (table, seat): PaperPlayer(number, name, name_zh, team)
        for table, seat, number, name, name_zh, team in rows
    }


def session_score_sheets(
    session: Session, *, blank: bool = False, table: int | None = None
) -> list[PaperSheet]:
    """The blank score sheets of the session's tables (only table ``table`` if given), in
    table order, with each table's players as seated now; ``blank`` leaves the players out,
    for a table re-seated on paper. One query."""
    seats = _paper_seats(session)
    numbers = sorted({number for number, _seat in seats})
    if table is not None:
        numbers = [number for number in numbers if number == table]
    sheets = []
    for number in numbers:
        players = tuple(
            None if blank else seats.get((number, seat)) for seat in range(len(SEAT_LABELS))
        )
        sheets.append(PaperSheet(table=number, players=players, rows=paper_rows(players)))
    return sheets


@dataclass(frozen=True)
class PenaltyLine:
    """A penalty already recorded in the session, as the paper penalty record lists it."""

    table: int
    hand: int
    offender: int  # starting seat
    player: PaperPlayer | None
    kind: str
    points: int
    beneficiary: int | None  # starting seat, for a penalty paid to one player
    reason: str

    @property
    def offender_label(self) -> str:
        return SEAT_LABELS[self.offender]

    @property
    def beneficiary_label(self) -> str:
        return "" if self.beneficiary is None else SEAT_LABELS[self.beneficiary]


@dataclass(frozen=True)
class PenaltyRecordPage:
    """One A4 page of the penalty record: its share of the recorded penalties, then blank
    rows, ``PENALTY_RECORD_ROWS`` in all."""

    number: int
    count: int  # how many pages the record has
    lines: list[PenaltyLine]

    @property
    def blanks(self) -> range:
        return range(PENALTY_RECORD_ROWS - len(self.lines))


@dataclass(frozen=True)
class PenaltyRecord:
    """The session's penalty record: the recorded penalties, then blank rows to write in, on
    as many whole pages as leave at least ``PENALTY_RECORD_MIN_BLANK`` blank rows (one page
    but in a session of many penalties)."""

    lines: list[PenaltyLine]

    @property
    def pages(self) -> list[PenaltyRecordPage]:
        count = -(-(len(self.lines) + PENALTY_RECORD_MIN_BLANK) // PENALTY_RECORD_ROWS)  # ceiling
        return [
            PenaltyRecordPage(
                number=index + 1,
                count=count,
                lines=self.lines[index * PENALTY_RECORD_ROWS : (index + 1) * PENALTY_RECORD_ROWS],
            )
            for index in range(count)
        ]

    @property
    def blank_rows(self) -> int:
        return sum(len(page.blanks) for page in self.pages)


def session_penalty_record(session: Session, *, blank: bool = False) -> PenaltyRecord:
    """The penalties recorded in the session by table, hand and entry, with their offenders'
    names (two queries); ``blank`` gives an empty record. Blank rows fill the last page, and at
    least ``PENALTY_RECORD_MIN_BLANK`` follow however many are recorded."""
    lines: list[PenaltyLine] = []
    if not blank:
        rows = list(
            Penalty.objects.filter(hand__table__session=session)
            .order_by("hand__table__number", "hand__number", "id")
            .values_list(
                "hand__table__number",
                "hand__number",
                "offender",
                "kind",
                "points",
                "beneficiary",
                "reason",
            )
        )
        seats = _paper_seats(session) if rows else {}
        lines = [
            PenaltyLine(
                table=table,
                hand=hand,
                offender=offender,
                player=seats.get((table, offender)),
                kind=kind,
                points=points,
                beneficiary=beneficiary,
                reason=reason,
            )
            for table, hand, offender, kind, points, beneficiary, reason in rows
        ]
    return PenaltyRecord(lines=lines)
