"""A rehearsal of a small event, run through the real pages in headless Chromium.

    .venv/bin/python bench/rehearsal.py [--database postgresql|sqlite] [--screenshots DIR]

Needs Debian's ``chromium`` and ``chromedriver``. Serves a fresh database with ``make serve``
(gunicorn, DEBUG off): by default a PostgreSQL database of its own on the server that
``--postgres`` names (``postgres://postgres@127.0.0.1:5432/test``), made and dropped here;
with ``--database sqlite`` a SQLite file. The accounts are made as docs/deploy.md says (an
organiser with the *add tournament* permission, two referees); everything else is done in
the browser, at tablet size (768×1024), as the organiser and the referees would:

1. The organiser logs in, creates a tournament of 3 sessions with *New tournament*, imports
   16 players from a CSV file (preview, then confirm) and ticks the two referees in
   *Settings*.
2. Each session: *Draw*, *Referees* (tables 3 and 4, one referee each; later draws keep
   them), *Table cards* (each table's device link and seats), *Open for play*. Tables 1–2 are
   entered by tablets signed in with their links (a fresh browser each), tables 3–4 by the
   referees logged in: 16 hands each through the sheet's form (winner and discarder tiles,
   fan quick picks or the typed fan, the flower stepper, *Save as a draw*), one penalty in
   the event, one hand corrected through its link on the sheet; the tablet's badge must say
   *All saved*, then *Review and confirm*. In session 2 the organiser reopens a confirmed
   table with a reason, its referee corrects a hand and confirms it again. Then *Close
   session*.
3. The scores on the standings page, in the downloaded standings.xlsx and computed here from
   the hands entered (a discard win: 8 + fan from the discarder, 8 from each other player;
   self-drawn: 8 + fan from each of the three; flowers count as fan; a draw 0; penalties as
   entered) must agree for every player. The *Activity* page must list the reopening and
   the corrections. ``manage.py backup`` of the running event, ``manage.py restore`` into a
   second fresh database, served: its standings page must show the same table.

Prints each step as it goes, then the report: hands entered, timings (the whole run; page
loads, tap to page shown, median and p95), what was noticed on the way (a page wider than
the tablet, the browser's console errors) and every check. Exits 1 when a check fails.
``--screenshots`` keeps a picture of each kind of page, the first time it is shown. Not part
of ``make test``.
"""

from __future__ import annotations

import argparse
import base64
import csv
import dataclasses
import gzip
import io
import os
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from hall import EventDatabase, Server, chromium, percentile  # noqa: E402

POSTGRES = "postgres://postgres@127.0.0.1:5432/test"
WIDTH, HEIGHT = 768, 1024
NAME, SLUG = "Harbour Rehearsal", "harbour-rehearsal"
SESSIONS = 3
ORGANISER = ("organiser", "rehearsal-organiser-2026")
# The tables the referees keep at every session; the others are entered by their tablets.
REFEREES = {3: ("referee-ana", "rehearsal-ana-2026"), 4: ("referee-ben", "rehearsal-ben-2026")}
TABLET_TABLES = (1, 2)
PLAYERS = [
    (1, "Zhang Wei", "张伟", "Harbour", "CHN"),
    (2, "Anna Berg", "", "Harbour", "SWE"),
    (3, "Li Na", "李娜", "Lantern", "CHN"),
    (4, "Marc Roux", "", "Lantern", "FRA"),
    (5, "Wang Fang", "王芳", "Bamboo", "CHN"),
    (6, "Jonas Falk", "", "Bamboo", "GER"),
    (7, "Liu Yang", "刘洋", "Harbour", "CHN"),
    (8, "Claire Dupont", "", "Lantern", "FRA"),
    (9, "Chen Jing", "陈静", "Bamboo", "CHN"),
    (10, "Lena Voss", "", "Harbour", "GER"),
    (11, "Yang Lei", "杨磊", "Lantern", "CHN"),
    (12, "Hugo Blanc", "", "Bamboo", "FRA"),
    (13, "Zhao Min", "赵敏", "Harbour", "CHN"),
    (14, "Tim Kraus", "", "Lantern", "GER"),
    (15, "Huang Yong", "黄勇", "Bamboo", "CHN"),
    (16, "Julie Petit", "", "Harbour", "FRA"),
]
FAN_PICKS = (8, 9, 10, 12, 16, 24, 32, 48, 64, 88)
# (session, table, hand): the event's one penalty, a false win (10 to each other player) by
# P2 in a hand that ends in a draw.
PENALTY_AT = (1, 3, 6)
# (session, table, hand, after): the hand a tablet corrects through its link on the sheet,
# once hand ``after`` is entered.
CORRECTED_AT = (1, 2, 3, 9)
# (session, table, hand): the table the organiser reopens once confirmed, the hand corrected.
REOPENED_AT = (2, 3, 10)
REOPEN_REASON = "Hand 10: the players agree the fan was different; corrected with them."


