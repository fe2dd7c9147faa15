"""The standings workbook written as the site writes it, by openpyxl in its write-only mode
(``tournament.exports.spreadsheet``): the time it takes and the peak of the memory it
allocates, on rows read once and kept as plain values, so that the writing alone is timed.

    .venv/bin/python bench/workbook_bench.py [--sizes 300x8,1000x10] [--runs 3]

(``make bench-workbook``.) Each size (players x sessions) is a tournament's sheets made
here, without a database: the standings, one sheet per session, every hand (16 a table),
the penalties, the seating and the teams, with the columns, headings, heading rows and
kinds of value (names, exact table points, empty cells) the site's row generators give.
``make bench-web`` measures the same on the rows of the tournaments it builds
(``sheets_of``).

Figures are CPU-bound and vary with the machine's load: compare figures of the same run.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SIZES = "300x8,1000x10"
FIRST = ("Anna", "Li", "Jean-Baptiste", "Mateo", "Haruka", "Zhao", "Ingrid", "Pieter", "Wei")
LAST = ("Lindqvist", "Wang", "Moreau", "Kowalski", "Tanaka", "Chen", "Falk", "de Vries")
TEAMS = ("Beijing Seasons", "Berlin Winds", "Lyon Dragons", "Osaka Bamboo", "")


def parse_sizes(text: str) -> list[tuple[int, int]]:
    sizes = []
    for part in text.split(","):
        players, _, sessions = part.strip().partition("x")
        sizes.append((int(players), int(sessions)))
    return sizes


def made_sheets(players: int, sessions: int, seed: int = 1) -> list:
    """A played tournament's sheets, as ``workbook.workbook_sheets`` gives them, from rows
    made here: (players // 4) tables a session, every seat and hand of each."""
    from django.utils import timezone

    from tournament import scoring
    from tournament.exports import workbook
    from tournament.exports.spreadsheet import PageText, Sheet, Title
    from tournament.models import Player
    from tournament.selectors.standings import StandingRow, team_standings

    lot = random.Random(seed)
    people = [
        Player(
            number=number,
            name=f"{lot.choice(FIRST)} {lot.choice(LAST)}",
            name_zh=lot.choice(("", "", "王伟", "陈静怡")),
            team=lot.choice(TEAMS),
            country=lot.choice(("CHN", "FRA", "GER", "NED", "DEN")),
        )
        for number in range(1, players + 1)
    ]
    standing = [
        StandingRow(
            player=player,
            table_points=scoring.from_twelfths(lot.randrange(0, 49 * sessions)),
            score=lot.randrange(-400, 400),
            places=[lot.randrange(0, sessions) for _ in range(4)],
            sessions_played=sessions,
            best_session=lot.randrange(0, 200),
            rank=rank,
        )
        for rank, player in enumerate(people, start=1)
    ]
    seats = []
    hands = []
    seating = []
    outcomes = ("Win on a discard", "Self-drawn win", "Draw")
    confirmed = timezone.now()
    for session in range(1, sessions + 1):
        order = lot.sample(people, len(people))
        for table in range(1, players // 4 + 1):
            four = order[4 * (table - 1) : 4 * table]
            scores = [lot.randrange(-60, 60) for _ in range(3)]
            scores.append(-sum(scores))
            points = scoring.table_points(scores)
            for seat, (player, score, place) in enumerate(
                zip(four, scores, scoring.places(scores), strict=True)
            ):
                twelfths = int(points[seat] * 12)
                seats.append(
                    (
                        *(session, table, seat, player.number, player.name, player.name_zh),
                        *(score, place, twelfths, confirmed),
                    )
                )
                seating.append(
                    (
                        *(session, table, f"P{seat + 1}", 4 * (table - 1) + seat + 1),
                        *(player.number, player.name, player.name_zh or None),
                        *(player.team or None, None, None),
                    )
                )
            for number in range(1, 17):
                winner, discarder = lot.sample(range(4), 2)
                fan = lot.randrange(8, 40)
                hands.append(
                    (
                        *(session, table, number, "East", "P1", four[0].name),
                        *(lot.choice(outcomes), f"P{winner + 1}", four[winner].name),
                        *(f"P{discarder + 1}", four[discarder].name, fan, lot.randrange(0, 3)),
                        *("All Chows", "", None, -8 - fan, 24 + fan, -8, -8),
                    )
                )
    page = PageText(header="Bench Open", footer="Page &P of &N")
    heading = [(Title("Bench Open"),), ("May 16, 2026 – May 17, 2026",), ("Made on",), ()]
    sheets = [
        Sheet(
            "Standings",
            workbook.standings_rows(standing),
            above=heading,
            below=[("0 substitutes have sat at a table.",)],
            page=page,
        )
    ]
    for session in range(1, sessions + 1):
        played = [seat for seat in seats if seat[0] == session]
        sheets.append(Sheet(f"Session {session}", workbook.session_rows(played), page=page))
    penalties = [
        (session, 1, 3, "P2", 2, "Li Wang", "Deducted (leaves the table)", 10, None, "Late")
        for session in range(1, sessions + 1)
    ]
    for title, generator, rows in (
        ("Hands", workbook.hand_rows, hands),
        ("Penalties", workbook.penalty_rows, penalties),
        ("Seating", workbook.seating_rows, seating),
    ):
        # The header the row generator gives first, before it reads anything.
        header = next(generator(None))
        sheets.append(Sheet(title, [header, *(row[: len(header)] for row in rows)], page=page))
    sheets.append(Sheet("Teams", workbook.team_rows(team_standings(standing)), page=page))
    return kept(sheets)


def kept(sheets) -> list:
    """The sheets with their rows as the file's cells hold them, read once into lists."""
    import dataclasses

    from tournament.exports import workbook

    return [
        dataclasses.replace(sheet, rows=list(workbook.as_cells(sheet).rows)) for sheet in sheets
    ]


def sheets_of(tournament) -> list:
    """The workbook's sheets as the site makes them from the database, read once."""
    from tournament.exports import workbook

    return kept(workbook.workbook_sheets(tournament))


def cells(sheets) -> int:
    return sum(len(row) for sheet in sheets for row in (*sheet.above, *sheet.rows, *sheet.below))


def measure(sheets, runs: int) -> tuple[float, int, int]:
    """Writing the sheets: (median ms, peak MB of the memory the writing allocates, bytes)."""
    from tournament.exports.spreadsheet import write_workbook

    times = []
    for _ in range(runs):
        buffer = io.BytesIO()
        started = time.perf_counter()
        write_workbook(buffer, sheets)
        times.append((time.perf_counter() - started) * 1000)
    tracemalloc.start()
    write_workbook(io.BytesIO(), sheets)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return statistics.median(times), peak, len(buffer.getvalue())


def report(label: str, sheets, runs: int) -> None:
    ms, peak, size = measure(sheets, runs)
    print(
        f"{label}: {len(sheets)} sheets, {cells(sheets):,} cells, openpyxl write-only"
        f" {ms:,.0f} ms (median of {runs}), allocating at most {peak / 2**20:.1f} MB,"
        f" {size:,} bytes"
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=SIZES, type=parse_sizes)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    import django

    django.setup()
    from django.utils import translation

    translation.activate("en")
    for players, sessions in args.sizes:
        sheets = made_sheets(players, sessions)
        report(f"{players} players x {sessions} sessions", sheets, args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
