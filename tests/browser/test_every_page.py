"""Every kind of page of the site on a phone (360 × 740) and a tablet held upright
(768 × 1024), in English and in Chinese: no page scrolls sideways; on the referees' and the
organisers' pages every control a finger taps is at least 44 × 44 px; and axe-core finds no
critical or serious accessibility violation.

Made to be quick: one browser and one data set (the demo tournament: session 1 played and
closed, session 2 in play) for the whole sweep; each page loaded once per language and
measured at both sizes (the layout follows the viewport without a reload), each size's
measures read by one script; axe run once per page and language, at the tablet's size, its
colour contrast in English only (the colours and the type's sizes are the same in Chinese,
and that rule is most of axe's time)."""

import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import transaction
from django.test import Client

from tests.browser.conftest import _start_chromium, csp_violations
from tests.conftest import make_user
from tournament import services, tables
from tournament.players.player_links import player_token
from tournament.server.demo import load_demo, read_plan

PHONE_SMALL = (360, 740)
TABLET = (768, 1024)
TARGET = 44
FOLDED_HEADER = 64
BASE = Path(settings.BASE_DIR)

SHEET = "t/{slug}/sessions/2/tables/1/"
# (who, the page's kind, its address); the referees' and the organisers' pages are tapped.
PAGES = [
    ("public", "home", ""),
    ("public", "tournament", "t/{slug}/"),
    ("public", "standings", "t/{slug}/standings/"),
    ("public", "statistics", "t/{slug}/statistics/"),
    ("public", "seating", "t/{slug}/seating/2/"),
    ("public", "players A–Z", "t/{slug}/seating/2/players/"),
    ("public", "player page", "t/{slug}/players/1/"),
    ("public", "fairness", "t/{slug}/fairness/"),
    ("public", "rules", "t/{slug}/rules/"),
    ("public", "hall screen", "t/{slug}/screen/"),
    ("public", "calculator", "calculator/"),
    ("public", "sign-up form", "t/{slug}/sign-up/"),
    ("public", "login", "accounts/login/"),
    ("public", "own link page", "me/{token}/"),
    ("organiser", "tournament page", "t/{slug}/"),
    ("organiser", "seating", "t/{slug}/seating/2/"),
    ("organiser", "settings", "t/{slug}/edit/"),
    ("organiser", "rules page", "t/{slug}/rules/edit/"),
    ("organiser", "new tournament", "new/"),
    ("organiser", "players", "t/{slug}/players/"),
    ("organiser", "import", "t/{slug}/players/import/"),
    ("organiser", "badges", "t/{slug}/players/badges/"),
    ("organiser", "sign-ups", "t/{slug}/sign-ups/"),
    ("organiser", "check-in desk", "t/{slug}/check-in/"),
    ("organiser", "timetable", "t/{slug}/timetable/"),
    ("organiser", "e-mails", "t/{slug}/emails/"),
    ("organiser", "activity", "t/{slug}/activity/"),
    ("organiser", "draw", "t/{slug}/draw/"),
    ("organiser", "commitment", "t/{slug}/commitment/"),
    ("organiser", "seat change", "t/{slug}/sessions/2/seats/"),
    ("organiser", "referees page", "t/{slug}/sessions/2/referees/"),
    ("organiser", "table cards", "t/{slug}/sessions/2/cards/"),
    ("organiser", "score sheets", "t/{slug}/sessions/2/score-sheets/"),
    ("organiser", "penalty record", "t/{slug}/sessions/2/penalty-sheet/"),
    ("organiser", "record of fouls", "t/{slug}/fouls/"),
    ("organiser", "people", "t/{slug}/people/"),
    ("organiser", "EMA results", "t/{slug}/ema/"),
    ("referee", "referee home", "t/{slug}/referee/"),
    ("referee", "sheet", SHEET),
    ("referee", "tile picker open", SHEET),
    ("referee", "review", SHEET + "confirm/"),
    ("referee", "hand correction", SHEET + "hands/1/"),
    ("referee", "referees' desk", "t/{slug}/desk/"),
    ("referee", "ruling form", "t/{slug}/desk/calls/{call}/resolve/"),
    ("referee", "appeal form", "t/{slug}/desk/rulings/{ruling}/appeal/"),
]

# What the sheet's referee does before the tile picker is measured: a self-drawn win, then
# "Enter the tiles".
OPEN_PICKER = (
    "document.querySelector('[name=outcome][value=self_drawn]').click();"
    "document.querySelector('[data-picker-open]').click();"
)

