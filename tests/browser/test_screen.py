"""The hall's screen in a real browser at a projector's 1920 x 1080: it goes through its panels
by itself without ever reloading the page, every panel fits the screen, the next session
shows at the next poll, the clock counts down between polls, and a poll without an answer
leaves the panel as it was."""

import re
import time
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from selenium.webdriver.common.by import By
from selenium.webdriver.support.wait import WebDriverWait

from tests.browser.conftest import set_viewport
from tests.browser.test_offline import network
from tests.conftest import make_players, make_tournament, make_user
from tournament import services
from tournament.models import Session

PROJECTOR = (1920, 1080)

# Each settled panel, as the browser laid it out: its step and kind, the lowest row's bottom
# edge, the page's size, and the cells whose text did not fit.
RECORD_PANELS = """
window.__marker = 1;
window.__panels = [];
function record() {
  var panel = document.getElementById("screen-panel");
  var bottom = 0;
  panel.querySelectorAll("tr").forEach(function (row) {
    bottom = Math.max(bottom, row.getBoundingClientRect().bottom);
  });
  var cut = Array.prototype.filter.call(panel.querySelectorAll("td, th"), function (cell) {
    return cell.scrollWidth > cell.clientWidth;
  }).map(function (cell) { return cell.textContent; });
  window.__panels.push({
    step: parseInt(panel.dataset.step, 10), kind: panel.className, text: panel.textContent,
    bottom: bottom, width: document.documentElement.scrollWidth,
    height: document.documentElement.scrollHeight, cut: cut,
    session: document.querySelector("#screen-head .screen-session").textContent
  });
}
record();
document.body.addEventListener("htmx:afterSettle", function (event) {
  if (event.target.id === "screen-panel") record();
});
"""


@pytest.fixture
def hall(transactional_db):
    """Session 1 of an 80-player tournament in play, hands entered at four tables: two pages
    of tables (16 and 4), two of names (48 and 32), three of standings (32, 32, 16)."""
    organiser = make_user("organiser", can_create=True)
    tournament = make_tournament(creator=organiser)
    make_players(tournament, 80)
    session = services.session_open(
        session=services.session_draw(tournament=tournament, number=1, seed=20261130)
    )
    for table in session.tables.filter(number__lte=4):
        services.hand_record(
            table=table, entry=services.HandEntry(number=1, outcome="self_drawn", winner=0, fan=16)
        )
    return session


def open_screen(browser, slug: str = "spring-open") -> None:
    set_viewport(browser, *PROJECTOR)
    browser.get(browser.live_server_url + reverse("screen", args=[slug]))
    WebDriverWait(browser, 10).until(lambda d: d.execute_script("return !!window.htmx"))
    browser.execute_script(RECORD_PANELS)


def panels(browser) -> list[dict]:
    return browser.execute_script("return window.__panels")


def test_the_screen_goes_through_its_panels_without_reloading(browser, hall, settings):
    settings.SCREEN_POLL_SECONDS = 1
    open_screen(browser)
    # A whole turn, and round again to the first panel.
    WebDriverWait(browser, 40).until(lambda d: len(panels(d)) >= 8)
    shown = panels(browser)
    assert [p["step"] for p in shown[:8]] == [0, 1, 2, 3, 4, 5, 6, 0]
    kinds = {p["step"]: p["kind"].split()[-1] for p in shown}
    assert kinds == {
        0: "screen-tables",
        1: "screen-tables",
        2: "screen-names",
        3: "screen-names",
        4: "screen-standings",
        5: "screen-standings",
        6: "screen-standings",
    }
    assert len({p["text"] for p in shown[:7]}) == 7
    for panel in shown:
        # Everything on the screen: no scrolling, no row below its edge, no text cut.
        assert (panel["width"], panel["height"]) == PROJECTOR, panel["step"]
        assert 0 < panel["bottom"] <= PROJECTOR[1], panel["step"]
        assert panel["cut"] == [], panel["step"]
    # Never a page load: the script's marker is still there.
    assert browser.execute_script("return window.__marker") == 1

    # The session closes and the next one is drawn: the next poll shows it.
    session = hall
    organiser = session.tournament.organisers.get()
    for table in session.tables.all():
        services.table_confirm(table=table, user=organiser, record_missing_as_not_played=True)
    services.session_close(session=session)
    services.session_draw(tournament=session.tournament, number=2, seed=3)
    WebDriverWait(browser, 20).until(lambda d: panels(d)[-1]["session"] == "Session 2")
    latest = panels(browser)[-1]
    assert latest["step"] == 0
    assert "Seating of session 2 by table" in latest["text"]
    assert browser.find_element(By.CSS_SELECTOR, ".screen-clock").text == "Not started yet"
    assert browser.execute_script("return window.__marker") == 1


def clock_text(browser) -> str:
    return browser.find_element(By.CSS_SELECTOR, "[data-clock-left]").text


def test_the_clock_counts_down_between_polls(browser, hall, settings):
    settings.SCREEN_POLL_SECONDS = 600
    # Eight seconds of the session left.
    Session.objects.filter(pk=hall.pk).update(
        opened_at=timezone.now() - timedelta(minutes=150) + timedelta(seconds=8)
    )
    services.session_open(session=hall)  # a write: the screen's state is read again
    open_screen(browser)
    first = clock_text(browser)
    assert re.fullmatch(r"0:00:0[3-8]", first), first
    WebDriverWait(browser, 5).until(lambda d: clock_text(d) not in (first, "Time is up"))
    WebDriverWait(browser, 12).until(lambda d: clock_text(d) == "Time is up")
    clock = browser.find_element(By.CSS_SELECTOR, "[data-screen-clock]")
    assert "time-up" in clock.get_attribute("class")
    assert not browser.find_element(By.CSS_SELECTOR, "[data-clock-label]").is_displayed()
    # No poll meanwhile: the first panel, as loaded.
    assert [p["step"] for p in panels(browser)] == [0]


def test_a_poll_without_an_answer_leaves_the_panel(browser, hall, settings):
    settings.SCREEN_POLL_SECONDS = 1
    open_screen(browser)
    WebDriverWait(browser, 10).until(lambda d: len(panels(d)) >= 2)
    note = browser.find_element(By.CSS_SELECTOR, "[data-screen-offline]")
    assert not note.is_displayed()
    network(browser, offline=True)
    try:
        WebDriverWait(browser, 10).until(lambda d: note.is_displayed())
        stuck = len(panels(browser))
        text = browser.find_element(By.ID, "screen-panel").text
        # Three polls' time without an answer.
        time.sleep(3.5)
        assert len(panels(browser)) == stuck
        assert browser.find_element(By.ID, "screen-panel").text == text
        assert note.text == "The server does not answer: this screen shows what it last received."
    finally:
        network(browser, offline=False)
    WebDriverWait(browser, 10).until(lambda d: len(panels(d)) > stuck)
    WebDriverWait(browser, 5).until(lambda d: not note.is_displayed())
    assert browser.execute_script("return window.__marker") == 1