@dataclasses.dataclass(frozen=True)
class Hand:
    """What a referee enters for one hand; seats are 0–3 (P1–P4)."""

    outcome: str  # "discard", "self_drawn" or "draw"
    winner: int | None = None
    discarder: int | None = None
    fan: int | None = None
    typed: bool = False  # the fan typed in its field, not picked
    flowers: int = 0
    penalty: tuple[int, int] | None = None  # (offender, points to each other player)

    def points(self) -> list[int]:
        """Each seat's points for the hand, by the rules' settlement."""
        points = [0, 0, 0, 0]
        if self.outcome != "draw":
            total = self.fan + self.flowers
            for seat in range(4):
                if seat == self.winner:
                    continue
                pays = 8 + total if self.outcome == "self_drawn" or seat == self.discarder else 8
                points[seat] -= pays
                points[self.winner] += pays
        if self.penalty:
            offender, each = self.penalty
            for seat in range(4):
                points[seat] += -3 * each if seat == offender else each
        return points

    def corrected(self) -> Hand:
        """The same hand with another fan, as found when the players check it."""
        fan = next(pick for pick in (16, 24, 12) if pick != self.fan)
        return dataclasses.replace(self, fan=fan, typed=False)


def plan_table(session: int, table: int) -> dict[int, Hand]:
    """The 16 hands of one table: wins on a discard and self-drawn (fans picked or typed,
    flowers), two draws; the same every run."""
    rng = random.Random(f"{session}/{table}")
    draws = set(rng.sample(range(4, 17), 2))
    plan = {}
    for number in range(1, 17):
        winner = rng.randrange(4)
        typed = rng.random() < 0.25
        fan = rng.randint(8, 30) if typed else rng.choice(FAN_PICKS[:7])
        if (session, table, number) == PENALTY_AT:
            plan[number] = Hand("draw", penalty=(1, 10))
        elif number in draws and (session, table, number) not in (CORRECTED_AT[:3], REOPENED_AT):
            plan[number] = Hand("draw")
        elif number == 2 or rng.random() < 0.35:
            flowers = rng.randint(1, 3) if number == 2 else rng.randint(0, 3)
            plan[number] = Hand("self_drawn", winner, None, fan, typed, flowers)
        else:
            discarder = rng.choice([seat for seat in range(4) if seat != winner])
            plan[number] = Hand("discard", winner, discarder, fan, typed, rng.randint(0, 1))
    return plan


class PageProblem(RuntimeError):
    """A page answered with an error, or did not show what it should have."""


# The page's own timing of its load: from the tap (or the address typed) to the load event,
# redirects included; and its status.
TIMING_JS = """
var t = performance.getEntriesByType('navigation')[0];
if (!t || !t.loadEventEnd) return null;
return [t.loadEventEnd - t.startTime, t.responseStatus || 0];
"""
# A page wider than the tablet: the page's width and its widest outermost elements.
OVERFLOW_JS = """
var w = window.innerWidth;
if (document.documentElement.scrollWidth <= w + 1) return null;
var wide = [];
document.querySelectorAll('body *').forEach(function (e) {
  var r = e.getBoundingClientRect();
  if (r.width > 0 && r.right > w + 1) wide.push(e);
});
var outer = wide.filter(function (e) {
  return !wide.some(function (o) { return o !== e && o.contains(e); });
});
return [document.documentElement.scrollWidth, outer.slice(0, 3).map(function (e) {
  var name = e.tagName.toLowerCase() + (e.id ? '#' + e.id : '');
  if (typeof e.className === 'string' && e.className.trim()) {
    name += '.' + e.className.trim().split(/\\s+/).join('.');
  }
  return name + ' (right edge ' + Math.round(e.getBoundingClientRect().right) + ')';
}).join(', ')];
"""

# Tables wider than their box at this size: the reader scrolls them sideways.
SIDEWAYS_JS = """
var out = [];
document.querySelectorAll('.table-wrap').forEach(function (w) {
  if (w.scrollWidth <= w.clientWidth + 1) return;
  var t = w.querySelector('table');
  var name = t && t.className ? 'table.' + t.className.trim().split(/\\s+/).join('.') : 'table';
  out.push(name + ' (' + w.scrollWidth + ' px in ' + w.clientWidth + ')');
});
return out.join(', ');
"""


class Rehearsal:
    """What happened: the steps, the page timings, what was noticed, the checks."""

    def __init__(self):
        self.started = time.monotonic()
        self.steps: list[str] = []
        self.loads: list[float] = []
        self.saves: list[float] = []
        self.noticed: dict[str, str] = {}
        self.checks: list[tuple[str, bool, str]] = []
        self.hands_entered = 0
        self.corrections = 0
        self.kept_on_tablet = 0
        self.standings: dict[int, list[str]] = {}
        self.screenshots: Path | None = None
        self.shot: set[str] = set()

    def step(self, text: str) -> None:
        elapsed = time.monotonic() - self.started
        line = f"{elapsed // 60:3.0f}:{elapsed % 60:04.1f}  {text}"
        self.steps.append(text)
        print(line, flush=True)

    def check(self, name: str, ok: bool, detail: str = "") -> bool:
        self.checks.append((name, bool(ok), detail))
        if not ok:
            print(f"        FAILED: {name}{': ' + detail if detail else ''}", flush=True)
        return bool(ok)

    def notice(self, key: str, text: str) -> None:
        if key not in self.noticed:
            self.noticed[key] = text
            print(f"        noticed: {text}", flush=True)


