"""The referees' desk under its real polls, against `make serve` on PostgreSQL (docs/desk.md).

    .venv/bin/python bench/desk_benchmark.py [--tables 100] [--calls 20] [--workers 4]
        [--minute 60]

(``make bench-desk``.) A fresh event (``--tables`` tables in session 1, open for play) on a
database of its own on the PostgreSQL server DATABASE_URL names (default
postgres://postgres@127.0.0.1:5432/test; made and dropped here), served by ``make serve``.
Prints, asserts nothing:

(a) **one desk in Chromium**: the head referee's desk open in headless Chromium, polling as
    it does (every 2 s, 304 while nothing changed); ``--calls`` calls made through the
    service one after another, 1–4 s apart at random, and for each the time from its commit
    to its row in the page (read in the page: a MutationObserver notes when each row first
    appears): p50, p95, max.
(b) **100 tables, 3 desks**: each table makes one call at a random moment of one minute while
    three desk pollers (HTTP clients doing what desk.js does) poll; the calls are posted to
    the table's own address (``table_calls``) through the tables' device links, as the
    tablets would, or, where the served checkout has no such address yet, made through the
    service at the same moments (said in the output). Then: every call shown exactly once on
    the desk, and the desk part's p50/p95 response time for its 200 and its 304 answers.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hall import ROOT, SLUG, Browser, EventDatabase, Server, Tablet, chromium, percentile

DEFAULT_PG = "postgres://postgres@127.0.0.1:5432/test"
DESK = f"/t/{SLUG}/desk/"
PART = f"/t/{SLUG}/desk/calls/"
CALL_ROW = re.compile(rb'data-call="(\d+)"')

# Made in the database's own Python: the calls of ``plan`` ([table, seconds from the start]),
# each at its moment, printing each one's id and the wall-clock time of its commit.
MAKE_CALLS = """
import json, sys, time
from tournament import services
from tournament.models import Table
plan = json.loads(sys.stdin.read())
tables = {{t.number: t for t in Table.objects.filter(session__tournament__slug='{slug}',
    session__number=1).select_related('session')}}
start = time.time()
made = []
for table, at in plan:
    time.sleep(max(0, start + at - time.time()))
    call = services.call_make(table=tables[table], reason='claim')
    made.append([call.pk, table, time.time()])
print(json.dumps(made))
"""

# Every row's first appearance in the desk page, by call id (ms since the epoch).
OBSERVE = """
window.__seen = {};
const note = () => document.querySelectorAll('[data-desk-calls] [data-call]').forEach(row => {
  if (!(row.dataset.call in window.__seen)) window.__seen[row.dataset.call] = Date.now();
});
note();
new MutationObserver(note).observe(document.querySelector('[data-desk-calls]'),
  {childList: true, subtree: true});
