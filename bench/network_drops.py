"""Network drops while a referee enters hands: none lost, none stored twice.

    .venv/bin/python bench/network_drops.py [--drops 100] [--seed N] [--tables 50]

(``make bench-drops``.) Needs Debian's ``chromium`` and ``chromedriver``. Builds a fresh
tournament in a temporary SQLite database (session 1 open with ``--tables`` tables, all given
to one referee) and serves it with ``manage.py runserver``. A chaos thread kills the server
(SIGKILL, its whole process group) at random moments, half of them just after a Save tap,
and starts it again after 0.2–2 s of downtime, until ``--drops`` drops have happened.

Meanwhile headless Chromium (768x1024) enters hands 1–16 of one table after another through
the real sheet, as a referee taps: discard wins, self-drawn wins with flowers, a draw; fans
picked or typed; each hand's content unique within its table. The hand entered is the one
the form asks for (its number follows the entries kept on the tablet). A page that fails to
load (the server is down, or the page came but its script did not) is loaded again, as a
referee would; before leaving a table every kept entry must be sent (an entry shown as
refused is sent again, as the page asks, and discarded after three refusals). It stops after
the table in progress once the drops are done.

Then it reads the database and compares it with what was entered, per table and hand, and
prints: drops, hands entered, stored, lost (entered, not stored), duplicated (stored under
another hand's number, or never entered), wrong (stored with other content), asked again
(the form asked for a hand already saved), how each save went (the sheet loaded, or kept on
the tablet), page loads failed, entries refused. Exits 0 only when lost, duplicated, wrong
and asked again are 0 and every drop happened. Whenever something went wrong or was refused,
the work folder it names keeps the server log and events.log: the driver's and the chaos
thread's steps, timed, with what the page said about a Save that left it. Not part of
``make test``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
from pathlib import Path
from urllib.request import urlopen

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from hall import chromium  # noqa: E402

FAN_PICKS = (8, 9, 10, 12, 16, 24, 32, 48, 64, 88)
START = time.monotonic()


class Events:
    """Timed lines of what the driver and the chaos thread did, for the work folder."""

    def __init__(self):
        self.lines: list[str] = []
        self.lock = threading.Lock()

    def __call__(self, message: str) -> None:
        with self.lock:
            now = time.time()
            clock = time.strftime("%H:%M:%S", time.localtime(now)) + f".{now % 1:.3f}"[2:]
            self.lines.append(f"{clock} {time.monotonic() - START:8.3f} {message}")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def manage(env: dict, *args: str) -> str:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def prepare(env: dict, tables: int) -> None:
    """Migrate a fresh database and build the tournament through the services."""
    manage(env, "migrate", "--noinput")
    manage(
        env,
        "shell",
        "-c",
        "from django.contrib.auth.models import User\n"
        "from tournament import services\n"
        "organiser = User.objects.create_user('organiser', password='bench-organiser')\n"
        "referee = User.objects.create_user('referee', password='bench-referee')\n"
        "t = services.tournament_create(name='Drops', slug='drops', session_count=4,\n"
        "    session_minutes=600, seating_method='lot', creator=organiser, referees=[referee])\n"
        f"for n in range(1, {4 * tables + 1}):\n"
        "    services.player_save(tournament=t, number=n, name=f'Player {n}')\n"
        "s = services.session_open(session=services.session_draw(tournament=t, number=1,\n"
        "    seed=1))\n"
        f"services.tables_assign(session=s, referee=referee, tables=range(1, {tables + 1}))\n",
    )


def stored_hands(env: dict) -> list[tuple]:
    """Every hand of session 1 in the database: (table, number, content)."""
    out = manage(
        env,
        "shell",
        "-c",
        "import json\n"
        "from tournament.models import Hand\n"
        "print(json.dumps(list(Hand.objects.filter(table__session__number=1).values_list(\n"
        "    'table__number', 'number', 'outcome', 'winner', 'discarder', 'fan', 'flowers'))))\n",
    )
    rows = json.loads(out.strip().splitlines()[-1])
    return [(t, n, tuple(content)) for t, n, *content in rows]


def plan_table(rng: random.Random) -> dict[int, dict]:
    """Hand number -> what the referee enters: one draw, 15 wins by distinct seats."""
    seats = [("self_drawn", w, None) for w in range(4)]
    seats += [("discard", w, d) for w in range(4) for d in range(4) if d != w]
    rng.shuffle(seats)
    draw = rng.randint(1, 16)
    plan = {}
    for number in range(1, 17):
        if number == draw:
            plan[number] = {"content": ("draw", None, None, None, 0)}
            continue
        outcome, winner, discarder = seats.pop()
        typed = rng.random() < 0.3
        fan = rng.randint(8, 40) if typed else rng.choice(FAN_PICKS)
        flowers = rng.randint(0, 3)
        plan[number] = {"content": (outcome, winner, discarder, fan, flowers), "typed": typed}
    return plan


class Server:
    """``manage.py runserver`` in its own process group, killed and started again."""

    def __init__(self, env: dict, port: int, log_path: Path):
        self.env, self.port, self.log_path = env, port, log_path
        self.base = f"http://127.0.0.1:{port}"
        self.process = None

    def start(self) -> None:
        with open(self.log_path, "ab") as log:
            log.write(f"=== start at {time.monotonic() - START:.3f}\n".encode())
            self.process = subprocess.Popen(
                [sys.executable, "manage.py", "runserver", f"127.0.0.1:{self.port}", "--noreload"],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def kill(self) -> None:
        if self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        with open(self.log_path, "ab") as log:
            log.write(f"=== killed at {time.monotonic() - START:.3f}\n".encode())

    def wait_up(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                urlopen(self.base + "/accounts/login/", timeout=2)
                return
            except urllib.error.HTTPError:
                return  # it answers
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the server did not come up")


class Chaos(threading.Thread):
    """Kills the server at random moments and starts it again, ``drops`` times."""

    def __init__(self, server: Server, drops: int, rng: random.Random, log: Events):
        super().__init__(daemon=True)
        self.server, self.target, self.rng, self.log = server, drops, rng, log
        self.drops = self.after_save = 0
        self.downtime = 0.0
        self.save_tapped = threading.Event()
        self.stop = threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            while self.drops < self.target and not self.stop.wait(self.rng.uniform(0.5, 3)):
                near_save = self.rng.random() < 0.5
                if near_save:
                    self.save_tapped.clear()
                    if not self.save_tapped.wait(15):
                        near_save = False
                    else:
                        time.sleep(self.rng.uniform(0, 0.25))
                    if self.stop.is_set():
                        break
                down = time.monotonic()
                self.server.kill()
                self.drops += 1
                self.after_save += near_save
                self.log(f"chaos: drop {self.drops}{' after a save' if near_save else ''}")
                time.sleep(self.rng.uniform(0.2, 2))
                self.server.start()
                self.server.wait_up()
                self.downtime += time.monotonic() - down
                self.log("chaos: server up")
        except BaseException as error:  # reported by the main thread
            self.error = error


# The page is the whole sheet, loaded (not Chrome's error page, nor a page cut short).
PAGE_JS = """
return document.readyState === 'complete' && !!document.querySelector('[data-sync]')
    && !!document.querySelector('script[src*="js/tablet.js"]');