class Browser:
    """One person's browser (or one table's tablet) at tablet size."""

    def __init__(self, who: str, base: str, run: Rehearsal):
        self.who, self.base, self.run = who, base, run
        self.driver = chromium(WIDTH, HEIGHT, console_log=True)
        self.driver.set_page_load_timeout(60)

    def quit(self) -> None:
        self.console()
        self.driver.quit()

    def console(self) -> None:
        """The page's console errors so far, as noticed."""
        for entry in self.driver.get_log("browser"):
            if entry.get("level") == "SEVERE":
                message = re.sub(r"https?://127\.0\.0\.1:\d+", "", entry["message"])
                self.run.notice(f"console {message}", f"{self.who}'s browser console: {message}")

    # Finding things on the page.
    def js(self, script: str, *args):
        return self.driver.execute_script(script, *args)

    def find(self, css: str):
        from selenium.webdriver.common.by import By

        return self.driver.find_element(By.CSS_SELECTOR, css)

    def finds(self, css: str) -> list:
        from selenium.webdriver.common.by import By

        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def xpath(self, path: str):
        from selenium.webdriver.common.by import By

        return self.driver.find_element(By.XPATH, path)

    def text(self, css: str) -> str:
        found = self.finds(css)
        return found[0].text.strip() if found else ""

    def messages(self) -> list[str]:
        return [m.text.strip() for m in self.finds(".message") if m.text.strip()]

    @property
    def path(self) -> str:
        return self.driver.current_url.removeprefix(self.base)

    # Moving between pages.
    def open(self, address: str) -> None:
        self.driver.get(self.base + address if address.startswith("/") else address)
        self.arrived()

    def tap(self, target) -> None:
        """Tap something on the page (scrolled into view first, as a finger would)."""
        element = self.find(target) if isinstance(target, str) else target
        self.js("arguments[0].scrollIntoView({block: 'center'});", element)
        element.click()

    def tap_through(self, target) -> None:
        """Tap a link or a button that leads to another page, and wait for that page."""
        from selenium.common.exceptions import WebDriverException
        from selenium.webdriver.support.wait import WebDriverWait

        old = self.find("html")
        self.tap(target)

        def gone(_driver) -> bool:
            try:
                old.is_enabled()
            except WebDriverException:
                return True
            return False

        WebDriverWait(self.driver, 60).until(gone)
        self.arrived()

    def link(self, text: str, within: str = "") -> object:
        return self.xpath(f"{within}//a[normalize-space()='{text}']")

    def button(self, text: str, within: str = "") -> object:
        return self.xpath(f"{within}//button[normalize-space()='{text}']")

    def arrived(self) -> float:
        """Wait for the page to be loaded; keep its timing; refuse an error page; notice a
        page wider than the tablet."""
        from selenium.webdriver.support.wait import WebDriverWait

        timing = WebDriverWait(self.driver, 60, poll_frequency=0.05).until(
            lambda _driver: self.js(TIMING_JS)
        )
        milliseconds, status = timing
        self.run.loads.append(milliseconds)
        if status >= 400:
            heading = self.text("h1")
            raise PageProblem(f"{self.path} answered {status}: {heading!r}")
        kind = re.sub(r"\d+", "N", self.path.split("?")[0].split("#")[0])
        self.snapshot(kind)
        overflow = self.js(OVERFLOW_JS)
        if overflow:
            self.run.notice(
                f"wide {kind}",
                f"{kind} is {overflow[0]} px wide on a {WIDTH} px tablet ({self.who}): "
                f"{overflow[1]}",
            )
        sideways = self.js(SIDEWAYS_JS)
        if sideways:
            self.run.notice(
                f"sideways {kind}", f"{kind}: a table scrolls sideways ({self.who}): {sideways}"
            )
        return milliseconds

    def snapshot(self, kind: str) -> None:
        """With ``--screenshots``: the whole page, the first time a kind of page is shown."""
        if self.run.screenshots is None or kind in self.run.shot:
            return
        self.run.shot.add(kind)
        size = self.driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
        clip = {"x": 0, "y": 0, "width": size["width"], "height": min(size["height"], 8000)}
        shot = self.driver.execute_cdp_cmd(
            "Page.captureScreenshot",
            {"format": "png", "captureBeyondViewport": True, "clip": {**clip, "scale": 1}},
        )
        name = re.sub(r"[^a-z0-9]+", "-", kind.lower()).strip("-") or "home"
        path = self.run.screenshots / f"{len(self.run.shot):02d}-{name}.png"
        path.write_bytes(base64.b64decode(shot["data"]))

    def log_in(self, username: str, password: str) -> None:
        self.open("/accounts/login/")
        self.find("#id_username").send_keys(username)
        self.find("#id_password").send_keys(password)
        self.tap_through("form.stack button.primary")
        if self.path.startswith("/accounts/login/"):
            raise PageProblem(f"{username} could not log in: {self.text('.errorlist')!r}")


