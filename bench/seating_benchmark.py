"""The seating engine against its targets: the tournament sizes of ``CASES`` below.

    .venv/bin/python bench/seating_benchmark.py [--seed 20240401] [--only 48x8]

(``make bench-seating``.) For every case of ``CASES``, plans the whole schedule with
``plan_schedule`` (tables, then starting seats, then a recount of the figures) from a fixed
seed, timed with ``time.perf_counter`` around the call, and prints one line: players N,
sessions R, extra meetings, the counting lower bound, the extra meetings wanted, group
conflicts, seat spread, seconds, and OK or MISSED against the target (the wanted extra
meetings, 0 group conflicts for the grouped case, perfect seat balance — spread 0 when R is
a multiple of 4, else 1 — and under 30 s). The grouped case puts players 1-4 in group G1,
5-8 in G2, and so on: 12 groups of 4. Exit status 1 if any case is missed. Not part of
``make test``.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

SECONDS_LIMIT = 30.0

# (players, sessions, extra meetings wanted, grouped)
CASES = [
    (16, 5, 0, False),
    (20, 5, 0, False),
    (24, 7, 0, False),
    (28, 8, 0, False),
    (32, 8, 0, False),
    (36, 8, 0, False),
    (40, 8, 0, False),
    (48, 8, 0, False),
    (64, 8, 0, False),
    (100, 8, 0, False),
    (200, 10, 0, False),
    (400, 10, 0, False),
    (16, 8, 72, False),
    (48, 8, 0, True),
]


def block_groups(players: int) -> dict[int, str]:
    """Players 1-4 in G1, 5-8 in G2, ...: consecutive blocks of four."""
    return {p: f"G{(p - 1) // 4 + 1}" for p in range(1, players + 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=20240401)
    parser.add_argument("--only", help="run one case, like 48x8 or 48x8g (grouped)")
    args = parser.parse_args(argv)

    from tournament.seating.schedule import plan_schedule

    print(
        f"# seating benchmark, seed {args.seed}, Python {platform.python_version()}, "
        f"{platform.machine()}"
    )
    header = (
        "N",
        "R",
        "groups",
        "extra",
        "bound",
        "wanted",
        "conflicts",
        "spread",
        "seconds",
        "result",
    )
    print("{:>4} {:>3} {:>6} {:>6} {:>6} {:>6} {:>9} {:>6} {:>8}  {}".format(*header))
    missed = 0
    for players, sessions, wanted, grouped in CASES:
        name = f"{players}x{sessions}{'g' if grouped else ''}"
        if args.only and args.only != name:
            continue
        groups = block_groups(players) if grouped else None
        start = time.perf_counter()
        schedule = plan_schedule(players, sessions, seed=args.seed, groups=groups)
        seconds = time.perf_counter() - start
        stats = schedule.stats
        perfect_spread = 0 if sessions % 4 == 0 else 1
        ok = (
            stats.extra_meetings <= wanted
            and stats.group_conflicts == 0
            and stats.seat_spread == perfect_spread
            and seconds < SECONDS_LIMIT
        )
        missed += not ok
        print(
            f"{players:>4} {sessions:>3} {(12 if grouped else 0):>6} {stats.extra_meetings:>6} "
            f"{stats.lower_bound:>6} {wanted:>6} {stats.group_conflicts:>9} "
            f"{stats.seat_spread:>6} {seconds:>8.3f}  {'OK' if ok else 'MISSED'}",
            flush=True,
        )
    print(f"# {'all targets met' if not missed else f'{missed} case(s) missed'}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
