"""The public pages drawn by django-tables2, cold (the cache emptied first, as after a write):
the standings page's first page and *All* (every row, to print), sorted by rank and by
score, the seating page and a player's page, as a signed-in organiser reads them (drawn for
each request: the whole-page cache serves only the spectators). Part of ``make bench-web``;
alone, on a tournament already in the database (``manage.py generate_tournament``):

    DATABASE_URL=postgres://... .venv/bin/python bench/standings_tables_bench.py \\
        --slug rehearsal-1000x10-s1 [--runs 5] [--profile all]

``--profile NAME`` prints the 25 costliest functions of one cold request of that case.
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_MS = 150


def cases(tournament) -> dict[str, str]:
    """What is measured: name -> address."""
    from django.urls import reverse

    slug = tournament.slug
    standings = reverse("standings", args=[slug])
    last = tournament.sessions.order_by("-number").first().number
    middle = tournament.players.count() // 2
    return {
        "standings, first page": standings,
        "standings, All": standings + "?page=all",
        "standings, first page by score": standings + "?sort=-score",
        "standings, All by score": standings + "?sort=-score&page=all",
        "standings, a search": standings + "?q=zhang",
        "seating": reverse("seating", args=[slug, last]),
        "seating, All": reverse("seating", args=[slug, last]) + "?page=all",
        "player page": reverse("player_schedule", args=[slug, middle]),
    }


def _timed(run, runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        run()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def empty_caches() -> None:
    """The shared cache emptied, and whatever this process keeps of the standings and the
    seating forgotten too, where a release still keeps any: a cold request recomputes all."""
    import contextlib
    import importlib

    from django.core.cache import cache

    cache.clear()
    for module, forget in (
        ("tournament.selectors.standings_live", "forget_all"),
        ("tournament.selectors.lookups", "forget_kept"),
    ):
        with contextlib.suppress(ImportError, AttributeError):
            getattr(importlib.import_module(module), forget)()


def cpu_ms(run, runs: int) -> float:
    """The median of ``runs`` calls' time on this process's CPU, in ms: less swayed than
    the time on the clock by other work on the machine (but blind to the database's)."""
    times = []
    for _ in range(runs):
        started = time.process_time()
        run()
        times.append((time.process_time() - started) * 1000)
    return statistics.median(times)


def measure(client, tournament, runs: int, timed=_timed) -> list[tuple[str, float, float, int]]:
    """(case, median ms cold, median CPU ms cold, bytes) for each case; ``client`` is signed
    in."""
    figures = []
    for name, path in cases(tournament).items():

        def cold(path=path):
            empty_caches()
            response = client.get(path)
            assert response.status_code == 200, (path, response.status_code)
            return response

        size = len(cold().content)
        figures.append((name, timed(cold, runs), cpu_ms(cold, runs), size))
    return figures


def profile(client, tournament, name: str) -> None:
    import cProfile
    import pstats

    path = cases(tournament)[name]
    client.get(path)
    empty_caches()
    profiler = cProfile.Profile()
    profiler.enable()
    client.get(path)
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(25)


def report(figures, runs: int) -> None:
    print(f"  cold, median of {runs}; target {TARGET_MS} ms; the time, then its CPU time")
    for name, ms, cpu, size in figures:
        print(f"  {name:<34} {ms:>8.1f} ms {cpu:>8.1f} ms CPU {size:>10,} bytes")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slug", required=True)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--profile", help="a case's name, or a word of it")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    os.environ["MCR_DEBUG"] = "0"
    os.environ.setdefault("MCR_SECRET_KEY", secrets.token_urlsafe(50))
    os.environ["MCR_ALLOWED_HOSTS"] = "testserver"
    os.environ["MCR_SECURE_SSL_REDIRECT"] = "0"
    os.environ["MCR_SECURE_COOKIES"] = "0"
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.test import Client

    from tournament.models import Tournament

    call_command("collectstatic", interactive=False, verbosity=0)
    tournament = Tournament.objects.get(slug=args.slug)
    organiser = tournament.organisers.first() or User.objects.get_or_create(username="bench")[0]
    client = Client()
    client.force_login(organiser)
    if args.profile:
        (name,) = [name for name in cases(tournament) if args.profile in name][:1]
        profile(client, tournament, name)
        return 0
    print(f"{tournament.players.count()} players, {tournament.sessions.count()} sessions")
    report(measure(client, tournament, args.runs), args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
