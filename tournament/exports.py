"""The standings workbook: one row generator per sheet, and the xlsx writer that consumes them.

Each ``*_rows`` function yields a header, then one tuple of plain values per line:
ints, strings, booleans, ``None`` for an empty cell and exact ``Fraction``s for table
points. Only the writer turns a ``Fraction`` into a number Excel can hold, so any other
writer (CSV, a test) sees the exact values.
"""

import io
import unicodedata
from collections.abc import Iterable, Iterator
from fractions import Fraction

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from tournament import selectors
from tournament.formatting import WIND_NAMES, format_table_points
from tournament.models import SEAT_LABELS, Seat
from tournament.scoring import PenaltyKind

Row = tuple

# Excel keeps 15 significant digits; four decimals tell 7/3 from 2.33 at a glance, and
# the exact value sits in the "(exact)" column beside it.
TABLE_POINTS_DECIMALS = 4
MAX_COLUMN_WIDTH = 60
EXCEL_SHEET_TITLE_LENGTH = 31


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
            format_table_points(row.table_points),
            row.score,
            *row.places,
            row.sessions_played,
            row.best_session,
            player.is_substitute,
        )


def session_rows(sheets: Iterable[selectors.TableSheet]) -> Iterator[Row]:
    """One session's results: every player of every table, by table and starting seat."""
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
    for sheet in sheets:
        for seat, (player, score, place, points) in enumerate(sheet.summary):
            yield (
                sheet.table.number,
                SEAT_LABELS[seat],
                player.number,
                player.name,
                player.name_zh,
                score,
                place,
                points,
                format_table_points(points),
                sheet.table.is_confirmed,
            )


def hand_rows(sessions: Iterable[tuple[int, list[selectors.TableSheet]]]) -> Iterator[Row]:
    """Every entered hand of every table, with the settled points per starting seat."""
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
    for session_number, sheets in sessions:
        for sheet in sheets:
            for line in sheet.rows:
                hand = line.hand
                if hand is None:
                    continue
                dealer = _player_at(sheet.players, line.slot.dealer)
                winner = _player_at(sheet.players, hand.winner)
                discarder = _player_at(sheet.players, hand.discarder)
                yield (
                    session_number,
                    sheet.table.number,
                    hand.number,
                    str(WIND_NAMES[line.slot.prevalent_wind]),
                    SEAT_LABELS[line.slot.dealer],
                    dealer.name if dealer else None,
                    str(hand.get_outcome_display()),
                    _seat(hand.winner),
                    winner.name if winner else None,
                    _seat(hand.discarder),
                    discarder.name if discarder else None,
                    hand.fan,
                    hand.flowers if hand.is_win else None,
                    hand.fan_names,
                    hand.winning_hand,
                    hand.computed_fan,
                    *hand.points,
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
            format_table_points(team.table_points),
            team.score,
        )


def has_teams(rows: Iterable[selectors.StandingRow]) -> bool:
    """Whether any player, ranked or not, belongs to a team: then teams are shown."""
    return any(row.player.team for row in rows)


def workbook_sheets(tournament) -> Iterator[tuple[str, Iterable[Row]]]:
    """(sheet title, rows) for every sheet of the standings workbook, in order."""
    rows = selectors.standings(tournament)
    yield _("Standings"), standings_rows(rows)
    sessions = [
        (session.number, selectors.session_sheets(session))
        for session in tournament.sessions.order_by("number")
    ]
    for number, sheets in sessions:
        yield _("Session %(number)s") % {"number": number}, session_rows(sheets)
    yield _("Hands"), hand_rows(sessions)
    yield _("Penalties"), penalty_rows(tournament)
    yield _("Seating"), seating_rows(tournament)
    if has_teams(rows):
        yield _("Teams"), team_rows(selectors.team_standings(rows))


# ---------------------------------------------------------------- xlsx writer


def _cell_value(value):
    """The one place where exact values become what a spreadsheet cell can hold."""
    if isinstance(value, Fraction):
        return round(float(value), TABLE_POINTS_DECIMALS)
    if isinstance(value, Promise):
        value = str(value)
    # An empty text is an empty cell, as a blank field is on paper.
    return None if value == "" else value


def _display_width(value) -> int:
    """Characters the value takes on screen; CJK characters are twice as wide."""
    if value is None:
        return 0
    return sum(2 if unicodedata.east_asian_width(char) in ("W", "F") else 1 for char in str(value))


def _sheet_title(title: str) -> str:
    for char in "[]:*?/\\":
        title = title.replace(char, " ")
    return title[:EXCEL_SHEET_TITLE_LENGTH]


def write_sheet(worksheet, rows: Iterable[Row]) -> None:
    """Write a header and rows; bold frozen header, columns as wide as their content."""
    widths: dict[int, int] = {}
    bold = Font(bold=True)
    for row_index, row in enumerate(rows, start=1):
        for column_index, value in enumerate(row, start=1):
            cell = worksheet.cell(row=row_index, column=column_index, value=_cell_value(value))
            if cell.data_type == "f":
                # Names come from registration forms and imports: text starting with "="
                # stays text instead of becoming a formula Excel would run.
                cell.data_type = "s"
            if row_index == 1:
                cell.font = bold
            widths[column_index] = max(widths.get(column_index, 0), _display_width(cell.value))
    for column_index, width in widths.items():
        letter = get_column_letter(column_index)
        worksheet.column_dimensions[letter].width = min(width + 2, MAX_COLUMN_WIDTH)
    worksheet.freeze_panes = "A2"


def standings_workbook(tournament) -> Workbook:
    """The whole tournament as a workbook: standings, sessions, hands, penalties, seating."""
    workbook = Workbook()
    workbook.remove(workbook.active)
    for title, rows in workbook_sheets(tournament):
        write_sheet(workbook.create_sheet(_sheet_title(title)), rows)
    return workbook


def standings_xlsx_bytes(tournament) -> bytes:
    buffer = io.BytesIO()
    standings_workbook(tournament).save(buffer)
    return buffer.getvalue()
