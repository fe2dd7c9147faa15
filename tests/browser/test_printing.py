"""What the organiser prints, printed by Chromium: badges ten to an A4 page, each table card
and each score sheet on one A4 page, the session's penalty record on whole pages, in English
and in Chinese, for 16 players and for 120; on each page nothing cut.

"Nothing cut", as checked here: with print media emulated at the page's printable width,
each printed box (a badge, a card, a sheet) is no taller than the page's printable height,
every element inside it lies within it, and no element hides part of its content (none is
clipped by its overflow). A card or sheet breaks the page after it: as many pages as boxes
then means each on a page of its own, whole. Badges are counted by pages, ten a page.
"""

import base64
import re
from dataclasses import dataclass

import pytest
from selenium.webdriver.common.by import By

from tests.browser.conftest import TABLET_UPRIGHT, log_in, navigates
from tests.conftest import make_tournament, make_user
from tournament import services
from tournament.models import Seat
from tournament.players.player_import import state_fingerprint

# A4 in PDF points (1/72 inch): 210 × 297 mm.
A4 = (595, 842)
MM = 96 / 25.4  # CSS pixels to the millimetre
# The printable part of a page: A4 less its margins (site.css, @page paper and badges).
PAPER = (190, 277)
BADGE_PAGE = (190, 281)

LONG_NAME = "Maximilian-Alexander Featherstonehaugh-W"  # 40 characters
LONG_TEAM = "Mahjong Club of the Greater Hanseatic Area"
REASON = "False win declared on a discard, the tiles exposed before the referee came"


@dataclass
class Printed:
    pages: list[tuple[int, int]]  # each page's size in points
    boxes: int  # how many printed boxes the page holds
    cut: list[str]  # what is cut, one line each: empty when nothing is


# Each box's problems, read under print media: taller or wider than the page, an element
# outside its box, an element whose overflow hides part of its content.
CUT = """
const [selector, width, height] = arguments;
const cut = [];
const boxes = document.querySelectorAll(selector);
const name = (el) => el.id || [el.tagName.toLowerCase(), ...el.classList].join(".");
for (const box of boxes) {
  const b = box.getBoundingClientRect();
  if (b.height > height + 1 || b.width > width + 1) {
    cut.push(`${name(box)}: ${Math.round(b.width)} × ${Math.round(b.height)} px on the page`);
  }
  for (const el of [box, ...box.querySelectorAll("*")]) {
    if (!el.getClientRects().length) continue;  // not printed
    const r = el.getBoundingClientRect();
    if (r.left < b.left - 1 || r.right > b.right + 1
        || r.top < b.top - 1 || r.bottom > b.bottom + 1) {
      cut.push(`${name(box)}: ${name(el)} outside its box`);
    }
    const style = getComputedStyle(el);
    if ((style.overflowX !== "visible" && el.scrollWidth > el.clientWidth + 1)
        || (style.overflowY !== "visible" && el.scrollHeight > el.clientHeight + 1)) {
      cut.push(`${name(box)}: ${name(el)} clipped (${el.textContent.trim().slice(0, 40)})`);
    }
  }
}
return [boxes.length, cut];
"""


def emulate(driver, *, media: str, width: int, scrollbars_hidden: bool) -> None:
    """The page laid out for ``media`` at ``width`` CSS pixels, with or without scroll bars
    (which would take their width from the page's)."""
    for command, parameters in (
        ("Emulation.setEmulatedMedia", {"media": media}),
        ("Emulation.setScrollbarsHidden", {"hidden": scrollbars_hidden}),
        (
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": TABLET_UPRIGHT[1], "deviceScaleFactor": 1, "mobile": False},
        ),
    ):
        driver.execute_cdp_cmd(command, parameters)


def printed(driver, url: str, boxes: str, page: tuple[int, int] = PAPER) -> Printed:
    """Print ``url`` as the browser's Print button does; then, with print media emulated at
    the width of the page's printable part, what of each box matching ``boxes`` is cut."""
    driver.get(url)
    pdf = base64.b64decode(
        driver.execute_cdp_cmd("Page.printToPDF", {"preferCSSPageSize": True})["data"]
    )
    sizes = re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", pdf)
    width, height = page[0] * MM, page[1] * MM
    emulate(driver, media="print", width=round(width), scrollbars_hidden=True)
    try:
        count, cut = driver.execute_script(CUT, boxes, width, height)
    finally:
        emulate(driver, media="", width=TABLET_UPRIGHT[0], scrollbars_hidden=False)
    return Printed([(round(float(w)), round(float(h))) for w, h in sizes], count, cut)


def seat_players(tournament, count: int) -> None:
    """``count`` players, the first with a 40-character name, a Chinese name and a long
    team's name, the second with a Chinese name; then session 1 drawn and opened."""
    rows = [{"number": n, "name": f"Player {n}"} for n in range(1, count + 1)]
    rows[0].update(name=LONG_NAME, name_zh="欧阳娜娜", team=LONG_TEAM, country="GER")
    rows[1].update(name="Zhang Wei", name_zh="张伟", team="上海麻将俱乐部", country="CHN")
    services.players_import(
        tournament=tournament, rows=rows, fingerprint=state_fingerprint({}, rows)
    )
    services.session_open(
        session=services.session_draw(tournament=tournament, number=1, seed=20261130)
    )