# One script a size: the page's answer, how wide the page is against the screen and what
# sticks out past its right edge; where the header is folded into its menu, its height closed
# and, the menu opened, the menu's links (all inside the screen); and, on the pages tapped,
# each visible control a finger's size would miss: a link, a button, a disclosure, a list, a
# radio or a checkbox by its label (what is tapped). Links inside a sentence (their parent
# has words of its own) are left out: they are read as part of the text, not tapped in a row
# (the inline targets WCAG 2.5.5 leaves out).
MEASURE = r"""
const [tapped, target] = arguments;
const describe = (el, rect) => {
  const text = (el.innerText || el.value || el.getAttribute('aria-label') || '')
    .trim().replace(/\s+/g, ' ').slice(0, 40);
  const classes = Array.from(el.classList, name => '.' + name).join('');
  const size = `${Math.round(rect.width)}×${Math.round(rect.height)}`;
  return `${el.tagName.toLowerCase()}${classes} "${text}" ${size}`;
};
const root = document.documentElement;
const result = {
  status: performance.getEntriesByType('navigation')[0].responseStatus,
  width: root.scrollWidth, screen: window.innerWidth,
  wide: [], small: [], header: null, outside: [],
};
if (result.width > result.screen) {
  for (const el of document.body.querySelectorAll('*')) {
    const rect = el.getBoundingClientRect();
    if (rect.right > result.screen + 1 && el.children.length == 0) {
      result.wide.push(describe(el, rect) + ` to ${Math.round(rect.right)}`);
      if (result.wide.length == 3) break;
    }
  }
}
const menu = document.querySelector('body > header .site-menu');
const button = document.querySelector('body > header .menu-button');
const folded = button && getComputedStyle(button).display != 'none';
if (folded) {
  result.header = Math.round(button.closest('header').getBoundingClientRect().height);
  menu.showPopover();
  for (const el of menu.querySelectorAll('a, button')) {
    const rect = el.getBoundingClientRect();
    if (rect.left < 0 || rect.right > result.screen + 1) result.outside.push(describe(el, rect));
  }
}
if (tapped) {
  const inSentence = el => el.tagName == 'A' && Array.from(el.parentElement.childNodes).some(
    node => node.nodeType == Node.TEXT_NODE && /\p{L}/u.test(node.textContent));
  const controls = 'a[href], button, summary, select, input[type=radio], input[type=checkbox]';
  const boxes = new Set();
  for (const control of document.querySelectorAll(
      ['body > header', 'main', 'dialog[open]'].map(w => `${w} :is(${controls})`).join(','))) {
    let box = control;
    if (control.matches('input')) {
      box = control.closest('label') || (control.labels && control.labels[0]) || control;
    }
    if (boxes.has(box) || inSentence(box) || box.closest('dialog:not([open])')) continue;
    boxes.add(box);
    const rect = box.getBoundingClientRect();
    // Not shown (in a closed disclosure), or said to screen readers only.
    if (rect.width <= 1 || rect.height <= 1) continue;
    if (getComputedStyle(box).visibility == 'hidden') continue;
    if (rect.width < target || rect.height < target) result.small.push(describe(box, rect));
  }
}
if (folded) menu.hidePopover();
return result;
"""

AXE_RUN = """
const [rules, done] = arguments;
axe.run(document, {resultTypes: ['violations'], rules: rules}).then(
  results => done(results.violations
    .filter(v => v.impact == 'critical' || v.impact == 'serious')
    .map(v => `${v.id} (${v.impact}): `
      + v.nodes.slice(0, 3).map(node => node.target.join(' ')).join(' | '))),
  error => done(['axe did not run: ' + error]));
"""


