"""The pages drawn most often, timed in this process: the referee's table sheet (drawn again
after every hand saved), a hand's save, the sheet re-drawn with a refused entry, and a
player's page with their figures and rank chart.

    .venv/bin/python manage.py generate_tournament --players 1000 --sessions 10 --seed 1 \\
        --played 9 --slug big          # with MCR_DB_PATH=FILE
    .venv/bin/python bench/render_timing.py --database FILE [--slug big] [--runs 50]

The SQLite FILE (a tournament whose last session is drawn and open) is copied first, so that
each run starts from the same data. Pages are asked for through Django's test client as the
tournament's organiser, with the production settings (DEBUG off): the whole request, and the
part of it spent drawing the page's templates (the forms' widgets included, whichever engine
draws them). Prints the median and the 95th percentile of each, in ms. Not part of
``make test``; figures vary with the machine's load: compare runs of the same machine.
"""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def configure(database: str) -> Path:
    work = Path(tempfile.mkdtemp(prefix="mcr-render-timing-"))
    shutil.copy(database, work / "db.sqlite3")
    os.environ["DJANGO_SETTINGS_MODULE"] = "tournament.settings"
    os.environ["MCR_DEBUG"] = "0"
    os.environ["MCR_SECRET_KEY"] = secrets.token_urlsafe(50)
    os.environ["MCR_ALLOWED_HOSTS"] = "testserver"
    os.environ["MCR_SECURE_SSL_REDIRECT"] = "0"
    os.environ["MCR_SECURE_COOKIES"] = "0"
    os.environ["MCR_SECURE_HSTS_SECONDS"] = "0"
    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("MCR_REDIS_URL", None)
    os.environ["MCR_DB_PATH"] = str(work / "db.sqlite3")
    return work


class RenderClock:
    """The time spent in the outermost template render of each request (a page's template,
    or a widget's when a form is drawn outside one), whichever backend draws it."""

    def __init__(self):
        self.depth = 0
        self.spent = 0.0

    def wrap(self, cls) -> None:
        original = cls.render
        clock = self

        def render(template, *args, **kwargs):
            clock.depth += 1
            started = time.perf_counter()
            try:
                return original(template, *args, **kwargs)
            finally:
                clock.depth -= 1
                if clock.depth == 0:
                    clock.spent += time.perf_counter() - started

        cls.render = render


def percentiles(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    return statistics.median(ordered), ordered[max(0, round(len(ordered) * 0.95) - 1)]


def measure(clock: RenderClock, runs: int, request) -> tuple[list[float], list[float]]:
    """``runs`` calls of ``request(i)``: the whole request's times and the render's, in ms."""
    whole, drawn = [], []
    for i in range(runs):
        clock.spent = 0.0
        started = time.perf_counter()
        request(i)
        whole.append((time.perf_counter() - started) * 1000)
        drawn.append(clock.spent * 1000)
    return whole, drawn


def hand_data(number: int, **changes) -> dict:
    data = {
        "number": number,
        "submission_key": str(uuid.uuid4()),
        "outcome": "discard",
        "winner": number % 4,
        "discarder": (number + 1) % 4,
        "fan": 8 + number,
        "flowers": 0,
        "penalty-TOTAL_FORMS": 0,
        "penalty-INITIAL_FORMS": 0,
        "penalty-MIN_NUM_FORMS": 0,
        "penalty-MAX_NUM_FORMS": 8,
    }
    data.update(changes)
    return data


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", required=True, help="the SQLite file to copy")
    parser.add_argument("--slug", default="big")
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument(
        "--form-renderer", help="a FORM_RENDERER in place of the settings' (a dotted path)"
    )
    args = parser.parse_args(argv)
    work = configure(args.database)
    try:
        import django
        from django.conf import settings

        settings.STATIC_ROOT = work / "static"
        if args.form_renderer:
            settings.FORM_RENDERER = args.form_renderer
        django.setup()
        from django.contrib.auth.models import User
        from django.core.management import call_command
        from django.template.backends import django as django_backend
        from django.test import Client
        from django.urls import reverse

        from tournament import services
        from tournament.models import Tournament

        clock = RenderClock()
        clock.wrap(django_backend.Template)
        try:
            from django.template.backends import jinja2 as jinja2_backend

            clock.wrap(jinja2_backend.Template)
        except ImportError:  # Jinja2 not installed: Django's engine draws everything.
            pass
        call_command("migrate", verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        tournament = Tournament.objects.get(slug=args.slug)
        organiser, _ = User.objects.get_or_create(username="render-timing")
        tournament.organisers.add(organiser)
        client = Client()
        client.force_login(organiser)
        session = tournament.sessions.filter(closed_at__isnull=True).order_by("number").first()
        tables = list(session.tables.order_by("number"))
        # The first table half played: eight hands on its sheet, the ninth to enter.
        for number in range(1, 9):
            services.hand_record(
                table=tables[0],
                entry=services.HandEntry(
                    number=number, outcome="self_drawn", winner=number % 4, fan=8 + number
                ),
            )
        sheet = reverse("table_sheet", args=[args.slug, session.number, tables[0].number])
        results = {}

        def get_sheet(_i):
            response = client.get(sheet)
            assert response.status_code == 200, response.status_code

        client.get(sheet)
        results["sheet (8 hands entered)"] = measure(clock, args.runs, get_sheet)

        def refused(_i):
            # A discard win below the minimum: the sheet drawn again with the errors.
            response = client.post(sheet, hand_data(9, fan=3))
            assert response.status_code == 200, response.status_code

        results["sheet with a refused entry"] = measure(clock, args.runs, refused)

        def save(i):
            table = tables[1 + i % (len(tables) - 1)]
            path = reverse("table_sheet", args=[args.slug, session.number, table.number])
            response = client.post(
                path, hand_data(1 + i // (len(tables) - 1)), HTTP_ACCEPT="application/json"
            )
            assert response.json().get("saved"), response.content

        results["hand save (background, JSON)"] = measure(clock, args.runs, save)

        numbers = list(tournament.players.order_by("number").values_list("number", flat=True))

        def player_page(_i):
            response = client.get(reverse("player_schedule", args=[args.slug, numbers[7]]))
            assert response.status_code == 200, response.status_code

        client.get(reverse("player_schedule", args=[args.slug, numbers[7]]))
        results["player page"] = measure(clock, args.runs, player_page)

        print(f"form renderer: {settings.FORM_RENDERER}")
        print(f"{args.runs} runs each, ms: request p50 / p95, of which templates p50 / p95")
        for name, (whole, drawn) in results.items():
            w50, w95 = percentiles(whole)
            d50, d95 = percentiles(drawn)
            print(f"  {name:32} {w50:7.1f} / {w95:7.1f}    {d50:7.1f} / {d95:7.1f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
