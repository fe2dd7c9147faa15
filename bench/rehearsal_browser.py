"""The rehearsal's browsers (bench/rehearsal.py): one person's headless Chromium at tablet size,
what it times and notices on each page, and the run's record of steps and checks."""

from __future__ import annotations

import base64
import re
import time
from pathlib import Path

from hall import chromium
from rehearsal_plan import HEIGHT, WIDTH


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