def axe_script() -> str:
    """axe-core's script, fetched once from the npm registry by ``make axe`` into a folder git
    ignores (the Makefile pins its release and checks its digest); missing, a skip (a failure
    under CI, which sets MCR_REQUIRE_BROWSER)."""
    version = re.search(r"^AXE_VERSION := (\S+)$", (BASE / "Makefile").read_text(), re.M)[1]
    script = BASE / ".cache" / "axe-core" / version / "axe.min.js"
    if not script.exists() and shutil.which("npm"):
        subprocess.run(["make", "--no-print-directory", "-s", "axe"], cwd=BASE, check=False)
    if script.exists():
        return script.read_text(encoding="utf-8")
    message = "axe-core is needed: `make axe` fetches it with npm (apt-get install npm)"
    if os.environ.get("MCR_REQUIRE_BROWSER"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    """The demo tournament, its organiser and its referee (every table of both sessions),
    their sessions' cookies and player 1's own link; built once in a transaction rolled
    back after the module."""
    with django_db_blocker.unblock(), transaction.atomic():
        organiser = make_user("organiser", can_create=True)
        referee = make_user("referee")
        tournament = load_demo(read_plan(BASE / "fixtures" / "demo.json"))
        services.tournament_update(
            tournament=tournament, organisers={organiser}, referees={referee}
        )
        for session in tournament.sessions.all():
            numbers = list(session.tables.values_list("number", flat=True))
            services.tables_assign(session=session, referee=referee, tables=numbers)
        cookies = {}
        for user in (organiser, referee):
            client = Client()
            client.force_login(user)
            cookies[user.username] = client.cookies[settings.SESSION_COOKIE_NAME].value
        # The referees' desk: an open call at table 3 of the session in play, a ruling at 4.
        in_play = tournament.sessions.get(number=2)
        call = services.call_make(
            table=in_play.tables.get(number=3), reason="foul", hand=3, note="Who won?"
        )
        ruling = services.ruling_give(
            table=in_play.tables.get(number=4), referee=referee, decision="Warned for slow play."
        )
        names = {
            "slug": tournament.slug,
            "token": player_token(tournament.players.get(number=1)),
            "call": call.pk,
            "ruling": ruling.pk,
        }
        yield names, cookies
        transaction.set_rollback(True)


def _viewport(driver, width: int, height: int) -> None:
    # The window is a tablet's (conftest's set_viewport, at the start): the page's viewport
    # alone is set, which is quicker than the window.
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
    )


def _as(driver, who: str, cookies: dict, language: str) -> None:
    driver.delete_all_cookies()
    driver.add_cookie({"name": "django_language", "value": language})
    if who in cookies:
        driver.add_cookie({"name": settings.SESSION_COOKIE_NAME, "value": cookies[who]})


def test_every_page_fits_a_phone_and_a_tablet_and_is_accessible(
    chromium, live_server, demo, monkeypatch
):
    # One test (live_server's tests each flush the database at their end, and the module's
    # data must outlive the first). Lists of ten rows a page: their pagers are measured too,
    # and a long list is not what axe needs to read.
    monkeypatch.setattr(tables, "PAGE_SIZE", 10)
    started = time.monotonic()
    names, cookies = demo
    axe = axe_script()
    driver = _start_chromium(chromium, live_server)
    # axe in every page the browser opens, before the page's own scripts.
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": axe})
    problems = []
    try:
        driver.get(driver.live_server_url + "/healthz")
        for language in ("en", "zh-hans"):
            # Colour contrast: in English only (above).
            rules = {"color-contrast": {"enabled": language == "en"}}
            signed_in = None
            for who, kind, address in PAGES:
                if who != signed_in:
                    _as(driver, who, cookies, language)
                    signed_in = who
                where = f"{kind} ({who}, {language})"
                _viewport(driver, *TABLET)
                driver.get(f"{driver.live_server_url}/{address.format(**names)}")
                if kind == "tile picker open":
                    driver.execute_script(OPEN_PICKER)
                for size in (TABLET, PHONE_SMALL):
                    if size != TABLET:
                        _viewport(driver, *size)
                    measured = driver.execute_script(MEASURE, who != "public", TARGET)
                    if measured["status"] != 200:
                        problems.append(f"{where}: answered {measured['status']}")
                    if measured["width"] > measured["screen"]:
                        problems.append(
                            f"{where} at {size[0]} px is {measured['width']} px wide: "
                            + "; ".join(measured["wide"])
                        )
                    problems += [
                        f"{where} at {size[0]} px: {s} is small" for s in measured["small"]
                    ]
                    problems += [
                        f"{where} at {size[0]} px: the menu's {s} is outside the screen"
                        for s in measured["outside"]
                    ]
                    # Folded, the header is one row: the site's name and the menu's button.
                    if (measured["header"] or 0) > FOLDED_HEADER:
                        problems.append(f"{where} at {size[0]} px: header {measured['header']} px")
                    if size == PHONE_SMALL and measured["header"] is None and kind != "hall screen":
                        problems.append(f"{where} at {size[0]} px: the header is not folded")
                problems += [f"{where}: {v}" for v in driver.execute_async_script(AXE_RUN, rules)]
        problems += csp_violations(driver)
    finally:
        driver.quit()
    print(f"Every page, both sizes, both languages: {time.monotonic() - started:.1f} s")
    assert not problems, "\n".join(problems)
