"""Backups at an event's size: the time and the memory of ``manage.py backup`` and ``restore``.

    .venv/bin/python bench/backups.py [--database sqlite|postgresql] [--players 1000]
        [--sessions 10] [--seed 1] [--runs 2] [--keep]

(``make bench-backups``; docs/backups.md has the figures.) A tournament of PLAYERS x SESSIONS is
built by ``manage.py generate_tournament`` (every session played) in a database of its own: a
SQLite file in a temporary folder, or, with ``--database postgresql``, databases on the
PostgreSQL server that DATABASE_URL names, named after its database (``<name>_bench_event``,
``_empty``, ``_restored``), dropped at the end. With ``--keep`` the event and the empty
database stay (SQLite: in /tmp/mcr-bench-backups-PLAYERSxSESSIONS) and the next run with
``--keep`` uses them again instead of building them (a few minutes).

The production settings (DEBUG off, a secret key made for the run).

Each backup and each restore runs in a Python process of its own, started for it, which sets
Django up and then calls the command as cron would. It prints the command's own time (without
Python's and Django's start), the peak of the process's resident memory (Linux's
``ru_maxrss``) and, apart, that peak before the command (its baseline: Django set up and the
site's services imported, as in any process of the site), and the peak of the largest program
it ran (``pg_dump``, ``pg_restore``, measured by ``/usr/bin/time``). Two kinds of backup: the
database's own (a PostgreSQL dump, a SQLite copy), restored into a database just created, and
the portable JSON (``--json``), restored into an empty database migrated beforehand (not
timed). The rows of each restored database are counted against the event's.

``--before`` measures the code before the native backups, the same way: export commit 4aca9a2
(``git archive 4aca9a2 | tar -x -C /tmp/before``), copy this file into its ``bench/``, and run
it there with ``--before`` (and ``--keep``, to measure the same event).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SLUG = "bench-backups"

# Run in the child process: the command measured, then one line of JSON.
CHILD = """
import json, os, resource, subprocess, sys, tempfile, time
import django
django.setup()
from django.core.management import call_command
# What every process of the site has loaded (a gunicorn worker, a task's worker): the
# services, with the player names' pinyin dictionaries (about 55 MB); the migrations that
# backup and restore check import them too.
import tournament.services

# pg_dump's and pg_restore's own peak, by /usr/bin/time: the rusage of this process's
# children would count this process's memory too, which each child has before its exec.
programs = [0]
run = subprocess.run
def timed(args, *more, **options):
    if isinstance(args, list) and os.path.basename(str(args[0])) in ("pg_dump", "pg_restore"):
        with tempfile.NamedTemporaryFile("r") as peak:
            done = run(["/usr/bin/time", "-f", "%M", "-o", peak.name, *args], *more, **options)
            programs.append(int(peak.read().split()[-1]))
        return done
    return run(args, *more, **options)
subprocess.run = timed

