"""The standings workbook: one row generator per sheet, and the xlsx writer that consumes them.

Each ``*_rows`` function yields a header, then one tuple of plain values per line:
ints, strings, booleans, ``None`` for an empty cell and exact ``Fraction``s for table
points (``ExactPoints`` where the cell is to show the fraction itself). Only the writer
turns a ``Fraction`` into a number Excel can hold, so any other writer (CSV, a test) sees
the exact values.

The rows come from the stored seat results and from the hands read as plain values, a
session after another, and the writer streams them into a write-only workbook: a
1,000-player tournament's 40,000 hands are never all in memory at once. The file is cached
under the tournament's version.
"""

import io
import itertools
import unicodedata
from collections.abc import Iterable, Iterator
from fractions import Fraction

from django.core.cache import cache
from django.utils.functional import Promise
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from tournament import scoring, seating, selectors
from tournament.formatting import WIND_NAMES, format_table_points
from tournament.models import SEAT_LABELS, Hand, Seat
from tournament.scoring import PenaltyKind

Row = tuple

# Excel keeps 15 significant digits; four decimals tell 7/3 from 2.33 at a glance, and
# the exact value sits in the "(exact)" column beside it.
TABLE_POINTS_DECIMALS = 4
# The "(exact)" column: a number shown as a fraction, 7/3 as "2 1/3" and 29/12 as
# "2 5/12" (table points are twelfths at most), that sums and sorts as a number.
EXACT_POINTS_FORMAT = "# ??/??"
MAX_COLUMN_WIDTH = 60
EXCEL_SHEET_TITLE_LENGTH = 31
# Column widths are measured on the header and the first rows: a write-only sheet takes
# its widths before its rows.
WIDTH_SAMPLE_ROWS = 500
# Cached workbooks are kept under the tournament's version, so they are never stale.
WORKBOOK_CACHE_SECONDS = 3600


class ExactPoints(Fraction):
    """Table points for a cell that shows the exact fraction (a number, not text)."""


def _seat(seat: int | None) -> str | None:
    return SEAT_LABELS[seat] if seat is not None else None


def _player_at(players: list, seat: int | None):
    if seat is None or seat >= len(players):
        return None
    return players[seat]


# ---------------------------------------------------------------- row generators


def standings_rows(rows: Iterable[selectors.StandingRow]) -> Iterator[Row]:
    """The individual standings, ranked players first, then the unranked substitutes."""
    yield (
        _("Rank"),
        _("Number"),
        _("Name"),
        _("Chinese name"),
        _("Team"),
        _("Country"),
        _("Table points"),
        _("Table points (exact)"),
        _("Score"),
        _("1st"),
        _("2nd"),
        _("3rd"),
        _("4th"),
        _("Sessions played"),
        _("Best session"),
        _("Substitute"),
    )
    for row in rows:
        player = row.player
        yield (
            row.rank,
            player.number,
            player.name,
            player.name_zh,
            player.team,
            player.country,
            row.table_points,
            ExactPoints(row.table_points),
            row.score,
            *row.places,
            row.sessions_played,
            row.best_session,
            player.is_substitute,
        )


def session_rows(seats: Iterable[Seat]) -> Iterator[Row]:
    """One session's results: every player of every table, by table and starting seat, from
    the seats' stored results (empty where the table has no hand yet)."""
    yield (
        _("Table"),
        _("Seat"),
        _("Number"),
        _("Name"),
        _("Chinese name"),
        _("Score"),
        _("Place"),
        _("Table points"),
        _("Table points (exact)"),
        _("Confirmed"),
    )
    for seat in seats:
        played = seat.place is not None
        points = scoring.from_twelfths(seat.table_points_twelfths)
        yield (
            seat.table.number,
            SEAT_LABELS[seat.seat],
            seat.player.number,
            seat.player.name,
            seat.player.name_zh,
            seat.score if played else None,
            seat.place,
            points if played else None,
            ExactPoints(points) if played else None,
            seat.table.is_confirmed,
        )


HAND_FIELDS = (
    "table__session__number",
    "table__number",
    "table_id",
    "number",
    "outcome",
    "winner",
    "discarder",
    "fan",
    "flowers",
    "fan_names",
    "winning_hand",
    "computed_fan",
    "points_p1",
    "points_p2",
    "points_p3",
    "points_p4",
)


