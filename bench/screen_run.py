"""A hall's screen for ten minutes on a live tournament, as an event runs it.

    .venv/bin/python bench/screen_run.py [--players 1000] [--played 2] [--minutes 10]
        [--hand-every 2] [--database sqlite|postgresql]

(``make bench-screen``.) Builds a tournament with ``manage.py generate_tournament`` (seed 1,
``--played`` sessions played through), draws one more session by the standings and opens it,
then starts the event's server as ``make serve`` runs it (gunicorn, its workers, DEBUG off)
with an access log that gives each answer's bytes and time. Headless Chromium shows the
screen at 1920 x 1080 at the real poll interval, while this process enters a hand every
``--hand-every`` seconds at a random table through the hand service (a 250-table hall enters
one every 2.25 s on average). At the end it prints the screen's requests per minute, bytes
and server milliseconds per poll, the full page loads (one: the first), whether the page's
marker survived, and how many standings panels differed from the same panel before the
hands: the screen follows the play without reloading.
"""

from __future__ import annotations

import argparse
import html
import http.client
import os
import random
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from hall import EventDatabase, chromium, free_port, percentile  # noqa: E402

from tournament.hall import screen  # noqa: E402  (plain Python: no Django)

SLUG = "screen-run"
# The access log: request line, status, body bytes, milliseconds, user agent.
ACCESS_FORMAT = '%(r)s %(s)s %(B)s %(M)s "%(a)s"'
LINE = re.compile(r'^(\w+) (\S+) \S+ (\d{3}) (\d+|-) (\d+) "(.*)"$')

# Each panel the screen settles on: when, its step and kind, and its rows' text.
RECORD = """
window.__marker = 1;
window.__panels = [];
function record() {
  var panel = document.getElementById("screen-panel");
  var rows = Array.prototype.map.call(panel.querySelectorAll("tbody tr"), function (row) {
    return Array.prototype.map.call(row.cells, function (cell) {
      return cell.textContent.replace(/\\s+/g, " ").trim();
    }).join("|");
  });
  window.__panels.push({at: Date.now(), step: parseInt(panel.dataset.step, 10),
    kind: panel.className.split(" ").pop(), rows: rows});
}
record();
document.body.addEventListener("htmx:afterSettle", function (event) {
  if (event.target.id === "screen-panel") record();
});
"""


def build(database: EventDatabase, players: int, played: int) -> None:
    database.manage("migrate", "--noinput")
    database.manage(
        "generate_tournament",
        f"--players={players}",
        f"--sessions={played}",
        "--seed=1",
        f"--slug={SLUG}",
    )
    database.python(
        "import json\n"
        "from tournament import services\n"
        "from tournament.models import Tournament\n"
        f"t = Tournament.objects.get(slug='{SLUG}')\n"
        "t = services.tournament_update(tournament=t, session_count=t.session_count + 1)\n"
        "s = services.session_draw(tournament=t, number=t.session_count, method='standings')\n"
        "services.session_open(session=s)\n"
        "print(json.dumps(s.number))\n"
    )
    database.manage("collectstatic", "--noinput", "--verbosity", "0")


def start_server(database: EventDatabase, port: int, log: Path) -> subprocess.Popen:
    """gunicorn with the event's settings (gunicorn.conf.py), as ``make serve`` starts it."""
    env = {
        **database.env,
        "PORT": str(port),
        "GUNICORN_CMD_ARGS": f"--access-logformat '{ACCESS_FORMAT}'",
    }
    process = subprocess.Popen(
        [
            str(ROOT / ".venv" / "bin" / "gunicorn"),
            "--config",
            "gunicorn.conf.py",
            "tournament.wsgi",
        ],
        cwd=ROOT,
        env=env,
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                return process
        except OSError:
            time.sleep(0.2)
    process.terminate()
    raise RuntimeError(f"the server did not start; see {log}")


def standings_before(port: int, steps: list[int], phase: str) -> dict[int, list[str]]:
    """Each standings panel's rows as the server gives them before any hand is entered."""
    before = {}
    for step in steps:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", f"/t/{SLUG}/screen/panel/?step={step}&phase={phase}")
        text = connection.getresponse().read().decode()
        if 'class="screen-panel screen-standings"' in text:
            before[step] = [
                "|".join(
                    re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", cell))).strip()
                    for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)
                )
                for body in re.findall(r"<tbody>(.*?)</tbody>", text, re.S)
                for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
            ]
    return before


def enter_hands(stop: threading.Event, every: float, entered: list) -> None:
    """A hand every ``every`` seconds at a random table of the session in play, through the
    hand service, until ``stop``."""
    import django

    django.setup()
    from django.db import connection

    from tournament import services
    from tournament.models import Session

    session = Session.objects.filter(tournament__slug=SLUG).order_by("-number").first()
    tables = list(session.tables.all())
    rng = random.Random(1)
    next_hand = {table.pk: 1 for table in tables}
    while not stop.wait(every):
        open_tables = [t for t in tables if next_hand[t.pk] <= 16]
        if not open_tables:
            break
        table = rng.choice(open_tables)
        services.hand_record(
            table=table,
            entry=services.HandEntry(
                number=next_hand[table.pk],
                outcome="self_drawn",
                winner=rng.randrange(4),
                fan=rng.choice([8, 8, 9, 12, 16, 24, 32, 64]),
            ),
        )
        next_hand[table.pk] += 1
        entered.append(time.time())
    connection.close()


