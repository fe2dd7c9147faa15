"""The results as the European Mahjong Association's results sheet and the established MCR
desktop tool's "EMA report" list them (docs/federation.md). The file goes to the
federation, whose sheets are in English: its headings and words are not translated.
"""

import csv
import io
from collections.abc import Iterable, Iterator
from fractions import Fraction

from tournament.exports.spreadsheet import Sheet, csv_cell, fraction_text
from tournament.exports.workbook import ExactPoints, Row, cell_values, workbook_bytes
from tournament.selectors.ema import ema_report
from tournament.selectors.overview import event_days, session_dates
from tournament.selectors.standings import StandingRow, tournament_standings
from tournament.selectors.withdrawals import players_replaced

EMA_RULES = "MCR"

# The columns, in order: (heading, the value's key in ``ema_values``). No official
# specification of the EMA's file was found: this is the one place to change when its
# format is known better (a column moved, renamed or added), the rows follow it.
EMA_COLUMNS = (
    ("Place", "place"),
    ("Last name", "last_name"),
    ("First name", "first_name"),
    ("EMA number", "ema_number"),
    ("Country", "country"),
    ("Table points", "table_points"),
    ("Score", "score"),
    ("EMA member", "ema_member"),
    ("Note", "note"),
)
EMA_SUBSTITUTE = "substitute"


def ema_listed(rows: Iterable[StandingRow]) -> list[StandingRow]:
    """Who the EMA's sheet lists: the ranked players in the standings' order, then the
    substitutes who played, unranked (federations count at most three of them, and do not
    usually rank them). A player who withdrew before playing is not listed."""
    rows = list(rows)
    ranked = [row for row in rows if row.ranked]
    substitutes = [
        row for row in rows if not row.ranked and row.player.is_substitute and row.sessions_played
    ]
    return ranked + substitutes


def ema_values(row: StandingRow, replaced: list[str] = ()) -> dict:
    """What the EMA's sheet says of one player, by the keys of ``EMA_COLUMNS``. A guest (no
    EMA number) is ranked like anyone, with an empty number; a substitute's note names the
    withdrawn players they ``replaced``."""
    player = row.player
    note = "" if row.ranked else EMA_SUBSTITUTE
    if note and replaced:
        note += "; replaces " + ", ".join(replaced)
    return {
        "place": row.rank,
        "last_name": player.last_name,
        "first_name": player.first_name,
        "ema_number": player.ema_number,
        "country": player.country,
        "table_points": ExactPoints(row.table_points),
        "score": row.score,
        "ema_member": "yes" if player.ema_number else "no",
        "note": note,
    }


def ema_rows(
    rows: Iterable[StandingRow], replaced: dict[int, list[str]] | None = None
) -> Iterator[Row]:
    """The EMA's results: the header of ``EMA_COLUMNS``, then one row per listed player
    (``replaced``: substitute id -> the players they replaced, ``players_replaced``)."""
    yield tuple(heading for heading, _key in EMA_COLUMNS)
    for row in ema_listed(rows):
        values = ema_values(row, (replaced or {}).get(row.player.pk, ()))
        yield tuple(values[key] for _heading, key in EMA_COLUMNS)


def ema_tournament_rows(tournament, listed: list[StandingRow]) -> list[Row]:
    """The block above the results: the tournament, where it was played, its numbers of
    players and of the substitutes listed (who played) against the federation's limit, as
    the standings workbook counts them, its first and last day (``event_days``: the
    organiser's, else the days a session was opened for play, on the tournament's own
    calendar), the number of days a session was played, and its rules, then a blank row."""
    days = session_dates(tournament)
    first_last = event_days(tournament)
    ranked = sum(1 for row in listed if row.ranked)
    report = ema_report(tournament)
    return [
        ("Tournament", tournament.name),
        ("City", tournament.city or None),
        ("Country", tournament.country or None),
        ("Players", ranked),
        ("Substitutes", len(listed) - ranked),
        ("Substitute limit", tournament.substitute_limit),
        ("First day", first_last[0].isoformat() if first_last else None),
        ("Last day", first_last[1].isoformat() if first_last else None),
        ("Days", len(days)),
        ("Rules", EMA_RULES),
        # The tournament's weight in the EMA's ranking, and whether the EMA's checks pass:
        # a file sent before they do says so.
        ("Weight", float(report.weight.total)),
        ("Checked", "yes" if report.passed else "no: " + ", ".join(report.failed_codes)),
        (),
    ]


def ema_xlsx_bytes(tournament) -> bytes:
    """The EMA's results sheet as an .xlsx (in English whatever the reader's language): the
    tournament's block, then the results."""
    rows = tournament_standings(tournament)
    above = ema_tournament_rows(tournament, ema_listed(rows))
    results = ema_rows(rows, players_replaced(tournament))
    return workbook_bytes([Sheet("Results", results, above=above)])


def ema_csv_text(tournament) -> str:
    """The EMA's results as CSV: the same rows as the workbook's results, header first; a
    text that a spreadsheet would run as a formula starts with a quote (``csv_cell``)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    rows = ema_rows(tournament_standings(tournament), players_replaced(tournament))
    for row in cell_values(rows):
        writer.writerow([fraction_text(v) if isinstance(v, Fraction) else csv_cell(v) for v in row])
    return buffer.getvalue()