command, path, *options = sys.argv[1:]
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
started = time.perf_counter()
call_command(command, path, *options, verbosity=0)
seconds = time.perf_counter() - started
print(json.dumps({
    "seconds": seconds,
    "baseline_kb": before,
    "peak_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
    "program_kb": max(programs),
}))
"""

COUNTS = """
import json
import django
django.setup()
from tournament.server.backups import backed_up_models
print(json.dumps({m._meta.label_lower: m._base_manager.count() for m in backed_up_models()}))
"""


def _admin(url: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(sql)


class Databases:
    """The event's database, an empty migrated one, and the restore's target, on one server."""

    def __init__(self, kind: str, folder: Path):
        self.kind = kind
        self.folder = folder
        base = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "tournament.settings",
            "MCR_DEBUG": "0",
            "MCR_SECRET_KEY": secrets.token_urlsafe(50),
        }
        base.pop("DATABASE_URL", None)
        base.pop("MCR_DB_PATH", None)
        self.base = base
        if kind == "postgresql":
            url = os.environ.get("DATABASE_URL", "")
            if not url.startswith(("postgres://", "postgresql://")):
                sys.exit("--database postgresql needs DATABASE_URL=postgres://... (its server).")
            self.url = urllib.parse.urlsplit(url)
            self.prefix = self.url.path.lstrip("/") or "mcr"

    def env(self, role: str) -> dict[str, str]:
        if self.kind == "sqlite":
            return {**self.base, "MCR_DB_PATH": str(self.folder / f"{role}.sqlite3")}
        path = f"/{self.prefix}_bench_{role}"
        return {**self.base, "DATABASE_URL": urllib.parse.urlunsplit(self.url._replace(path=path))}

    def name(self, role: str) -> str:
        return f"{self.prefix}_bench_{role}"

    def exists(self, role: str) -> bool:
        if self.kind == "sqlite":
            return (self.folder / f"{role}.sqlite3").exists()
        import psycopg

        maintenance = urllib.parse.urlunsplit(self.url._replace(path="/postgres"))
        with psycopg.connect(maintenance, autocommit=True) as connection:
            found = connection.execute(
                "SELECT 1 FROM pg_database WHERE datname = %s", [self.name(role)]
            ).fetchone()
        return found is not None

    def create(self, role: str, *, like: str | None = None) -> None:
        """A new database ``role``: empty, or a copy of ``like``."""
        self.drop(role)
        if self.kind == "sqlite":
            if like:
                shutil.copyfile(self.folder / f"{like}.sqlite3", self.folder / f"{role}.sqlite3")
            return
        maintenance = urllib.parse.urlunsplit(self.url._replace(path="/postgres"))
        template = f' TEMPLATE "{self.name(like)}"' if like else ""
        _admin(maintenance, f'CREATE DATABASE "{self.name(role)}"{template}')

    def drop(self, role: str) -> None:
        if self.kind == "sqlite":
            for suffix in ("", "-wal", "-shm"):
                Path(f"{self.folder / role}.sqlite3{suffix}").unlink(missing_ok=True)
            return
        maintenance = urllib.parse.urlunsplit(self.url._replace(path="/postgres"))
        _admin(maintenance, f'DROP DATABASE IF EXISTS "{self.name(role)}" WITH (FORCE)')


def manage(env: dict, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )
    if done.returncode:
        sys.exit(f"manage.py {' '.join(args)} failed:\n{done.stderr[-3000:]}")
    return done.stdout


def measured(env: dict, command: str, path: Path, *options: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, command, str(path), *options],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode:
        sys.exit(f"{command} {path} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def counts(env: dict) -> dict[str, int]:
    done = subprocess.run(
        [sys.executable, "-c", COUNTS], cwd=ROOT, env=env, capture_output=True, text=True
    )
    if done.returncode:
        sys.exit(f"counting rows failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def megabytes(kb: int) -> str:
    return f"{kb / 1024:.0f} MB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=2, help="backups and restores of each kind")
    parser.add_argument(
        "--keep", action="store_true", help="keep the built event for the next run, or use it"
    )
    parser.add_argument(
        "--before",
        action="store_true",
        help="measure the code before the native backups (run from a checkout of commit "
        "4aca9a2, this file copied into it): its JSON only, which it wrote without --json",
    )
    args = parser.parse_args()

    temporary = None
    if args.keep:
        folder = Path(tempfile.gettempdir()) / f"mcr-bench-backups-{args.players}x{args.sessions}"
        folder.mkdir(exist_ok=True)
    else:
        temporary = tempfile.TemporaryDirectory(prefix="mcr-bench-backups-")
        folder = Path(temporary.name)
    databases = Databases(args.database, folder)
    # The database's own backup restores into a database just created (a new machine), the
    # portable JSON into one migrated beforehand, as each asks.
    formats = [("native", "event.backup", ()), ("json", "event.json.gz", ("--json",))]
    if args.before:
        formats = [("json", "event.json.gz", ())]
    try:
        if not (args.keep and databases.exists("event")):
            databases.create("event")
            manage(databases.env("event"), "migrate", "--noinput", "-v0")
            started = time.perf_counter()
            said = manage(
                databases.env("event"),
                "generate_tournament",
                f"--players={args.players}",
                f"--sessions={args.sessions}",
                f"--seed={args.seed}",
                f"--slug={SLUG}",
            )
            print(said.strip().splitlines()[-1], f"({time.perf_counter() - started:.0f} s)")
        if not (args.keep and databases.exists("empty")):
            databases.create("empty")
            manage(databases.env("empty"), "migrate", "--noinput", "-v0")
        event_counts = counts(databases.env("event"))
        print(
            f"{args.database}: {args.players} players x {args.sessions} sessions, "
            f"{sum(event_counts.values())} rows "
            f"({event_counts['tournament.hand']} hands, "
            f"{sum(c for label, c in event_counts.items() if '.historical' in label)} of them "
            "in the audit trail)"
        )
        for kind, name, options in formats:
            path = folder / name
            taken, restored = [], []
            for _run in range(args.runs):
                path.unlink(missing_ok=True)
                taken.append(measured(databases.env("event"), "backup", path, *options))
                databases.create("restored", like="empty" if kind == "json" else None)
                restored.append(measured(databases.env("restored"), "restore", path))
                if counts(databases.env("restored")) != event_counts:
                    sys.exit(f"{kind}: the restored database's rows differ from the event's")
            size = path.stat().st_size
            for what, runs in (("backup", taken), ("restore", restored)):
                seconds = statistics.median(run["seconds"] for run in runs)
                print(
                    f"  {kind:6} {what:7} {seconds:6.1f} s (median of {len(runs)}); "
                    f"Python peak {megabytes(max(r['peak_kb'] for r in runs))} "
                    f"(baseline {megabytes(max(r['baseline_kb'] for r in runs))}); "
                    f"program peak {megabytes(max(r['program_kb'] for r in runs))}"
                    + (f"; file {size / 1e6:.1f} MB" if what == "backup" else "")
                )
            path.unlink(missing_ok=True)
    finally:
        databases.drop("restored")
        if args.database == "postgresql" and not args.keep:
            databases.drop("event")
            databases.drop("empty")
        if temporary:
            temporary.cleanup()


if __name__ == "__main__":
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    main()