"""


def make_calls(database: EventDatabase, plan: list[tuple[int, float]]) -> list:
    """``plan``'s calls made through the service, in a process of their own."""
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", MAKE_CALLS.format(slug=SLUG)],
        input=json.dumps(plan),
        cwd=ROOT,
        env=database.env,
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise RuntimeError(done.stderr[-3000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def figures(name: str, values: list[float], unit: str = "ms") -> str:
    if not values:
        return f"{name}: none"
    return (
        f"{name}: n={len(values)} p50={percentile(values, 50):.0f} {unit} "
        f"p95={percentile(values, 95):.0f} {unit} max={max(values):.0f} {unit}"
    )


def one_desk_in_chromium(server: Server, database: EventDatabase, calls: int, rng) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.wait import WebDriverWait

    driver = chromium(1024, 768)
    try:
        base = f"http://127.0.0.1:{server.port}"
        driver.get(base + "/accounts/login/")
        driver.find_element(By.NAME, "username").send_keys("organiser")
        driver.find_element(By.NAME, "password").send_keys("hall-organiser")
        driver.find_element(By.CSS_SELECTOR, "main form [type=submit]").click()
        WebDriverWait(driver, 20).until(lambda d: "/accounts/login/" not in d.current_url)
        driver.get(base + DESK)
        driver.execute_script(OBSERVE)
        at, plan = 1.0, []
        for n in range(calls):
            plan.append((n % 4 + 1, at))
            at += rng.uniform(1, 4)
        made = make_calls(database, plan)
        WebDriverWait(driver, 30).until(
            lambda d: len(d.execute_script("return window.__seen")) >= len(made)
        )
        seen = driver.execute_script("return window.__seen")
        waits = [seen[str(pk)] - committed * 1000 for pk, _table, committed in made]
        print(f"(a) {len(made)} calls made through the service, one desk in Chromium")
        print("    " + figures("commit to shown on the desk", waits))
    finally:
        driver.quit()


class DeskPoller(threading.Thread):
    """A desk's script over HTTP: the part every 2 s with the ETag it was last given."""

    def __init__(self, port: int, stop: threading.Event, every: float = 2.0):
        super().__init__(daemon=True)
        self.browser = Browser(port)
        self.stop = stop
        self.every = every
        self.times: dict[int, list[float]] = {200: [], 304: []}
        self.errors = 0
        self.last: bytes = b""
        self.first_seen: dict[int, float] = {}

    def poll(self, etag: str) -> str:
        import http.client

        connection = http.client.HTTPConnection("127.0.0.1", self.browser.port, timeout=30)
        headers = {
            "Cookie": "; ".join(f"{k}={v}" for k, v in self.browser.cookies.items()),
            "If-None-Match": etag,
        }
        started = time.perf_counter()
        connection.request("GET", PART, headers=headers)
        response = connection.getresponse()
        body = response.read()
        elapsed = (time.perf_counter() - started) * 1000
        connection.close()
        if response.status in self.times:
            self.times[response.status].append(elapsed)
        else:
            self.errors += 1
        if response.status == 200:
            self.last = body
            now = time.time()
            for pk in CALL_ROW.findall(body):
                self.first_seen.setdefault(int(pk), now)
            return response.getheader("ETag") or etag
        return etag

    def run(self) -> None:
        etag = ""
        # Desks opened at different moments: their polls are not in step.
        time.sleep(random.uniform(0, self.every))
        while not self.stop.is_set():
            try:
                etag = self.poll(etag)
            except OSError:
                self.errors += 1
            self.stop.wait(self.every)


def table_calls_posted(port: int, tokens: dict[int, str]) -> dict[int, Tablet] | None:
    """The tablets signed in with their links, when the served checkout has the table's
    address to call from (its GET answers the tablet); None otherwise."""
    tablets = {}
    for number, token in tokens.items():
        tablet = Tablet(port, number)
        tablet.sign_in(token)
        tablets[number] = tablet
    status, _ = tablets[1]._request("GET", tablets[1].path + "calls/")
    return tablets if status == 200 else None


def post_call(tablet: Tablet) -> tuple[int | None, float]:
    body = (
        f"csrfmiddlewaretoken={tablet.cookies.get('csrftoken', '')}&reason=claim&key={uuid.uuid4()}"
    )
    headers = {
        "Content-Type": "application/x-www-form-urlencoded",
        "Accept": "application/json",
        "X-CSRFToken": tablet.cookies.get("csrftoken", ""),
    }
    started = time.perf_counter()
    try:
        status, _ = tablet._request("POST", tablet.path + "calls/", body, headers)
    except OSError:
        status = None
    return status, (time.perf_counter() - started) * 1000


def hundred_tables(server, database, tokens, minute: float, rng) -> None:
    stop = threading.Event()
    pollers = [DeskPoller(server.port, stop) for _ in range(3)]
    for poller in pollers:
        poller.browser.log_in("organiser", "hall-organiser")
        poller.start()
    tablets = table_calls_posted(server.port, tokens)
    plan = sorted(((number, rng.uniform(0, minute)) for number in tokens), key=lambda i: i[1])
    made_at: dict[int, float] = {}
    if tablets is not None:
        how = "posted by the tablets to table_calls through their device links"
        posts: list[tuple[int | None, float]] = []
        start = time.time()

        def send(number, at):
            time.sleep(max(0, start + at - time.time()))
            posts.append(post_call(tablets[number]))

        threads = [threading.Thread(target=send, args=item) for item in plan]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        made = json.loads(
            database.manage(
                "shell",
                "-c",
                "import json\nfrom tournament.models import RefereeCall\n"
                "print(json.dumps([[c.pk, c.table.number, c.called_at.timestamp()] for c in "
                "RefereeCall.objects.filter(state__in=RefereeCall.OPEN).select_related('table')]))",
            )
            .strip()
            .splitlines()[-1]
        )
        failed = sum(1 for status, _ms in posts if status not in (200, 201, 302))
        said = [
            f"    the tablets' posts: {figures('POST table_calls', [ms for _s, ms in posts])}",
            f"    posts refused or unanswered: {failed}",
        ]
    else:
        how = "made through services.call_make (this checkout has no table_calls address)"
        made = make_calls(database, plan)
        said = []
    for pk, _table, at in made:
        made_at[pk] = at
    # The last calls' polls, then one more round.
    time.sleep(5)
    stop.set()
    for poller in pollers:
        poller.join()
    print(f"(b) {len(tokens)} tables, one call each within {minute:.0f} s, {how}; 3 desks polling")
    for line in said:
        print(line)
    pollers[0].poll("")
    shown = [int(pk) for pk in CALL_ROW.findall(pollers[0].last)]
    once = len(shown) == len(set(shown)) and set(shown) == set(made_at)
    print(
        f"    calls made: {len(made_at)}; rows on the desk: {len(shown)}, distinct: "
        f"{len(set(shown))}; every call shown exactly once: {'yes' if once else 'NO'}"
    )
    waits = [
        (poller.first_seen[pk] - made_at[pk]) * 1000
        for poller in pollers
        for pk in made_at
        if pk in poller.first_seen
    ]
    print("    " + figures("commit to seen by a desk poller", waits))
    for status in (200, 304):
        times = [ms for poller in pollers for ms in poller.times[status]]
        print("    " + figures(f"desk part, {status} answers", times))
    print(f"    poll errors: {sum(poller.errors for poller in pollers)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--minute", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    database = EventDatabase(os.environ.get("DATABASE_URL") or DEFAULT_PG)
    server = None
    try:
        print(f"Preparing {args.tables} tables on {database.kind}…", flush=True)
        tokens = database.prepare(args.tables)
        server = Server(database, workers=args.workers)
        server.start(timeout=120)
        print(f"`make serve` with {args.workers} workers on port {server.port}", flush=True)
        one_desk_in_chromium(server, database, args.calls, rng)
        # The calls of (a) resolved out of the way: (b) starts with an empty desk.
        database.manage(
            "shell",
            "-c",
            "from tournament import services\nfrom tournament.models import RefereeCall\n"
            "for c in RefereeCall.objects.filter(state='called'):\n"
            "    services.call_cancel(call=c)\n",
        )
        hundred_tables(server, database, tokens, args.minute, rng)
    finally:
        if server is not None:
            server.stop()
        database.close()


if __name__ == "__main__":
    main()
