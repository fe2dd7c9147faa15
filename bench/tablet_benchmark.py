"""A referee's 16 hands on a tablet, counted: taps, keystrokes, scrolls, round trips, server time.

    .venv/bin/python bench/tablet_benchmark.py [--size 768x1024] [--size 1024x768]

(``make bench-tablet``.) Needs Debian's ``chromium`` and ``chromedriver``. Builds a fresh
tournament in a temporary SQLite database (16 players, session 1 open, every table given to
a referee), serves it with ``manage.py runserver`` on a free port, and drives headless
Chromium at each window size through all 16 hands of table 1, the way a referee taps:

- a plain discard win (winner, discarder — which chooses the result —, fan quick pick,
  Save), a self-drawn win with flowers (the stepper), a win with a typed fan, and draws
  ("Save as a draw");
- a tap is a click on something already on screen; when the target is off screen, the page
  is scrolled to it first and that counts as one scroll;
- keystrokes are characters typed; a round trip is a page request the referee waits for.

Prints one line per size with the counts for the table, the taps for the plain discard win,
the time of the page after each save (the browser's navigation timing: request sent to first
byte received), and the time of the save itself: 16 POSTs to another table over loopback,
timed until their redirect answer, with the referee's session. p50 and p95 each. Not part
of ``make test``.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from urllib.request import urlopen

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from hall import chromium  # noqa: E402

# Hand number -> what the referee enters. Every fourth hand is a draw.
PLAIN_DISCARD = {"outcome": "discard", "winner": "1", "discarder": "2", "pick": "8"}
PLAN = {
    n: (
        {"outcome": "draw"}
        if n % 4 == 0
        else PLAIN_DISCARD
        if n % 4 == 1
        else {"outcome": "self_drawn", "winner": str(n % 4), "pick": "16", "flowers": 2}
        if n % 4 == 2
        else {"outcome": "discard", "winner": "0", "discarder": "3", "typed_fan": "11"}
    )
    for n in range(1, 17)
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def prepare(env: dict) -> None:
    """Migrate a fresh database and build the tournament through the services."""
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    script = (
        "from django.contrib.auth.models import User\n"
        "from tournament import services\n"
        "organiser = User.objects.create_user('organiser', password='bench-organiser')\n"
        "referee = User.objects.create_user('referee', password='bench-referee')\n"
        "t = services.tournament_create(name='Bench', slug='bench', session_count=4,\n"
        "    session_minutes=150, seating_method='lot', creator=organiser, referees=[referee])\n"
        "for n in range(1, 17):\n"
        "    services.player_save(tournament=t, number=n, name=f'Player {n}')\n"
        "s = services.session_open(session=services.session_draw(tournament=t, number=1,\n"
        "    seed=1))\n"
        "services.tables_assign(session=s, referee=referee, tables=[1, 2, 3, 4])\n"
    )
    subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", script],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )


class Referee:
    """Counts what the referee does while driving the page."""

    def __init__(self, driver):
        self.driver = driver
        self.taps = self.keys = self.scrolls = self.trips = 0

    def _on_screen(self, element) -> bool:
        return self.driver.execute_script(
            "var r = arguments[0].getBoundingClientRect();"
            "return r.top >= 0 && r.bottom <= window.innerHeight;",
            element,
        )

    def tap(self, css: str) -> None:
        from selenium.webdriver.common.by import By

        element = self.driver.find_element(By.CSS_SELECTOR, css)
        if not self._on_screen(element):
            self.scrolls += 1
            self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", element)
        element.click()
        self.taps += 1

    def type(self, css: str, text: str) -> None:
        from selenium.webdriver.common.by import By

        self.tap(css)
        element = self.driver.find_element(By.CSS_SELECTOR, css)
        element.clear()
        element.send_keys(text)
        self.keys += len(text)

    def save(self, css: str = "#hand-entry button.primary") -> float:
        """Tap Save (or another saving button) and wait for the next page; the server's time
        for it, in ms."""
        from selenium.common.exceptions import WebDriverException
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.wait import WebDriverWait

        old = self.driver.find_element(By.TAG_NAME, "html")
        self.tap(css)

        def gone(_driver) -> bool:
            try:
                old.is_enabled()
            except WebDriverException:
                return True
            return False

        wait = WebDriverWait(self.driver, 30, ignored_exceptions=(WebDriverException,))
        wait.until(gone)
        wait.until(lambda d: d.execute_script("return document.readyState") == "complete")
        self.trips += 1
        # The POST answered with a redirect: the redirect's own timing is not exposed, so
        # the page's request-to-first-byte stands for the save and the sheet it leads to.
        return self.driver.execute_script(
            "var t = performance.getEntriesByType('navigation')[0];"
            "return t.responseStart - t.requestStart;"
        )


def enter_table(driver, base: str) -> tuple[Referee, int, list[float]]:
    from selenium.webdriver.common.by import By

    referee = Referee(driver)
    driver.get(base + "/accounts/login/")
    driver.find_element(By.NAME, "username").send_keys("referee")
    driver.find_element(By.NAME, "password").send_keys("bench-referee")
    driver.find_element(By.CSS_SELECTOR, "main form [type=submit]").click()
    time.sleep(0.5)
    driver.get(base + "/t/bench/sessions/1/tables/1/#entry")
    plain_taps = 0
    saves = []
    for number in range(1, 17):
        before = referee.taps
        entry = PLAN[number]
        if entry["outcome"] == "draw":  # one button says "a draw" and saves
            saves.append(referee.save("#hand-entry [data-save-draw]"))
            continue
        if "discarder" not in entry:  # tapping the discarder chooses a win on a discard
            outcome = entry["outcome"]
            referee.tap(f'#hand-entry label:has(input[name="outcome"][value="{outcome}"])')
        if "winner" in entry:
            referee.tap(f'#hand-entry label:has(input[name="winner"][value="{entry["winner"]}"])')
        if "discarder" in entry:
            value = entry["discarder"]
            referee.tap(f'#hand-entry label:has(input[name="discarder"][value="{value}"])')
        if "pick" in entry:
            referee.tap(f'#hand-entry [data-fan="{entry["pick"]}"]')
        if "typed_fan" in entry:
            referee.type('#hand-entry input[name="fan"]', entry["typed_fan"])
        for _ in range(entry.get("flowers", 0)):
            referee.tap('#hand-entry [data-step="1"]')
        saves.append(referee.save())
        if entry is PLAIN_DISCARD and number == 1:
            plain_taps = referee.taps - before
    return referee, plain_taps, saves


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def time_saves(base: str, cookies: dict[str, str], table: int = 2) -> list[float]:
    """Milliseconds of each of the 16 saves of another table, the POST alone (its answer is
    the redirect; the sheet that follows is not counted), over loopback."""
    opener = urllib.request.build_opener(_NoRedirect)
    cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
    url = f"{base}/t/bench/sessions/1/tables/{table}/"
    timings = []
    for _number in range(1, 17):
        page = opener.open(urllib.request.Request(url, headers={"Cookie": cookie})).read()
        html = page.decode()
        fields = dict(
            re.findall(
                r'name="(csrfmiddlewaretoken|submission_key|number)"'
                r'[^>]*?value="([^"]*)"',
                html,
            )
        )
        fields.update(
            {
                "outcome": "discard",
                "winner": "1",
                "discarder": "2",
                "fan": "8",
                "flowers": "0",
                "penalty-TOTAL_FORMS": "0",
                "penalty-INITIAL_FORMS": "0",
                "penalty-MIN_NUM_FORMS": "0",
                "penalty-MAX_NUM_FORMS": "8",
            }
        )
        request = urllib.request.Request(
            url,
            data=urllib.parse.urlencode(fields).encode(),
            headers={"Cookie": cookie, "Referer": url},
        )
        started = time.perf_counter()
        try:
            opener.open(request)
        except urllib.error.HTTPError as answer:
            if answer.code != 302:
                raise
        timings.append((time.perf_counter() - started) * 1000)
    return timings


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", action="append", help="WIDTHxHEIGHT (default: both tablets)")
    args = parser.parse_args(argv)
    sizes = args.size or ["768x1024", "1024x768"]
    if not (shutil.which("chromium") and shutil.which("chromedriver")):
        print("needs chromium and chromedriver: apt-get install chromium chromium-driver")
        return 2
    print(
        " size       taps  keys  scrolls  trips  plain-win-taps  page-p50-ms  page-p95-ms"
        "  post-p50-ms  post-p95-ms"
    )
    for size in sizes:
        width, height = (int(x) for x in size.split("x"))
        with tempfile.TemporaryDirectory() as tmp:
            env = {**os.environ, "MCR_DB_PATH": str(Path(tmp) / "bench.sqlite3")}
            prepare(env)
            port = free_port()
            server = subprocess.Popen(
                [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
                cwd=ROOT,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            try:
                base = f"http://127.0.0.1:{port}"
                for _ in range(100):
                    try:
                        urlopen(base + "/", timeout=1)
                        break
                    except OSError:
                        time.sleep(0.1)
                driver = chromium(width, height)
                try:
                    referee, plain, saves = enter_table(driver, base)
                    cookies = {c["name"]: c["value"] for c in driver.get_cookies()}
                    posts = time_saves(base, cookies)
                finally:
                    driver.quit()
            finally:
                server.terminate()
                server.wait()
        p95 = statistics.quantiles(saves, n=20)[-1]
        post_p95 = statistics.quantiles(posts, n=20)[-1]
        print(
            f"{size:>9}  {referee.taps:5}  {referee.keys:4}  {referee.scrolls:7}"
            f"  {referee.trips:5}  {plain:14}  {statistics.median(saves):11.1f}  {p95:11.1f}"
            f"  {statistics.median(posts):12.1f}  {post_p95:12.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
