"""Time our fan calculator against the pymahjonggb oracle (C++) on the same hands.

    .venv/bin/python bench/fan_benchmark.py [--hands 3000] [--seed N] [--warmup 300]

(``make bench``.) The hands are the differential test's seeded generators
(``reference/hand_generators.py``): every hand shape, every win condition and the biased
generators for the rare fans, in the same proportions. Both calculators first score
``--warmup`` other hands untimed (drawn with the next seed, so no timed hand has been seen
before: caches inside our calculator get no head start), then every hand once, timed one
by one: ours on 500 hands, the oracle on the same 500, and so on, so that both meet the
same machine load. The oracle is timed on its own call only: turning a hand into the
oracle's arguments happens before the clock. The prepared data is frozen out of the garbage
collector (``gc.freeze``) before timing, so a full collection scanning the benchmark's own
thousands of hands does not land on one timed hand.

Prints hands per second, mean, p50, p99 and max per-hand latency for both, and the ratio
of our per-hand time to the oracle's against the performance requirement for the
calculator: at most 20× (target), 10× (goal), and our p99 under 5 ms. Not part of
``make test``.
"""

from __future__ import annotations

import argparse
import gc
import math
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from MahjongGB import MahjongFanCalculator  # noqa: E402

from reference import hand_generators, oracle  # noqa: E402
from tournament.scoring.calculator import score  # noqa: E402
from tournament.scoring.hand import HandError  # noqa: E402

TARGET_RATIO = 20
GOAL_RATIO = 10
TARGET_P99_MS = 5.0


BLOCK = 500


def _time_both(score, hands, arguments_list) -> tuple[list[int], list[int], int]:
    """Nanoseconds taken by ``score(hand)`` and by the oracle's call, hand by hand.

    The hands go in blocks of ``BLOCK``: ours times a block, then the oracle the same
    block. Each calculator runs in a loop of its own (its code and data stay in the CPU
    caches, as when scoring many hands), while whatever else the machine does slows both
    alike. Also returns how many hands our calculator refused (HandError).
    """
    clock = time.perf_counter_ns
    calculate = MahjongFanCalculator
    ours: list[int] = []
    theirs: list[int] = []
    refused = 0
    for first in range(0, len(hands), BLOCK):
        for hand in hands[first : first + BLOCK]:
            start = clock()
            try:
                score(hand)
            except HandError:
                refused += 1
            ours.append(clock() - start)
        for arguments in arguments_list[first : first + BLOCK]:
            start = clock()
            calculate(**arguments)
            theirs.append(clock() - start)
    return ours, theirs, refused


def _percentile(sorted_ns: list[int], share: float) -> float:
    """Nearest-rank percentile, in milliseconds."""
    index = min(len(sorted_ns), max(1, math.ceil(share * len(sorted_ns)))) - 1
    return sorted_ns[index] / 1e6


def _row(label: str, times: list[int]) -> tuple[str, float]:
    ordered = sorted(times)
    total_s = sum(times) / 1e9
    per_hand_ms = statistics.fmean(times) / 1e6
    line = (
        f"{label:<16}{len(times) / total_s:>11,.0f}{per_hand_ms:>10.3f}"
        f"{_percentile(ordered, 0.50):>10.3f}{_percentile(ordered, 0.99):>10.3f}"
        f"{ordered[-1] / 1e6:>10.3f}"
    )
    return line, per_hand_ms


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=3000, help="hands to time (default 3000)")
    parser.add_argument(
        "--seed", type=int, default=hand_generators.DEFAULT_SEED, help="generator seed"
    )
    parser.add_argument("--warmup", type=int, default=300, help="untimed hands first")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    hands = [item.hand for item in hand_generators.sample(args.hands, seed=args.seed)]
    oracle_args = [oracle.oracle_arguments(hand) for hand in hands]
    generated_s = time.perf_counter() - started

    warm = max(0, args.warmup)
    warm_hands = [item.hand for item in hand_generators.sample(warm, seed=args.seed + 1)]
    _time_both(score, warm_hands, [oracle.oracle_arguments(hand) for hand in warm_hands])
    # The hands and arguments prepared above are the benchmark's own data: move them out of
    # the collector's sight so a full collection does not scan them in the middle of a timed
    # hand (the calculators' own garbage is still collected as usual).
    gc.collect()
    gc.freeze()
    our_times, oracle_times, refused = _time_both(score, hands, oracle_args)

    print(
        f"{len(hands)} hands (seed {args.seed}, generated in {generated_s:.2f} s), "
        f"warm-up {warm} hands; Python {platform.python_version()} on {platform.machine()}"
    )
    print(f"{'':<16}{'hands/s':>11}{'mean ms':>10}{'p50 ms':>10}{'p99 ms':>10}{'max ms':>10}")
    our_line, our_ms = _row("ours (Python)", our_times)
    oracle_line, oracle_ms = _row("oracle (C++)", oracle_times)
    print(our_line)
    print(oracle_line)
    ratio = our_ms / oracle_ms
    our_p99 = _percentile(sorted(our_times), 0.99)
    print(
        f"ratio (our per-hand time / oracle's): {ratio:.1f}× "
        f"(target ≤ {TARGET_RATIO}×: {'met' if ratio <= TARGET_RATIO else 'NOT met'}; "
        f"goal ≤ {GOAL_RATIO}×: {'met' if ratio <= GOAL_RATIO else 'not met'})"
    )
    print(
        f"our p99: {our_p99:.3f} ms "
        f"(target < {TARGET_P99_MS} ms: {'met' if our_p99 < TARGET_P99_MS else 'NOT met'})"
    )
    if refused:
        print(f"note: our calculator refused {refused} of the hands (HandError)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