def hand_rows(tournament) -> Iterator[Row]:
    """Every entered hand of every table, with the settled points per starting seat: read as
    plain values in one streamed query, never as model objects."""
    yield (
        _("Session"),
        _("Table"),
        _("Hand"),
        _("Prevalent wind"),
        _("Dealer"),
        _("Dealer name"),
        _("Result"),
        _("Winner"),
        _("Winner name"),
        _("Discarder"),
        _("Discarder name"),
        _("Fan"),
        _("Flowers"),
        _("Fans claimed"),
        _("Winning hand"),
        _("Computed fan"),
        _("Points P1"),
        _("Points P2"),
        _("Points P3"),
        _("Points P4"),
    )
    names = {
        (table, seat): name
        for table, seat, name in Seat.objects.filter(session__tournament=tournament)
        .order_by()
        .values_list("table_id", "seat", "player__name")
    }
    slots = {slot.number: slot for slot in seating.session_schedule()}
    outcomes = {key: str(label) for key, label in Hand.OUTCOME_CHOICES}
    hands = (
        Hand.objects.filter(table__session__tournament=tournament)
        .order_by("table__session__number", "table__number", "number")
        .values_list(*HAND_FIELDS)
        .iterator(chunk_size=2000)
    )
    for session, table, table_id, number, outcome, winner, discarder, *rest in hands:
        fan, flowers, fan_names, winning_hand, computed_fan, *points = rest
        slot = slots[number]
        yield (
            session,
            table,
            number,
            str(WIND_NAMES[slot.prevalent_wind]),
            SEAT_LABELS[slot.dealer],
            names.get((table_id, slot.dealer)),
            outcomes[outcome],
            _seat(winner),
            names.get((table_id, winner)) if winner is not None else None,
            _seat(discarder),
            names.get((table_id, discarder)) if discarder is not None else None,
            fan,
            flowers if outcome in Hand.WINS else None,
            fan_names,
            winning_hand,
            computed_fan,
            *points,
        )


def penalty_rows(tournament) -> Iterator[Row]:
    """Every penalty, in the order of the hands."""
    yield (
        _("Session"),
        _("Table"),
        _("Hand"),
        _("Offender seat"),
        _("Offender number"),
        _("Offender name"),
        _("Kind"),
        _("Points"),
        _("Paid to"),
        _("Reason"),
    )
    players = selectors.players_by_table_seat(tournament)
    for penalty in selectors.penalties_of(tournament):
        table = penalty.hand.table
        where = (table.session.number, table.number)
        offender = players.get((*where, penalty.offender))
        if penalty.beneficiary is not None:
            beneficiary = players.get((*where, penalty.beneficiary))
            paid_to = (
                f"{SEAT_LABELS[penalty.beneficiary]} {beneficiary.number} {beneficiary.name}"
                if beneficiary
                else SEAT_LABELS[penalty.beneficiary]
            )
        elif penalty.kind == PenaltyKind.TO_EACH_OTHER:
            paid_to = _("each other player")
        else:
            paid_to = None
        yield (
            table.session.number,
            table.number,
            penalty.hand.number,
            SEAT_LABELS[penalty.offender],
            offender.number if offender else None,
            offender.name if offender else None,
            str(penalty.get_kind_display()),
            penalty.points,
            paid_to,
            penalty.reason,
        )


def seating_rows(tournament) -> Iterator[Row]:
    """The draw of every session: table, starting seat and lot of each player."""
    yield (
        _("Session"),
        _("Table"),
        _("Seat"),
        _("Lot"),
        _("Number"),
        _("Name"),
        _("Chinese name"),
        _("Team"),
    )
    seats = (
        Seat.objects.filter(session__tournament=tournament)
        .select_related("session", "table", "player")
        .order_by("session__number", "table__number", "seat")
    )
    for seat in seats:
        yield (
            seat.session.number,
            seat.table.number,
            SEAT_LABELS[seat.seat],
            seat.lot,
            seat.player.number,
            seat.player.name,
            seat.player.name_zh,
            seat.player.team,
        )


def team_rows(teams: Iterable[selectors.TeamRow]) -> Iterator[Row]:
    """The team standings: sums of the ranked members' table points, then scores."""
    yield (
        _("Rank"),
        _("Team"),
        _("Members"),
        _("Table points"),
        _("Table points (exact)"),
        _("Score"),
    )
    for team in teams:
        yield (
            team.rank,
            team.team,
            ", ".join(team.members),
            team.table_points,
            ExactPoints(team.table_points),
            team.score,
        )


def has_teams(rows: Iterable[selectors.StandingRow]) -> bool:
    """Whether any player, ranked or not, belongs to a team: then teams are shown."""
    return any(row.player.team for row in rows)