@pytest.fixture
def tournaments(transactional_db):
    """Two tournaments the organiser runs, their session 1 in play: 16 players (four
    tables) and 120 (thirty tables; 24 penalties with a long reason recorded against the
    long-named player, four at each of the first six hands of their table)."""
    organiser = make_user("organiser", can_create=True)
    small = make_tournament(creator=organiser, slug="spring-open")
    seat_players(small, 16)
    large = make_tournament(creator=organiser, slug="grand-open")
    seat_players(large, 120)
    seat = Seat.objects.select_related("table").get(session__tournament=large, player__number=1)
    penalty = services.PenaltyEntry(
        offender=seat.seat, kind="to_each_other", points=10, reason=REASON
    )
    for hand in range(1, 7):
        services.hand_record(
            table=seat.table,
            entry=services.HandEntry(number=hand, outcome="draw", penalties=[penalty] * 4),
        )
    return small, large


def in_language(driver, language: str) -> None:
    if language != "en":
        navigates(driver, driver.find_element(By.CSS_SELECTOR, ".language-switch button").click)
    assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == language


def assert_prints(driver, url, boxes, *, pages, page=PAPER) -> None:
    """``url`` prints ``pages`` A4 pages, a box matching ``boxes`` on each, nothing cut."""
    result = printed(driver, url, boxes, page)
    assert result.pages == [A4] * pages, url
    assert result.boxes == pages, url
    assert result.cut == [], (url, result.cut)


def assert_documents_print(driver, tournament, *, tables: int, penalty_pages: int) -> None:
    """Every document of the tournament's session 1 prints on whole A4 pages, nothing cut:
    ten badges a page, one page a table for its card and its score sheet."""
    base = f"{driver.live_server_url}/t/{tournament.slug}"
    players = tables * 4
    badges = printed(driver, base + "/players/badges/", ".badge-card", BADGE_PAGE)
    assert badges.pages == [A4] * -(-players // 10)  # 16 players: 2 pages; 120: 12
    assert (badges.boxes, badges.cut) == (players, [])
    # The long-named player's badge shows all it did, the QR code of their link too.
    badge = driver.find_element(By.ID, "badge-1")
    assert badge.text.splitlines() == [
        tournament.name,
        "1",
        LONG_NAME,
        "欧阳娜娜",
        f"{LONG_TEAM} · GER",
    ]
    assert badge.find_element(By.CSS_SELECTOR, "[data-player-link] svg").is_displayed()
    session = base + "/sessions/1"
    assert_prints(driver, session + "/cards/", ".table-card", pages=tables)
    assert_prints(driver, session + "/score-sheets/", ".paper-sheet", pages=tables)
    assert_prints(driver, session + "/penalty-sheet/", ".paper-sheet", pages=penalty_pages)


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_each_document_prints_on_whole_a4_pages_with_nothing_cut(browser, tournaments, language):
    small, large = tournaments
    log_in(browser, "organiser", "pw-organiser")
    in_language(browser, language)
    assert_documents_print(browser, small, tables=4, penalty_pages=1)
    # The rest in English only: a page's layout does not depend on how many pages there
    # are, nor on which table's sheet is printed or whether its players are written. The
    # penalty record: 24 rows a page; 24 penalties entered and 4 blank rows take two.
    if language == "en":
        assert_documents_print(browser, large, tables=30, penalty_pages=2)
        session = f"{browser.live_server_url}/t/{small.slug}/sessions/1"
        assert_prints(browser, session + "/score-sheets/?blank=1", ".paper-sheet", pages=4)
        assert_prints(browser, session + "/score-sheets/?table=2", ".paper-sheet", pages=1)


# The record of fouls, printed: its table, what sticks out past the printable width (A4
# turned landscape less its margins), each printed row's page and whether any is split, and
# whether the headings repeat on each page (a header group, as the print style sheet says).
FOULS_PRINTED = """
const width = arguments[0];
const table = document.querySelector('table.fouls');
const box = table.getBoundingClientRect();
const wide = [...table.querySelectorAll('th, td')]
  .filter(cell => cell.getBoundingClientRect().right > box.left + width + 1)
  .map(cell => cell.textContent.trim().slice(0, 30));
return {
  width: Math.round(box.width), wide: wide,
  rows: table.querySelectorAll('tbody tr').length,
  repeated: getComputedStyle(table.tHead).display,
  split: getComputedStyle(table.querySelector('tbody tr')).breakInside,
  filters: document.querySelector('form.fouls-filters').getClientRects().length,
  heading: document.querySelector('p.fouls-printed').innerText,
};
"""


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_record_of_fouls_prints_on_whole_a4_pages_turned_landscape(
    browser, tournaments, language
):
    _small, large = tournaments
    log_in(browser, "organiser", "pw-organiser")
    in_language(browser, language)
    url = f"{browser.live_server_url}/t/{large.slug}/fouls/?page=all"
    browser.get(url)
    pdf = base64.b64decode(
        browser.execute_cdp_cmd("Page.printToPDF", {"preferCSSPageSize": True})["data"]
    )
    sizes = re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", pdf)
    pages = [(round(float(w)), round(float(h))) for w, h in sizes]
    # 24 penalties of a long reason, two lines a row: more than a page, every page A4
    # turned landscape.
    assert len(pages) >= 2
    assert pages == [(A4[1], A4[0])] * len(pages)
    width = 277 * MM
    emulate(browser, media="print", width=round(width), scrollbars_hidden=True)
    try:
        laid_out = browser.execute_script(FOULS_PRINTED, width)
    finally:
        emulate(browser, media="", width=TABLET_UPRIGHT[0], scrollbars_hidden=False)
    assert laid_out["rows"] == 24
    assert laid_out["width"] <= round(width) and laid_out["wide"] == []
    assert (laid_out["repeated"], laid_out["split"]) == ("table-header-group", "avoid")
    # On paper, the controls give way to what the record holds and when it was printed.
    assert laid_out["filters"] == 0  # not drawn
    printed_as = {"en": "All sessions · Printed ", "zh-hans": "所有局 · 打印于 "}[language]
    assert laid_out["heading"].startswith(printed_as)