def read_log(log: Path) -> list[tuple[str, str, int, int, int]]:
    """The browser's requests: (method, path, status, bytes, ms)."""
    found = []
    for line in log.read_text(errors="replace").splitlines():
        matched = LINE.match(line.strip())
        if matched and "HeadlessChrome" in matched.group(6):
            method, path, status, size, ms, _agent = matched.groups()
            found.append((method, path, int(status), 0 if size == "-" else int(size), int(ms)))
    return found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--played", type=int, default=2)
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--hand-every", type=float, default=2.0)
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    args = parser.parse_args(argv)
    postgres = None
    if args.database == "postgresql":
        postgres = os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/test"
    database = EventDatabase(postgres)
    log = Path(database.folder.name) / "server.log"
    server = None
    driver = None
    stop = threading.Event()
    try:
        started = time.perf_counter()
        build(database, args.players, args.played)
        print(
            f"built {args.players} players, {args.played} sessions played, one more open, in "
            f"{time.perf_counter() - started:.0f} s"
        )
        os.environ.update(database.env)
        os.environ["DJANGO_SETTINGS_MODULE"] = "tournament.settings"
        port = free_port()
        server = start_server(database, port, log)
        phase = f"{args.played + 1}-in_play"
        tables = args.players // 4
        turn = screen.cycle(status=screen.IN_PLAY, tables=tables, players=args.players)
        standings_steps = [i for i, p in enumerate(turn) if p.kind == screen.STANDINGS]
        before = standings_before(port, standings_steps, phase)

        driver = chromium(1920, 1080)
        driver.get(f"http://127.0.0.1:{port}/t/{SLUG}/screen/")
        driver.execute_script(RECORD)
        entered: list[float] = []
        hands = threading.Thread(target=enter_hands, args=(stop, args.hand_every, entered))
        hands.start()
        began = time.time()
        while time.time() - began < args.minutes * 60:
            time.sleep(30)
            shown = driver.execute_script("return window.__panels.length")
            print(f"  {(time.time() - began) / 60:4.1f} min: {shown} panels, {len(entered)} hands")
        stop.set()
        hands.join()
        minutes = (time.time() - began) / 60
        marker = driver.execute_script("return window.__marker")
        panels = driver.execute_script("return window.__panels")
        clock = driver.find_element("css selector", ".screen-clock").text
    finally:
        stop.set()
        if driver is not None:
            driver.quit()
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
    requests = read_log(log)
    database.close()

    pages = [r for r in requests if r[1] == f"/t/{SLUG}/screen/"]
    polls = [r for r in requests if r[1].startswith(f"/t/{SLUG}/screen/panel/")]
    statics = [r for r in requests if r[1].startswith("/static/")]
    others = [r for r in requests if r not in pages and r not in polls and r not in statics]
    ms = [r[4] for r in polls]
    sizes = [r[3] for r in polls]
    changed = sum(
        1
        for p in panels
        if p["kind"] == "screen-standings" and before.get(p["step"], p["rows"]) != p["rows"]
    )
    standings_seen = sum(
        1 for p in panels if p["kind"] == "screen-standings" and p["step"] in before
    )
    kinds = {}
    for p in panels:
        kinds[p["kind"]] = kinds.get(p["kind"], 0) + 1
    print(f"\n{args.players} players, session {args.played + 1} in play, {minutes:.1f} minutes")
    print(f"  hands entered meanwhile: {len(entered)}")
    print(f"  the page loaded {len(pages)} time(s); marker still set: {marker == 1}")
    print(f"  panels shown: {len(panels)} ({', '.join(f'{k} {n}' for k, n in kinds.items())})")
    print(
        f"  polls: {len(polls)} ({len(polls) / minutes:.1f} a minute), statuses "
        f"{sorted({r[2] for r in polls})}; static files {len(statics)}; other {len(others)}"
    )
    print(f"  bytes a poll: median {statistics.median(sizes):.0f}, max {max(sizes)}")
    print(
        f"  server ms a poll: median {statistics.median(ms):.0f}, p95 {percentile(ms, 95):.0f},"
        f" max {max(ms)}"
    )
    # Each poll's kind, from the step it asked for and the panel the screen showed for it.
    kind_of = {p["step"]: p["kind"] for p in panels}
    by_kind: dict[str, list[int]] = {}
    for _method, path, _status, _size, took in polls:
        step = int(re.search(r"step=(\d+)", path)[1])
        by_kind.setdefault(kind_of.get(step, "?"), []).append(took)
    for kind, times in sorted(by_kind.items()):
        print(
            f"    {kind}: {len(times)} polls, median {statistics.median(times):.0f} ms,"
            f" max {max(times)} ms"
        )
    print(
        f"  standings panels shown after hands: {standings_seen}, differing from before: {changed}"
    )
    print(f"  clock at the end: {clock!r}")
    return 0 if marker == 1 and len(pages) == 1 else 1


if __name__ == "__main__":
    sys.exit(main())