def _session_seats(tournament) -> Iterator[tuple[int, Iterator[Seat]]]:
    """(session number, its seats by table and seat) for every session, from one query."""
    seats = (
        Seat.objects.filter(session__tournament=tournament)
        .select_related("session", "table", "player")
        .order_by("session__number", "table__number", "seat")
        .iterator(chunk_size=2000)
    )
    return itertools.groupby(seats, key=lambda seat: seat.session.number)


def workbook_sheets(tournament) -> Iterator[tuple[str, Iterable[Row]]]:
    """(sheet title, rows) for every sheet of the standings workbook, in order; each sheet's
    rows are read as it is written."""
    rows = selectors.standings(tournament)
    yield _("Standings"), standings_rows(rows)
    drawn = set(tournament.sessions.values_list("number", flat=True))
    for number, seats in _session_seats(tournament):
        drawn.discard(number)
        yield _("Session %(number)s") % {"number": number}, session_rows(seats)
    # A session drawn with no seat (no players) still has its sheet, with a header only.
    for number in sorted(drawn):
        yield _("Session %(number)s") % {"number": number}, session_rows([])
    yield _("Hands"), hand_rows(tournament)
    yield _("Penalties"), penalty_rows(tournament)
    yield _("Seating"), seating_rows(tournament)
    if has_teams(rows):
        yield _("Teams"), team_rows(selectors.team_standings(rows))


# ---------------------------------------------------------------- xlsx writer


def _cell_value(value):
    """The one place where exact values become what a spreadsheet cell can hold."""
    if isinstance(value, Fraction):
        if isinstance(value, ExactPoints):
            return float(value)
        return round(float(value), TABLE_POINTS_DECIMALS)
    if isinstance(value, Promise):
        value = str(value)
    # An empty text is an empty cell, as a blank field is on paper.
    return None if value == "" else value


def _display_width(value) -> int:
    """Characters the value takes on screen; CJK characters are twice as wide."""
    if value is None:
        return 0
    if isinstance(value, ExactPoints):
        value = format_table_points(value) + "  "
    return sum(2 if unicodedata.east_asian_width(char) in ("W", "F") else 1 for char in str(value))


def _sheet_title(title: str) -> str:
    for char in "[]:*?/\\":
        title = title.replace(char, " ")
    return title[:EXCEL_SHEET_TITLE_LENGTH]


def _cell(sheet, value, *, bold: Font | None = None) -> WriteOnlyCell:
    cell = WriteOnlyCell(sheet, value=_cell_value(value))
    if cell.data_type == "f":
        # Names come from registration forms and imports: text starting with "=" stays
        # text instead of becoming a formula Excel would run.
        cell.data_type = "s"
    if isinstance(value, ExactPoints):
        cell.number_format = EXACT_POINTS_FORMAT
    if bold is not None:
        cell.font = bold
    return cell


def write_sheet(workbook: Workbook, title: str, rows: Iterable[Row]) -> None:
    """Write a sheet of a write-only workbook: a bold frozen header, then the rows as they
    come, columns as wide as the header and the first rows' content."""
    sheet = workbook.create_sheet(_sheet_title(title))
    rows = iter(rows)
    header = next(rows)
    sample = list(itertools.islice(rows, WIDTH_SAMPLE_ROWS))
    widths: dict[int, int] = {}
    for row in (header, *sample):
        for column_index, value in enumerate(row, start=1):
            width = _display_width(value if isinstance(value, ExactPoints) else _cell_value(value))
            widths[column_index] = max(widths.get(column_index, 0), width)
    for column_index, width in widths.items():
        letter = get_column_letter(column_index)
        sheet.column_dimensions[letter].width = min(width + 2, MAX_COLUMN_WIDTH)
    sheet.freeze_panes = "A2"
    bold = Font(bold=True)
    sheet.append([_cell(sheet, value, bold=bold) for value in header])
    for row in itertools.chain(sample, rows):
        sheet.append([_cell(sheet, value) for value in row])


def standings_workbook(tournament) -> Workbook:
    """The whole tournament as a write-only workbook: standings, sessions, hands, penalties,
    seating (and teams)."""
    workbook = Workbook(write_only=True)
    for title, rows in workbook_sheets(tournament):
        write_sheet(workbook, title, rows)
    return workbook


def standings_xlsx_bytes(tournament) -> bytes:
    """The workbook's file, cached under the tournament's version and the language."""
    key = f"mcr:workbook:{tournament.pk}:{selectors.data_version(tournament)}:{get_language()}"
    content = cache.get(key)
    if content is None:
        buffer = io.BytesIO()
        standings_workbook(tournament).save(buffer)
        content = buffer.getvalue()
        cache.set(key, content, WORKBOOK_CACHE_SECONDS)
    return content
