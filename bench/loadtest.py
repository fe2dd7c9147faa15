"""100 tablets against `make serve`, on SQLite and on PostgreSQL: save times, errors, and
every acknowledged hand checked against the database.

    .venv/bin/python bench/loadtest.py [--tablets 100] [--workers 4] [--database sqlite]
        [--database postgresql] [--compression 30]

(``make loadtest``.) Loopback only, bounded: a few minutes. For each database a fresh event
(``--tablets`` tables in session 1, open for play) is served by ``make serve`` with
``--workers`` workers; each tablet signs in once with its table card's link. Then:

- **pace**: every tablet enters its 16 hands one after another, a hand every 2–5 minutes at
  random as at a real table, the waits divided by ``--compression`` (the number of tablets,
  and so of requests at the same moment, is the real one); after each save the tablet loads
  its sheet again, as the referee sheet does;
- **burst**: every tablet saves a hand within the same second, at its own table;
- **one table**: every tablet saves within the same second at table 1 (a hand number each,
  cycling through 1–16: the first save of each number is stored, the others are refused as
  already entered, which is not an error).

Prints, per database and phase: saves, p50/p95/p99 of the save (ms), errors (no answer or a
5xx), lost and duplicated hands. PostgreSQL is the server DATABASE_URL names (default
postgres://postgres@127.0.0.1:5432/test; a database of its own is made and dropped).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hall import EventDatabase, Save, Server, Tablet, check, percentile

DEFAULT_PG = "postgres://postgres@127.0.0.1:5432/test"


def together(tablets, work) -> None:
    """Run ``work(index, tablet)`` for every tablet in threads of their own, all at once."""
    threads = [
        threading.Thread(target=work, args=(index, tablet)) for index, tablet in enumerate(tablets)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def pace(tablets, hands: range, compression: float, rng: random.Random):
    """Each tablet enters ``hands`` at its table, a hand every 2–5 minutes (compressed),
    loading its sheet after each save. The saves, and the sheet load times."""
    saves: list[Save] = []
    pages: list[float] = []
    lock = threading.Lock()
    waits = [[rng.uniform(120, 300) / compression for _ in hands] for _ in tablets]

    def play(index, tablet):
        for wait, number in zip(waits[index], hands, strict=True):
            time.sleep(wait)
            entry = tablet.save(Save(tablet.table, number, winner=number % 4, fan=8))
            page = tablet.sheet() if entry.saved else None
            with lock:
                saves.append(entry)
                if page is not None:
                    pages.append(page)

    together(tablets, play)
    return saves, pages


def burst(tablets, numbers) -> list[Save]:
    """Every tablet saves one hand (``numbers[i]`` for the i-th) within the same second."""
    start = time.time() + 0.5
    saves: list[Save | None] = [None] * len(tablets)

    def fire(index, tablet):
        time.sleep(max(0.0, start + index / len(tablets) - time.time()))
        number = numbers[index]
        saves[index] = tablet.save(Save(tablet.table, number, winner=number % 4, fan=9))

    together(tablets, fire)
    return saves


def figures(saves: list[Save]) -> dict:
    times = [s.milliseconds for s in saves]
    return {
        "saves": len(saves),
        "stored": sum(s.saved for s in saves),
        "p50": percentile(times, 50),
        "p95": percentile(times, 95),
        "p99": percentile(times, 99),
        "errors": sum(1 for s in saves if s.status is None or s.status >= 500),
    }


def run(kind: str, args, rng: random.Random) -> list[tuple[str, dict]]:
    database = EventDatabase(args.postgres_url if kind == "postgresql" else None)
    server = Server(database, workers=args.workers)
    rows = []
    try:
        tokens = database.prepare(args.tablets)
        server.start()
        tablets = [Tablet(server.port, table) for table in sorted(tokens)]
        together(tablets, lambda _i, tablet: tablet.sign_in(tokens[tablet.table]))
        everything: list[Save] = []

        saves, pages = pace(tablets, range(1, 13), args.compression, rng)
        rows.append(("pace", {**figures(saves), "page-p95": percentile(pages, 95)}))
        everything += saves

        saves = burst(tablets, [13] * len(tablets))
        rows.append(("burst", figures(saves)))
        everything += saves

        # As many tablets again, all signed in at table 1, save at once: hands 14–16 go to
        # the first save of each number; the others are told the hand is entered.
        crowd = [Tablet(server.port, 1) for _ in tablets]
        together(crowd, lambda _i, tablet: tablet.sign_in(tokens[1]))
        saves = burst(crowd, [14 + i % 3 for i in range(len(crowd))])
        rows.append(("one table", figures(saves)))
        everything += saves

        verdict = check(everything, database.stored())
        rows = [(phase, {**row, **verdict}) for phase, row in rows]
    finally:
        server.stop()
        database.close()
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tablets", type=int, default=100)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--compression", type=float, default=30)
    parser.add_argument("--database", action="append", choices=["sqlite", "postgresql"])
    parser.add_argument("--postgres-url", default=os.environ.get("DATABASE_URL") or DEFAULT_PG)
    parser.add_argument("--seed", type=int, default=20261201)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    print(
        f"{args.tablets} tablets, {args.workers} workers, waits divided by {args.compression:g},"
        f" seed {args.seed}"
    )
    print(
        " database    phase      saves  stored  p50-ms  p95-ms  p99-ms  errors  lost"
        "  duplicated  page-p95-ms"
    )
    failed = False
    for kind in args.database or ["sqlite", "postgresql"]:
        for phase, row in run(kind, args, rng):
            page = f"{row['page-p95']:11.1f}" if "page-p95" in row else f"{'':>11}"
            print(
                f" {kind:<10}  {phase:<9}  {row['saves']:5}  {row['stored']:6}"
                f"  {row['p50']:6.1f}  {row['p95']:6.1f}  {row['p99']:6.1f}  {row['errors']:6}"
                f"  {row['lost']:4}  {row['duplicated']:10}  {page}"
            )
            failed |= bool(row["errors"] or row["lost"] or row["duplicated"])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
