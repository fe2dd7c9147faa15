"""Time a player import as the task worker runs it, on a SQLite file set up as the app's
(WAL, IMMEDIATE transactions), or on the PostgreSQL database ``DATABASE_URL`` names.

    .venv/bin/python bench/player_import.py [--rows 1000 5000]

For each size, in a tournament of its own: a file of new players (every other one with an
EMA number, hence a person made), the same file with every player changed, then once more
unchanged. Each is previewed as the import page does, then imported as a confirmed import
is: the job stored and its task run here (``tasks_run_ready``), timed from the task's start
to its end, with the part spent in the write's transaction (on SQLite, the time the
referees' tablets would wait to save). Prints rows per second. Not part of ``make test``.

The database is a fresh one, migrated here, then dropped.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

COUNTRIES = ("FRA", "CHN", "GER", "JPN", "NED")


def player_file(rows: int, tag: str = "") -> bytes:
    lines = ["number,name,name_zh,team,country,ema_number,substitute"]
    for n in range(1, rows + 1):
        ema = f"{10000000 + n:08d}" if n % 2 else ""
        lines.append(
            f"{n},First{n} Last{n}{tag},张{n},Club {n % 50}{tag},{COUNTRIES[n % 5]},{ema},no"
        )
    return ("\n".join(lines) + "\n").encode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[1000, 5000])
    arguments = parser.parse_args()

    folder = tempfile.TemporaryDirectory(prefix="mcr-import-bench-")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
    os.environ.update(MCR_DEBUG="0", MCR_SECRET_KEY=secrets.token_urlsafe(50))
    postgres = os.environ.get("DATABASE_URL", "")
    if postgres:
        database = f"mcr_import_bench_{secrets.token_hex(4)}"
        _admin(postgres, f"CREATE DATABASE {database}")
        os.environ["DATABASE_URL"] = postgres.rsplit("/", 1)[0] + "/" + database
    else:
        os.environ["MCR_DB_PATH"] = str(Path(folder.name) / "bench.sqlite3")
    try:
        _run(arguments.rows)
    finally:
        if postgres:
            from django.db import connections

            connections.close_all()
            _admin(postgres, f"DROP DATABASE {database}")
        folder.cleanup()


def _admin(url: str, sql: str) -> None:
    """``sql`` run on the server's own database (the URL's need not exist)."""
    import psycopg

    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as connection:
        connection.execute(sql)


def _run(sizes: list[int]) -> None:
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connection

    from tournament import services
    from tournament.forms.players import PlayerImportConfirmForm, sign_preview
    from tournament.models import PlayerImport
    from tournament.players.player_import import import_preview
    from tournament.server.task_worker import tasks_run_ready
    from tournament.services import player_imports

    call_command("migrate", verbosity=0)
    organiser = User.objects.create_user("organiser", password=secrets.token_hex(8))
    write_seconds = []
    planned, written = player_imports._planned, player_imports._written

    def timed_write(*args, **kwargs):
        started = time.perf_counter()
        try:
            return written(*args, **kwargs)
        finally:
            write_seconds[-1] += time.perf_counter() - started

    def timed_plan(*args, progress=None, **kwargs):
        # The write's own pass over the rows runs in its transaction too.
        started = time.perf_counter()
        try:
            return planned(*args, progress=progress, **kwargs)
        finally:
            if progress is None:
                write_seconds[-1] += time.perf_counter() - started

    player_imports._written, player_imports._planned = timed_write, timed_plan
    print(f"{connection.vendor}, {os.cpu_count()} cores")
    for rows in sizes:
        tournament = services.tournament_create(
            name=f"Import {rows}",
            slug=f"import-{rows}",
            session_count=4,
            session_minutes=150,
            seating_method="lot",
            creator=organiser,
        )
        for label, content in (
            ("new", player_file(rows)),
            ("changed", player_file(rows, tag="x")),
            ("unchanged", player_file(rows, tag="x")),
        ):
            started = time.perf_counter()
            preview = import_preview(tournament, filename="players.csv", content=content)
            form = PlayerImportConfirmForm(
                {"payload": sign_preview(tournament, preview)}, tournament=tournament
            )
            assert form.is_valid() and not preview.has_errors
            payload = form.cleaned_data["payload"]
            previewed = time.perf_counter() - started
            job = services.player_import_start(
                tournament=tournament,
                user=organiser,
                rows=payload["rows"],
                fingerprint=payload["fingerprint"],
            )
            write_seconds.append(0.0)
            started = time.perf_counter()
            with contextlib.redirect_stderr(sys.stdout):
                tasks_run_ready()
            seconds = time.perf_counter() - started
            job = PlayerImport.objects.get(pk=job.pk)
            assert job.status == "done", job.error
            print(
                f"{rows:>6} rows {label:<9}  preview {previewed:5.2f} s"
                f"  import {seconds:5.2f} s = {rows / seconds:6.0f} rows/s"
                f"  (in the write's transaction {write_seconds[-1]:4.2f} s)"
                f"  created {job.players_created}, updated {job.players_updated},"
                f" unchanged {job.players_unchanged}"
            )


if __name__ == "__main__":
    main()
