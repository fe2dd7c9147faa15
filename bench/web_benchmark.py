"""Big tournaments' pages and exports: queries, server time, bytes and the workbook's memory.

    .venv/bin/python bench/web_benchmark.py [--sizes 100x8,400x10,1000x10] [--runs 5]
        [--database sqlite|postgresql] [--keep FILE]

(``make bench-web``.) Each size (players x sessions) is a complete tournament built by
``manage.py generate_tournament`` (seed 1) in one database: a SQLite file by default (kept
with ``--keep FILE`` and used again by the next run), or a database of its own on the
PostgreSQL server that DATABASE_URL names, dropped at the end. Each page is then asked for
through Django's test client in this process, as the tournament's organiser, with the
production settings (DEBUG off):

- **cold**: the cache emptied first, as after a write (each write raises the tournament's
  version, under which standings are cached); **warm**: asked again, from the cache; the
  workbook is built by the task queue, not in the request: cold is its build, warm the
  download of the stored file;
- the queries of a cold request, its size in bytes, and for the workbook the peak of the
  memory it allocates (tracemalloc, in a run of its own) and the process's resident memory
  before it and at its peak (Linux's VmRSS and VmHWM, in another run);
- the standings added up from the stored seat results against the same standings settled
  again from every hand (what ``manage.py verify_results`` does), in the same run;
- writes, in transactions rolled back at the end so that the tournament stays as built:
  the draw of one more session by each session-by-session method (each cancelled before
  the next) and the planned method's draw for a new tournament of as many players and
  sessions (its first draw plans them all); then, in a transaction of their own, one more
  session drawn and hands saved in it through the sheet's background request (p50/p95 of
  64) and through the hand service alone (64 more);
- the pages drawn by django-tables2, cold: the standings' first page and *All*, by rank and
  by score, a search, the seating page and a player's page (``bench/standings_tables_bench.py``);
- the workbook's sheets written as the site writes them, by openpyxl in its write-only
  mode, on rows read once: time and the peak of the memory the writing allocates
  (``bench/workbook_bench.py``, which ``make bench-workbook`` runs alone on rows it makes).

Prints one table per size. Figures are CPU-bound and vary with the machine's load: compare
figures of the same run, and runs made on an idle machine.
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
import urllib.parse
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

SEED = 1
TARGET_MS = {
    "standings": 150,
    "standings.xlsx": 5000,
    "seating": 100,
    "seating by name": 100,
    "player page": 100,
    # A player's own page on their phone, asked again every 30 seconds by every player.
    "player's link": 50,
    "referee sheet": 100,
    "referee home": 100,
    "overview": 100,
    "screen panel": 100,
}


def parse_sizes(text: str) -> list[tuple[int, int]]:
    sizes = []
    for part in text.split(","):
        players, _, sessions = part.strip().partition("x")
        sizes.append((int(players), int(sessions)))
    return sizes


def configure(args) -> object | None:
    """Settings for this process before Django starts; the PostgreSQL database made, if any."""
    os.environ["DJANGO_SETTINGS_MODULE"] = "tournament.settings"
    os.environ["MCR_DEBUG"] = "0"
    os.environ["MCR_SECRET_KEY"] = secrets.token_urlsafe(50)
    os.environ["MCR_ALLOWED_HOSTS"] = "testserver"
    os.environ["MCR_SECURE_SSL_REDIRECT"] = "0"
    os.environ["MCR_SECURE_COOKIES"] = "0"
    os.environ["MCR_SECURE_HSTS_SECONDS"] = "0"
    if args.database == "postgresql":
        from hall import _admin

        url = os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/test"
        name = f"mcr_bench_web_{uuid.uuid4().hex[:12]}"
        _admin(url, f'CREATE DATABASE "{name}"')
        parts = urllib.parse.urlsplit(url)
        os.environ["DATABASE_URL"] = urllib.parse.urlunsplit(parts._replace(path="/" + name))
        return (url, name)
    os.environ.pop("DATABASE_URL", None)
    path = args.keep or str(Path(tempfile.mkdtemp(prefix="mcr-bench-web-")) / "bench.sqlite3")
    os.environ["MCR_DB_PATH"] = path
    return None


def timed(run, runs: int) -> float:
    """The median, in ms, of ``runs`` calls of ``run``."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        run()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def body(response) -> bytes:
    if response.streaming:
        return b"".join(response.streaming_content)
    return response.content