def write_players(folder: Path) -> Path:
    path = folder / "players.csv"
    with open(path, "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["number", "name", "name_zh", "team", "country", "substitute"])
        for number, name, name_zh, team, country in PLAYERS:
            writer.writerow([number, name, name_zh, team, country, "no"])
    return path


def make_accounts(database: EventDatabase) -> None:
    """As docs/deploy.md says: the organiser with the add-tournament permission, referees."""
    referees = "".join(
        f"User.objects.create_user({name!r}, password={password!r})\n"
        for name, password in REFEREES.values()
    )
    database.manage(
        "shell",
        "-c",
        "from django.contrib.auth.models import Permission, User\n"
        f"organiser = User.objects.create_user({ORGANISER[0]!r}, password={ORGANISER[1]!r})\n"
        "organiser.user_permissions.add(Permission.objects.get(\n"
        "    content_type__app_label='tournament', codename='add_tournament'))\n" + referees,
    )


# ---------------------------------------------------------------- the organiser


def set_up_tournament(org: Browser, run: Rehearsal, players_csv: Path) -> None:
    org.log_in(*ORGANISER)
    run.step("organiser logged in")
    org.open("/")
    org.tap_through(org.link("New tournament"))
    org.find("#id_name").send_keys(NAME)
    org.find("#id_slug").send_keys(SLUG)
    count = org.find("#id_session_count")
    count.clear()
    count.send_keys(str(SESSIONS))
    minutes = org.find("#id_session_minutes")
    if not minutes.get_attribute("value"):
        minutes.send_keys("150")
    org.tap_through(org.button("Save"))
    run.check(
        "New tournament: created, on to its players",
        org.path == f"/t/{SLUG}/players/" and any("created" in m for m in org.messages()),
        f"{org.path} {org.messages()}",
    )
    run.step(f"tournament {NAME!r} created with {SESSIONS} sessions")

    org.tap_through(org.link("Import a list"))
    org.find("input[type=file][name=file]").send_keys(str(players_csv))
    org.tap_through(org.button("Preview"))
    rows = org.finds("table.import-rows tbody tr.import-new")
    badges = org.text(".import-preview p")
    run.check(
        "import preview: 16 new rows, nothing saved yet",
        len(rows) == 16 and "16 new" in badges,
        f"{len(rows)} new rows; {badges!r}",
    )
    org.tap_through(org.button("Import these players"))
    active = org.text(".active-count")
    run.check(
        "import confirmed: 16 active players",
        active == "16",
        f"active {active!r}, {org.messages()}",
    )
    run.step(f"16 players imported from {players_csv.name} (preview, then confirm)")

    org.tap_through(org.link(NAME, "//nav"))
    org.tap_through(org.link("Settings"))
    for name, _password in REFEREES.values():
        box = org.xpath(
            f"//input[@name='referees']/ancestor::label[contains(normalize-space(), '{name}')]"
            "//input"
        )
        if not box.is_selected():
            org.tap(box)
    org.tap_through(org.button("Save"))
    run.check(
        "Settings: the referees saved",
        org.path == f"/t/{SLUG}/" and any("saved" in m for m in org.messages()),
        f"{org.path} {org.messages()}",
    )
    run.step("referees " + ", ".join(n for n, _p in REFEREES.values()) + " given the tournament")


def session_row(number: int) -> str:
    return f"//tr[td/a[normalize-space()='Session {number}']]"


def draw_session(org: Browser, run: Rehearsal, number: int) -> dict[int, dict]:
    """Draw, referees, table cards, open for play: each table's seats and device link."""
    from selenium.webdriver.support.select import Select

    org.open(f"/t/{SLUG}/")
    Select(org.find("#id_number")).select_by_value(str(number))
    org.tap_through(org.button("Draw"))
    drawn = [m for m in org.messages() if "drawn with seed" in m]
    run.check(
        f"session {number}: drawn, seating shown",
        bool(drawn) and org.path == f"/t/{SLUG}/seating/{number}/",
        f"{org.path} {org.messages()}",
    )
    run.step(f"session {number} drawn ({drawn[0] if drawn else 'no message'})")

    org.tap_through(org.link("Referees", "//main"))
    if number == 1:
        for table, (name, _password) in REFEREES.items():
            Select(org.find("#id_referee")).select_by_visible_text(name)
            field = org.find("#id_tables")
            field.clear()
            field.send_keys(str(table))
            org.tap_through(org.button("Assign"))
    given = {table: org.text(f"tr#table-{table}") for table in REFEREES}
    run.check(
        f"session {number}: tables 3 and 4 have their referees"
        + (" (kept from the draw before)" if number > 1 else ""),
        all(name in given[table] for table, (name, _p) in REFEREES.items()),
        repr(given),
    )

    org.open(f"/t/{SLUG}/")
    org.tap_through(org.link("Table cards", session_row(number)))
    tables = {}
    for card in org.finds("section.table-card"):
        table = int(card.get_attribute("id").removeprefix("table-"))
        seats = [
            int(cell.text.split()[0])
            for cell in card.find_elements(
                "css selector", "table:first-of-type tbody td:nth-child(2)"
            )
        ]
        links = card.find_elements("css selector", "a[data-device-link]")
        tables[table] = {
            "seats": seats,
            "link": links[0].get_attribute("href") if links else None,
        }
    run.check(
        f"session {number}: 4 table cards, each with 4 players and a device link",
        sorted(tables) == [1, 2, 3, 4]
        and all(len(t["seats"]) == 4 and t["link"] for t in tables.values()),
        repr({t: (v["seats"], bool(v["link"])) for t, v in tables.items()}),
    )
    seated = sorted(p for t in tables.values() for p in t["seats"])
    run.check(f"session {number}: every player seated once", seated == list(range(1, 17)))

    org.open(f"/t/{SLUG}/")
    org.tap_through(org.button("Open for play", session_row(number)))
    run.check(
        f"session {number}: open for play",
        any("open for play" in m for m in org.messages())
        and "in play" in org.xpath(session_row(number)).text,
        f"{org.messages()}",
    )
    run.step(f"session {number}: table cards read, session open for play")
    return tables


def close_session(org: Browser, run: Rehearsal, number: int) -> None:
    org.open(f"/t/{SLUG}/")
    org.tap_through(org.button("Close session", session_row(number)))
    row = org.xpath(session_row(number)).text
    run.check(
        f"session {number}: closed, 4 / 4 tables confirmed",
        "closed" in row and "4 / 4" in row and any("closed" in m for m in org.messages()),
        f"{row!r} {org.messages()}",
    )
    run.step(f"session {number} closed")


def closed_sheets(org: Browser, run: Rehearsal, session: int) -> None:
    """After closing: the pages that lead an organiser to a table's sheet (where a confirmed
    table is reopened) still do for this session's tables."""
    pattern = re.compile(rf"/t/{SLUG}/sessions/{session}/tables/\d+/$")
    found = []
    for address in (
        f"/t/{SLUG}/",
        f"/t/{SLUG}/seating/{session}/",
        f"/t/{SLUG}/sessions/{session}/referees/",
        f"/t/{SLUG}/referee/",
    ):
        org.open(address)
        hrefs = [a.get_attribute("href") or "" for a in org.finds("main a[href]")]
        found += [h for h in hrefs if pattern.search(h)]
    if not found:
        org.open(f"/t/{SLUG}/sessions/{session}/tables/1/")
        offered = bool(org.finds(f'a[href="/t/{SLUG}/sessions/{session}/tables/1/reopen/"]'))
        run.notice(
            "closed sheets",
            f"once session {session} is closed no page links to its tables' sheets (tournament,"
            " seating, Referees, Referee pages): the sheet, where a confirmed table is reopened,"
            " is reached only by typing its address"
            + (" (typed, it does offer Reopen for correction)" if offered else ""),
        )


def reopen_table(org: Browser, run: Rehearsal, session: int, table: int) -> None:
    """The organiser reopens a confirmed table from its sheet, with a reason."""
    org.open(f"/t/{SLUG}/")
    org.tap_through(org.link("Referee", "//nav"))
    org.tap_through(f'a.button[href="/t/{SLUG}/sessions/{session}/tables/{table}/"]')
    org.tap_through(org.link("Reopen for correction"))
    org.find("#id_reason").send_keys(REOPEN_REASON)
    org.tap_through(org.button("Reopen"))
    run.check(
        f"session {session} table {table}: reopened, its sheet editable again",
        not org.finds("h1 .badge.ok") and bool(org.finds("#hand-entry, #entry")),
        f"{org.path} {org.messages()}",
    )
    run.check(
        "the reopening's reason is shown on the sheet",
        REOPEN_REASON in org.text("#confirm"),
        org.text("#confirm")[:300],
    )
    run.step(f"organiser reopened session {session} table {table}: {REOPEN_REASON!r}")


# ---------------------------------------------------------------- a table's hands

SAVED_JS = """
var state = document.querySelector('[data-sync-state]');
if (!state) return null;
return [state.getAttribute('data-sync-state'), state.textContent.trim(), !state.hidden];
"""


def enter_hand(page: Browser, run: Rehearsal, number: int, hand: Hand) -> None:
    """Fill the sheet's form for one hand as a referee taps, and save it."""
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.support.wait import WebDriverWait

    heading = page.text(".hand-header h2")
    shown = page.find('#hand-entry [name="number"]').get_attribute("value")
    if heading != f"Enter hand {number}" or shown != str(number):
        raise PageProblem(f"{page.path}: the form asks for {heading!r} ({shown}), not {number}")
    label = '#hand-entry label:has(input[name="{}"][value="{}"])'
    if hand.penalty:
        offender, _each = hand.penalty
        page.tap("#penalties > summary")
        page.tap(label.format("penalty-0-offender", offender))
        page.tap('#penalty-0 [data-preset-kind="to_each_other"][data-preset-points="10"]')
    if hand.outcome == "self_drawn":
        page.tap(label.format("outcome", "self_drawn"))
    if hand.winner is not None:
        page.tap(label.format("winner", hand.winner))
    if hand.discarder is not None:  # tapping the discarder chooses a win on a discard
        page.tap(label.format("discarder", hand.discarder))
    if hand.fan is not None and hand.typed:
        field = page.find('#hand-entry [name="fan"]')
        page.tap(field)
        field.clear()
        field.send_keys(str(hand.fan))
    elif hand.fan is not None:
        page.tap(f'#hand-entry [data-fan="{hand.fan}"]')
    for _ in range(hand.flowers):
        page.tap('#hand-entry [data-step="1"]')
    if hand.penalty:
        page.snapshot("the sheet's form filled, with a penalty")
    elif hand.flowers:
        page.snapshot("the sheet's form filled, with flowers")
    button = "#hand-entry [data-save-draw]" if hand.outcome == "draw" else "#hand-entry .primary"
    old = page.find("html")
    started = time.perf_counter()
    page.tap(button)

    def next_form(_driver):
        try:
            old.is_enabled()
        except WebDriverException:
            return "page"
        state = page.js(SAVED_JS)
        return "kept" if state and state[0] != "saved" else None

    how = WebDriverWait(page.driver, 60, poll_frequency=0.05).until(next_form)
    run.hands_entered += 1
    if how == "kept":
        run.kept_on_tablet += 1
        run.notice(f"kept {page.who}", f"{page.who}: a hand was kept on the tablet, not sent")
        return
    page.arrived()
    run.saves.append((time.perf_counter() - started) * 1000)
    said = page.text(".hand-header .saved") or " ".join(page.messages())
    if f"Hand {number} saved." not in said:
        run.check(f"{page.who}: hand {number} saved", False, f"the page says {said!r}")


def correct_hand(page: Browser, run: Rehearsal, number: int, hand: Hand) -> None:
    """Tap the hand's number on the sheet, change its fan, save the correction."""
    page.tap_through(f"#hand-{number} a.hand-link")
    heading = page.text(".hand-header h2")
    if heading != f"Correct hand {number}":
        raise PageProblem(f"{page.path}: the hand link opened {heading!r}")
    page.tap(f'#hand-entry [data-fan="{hand.fan}"]')
    page.tap_through(page.button("Save correction"))
    said = " ".join(page.messages())
    run.corrections += 1
    run.check(
        f"{page.who}: hand {number} corrected through its link",
        f"Hand {number} corrected." in said and page.path.startswith("/t/"),
        repr(said),
    )


def wait_all_saved(page: Browser, run: Rehearsal, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    state = None
    while time.monotonic() < deadline:
        state = page.js(SAVED_JS)
        if state and state[0] == "saved" and state[1] == "All saved" and state[2]:
            break
        time.sleep(0.25)
    run.check(
        f"{page.who}: the sync badge says All saved",
        state is not None
        and state[1:]
        == [
            "All saved",
            True,
        ],
        repr(state),
    )


def confirm_table(page: Browser, run: Rehearsal, session: int, table: int) -> None:
    page.tap_through(page.link("Review and confirm"))
    missing = page.text("#missing")
    run.check(
        f"session {session} table {table}: the review lists 16 hands, none missing",
        len(page.finds("#hands ~ .table-wrap tbody tr")) == 16 and not missing,
        f"{len(page.finds('#hands ~ .table-wrap tbody tr'))} rows, {missing!r}",
    )
    page.tap_through(page.button("Confirm the scores of this table"))
    run.check(
        f"session {session} table {table}: confirmed",
        f"Table {table} confirmed." in " ".join(page.messages())
        and bool(page.finds("h1 .badge.ok")),
        f"{page.path} {page.messages()}",
    )


def check_seats(page: Browser, run: Rehearsal, seats: list[int], where: str) -> None:
    """The sheet's winner tiles name the players of the table card, in its order."""
    names = {number: name for number, name, *_rest in PLAYERS}
    tiles = [t.text for t in page.finds("#field-winner label")]
    ok = len(tiles) == 4 and all(
        tile.startswith(f"P{seat + 1} · {names[player]}")
        for seat, (tile, player) in enumerate(zip(tiles, seats, strict=False))
    )
    run.check(f"{where}: the sheet's seats are the table card's", ok, repr(tiles))


def play_table(
    page: Browser, run: Rehearsal, session: int, table: int, seats: list[int], plan: dict
) -> None:
    """All 16 hands of one table from its sheet, then review and confirm."""
    where = f"session {session} table {table}"
    check_seats(page, run, seats, where)
    for number in range(1, 17):
        enter_hand(page, run, number, plan[number])
        if CORRECTED_AT[:2] == (session, table) and number == CORRECTED_AT[3]:
            hand = CORRECTED_AT[2]
            plan[hand] = plan[hand].corrected()
            correct_hand(page, run, hand, plan[hand])
            run.step(f"{where}: hand {hand} corrected by {page.who} (fan now {plan[hand].fan})")
    done = page.text("#entry")
    run.check(f"{where}: the sheet says all 16 hands are entered", "All 16 hands" in done, done)
    wait_all_saved(page, run)
    confirm_table(page, run, session, table)
    page.console()
    run.step(f"{where}: 16 hands entered and confirmed by {page.who}")


# ---------------------------------------------------------------- reading the results


def standings_table(page: Browser) -> dict[int, dict[str, str]]:
    """Player number -> the standings page's cells, by column heading."""
    headings = [th.text.strip() for th in page.finds("table.standings thead th")]
    rows = {}
    for row in page.finds("table.standings tbody tr"):
        cells = [td.text.strip() for td in row.find_elements("css selector", "td")]
        record = dict(zip(headings, cells, strict=False))
        rows[int(record["No."])] = record
    return rows


def as_int(text: str) -> int:
    return int(text.replace("−", "-").replace("+", "").strip())


def read_workbook(page: Browser, run: Rehearsal) -> dict[int, tuple[int, str]]:
    """standings.xlsx, downloaded with the browser's login: number -> (score, table points)."""
    import openpyxl

    address = page.find("a[href$='standings.xlsx']").get_attribute("href")
    cookies = "; ".join(f"{c['name']}={c['value']}" for c in page.driver.get_cookies())
    request = urllib.request.Request(address, headers={"Cookie": cookies})
    with urllib.request.urlopen(request, timeout=60) as answer:
        body = answer.read()
        kind = answer.headers.get("Content-Type", "")
        if answer.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
    run.check("standings.xlsx downloads as a workbook", "spreadsheet" in kind, kind)
    book = openpyxl.load_workbook(io.BytesIO(body), read_only=True)
    sheet = book["Standings"]
    rows = list(sheet.iter_rows(values_only=True))
    # The header is below the block of the substitutes: the first row that starts with "Rank".
    rows = rows[next(i for i, row in enumerate(rows) if row and row[0] == "Rank") :]
    header = list(rows[0])
    number, score = header.index("Number"), header.index("Score")
    exact = header.index("Table points (exact)")
    run.check(
        "the workbook has a sheet per session",
        all(f"Session {n}" in book.sheetnames for n in range(1, SESSIONS + 1)),
        repr(book.sheetnames),
    )
    return {int(r[number]): (int(r[score]), str(r[exact])) for r in rows[1:] if r[number]}


def activity_rows(page: Browser, session: int, table: int) -> list[str]:
    """The activity log filtered by session and table, through its form: each row's text."""
    page.open(f"/t/{SLUG}/")
    page.tap_through(page.link("Activity", "//main"))
    page.find("#id_session").send_keys(str(session))
    page.find("#id_table").send_keys(str(table))
    page.tap_through(page.button("Filter"))
    rows = []
    for _page in range(10):
        rows += [r.text for r in page.finds("tr.activity-entry")]
        older = page.finds("a[rel=next]")
        if not older:
            break
        page.tap_through(older[0])
    return rows


def expected_scores(hands: dict, seats: dict) -> dict[int, int]:
    """Each player's score over the event, computed from the hands entered."""
    totals = dict.fromkeys(range(1, 17), 0)
    for (session, table), plan in hands.items():
        players = seats[(session, table)]
        for hand in plan.values():
            for seat, points in enumerate(hand.points()):
                totals[players[seat]] += points
    return totals


# ---------------------------------------------------------------- the walk


def walk(run: Rehearsal, database: EventDatabase, server: Server, folder: Path, postgres):
    base = f"http://127.0.0.1:{server.port}"
    org = Browser("organiser", base, run)
    referees: dict[int, Browser] = {}
    hands: dict[tuple[int, int], dict[int, Hand]] = {}
    seats: dict[tuple[int, int], list[int]] = {}
    try:
        set_up_tournament(org, run, write_players(folder))
        for table, (name, password) in REFEREES.items():
            referees[table] = Browser(name, base, run)
            referees[table].log_in(name, password)
        run.step("referees logged in on their tablets")

        for session in range(1, SESSIONS + 1):
            tables = draw_session(org, run, session)
            for table in range(1, 5):
                seats[(session, table)] = tables[table]["seats"]
                plan = hands[(session, table)] = plan_table(session, table)
                if table in TABLET_TABLES:
                    tablet = Browser(f"table {table}'s tablet", base, run)
                    try:
                        tablet.open(tables[table]["link"])
                        # Signed in by the link, with no account: the header names the tablet.
                        who = tablet.text(".account .who")
                        run.check(
                            f"session {session} table {table}: the device link opens the sheet",
                            tablet.path.startswith(f"/t/{SLUG}/sessions/{session}/tables/{table}/")
                            and who == f"Tablet of table {table}",
                            f"{tablet.path} ({who})",
                        )
                        play_table(tablet, run, session, table, tables[table]["seats"], plan)
                    finally:
                        tablet.quit()
                else:
                    page = referees[table]
                    page.open(f"/t/{SLUG}/")
                    page.tap_through(page.link("Referee", "//nav"))
                    mine = [a.text for a in page.finds("td.num a.button")]
                    run.check(
                        f"session {session}: {page.who}'s Referee page lists table {table} only",
                        mine == [str(table)],
                        repr(mine),
                    )
                    page.tap_through(page.link(str(table)))
                    play_table(page, run, session, table, tables[table]["seats"], plan)
            if session == REOPENED_AT[0]:
                _session, table, hand = REOPENED_AT
                reopen_table(org, run, session, table)
                page = referees[table]
                page.open(f"/t/{SLUG}/sessions/{session}/tables/{table}/")
                hands[(session, table)][hand] = hands[(session, table)][hand].corrected()
                correct_hand(page, run, hand, hands[(session, table)][hand])
                confirm_table(page, run, session, table)
                run.step(
                    f"session {session} table {table}: hand {hand} corrected by {page.who},"
                    " table confirmed again"
                )
            close_session(org, run, session)
            if session == 1:
                closed_sheets(org, run, session)

        check_results(run, org, hands, seats)
        check_activity(run, org)
        check_backup(run, database, org, folder, postgres)
    finally:
        for browser in (org, *referees.values()):
            browser.quit()


def check_results(run: Rehearsal, org: Browser, hands: dict, seats: dict) -> None:
    org.open(f"/t/{SLUG}/")
    org.tap_through(org.link("Standings", "//nav"))
    page = standings_table(org)
    run.check(
        "the standings page is final (no provisional note)",
        not org.finds(".message.provisional"),
        org.text(".message.provisional"),
    )
    book = read_workbook(org, run)
    expected = expected_scores(hands, seats)
    run.step("standings page read, standings.xlsx downloaded")
    names = {number: name for number, name, *_rest in PLAYERS}
    differ = []
    for number in range(1, 17):
        shown = as_int(page[number]["Score"]) if number in page else None
        in_book = book.get(number, (None, None))[0]
        if not (shown == in_book == expected[number]):
            differ.append(
                f"{number} {names[number]}: page {shown}, workbook {in_book}, "
                f"from the hands {expected[number]}"
            )
    run.check(
        "every player's score: standings page = workbook = the hands entered",
        not differ and len(page) == 16 and len(book) == 16,
        "; ".join(differ) or f"{len(page)} on the page, {len(book)} in the workbook",
    )
    points = [
        f"{n}: page {page[n]['Table points']}, workbook {book[n][1]}"
        for n in range(1, 17)
        if n in page and n in book and page[n]["Table points"] != book[n][1]
    ]
    run.check("every player's table points: page = workbook", not points, "; ".join(points))
    run.check(
        "scores sum to zero over the event (a penalty paid to the others moves points only)",
        sum(expected.values()) == 0 and sum(as_int(r["Score"]) for r in page.values()) == 0,
        f"{sum(as_int(r['Score']) for r in page.values())}",
    )
    run.standings = {n: [r[h] for h in r] for n, r in page.items()}


def check_activity(run: Rehearsal, org: Browser) -> None:
    session, table, hand = REOPENED_AT
    rows = activity_rows(org, session, table)
    reopening = [r for r in rows if f"Reopening of session {session} table {table}" in r]
    run.check(
        "Activity lists the reopening with its reason",
        any(REOPEN_REASON in r for r in reopening),
        repr(reopening[:2]) if reopening else f"{len(rows)} rows, none a reopening",
    )
    reopened = [r for r in rows if f"Session {session} table {table} " in r]
    run.check(
        "Activity lists the table reopened and confirmed again",
        any("reopened" in r for r in reopened),
        repr(reopened[:3]),
    )
    corrected = [r for r in rows if f"Hand {hand}, session {session} table {table} changed" in r]
    run.check(
        f"Activity lists the correction of hand {hand} after the reopening",
        bool(corrected),
        repr([r for r in rows if f"Hand {hand}," in r][:3]),
    )
    session, table, hand, _after = CORRECTED_AT
    rows = activity_rows(org, session, table)
    corrected = [r for r in rows if f"Hand {hand}, session {session} table {table} changed" in r]
    run.check(
        f"Activity lists the tablet's correction of hand {hand} (by the tablet, not an account)",
        bool(corrected) and "tablet" in corrected[0],
        repr(corrected[:1] or [r for r in rows if f"Hand {hand}," in r][:3]),
    )
    run.step("Activity page read (reopening, corrections)")


def check_backup(run: Rehearsal, database: EventDatabase, org: Browser, folder: Path, postgres):
    backup = folder / "event.json.gz"
    said = database.manage("backup", str(backup)).strip()
    run.step(f"backup of the running event: {said}")
    copy = EventDatabase(postgres)
    server = Server(copy, workers=2)
    visitor = None
    try:
        copy.manage("migrate", "--noinput")
        said = copy.manage("restore", str(backup)).strip().splitlines()[0]
        run.step(f"restored into a second database: {said}")
        server.start()
        visitor = Browser("visitor of the restored event", f"http://127.0.0.1:{server.port}", run)
        visitor.open(f"/t/{SLUG}/standings/")
        restored = {n: list(r.values()) for n, r in standings_table(visitor).items()}
        run.check(
            "the restored event's standings page shows the same table",
            restored == run.standings,
            f"{len(restored)} rows; first differing: "
            + repr(next((n for n in run.standings if restored.get(n) != run.standings[n]), None)),
        )
        run.step("the restored event served: standings compared")
    finally:
        if visitor:
            visitor.quit()
        server.stop()
        copy.close()


def report(run: Rehearsal, kind: str) -> int:
    elapsed = time.monotonic() - run.started
    failed = [c for c in run.checks if not c[1]]
    print()
    print(
        f"Rehearsal on {kind}: {len(run.steps)} steps, {elapsed // 60:.0f} min {elapsed % 60:.0f} s"
    )
    print(
        f"hands entered {run.hands_entered} (at {len(run.saves)} the next sheet loaded,"
        f" {run.kept_on_tablet} kept on the tablet), corrections {run.corrections}"
    )
    if run.loads:
        print(
            f"page loads {len(run.loads)}: median {statistics.median(run.loads):.0f} ms,"
            f" p95 {percentile(run.loads, 95):.0f} ms, slowest {max(run.loads):.0f} ms"
        )
    if run.saves:
        print(
            f"Save tapped to the next hand's form: median {statistics.median(run.saves):.0f} ms,"
            f" p95 {percentile(run.saves, 95):.0f} ms"
        )
    if run.noticed:
        print("noticed:")
        for text in run.noticed.values():
            print(f"  - {text}")
    print("steps:")
    for text in run.steps:
        print(f"  - {text}")
    print(f"checks: {len(run.checks) - len(failed)} passed, {len(failed)} failed")
    for name, ok, detail in run.checks:
        print(f"  {'ok  ' if ok else 'FAIL'} {name}" + ("" if ok else f": {detail}"))
    return 1 if failed else 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", choices=("postgresql", "sqlite"), default="postgresql")
    parser.add_argument("--postgres", default=POSTGRES, help=f"the server (default {POSTGRES})")
    parser.add_argument(
        "--screenshots", type=Path, help="a folder for a picture of each kind of page"
    )
    args = parser.parse_args(argv)
    if not (shutil.which("chromium") and shutil.which("chromedriver")):
        print("needs chromium and chromedriver: apt-get install chromium chromium-driver")
        return 2
    postgres = args.postgres if args.database == "postgresql" else None
    run = Rehearsal()
    if args.screenshots:
        args.screenshots.mkdir(parents=True, exist_ok=True)
        run.screenshots = args.screenshots
    database = EventDatabase(postgres)
    server = Server(database)
    folder = Path(tempfile.mkdtemp(prefix="mcr-rehearsal-"))
    keep = False
    try:
        database.manage("migrate", "--noinput")
        make_accounts(database)
        server.start()
        run.step(f"make serve on a fresh {database.kind} database, port {server.port}")
        walk(run, database, server, folder, postgres)
    except Exception as error:  # the report says where it stopped
        keep = True
        run.check("the rehearsal reached its end", False, f"{type(error).__name__}: {error}")
        log = Path(database.folder.name) / "server.log"
        server.stop()
        if log.exists():
            kept = folder / "server.log"
            shutil.copy(log, kept)
            print(f"server log kept in {kept}; its end:")
            print(log.read_text(errors="replace")[-3000:])
    finally:
        server.stop()
        database.close()
        if not keep:
            shutil.rmtree(folder, ignore_errors=True)
    return report(run, database.kind)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
