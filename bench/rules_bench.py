"""A change of a tournament's rules after play started, timed on big tournaments: what the
organiser waits for when the change settles every stored hand again
(``services.rules.rules_change``).

    .venv/bin/python bench/rules_bench.py [--sizes 300x8,1000x10] [--typed 0.3]

(``make bench-rules``.) Each size (players x sessions) is a complete tournament built by
``manage.py generate_tournament`` (seed 1) in a SQLite file, a share (``--typed``) of its
wins then given typed tiles (one melded and one concealed kong, the hand of docs/scoring.md's
worked examples), as referees who enter the tiles leave them. Then, each in a transaction
rolled back so that every change starts from the same tournament, in one run:

- the ranking order changed: no hand is settled again (the scoring options are the same);
- the minimum lowered from 8 to 7: every hand settled again, none changed;
- the kong read as 5 (明暗杠) instead of 3: every hand settled again, the typed ones changed;
- the same asked for on the organiser's page: the request, which queues it, and the queue's
  task that makes it.

Prints the seconds each takes, the hands settled and changed, and the queries. Figures are
CPU-bound and vary with the machine's load: compare figures of the same run.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from web_benchmark import build, configure, parse_sizes  # noqa: E402

KONGS = "456m789m5m [1111m:2] {CCCC} +5m"


class Rollback(Exception):
    pass


def typed_wins(tournament, share: float) -> int:
    """Give ``share`` of the tournament's wins the kong hand's tiles, with the fan the seed
    reading counts for it (14, 15 self-drawn) and the points it settles to; returns how
    many."""
    from tournament.models import Hand
    from tournament.services.hands import penalty_entries, settle

    wins = Hand.objects.filter(table__session__tournament=tournament, outcome__in=Hand.WINS)
    chosen = list(wins.order_by("pk").prefetch_related("penalties"))
    step = max(1, round(1 / share)) if share else 0
    picked = chosen[::step] if step else []
    for hand in picked:
        self_drawn = hand.outcome == "self_drawn"
        fan = 15 if self_drawn else 14
        settled = settle(
            penalties=penalty_entries(hand),
            outcome=hand.outcome,
            winner=hand.winner,
            discarder=hand.discarder,
            fan=fan,
            flowers=hand.flowers,
        )
        p1, p2, p3, p4 = settled.points
        Hand.objects.filter(pk=hand.pk).update(
            winning_hand=KONGS + (" | self" if self_drawn else ""),
            fan=fan,
            computed_fan=fan,
            fan_names="",
            points_p1=p1,
            points_p2=p2,
            points_p3=p3,
            points_p4=p4,
            deducted=settled.deducted,
        )
    return len(picked)


def timed_change(tournament, organiser, **options) -> tuple[float, int, int, int]:
    """Seconds, hands settled, hands changed, queries of one change, rolled back."""
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from tournament import services

    result = None
    try:
        with transaction.atomic(), CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            change = services.rules_change(
                tournament=tournament, user=organiser, reason="Benchmark.", **options
            )
            seconds = time.perf_counter() - started
            result = (seconds, change.hands_settled, change.hands_changed, len(queries))
            raise Rollback
    except Rollback:
        pass
    return result


def timed_request_and_task(tournament, organiser, **options) -> tuple[float, float]:
    """Seconds of the organiser's request (the change asked for, queued) and of the queue's
    task that makes it, rolled back."""
    from django.db import transaction

    from tournament import services

    result = None
    try:
        with transaction.atomic():
            started = time.perf_counter()
            job = services.rules_change_ask(
                tournament=tournament, user=organiser, reason="Benchmark.", **options
            )
            asked = time.perf_counter()
            assert services.rules_change_run.call(job_id=job.pk) == "done"
            result = (asked - started, time.perf_counter() - asked)
            raise Rollback
    except Rollback:
        pass
    return result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="300x8,1000x10")
    parser.add_argument("--typed", type=float, default=0.3)
    parser.add_argument("--database", default="sqlite", choices=["sqlite"])
    parser.add_argument("--keep", default=None)
    args = parser.parse_args(argv)
    configure(args)
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    organiser, _ = get_user_model().objects.get_or_create(username="bench-organiser")
    for players, sessions in parse_sizes(args.sizes):
        tournament = build(players, sessions, organiser)
        typed = typed_wins(tournament, args.typed)
        print(f"{players} players x {sessions} sessions, {typed} wins with typed tiles")
        print(f"  {'change':<34} {'seconds':>8} {'settled':>8} {'changed':>8} {'queries':>8}")
        for label, options in (
            ("ranking order (nothing to settle)", {"tiebreak_order": "score,table_points"}),
            ("minimum 8 -> 7", {"minimum_fan": 7}),
            ("kong read as 5 (明暗杠)", {"melded_and_concealed_kong": 5}),
        ):
            seconds, settled, changed, queries = timed_change(tournament, organiser, **options)
            print(f"  {label:<34} {seconds:>8.1f} {settled:>8} {changed:>8} {queries:>8}")
        request, task = timed_request_and_task(tournament, organiser, melded_and_concealed_kong=5)
        print(
            f"  the kong change asked on the page: the request {request:.2f} s (queued), "
            f"the queue's task {task:.1f} s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