def build(players: int, sessions: int, organiser):
    from django.db import connections

    from tournament.models import Tournament

    slug = f"bench-{players}x{sessions}-s{SEED}"
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None:
        started = time.perf_counter()
        # In a process of its own, as an organiser rehearsing would run it: the process
        # measured afterwards is in the state a server's is, not one that has just made
        # 40,000 hands.
        connections.close_all()
        subprocess.run(
            [
                sys.executable,
                str(ROOT / "manage.py"),
                "generate_tournament",
                f"--players={players}",
                f"--sessions={sessions}",
                f"--seed={SEED}",
                f"--slug={slug}",
                f"--organiser={organiser.username}",
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        print(f"  built {players} x {sessions} in {time.perf_counter() - started:.0f} s")
        tournament = Tournament.objects.get(slug=slug)
    return tournament


def measure_pages(client, tournament, runs: int) -> list[tuple]:
    from django.core.cache import cache
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from tournament.models import Tournament
    from tournament.players.player_links import player_token
    from tournament.server.task_worker import tasks_run_ready
    from tournament.services.exports import BUILDERS

    slug = tournament.slug
    last = tournament.sessions.order_by("-number").first().number
    middle = tournament.players.count() // 2
    pages = {
        "overview": reverse("tournament", args=[slug]),
        "standings": reverse("standings", args=[slug]),
        "standings.xlsx": reverse("standings_xlsx", args=[slug]),
        "seating": reverse("seating", args=[slug, last]),
        "seating by name": reverse("seating_by_name", args=[slug, last]),
        "player page": reverse("player_schedule", args=[slug, middle]),
        "player's link": reverse(
            "player_link", args=[player_token(tournament.players.get(number=middle))]
        ),
        "referee home": reverse("referee_home", args=[slug]),
        "referee sheet": reverse("table_sheet", args=[slug, last, 1]),
        # A hall screen's poll: every session is closed, so its first standings panel.
        "screen panel": reverse("screen_panel", args=[slug]) + "?step=0",
    }

    def cold_body(name: str, path: str) -> bytes:
        """What a request after a write costs. The workbook is built by the task queue, off
        the request (``services.exports``): its cold figures are the build's."""
        if name == "standings.xlsx":
            return BUILDERS["standings.xlsx"](Tournament.objects.get(pk=tournament.pk))
        response = client.get(path)
        assert response.status_code == 200, (path, response.status_code)
        return body(response)

    rows = []
    for name, path in pages.items():
        page_runs = max(1, runs // 2) if name == "standings.xlsx" else runs

        def cold(name=name, path=path):
            cache.clear()
            cold_body(name, path)

        def warm(path=path):
            body(client.get(path))

        cache.clear()
        # A request empties the connection's query log as it starts: start from empty too.
        reset_queries()
        with CaptureQueriesContext(connection) as captured:
            size = len(cold_body(name, path))
        queries = len(captured)  # now: the next request empties the log it reads
        cold_ms = timed(cold, page_runs)
        if name == "standings.xlsx":
            # Warm: the stored file served (built once here first, as a worker would).
            client.get(path)
            tasks_run_ready()
        warm(path)
        warm_ms = timed(warm, page_runs)
        peak = None
        if name == "standings.xlsx":
            cache.clear()
            tracemalloc.start()
            cold_body(name, path)
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            cache.clear()
            before = resident_memory()
            cold_body(name, path)
            peak = (peak, before, resident_memory(peak=True))
        rows.append((name, queries, cold_ms, warm_ms, size, peak))
    return rows


def resident_memory(*, peak: bool = False) -> int | None:
    """The process's resident memory in bytes (Linux): now, or its peak since the last call
    that asked for now (which resets the peak)."""
    try:
        if not peak:
            Path("/proc/self/clear_refs").write_text("5")
        field = "VmHWM:" if peak else "VmRSS:"
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def measure_standings_sources(tournament, runs: int) -> tuple[float, float, int, int]:
    """The standings from the stored results, and settled again from every hand (ms); then
    what ``manage.py verify_results`` checks: tables checked, seats whose results differ."""
    from tournament.selectors.standings import (
        compute_standings,
        stored_results_differences,
        tournament_results,
    )

    stored = timed(lambda: compute_standings(tournament), runs)
    from_hands = timed(lambda: tournament_results(tournament), max(1, runs // 2))
    tables, differences = stored_results_differences(tournament)
    return stored, from_hands, tables, len(differences)


class RolledBack(Exception):
    pass


def measure_writes(client, tournament) -> dict:
    """The draw of one more session by each method, then hands saved in a session of their
    own; each in a transaction undone afterwards, so that the saves do not run inside the
    draws' transaction (which no real save does)."""
    from django.db import transaction

    figures = {}
    for part in (_draws, _saves):
        try:
            with transaction.atomic():
                figures.update(part(client, _one_more_session(tournament)))
                raise RolledBack
        except RolledBack:
            pass
    return figures


def _one_more_session(tournament):
    from tournament import services
    from tournament.models import Tournament

    tournament = Tournament.objects.get(pk=tournament.pk)
    return services.tournament_update(
        tournament=tournament, session_count=tournament.session_count + 1
    )


def _draws(client, tournament) -> dict:
    from tournament import services

    number = tournament.session_count
    draws = {}
    for method in ("standings", "serpentine", "top_tables", "lot", "random"):
        started = time.perf_counter()
        session = services.session_draw(tournament=tournament, number=number, method=method)
        draws[method] = (time.perf_counter() - started) * 1000
        services.session_cancel_draw(session=session)
    draws["planned"] = _planned_draw(tournament)
    return {"draws": draws}


def _saves(client, tournament) -> dict:
    from django.urls import reverse

    from tournament import services

    number = tournament.session_count
    session = services.session_draw(tournament=tournament, number=number, method="random")
    services.session_open(session=session)
    saves = []
    tables = list(session.tables.order_by("number")[:16])
    for hand in range(1, 5):
        for table in tables:
            path = reverse("table_sheet", args=[tournament.slug, number, table.number])
            data = {
                "number": hand,
                "submission_key": str(uuid.uuid4()),
                "outcome": "discard",
                "winner": hand % 4,
                "discarder": (hand + 1) % 4,
                "fan": 8 + hand,
                "flowers": 0,
                "penalty-TOTAL_FORMS": 0,
                "penalty-INITIAL_FORMS": 0,
                "penalty-MIN_NUM_FORMS": 0,
                "penalty-MAX_NUM_FORMS": 8,
            }
            started = time.perf_counter()
            response = client.post(path, data, HTTP_ACCEPT="application/json")
            saves.append((time.perf_counter() - started) * 1000)
            assert response.json().get("saved"), response.content
    # The hand service alone, as the other tables' referees' saves reach it: the hand, its
    # table's stored results and the tournament's version.
    service = []
    for hand in range(5, 9):
        for table in tables:
            started = time.perf_counter()
            services.hand_record(
                table=table,
                entry=services.HandEntry(number=hand, outcome="self_drawn", winner=hand % 4, fan=8),
            )
            service.append((time.perf_counter() - started) * 1000)
    saves.sort()
    service.sort()
    return {
        "save p50": statistics.median(saves),
        "save p95": saves[int(len(saves) * 0.95) - 1],
        "service p50": statistics.median(service),
        "service p95": service[int(len(service) * 0.95) - 1],
    }


def _planned_draw(tournament) -> float:
    """The planned method's draw (ms): its first session's, which plans every session (the
    others read the plan), for a tournament of the same players and sessions."""
    from tournament import services
    from tournament.server import rehearsal

    planned = services.tournament_create(
        name="Planned draw",
        slug=f"{tournament.slug}-planned",
        session_count=tournament.session_count,
        session_minutes=tournament.session_minutes,
        seating_method="planned",
    )
    for fields in rehearsal.planned_players(players=tournament.players.count(), seed=SEED):
        services.player_save(tournament=planned, **fields)
    started = time.perf_counter()
    services.session_draw(
        tournament=planned, number=1, seed=rehearsal.draw_seed(seed=SEED, session=1)
    )
    return (time.perf_counter() - started) * 1000


def report(size, pages, sources, writes) -> None:
    players, sessions = size
    print(f"\n{players} players x {sessions} sessions ({players // 4 * sessions * 16} hands)")
    print(f"  {'page':<16} {'queries':>7} {'cold ms':>9} {'warm ms':>9} {'bytes':>10}  target")
    for name, queries, cold, warm, size_bytes, peak in pages:
        memory = ""
        if peak is not None:
            allocated, before, resident = peak
            memory = f", allocates at most {allocated / 2**20:.0f} MB"
            if before and resident:
                memory += (
                    f"; the process's resident memory {before / 2**20:.0f} MB before,"
                    f" {resident / 2**20:.0f} MB at its peak"
                )
        print(
            f"  {name:<16} {queries:>7} {cold:>9.1f} {warm:>9.1f} {size_bytes:>10}"
            f"  {TARGET_MS[name]} ms{memory}"
        )
    stored, from_hands, tables, differences = sources
    print(
        f"  standings from the stored results {stored:.1f} ms;"
        f" settled again from every hand {from_hands:.1f} ms"
    )
    print(f"  verify_results: {tables} tables checked, {differences} seats differ")
    print(
        f"  hand saved through the sheet: p50 {writes['save p50']:.1f} ms,"
        f" p95 {writes['save p95']:.1f} ms; the hand service alone: p50"
        f" {writes['service p50']:.1f} ms, p95 {writes['service p95']:.1f} ms (target 15 ms)"
    )
    draws = ", ".join(f"{method} {ms:.0f} ms" for method, ms in writes["draws"].items())
    print(f"  draw of one session: {draws} (target 2000 ms)")


def report_tables(size, client, tournament, runs: int) -> None:
    import standings_tables_bench

    players, sessions = size
    print(f"\n{players} players x {sessions} sessions: the pages drawn by django-tables2")
    standings_tables_bench.report(
        standings_tables_bench.measure(client, tournament, runs, timed), runs
    )


def report_writers(size, tournament, runs: int) -> None:
    import workbook_bench

    players, sessions = size
    print()
    workbook_bench.report(
        f"{players} players x {sessions} sessions, the workbook's rows read once",
        workbook_bench.sheets_of(tournament),
        runs,
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100x8,400x10,1000x10", type=parse_sizes)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--keep", help="the SQLite file to build in and use again")
    parser.add_argument(
        "--libraries-only",
        action="store_true",
        help="only the workbook's writing and the pages drawn by django-tables2",
    )
    args = parser.parse_args(argv)
    postgres = configure(args)
    try:
        import django

        django.setup()
        from django.contrib.auth.models import User
        from django.core.management import call_command
        from django.test import Client

        call_command("migrate", verbosity=0)
        # With DEBUG off pages name the static files by their hashed copies, as `make serve`
        # gathers them.
        call_command("collectstatic", interactive=False, verbosity=0)
        organiser, _ = User.objects.get_or_create(username="bench-organiser")
        client = Client()
        client.force_login(organiser)
        print(f"database: {args.database}; {args.runs} runs a figure (median)")
        for size in args.sizes:
            tournament = build(*size, organiser)
            if not args.libraries_only:
                pages = measure_pages(client, tournament, args.runs)
                sources = measure_standings_sources(tournament, args.runs)
                writes = measure_writes(client, tournament)
                report(size, pages, sources, writes)
            report_writers(size, tournament, args.runs)
            report_tables(size, client, tournament, args.runs)
    finally:
        if postgres is not None:
            from django.db import connections

            connections.close_all()
            from hall import _admin

            url, name = postgres
            _admin(url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    return 0


if __name__ == "__main__":
    sys.exit(main())