"""
# The hand the form asks for, what the heading says and how many entries wait on the tablet.
FORM_JS = """
var f = document.getElementById('hand-entry'), h = document.querySelector('#entry h2');
var q = JSON.parse(localStorage.getItem('mcr-queue:' + document.querySelector('[data-sync]')
    .dataset.queue) || '[]');
return [f && !f.hidden ? parseInt(f.querySelector('[name=number]').value, 10) : null,
        h ? h.textContent.trim() : '', q.length,
        q.filter(function (e) { return e.state === 'refused'; }).map(function (e) {
            return [e.number, e.reason, e.key]; }),
        document.querySelector('[data-sync-state]').getAttribute('data-sync-state')];
"""
# What the form holds now, as it would be posted.
FIELDS_JS = """
var d = new FormData(document.getElementById('hand-entry')), n = function (k) {
  var v = d.get(k); return v === null || v === '' ? null : parseInt(v, 10); };
return [d.get('outcome'), n('winner'), n('discarder'), n('fan'), n('flowers') || 0];
"""
# Watches Save taps without changing them: whether the page's script took the form (the
# tab's sessionStorage outlives the page, for a page left by a plain post).
WATCH_JS = """
if (window.benchWatch) return;
window.benchWatch = true;
window.addEventListener('submit', function (e) {
  sessionStorage.setItem('bench-submit', JSON.stringify({taken: e.defaultPrevented,
    page: location.href, age: Math.round(performance.now())}));
});
"""
# After Save: 'nav' once the page is left, 'kept' once the form is readied in place.
AFTER_SAVE_JS = """
if (document.documentElement !== arguments[0]) return 'nav';
var f = document.getElementById('hand-entry');
if (!f) return 'nav';
return f.hidden || f.querySelector('[name=number]').value !== arguments[1] ? 'kept' : '';
"""


class Referee:
    """Drives the sheet in Chromium and keeps count of what was entered and how it went."""

    def __init__(self, driver, base: str, chaos: Chaos, log: Events):
        self.driver, self.base, self.chaos, self.log = driver, base, chaos, log
        self.entered: dict[tuple[int, int], tuple] = {}
        self.asked_again: list[tuple[int, int]] = []
        self.refused: list[tuple[int, int, str]] = []
        self.retries: dict[str, int] = {}
        self.saves = self.sent = self.kept_down = self.kept_behind = 0
        self.failed_loads = self.noscript = self.retyped = 0
        self.plain_post = False

    def js(self, script: str, *args):
        return self.driver.execute_script(script, *args)

    def goto(self, url: str) -> None:
        from selenium.common.exceptions import WebDriverException

        try:
            self.driver.get(url)
        except WebDriverException as error:
            self.log(f"load {url}: {str(error.msg).splitlines()[0]}")

    def load(self, url: str) -> None:
        """Load ``url`` until it is the sheet with its script, as a referee reloads."""
        from selenium.common.exceptions import WebDriverException

        for _attempt in range(2000):
            if self.chaos.error:
                raise RuntimeError("the chaos thread stopped") from self.chaos.error
            try:
                state = "error"
                if self.js(PAGE_JS):
                    state = "ok" if self.script_ran() else "noscript"
            except WebDriverException:
                pass
            if state == "ok":
                if self.plain_post:  # what the page had said about it, and the browser
                    self.plain_post = False
                    said = self.js("return sessionStorage.getItem('bench-submit');")
                    self.log(f"  the Save: {said}")
                    for line in self.driver.get_log("browser")[-8:]:
                        self.log(f"  browser: {line['message'][:300]}")
                return
            self.failed_loads += 1
            self.noscript += state == "noscript"
            self.log(f"load {url}: {state}")
            time.sleep(0.3)
            self.goto(url)
        raise RuntimeError(f"{url} never loaded")

    def script_ran(self) -> bool:
        """Whether the sheet's script (tablet.js) runs on the page: the page may have come
        while its script did not (a cached copy whose check with the server failed). Only
        that script listens for 'online'."""
        window = self.driver.execute_cdp_cmd("Runtime.evaluate", {"expression": "window"})
        listeners = self.driver.execute_cdp_cmd(
            "DOMDebugger.getEventListeners", {"objectId": window["result"]["objectId"]}
        )["listeners"]
        return any(listener["type"] == "online" for listener in listeners)

    def log_in(self) -> None:
        from selenium.webdriver.common.by import By

        self.driver.get(self.base + "/accounts/login/")
        self.driver.find_element(By.NAME, "username").send_keys("referee")
        self.driver.find_element(By.NAME, "password").send_keys("bench-referee")
        self.driver.find_element(By.CSS_SELECTOR, "main form [type=submit]").click()
        time.sleep(1)

    def tap(self, css: str) -> None:
        from selenium.webdriver.common.by import By

        element = self.driver.find_element(By.CSS_SELECTOR, css)
        self.js("arguments[0].scrollIntoView({block: 'center'});", element)
        element.click()

    def fill(self, entry: dict) -> None:
        from selenium.webdriver.common.by import By

        outcome, winner, discarder, fan, flowers = entry["content"]
        label = '#hand-entry label:has(input[name="{}"][value="{}"])'
        if outcome != "discard":  # tapping the discarder chooses a win on a discard
            self.tap(label.format("outcome", outcome))
        if winner is not None:
            self.tap(label.format("winner", winner))
        if discarder is not None:
            self.tap(label.format("discarder", discarder))
        if fan is not None and entry["typed"]:
            field = self.driver.find_element(By.CSS_SELECTOR, '#hand-entry [name="fan"]')
            self.js("arguments[0].scrollIntoView({block: 'center'});", field)
            field.clear()
            field.send_keys(str(fan))
        elif fan is not None:
            self.tap(f'#hand-entry [data-fan="{fan}"]')
        for _ in range(flowers):
            self.tap('#hand-entry [data-step="1"]')

    def save(self, table: int, number: int, content: tuple) -> None:
        """Tap Save, then wait for the next form: in place (kept) or a page load."""
        from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
        from selenium.webdriver.common.by import By

        queued = self.js(FORM_JS)[2]
        self.js(WATCH_JS)
        html = self.driver.find_element(By.TAG_NAME, "html")
        self.chaos.save_tapped.set()
        self.tap("#hand-entry button.primary")
        self.entered[(table, number)] = content
        self.saves += 1
        deadline = time.monotonic() + 30
        result = ""
        while not result and time.monotonic() < deadline:
            try:
                result = self.js(AFTER_SAVE_JS, html, str(number))
            except StaleElementReferenceException:
                result = "nav"
            except WebDriverException:
                time.sleep(0.05)
        if result == "kept":
            self.kept_behind += bool(queued)
            self.kept_down += not queued
        elif result == "nav":
            url = self.driver.current_url
            self.sent += "saved=" in url
            if "saved=" not in url:
                self.plain_post = True
                self.log(f"table {table} hand {number}: left for {url} (a plain post?)")
        self.log(f"table {table} hand {number}: {result or 'no answer in 30 s'}")

    def enter_table(self, table: int, plan: dict[int, dict]) -> None:
        from selenium.common.exceptions import WebDriverException

        url = f"{self.base}/t/drops/sessions/1/tables/{table}/"
        self.goto(url)
        while True:
            self.load(url)
            number, heading, _queued, _refused, _state = self.js(FORM_JS)
            if number is None:
                if self.all_sent(table, url):
                    return
                continue
            if heading != f"Enter hand {number}":
                self.log(f"table {table}: heading {heading!r} for hand {number}")
            if (table, number) in self.entered:
                self.asked_again.append((table, number))
                self.log(f"table {table} hand {number}: asked again")
            try:
                self.fill(plan[number])
                held = tuple(self.js(FIELDS_JS))
            except WebDriverException as error:
                held = str(error.msg).splitlines()[0]
            if held != plan[number]["content"]:
                self.retyped += 1
                self.log(f"table {table} hand {number}: the form holds {held}, reloaded")
                self.goto(url)
                continue
            self.save(table, number, plan[number]["content"])

    def all_sent(self, table: int, url: str, timeout: float = 300) -> bool:
        """Wait until the tablet has sent every kept entry; False when the sheet, reloaded,
        asks for a hand again (an entry refused and discarded)."""
        from selenium.common.exceptions import WebDriverException
        from selenium.webdriver.common.by import By

        deadline = time.monotonic() + timeout
        nudged = time.monotonic()
        while time.monotonic() < deadline:
            self.load(url)
            try:
                _number, _heading, queued, refused, state = self.js(FORM_JS)
                if refused:
                    # As the referee is told: send it again; refused three times, discard it.
                    number, reason, key = refused[0]
                    self.refused.append((table, number, reason))
                    self.log(f"table {table} hand {number}: refused ({key}): {reason}")
                    self.retries[key] = self.retries.get(key, 0) + 1
                    if self.retries[key] <= 3:
                        self.driver.find_element(
                            By.CSS_SELECTOR, f'[data-sync-retry="{key}"]'
                        ).click()
                    else:
                        self.driver.find_element(
                            By.CSS_SELECTOR, f'[data-sync-discard="{key}"]'
                        ).click()
                        self.driver.switch_to.alert.accept()
                elif not queued and state == "saved":
                    self.goto(url)
                    self.load(url)
                    return self.js(FORM_JS)[0] is None
                elif time.monotonic() - nudged > 3:
                    # A referee waiting for "All saved": back online, send now.
                    self.js("window.dispatchEvent(new Event('online'));")
                    nudged = time.monotonic()
            except WebDriverException:
                pass
            time.sleep(0.25)
        raise RuntimeError(f"table {table}: entries still waiting after {timeout:.0f} s")


def browser(width: int, height: int):
    driver = chromium(width, height, console_log=True)
    driver.set_page_load_timeout(20)
    return driver


def compare(entered: dict, stored: list[tuple]) -> dict[str, list]:
    """Lost, duplicated and wrong hands, each as (table, number, what)."""
    found: dict[tuple[int, int], list[tuple]] = {}
    for table, number, content in stored:
        found.setdefault((table, number), []).append(content)
    lost = [(*key, entered[key]) for key in entered if key not in found]
    duplicated, wrong = [], []
    for (table, number), contents in sorted(found.items()):
        duplicated += [(table, number, c) for c in contents[1:]]
        content = contents[0]
        if content == entered.get((table, number)):
            continue
        others = [n for (t, n), c in entered.items() if t == table and c == content]
        if others or (table, number) not in entered:
            duplicated.append((table, number, f"{content}, entered as hand(s) {others}"))
        else:
            wrong.append((table, number, f"{content}, entered {entered[(table, number)]}"))
    return {"lost": lost, "duplicated": duplicated, "wrong": wrong}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--drops", type=int, default=100, help="server kills (default 100)")
    parser.add_argument("--seed", type=int, help="random seed (default: a new one)")
    parser.add_argument("--tables", type=int, default=50, help="tables to build (default 50)")
    args = parser.parse_args(argv)
    if not (shutil.which("chromium") and shutil.which("chromedriver")):
        print("needs chromium and chromedriver: apt-get install chromium chromium-driver")
        return 2
    seed = args.seed if args.seed is not None else random.randrange(1 << 32)
    print(f"seed {seed}", flush=True)
    rng = random.Random(seed)
    plans = {table: plan_table(rng) for table in range(1, args.tables + 1)}
    work = Path(tempfile.mkdtemp(prefix="network-drops-"))
    env = {**os.environ, "MCR_DB_PATH": str(work / "drops.sqlite3")}
    env.pop("DATABASE_URL", None)  # the temporary SQLite file, whatever the shell says
    prepare(env, args.tables)
    log = Events()
    server = Server(env, free_port(), work / "server.log")
    chaos = Chaos(server, args.drops, random.Random(seed + 1), log)
    server.start()
    started = time.monotonic()
    try:
        server.wait_up()
        driver = browser(768, 1024)
        referee = Referee(driver, server.base, chaos, log)
        try:
            referee.log_in()
            chaos.start()
            for table in plans:
                log(f"table {table}")
                referee.enter_table(table, plans[table])
                if chaos.drops >= args.drops or chaos.error:
                    break
        finally:
            chaos.stop.set()
            if chaos.is_alive():
                chaos.join()
            driver.quit()
            (work / "events.log").write_text("\n".join(log.lines) + "\n")
        if chaos.error:
            raise chaos.error
        stored = stored_hands(env)
    except BaseException:
        print(f"server log and events kept in {work}")
        raise
    finally:
        server.kill()
    elapsed = time.monotonic() - started
    problems = compare(referee.entered, stored)
    tables = len({table for table, _number in referee.entered})
    kept = referee.kept_down + referee.kept_behind
    print(
        f"drops {chaos.drops} ({chaos.after_save} just after a Save tap),"
        f" server down {chaos.downtime:.0f} s in all"
    )
    print(f"hands entered {len(referee.entered)} at {tables} tables, stored {len(stored)}")
    print(
        f"lost {len(problems['lost'])}, duplicated {len(problems['duplicated'])},"
        f" wrong {len(problems['wrong'])}, asked again {len(referee.asked_again)}"
    )
    print(
        f"saves {referee.saves}: the sheet loaded after {referee.sent}, kept on the tablet"
        f" {kept} ({referee.kept_down} with the server unreachable, {referee.kept_behind}"
        f" behind kept ones)"
    )
    print(
        f"page loads failed {referee.failed_loads} ({referee.noscript} without their script),"
        f" entries refused {len(referee.refused)}, forms entered again {referee.retyped}"
    )
    for name, rows in (*problems.items(), ("refused", referee.refused)):
        for row in rows:
            print(f"  {name}: table {row[0]} hand {row[1]}: {row[2]}")
    for table, number in referee.asked_again:
        print(f"  asked again: table {table} hand {number}")
    if chaos.drops < args.drops:
        print(f"  only {chaos.drops} drops before the tables ran out: raise --tables")
    print(f"run time {elapsed // 60:.0f} min {elapsed % 60:.0f} s")
    good = not any(problems.values()) and not referee.asked_again and chaos.drops >= args.drops
    if good and not (referee.refused or referee.retyped):
        shutil.rmtree(work)
    else:
        print(f"server log and events kept in {work}")
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
