"""A table's tablet reloaded while the hall's network is down: the service worker shows the
sheet as last loaded, hands entered then are queued and delivered once, a new release
replaces what it kept, and Chromium finds the app installable (docs/offline.md).

The network is cut with the DevTools protocol's emulation, for the page and for the service
worker too (``test_offline.network``)."""

import json
import time

from django.db import InterfaceError
from selenium.webdriver.common.by import By

from reference.tile_taps import plan
from tests.browser.conftest import log_in, server_down, server_up, wait_for
from tests.browser.picker import shown_fans, tap_plan
from tests.browser.test_hand_entry import sheet_url
from tests.browser.test_offline import (
    network,
    save_in_background,
    sync_state,
    tap_a_win_and_save,
)
from tournament.models import HandSubmission
from tournament.players.player_links import player_token
from tournament.scoring import notation


def kept_page(driver, path: str) -> dict | None:
    """The copy of the page at ``path`` the service worker keeps, if any: when and what."""
    return driver.execute_async_script(
        """
        var path = arguments[0], done = arguments[arguments.length - 1];
        caches.keys().then(function (names) {
          var pages = names.filter(function (n) { return n.indexOf("mcr-pages-") === 0; });
          if (!pages.length) return null;
          return caches.open(pages[0]).then(function (c) {
            return c.match(location.origin + path);
          });
        }).then(function (r) {
          if (!r) return null;
          return r.text().then(function (t) {
            return {at: r.headers.get("X-MCR-Kept-At"), html: t};
          });
        }).then(done, function () { done(null); });
        """,
        path,
    )


def wait_kept(driver, path: str, containing: str = "") -> None:
    """Until the service worker controls the page and keeps its copy (holding ``containing``)."""
    wait_for(driver, 20).until(
        lambda d: d.execute_script("return !!navigator.serviceWorker.controller")
    )

    def kept(d):
        copy = kept_page(d, path)
        return copy is not None and containing in copy["html"]

    wait_for(driver, 20).until(kept)


def open_kept_sheet(driver, table) -> None:
    """The referee logged in on the table's sheet, kept by the service worker."""
    log_in(driver, "referee", "pw-referee")
    url = sheet_url(driver, table)
    driver.get(url)
    wait_kept(driver, url.removeprefix(driver.live_server_url))


def offline_line(driver) -> tuple[str, str]:
    line = driver.find_element(By.CSS_SELECTOR, "[data-offline-line]")
    return line.get_attribute("data-state") or "", line.text


def reload_offline(driver, url: str = "") -> None:
    """The page reloaded (or ``url`` opened) with the network down."""
    if url:
        driver.get(url)
    else:
        driver.refresh()
    wait_for(driver, 15).until(lambda d: offline_line(d)[0] == "device")


def seconds_left(driver) -> int:
    hours, minutes, seconds = driver.find_element(By.CSS_SELECTOR, "[data-clock-left]").text.split(
        ":"
    )
    return int(hours) * 3600 + int(minutes) * 60 + int(seconds)


def stored(table) -> list[int]:
    return list(table.hands.order_by("number").values_list("number", flat=True))


def delivered_once_in_order(table) -> list[int]:
    """The table's hands as stored, in the order they were stored; each from one entry."""
    hands = list(table.hands.order_by("pk").values_list("number", flat=True))
    assert HandSubmission.objects.filter(hand__table=table).count() == len(hands)
    return hands


def test_a_sheet_reloaded_offline_takes_hands_and_delivers_them_once(
    browser, live_server, table_in_play
):
    open_kept_sheet(browser, table_in_play)
    left_when_kept = seconds_left(browser)
    time.sleep(3)
    # Reloaded down the page (where the browser puts it back), the line is in sight.
    browser.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    network(browser, offline=True)
    reload_offline(browser)
    assert browser.execute_script(
        "var r = document.querySelector('[data-offline-line]').getBoundingClientRect();"
        "return window.scrollY > 0 && r.top >= 0 && r.bottom <= window.innerHeight;"
    )
    # The session clock counts from when the copy came, not from the reload.
    assert seconds_left(browser) <= left_when_kept - 2
    _state, text = offline_line(browser)
    assert text.startswith("No network: this page is as it was last loaded, at ")
    # The sheet of that table, as last seen: its title, its form for hand 1.
    assert "Session 1 · Table 1" in browser.find_element(By.TAG_NAME, "h1").text
    assert browser.find_element(By.CSS_SELECTOR, "#entry h2").text == "Enter hand 1"
    for number in (1, 2, 3):
        save_in_background(browser, number)
    wait_for(browser, 15).until(lambda d: sync_state(d) == ("pending", "3 waiting to send"))
    # The network comes back while the server is stopped: nothing can be delivered yet.
    server_down(live_server)
    network(browser, offline=False)
    assert sync_state(browser)[0] == "pending"
    assert stored(table_in_play) == []
    server_up(live_server)
    wait_for(browser, 40).until(lambda d: sync_state(d) == ("saved", "All saved"))
    assert delivered_once_in_order(table_in_play) == [1, 2, 3]
    wait_for(browser, 15).until(lambda d: offline_line(d)[0] in ("back", ""))
    # The sheet shows what the server has, in place.
    wait_for(browser, 15).until(lambda d: "+" in d.find_element(By.ID, "hand-3").text)


def enter_offline(driver, number: int, waiting: int = 1) -> None:
    """Hand ``number`` entered (a self-drawn win) and kept on the tablet, ``waiting`` in all."""
    assert driver.find_element(By.CSS_SELECTOR, "#entry h2").text == f"Enter hand {number}"
    tap_a_win_and_save(driver, number)
    wait_for(driver, 15).until(lambda d: sync_state(d) == ("pending", f"{waiting} waiting to send"))


def test_twenty_rounds_of_offline_reload_enter_online_lose_and_double_nothing(
    browser, table_in_play
):
    log_in(browser, "referee", "pw-referee")
    tables = [table_in_play, table_in_play.session.tables.get(number=2)]
    for table in reversed(tables):
        browser.get(sheet_url(browser, table))
        wait_kept(browser, sheet_url(browser, table).removeprefix(browser.live_server_url))
    for round_number in range(1, 21):
        # Sixteen hands fill table 1; the last four rounds are table 2's.
        table = tables[0] if round_number <= 16 else tables[1]
        number = round_number if round_number <= 16 else round_number - 16
        network(browser, offline=True)
        reload_offline(browser, sheet_url(browser, table))
        enter_offline(browser, number)
        network(browser, offline=False)
        wait_for(browser, 30).until(lambda d: sync_state(d)[0] == "saved")
        assert stored(table)[-1:] == [number]
    assert delivered_once_in_order(tables[0]) == list(range(1, 17))
    assert delivered_once_in_order(tables[1]) == [1, 2, 3, 4]


def test_a_new_release_replaces_what_the_tablet_kept_and_refuses_the_old_page(
    browser, table_in_play, monkeypatch
):
    open_kept_sheet(browser, table_in_play)
    first = browser.find_element(By.CSS_SELECTOR, "#hand-entry [name=release]")
    old_release = first.get_attribute("value")
    assert cache_names(browser) == [f"mcr-files-{old_release}", f"mcr-pages-{old_release}"]
    network(browser, offline=True)
    reload_offline(browser)
    enter_offline(browser, 1)
    # The site is upgraded meanwhile: its release is another.
    for module in ("tournament.views.offline", "tournament.views.referee"):
        monkeypatch.setattr(f"{module}.release", lambda: "upgraded0001")
    network(browser, offline=False)
    # The entry made on the old release's page is refused, kept on the tablet, not stored.
    wait_for(browser, 30).until(lambda d: sync_state(d)[0] == "refused")
    problem = browser.find_element(By.CSS_SELECTOR, "[data-sync-problems]").text
    assert "The site was updated after this page was loaded" in problem
    assert stored(table_in_play) == []
    # One reload: the new release's page and service worker, and only its files kept.
    browser.refresh()
    wait_for(browser, 20).until(
        lambda d: d.execute_script(
            "var c = navigator.serviceWorker.controller;"
            "return c && c.scriptURL.indexOf('release=upgraded0001') !== -1;"
        )
    )
    wait_for(browser, 20).until(
        lambda d: cache_names(d) == ["mcr-files-upgraded0001", "mcr-pages-upgraded0001"]
    )
    kept_scripts = browser.execute_async_script(
        """
        var done = arguments[arguments.length - 1];
        caches.open("mcr-files-upgraded0001").then(function (c) { return c.keys(); })
          .then(function (keys) {
            done(keys.map(function (k) { return new URL(k.url).pathname; }));
          });
        """
    )
    assert {"/static/js/tablet.js", "/static/js/offline.js", "/static/css/site.css"} <= set(
        kept_scripts
    )
    field = browser.find_element(By.CSS_SELECTOR, "#hand-entry [name=release]")
    assert field.get_attribute("value") == "upgraded0001"
    # The refused entry, edited into the new page's form and saved, is stored once.
    browser.find_element(By.CSS_SELECTOR, "[data-sync-problems] [data-sync-edit]").click()
    browser.find_element(By.CSS_SELECTOR, "#hand-entry button.primary").click()
    wait_for(browser, 30).until(lambda d: stored(table_in_play) == [1])
    assert delivered_once_in_order(table_in_play) == [1]


def cache_names(driver) -> list[str]:
    return driver.execute_async_script(
        "var done = arguments[arguments.length - 1];"
        "caches.keys().then(function (n) { done(n.sort()); });"
    )


def test_chromium_finds_the_app_installable_and_its_service_worker(browser, table_in_play):
    log_in(browser, "referee", "pw-referee")
    url = sheet_url(browser, table_in_play)
    browser.get(url)
    wait_kept(browser, url.removeprefix(browser.live_server_url))
    manifest = browser.execute_cdp_cmd("Page.getAppManifest", {})
    assert manifest["errors"] == []
    parsed = json.loads(manifest["data"])
    # The tablet's app opens on this table's sheet, full screen.
    assert parsed["start_url"] == url.removeprefix(browser.live_server_url)
    assert parsed["display"] == "fullscreen"
    assert browser.execute_cdp_cmd("Page.getInstallabilityErrors", {})["installabilityErrors"] == []
    worker = browser.execute_async_script(
        """
        var done = arguments[arguments.length - 1];
        navigator.serviceWorker.getRegistration().then(function (r) {
          done({scope: r.scope, state: r.active && r.active.state});
        });
        """
    )
    assert worker == {"scope": browser.live_server_url + "/", "state": "activated"}


def test_a_players_page_offline_shows_the_last_known_table_and_seat(
    browser, table_in_play, settings
):
    settings.PLAYER_PAGE_SECONDS = 1
    seat = table_in_play.seats.order_by("seat").first()
    link = browser.live_server_url + f"/me/{player_token(seat.player)}/"
    browser.get(link)
    wait_kept(browser, link.removeprefix(browser.live_server_url))
    # Open, its next poll unanswered: it says since when the server last answered.
    network(browser, offline=True)
    wait_for(browser, 10).until(lambda d: offline_line(d)[0] == "lost")
    assert offline_line(browser)[1].startswith("No network since ")
    # Reloaded without the network: the table and seat as last loaded, saying so.
    reload_offline(browser)
    assert offline_line(browser)[1].startswith(
        "No network: your table and seat as last loaded, at "
    )
    own = browser.find_element(By.CSS_SELECTOR, ".own-seat").text
    assert f"Table {table_in_play.number}" in own and "Seat" in own
    network(browser, offline=False)
    wait_for(browser, 20).until(lambda d: offline_line(d)[0] == "back")


def test_the_calculator_reloaded_offline_counts_the_fans_once_the_network_is_back(browser):
    browser.get(browser.live_server_url + "/calculator/")
    wait_kept(browser, "/calculator/")
    network(browser, offline=True)
    reload_offline(browser)
    hand = notation.parse_hand("123m456p789s1z [555p] +1z")
    tap_plan(browser, plan(hand))
    shown = shown_fans(browser)
    assert shown["offline"] and shown["total"] is None
    assert shown["text"] == "No network: the server counts the fans as soon as the network is back."
    network(browser, offline=False)
    wait_for(browser, 20).until(lambda d: shown_fans(d)["total"] is not None)
    assert shown_fans(browser)["total"] == notation.score_hand(hand).total_without_flowers


def test_a_server_answering_that_it_is_away_shows_the_kept_sheet(
    browser, table_in_play, monkeypatch
):
    open_kept_sheet(browser, table_in_play)

    def database_away(table):
        raise InterfaceError("connection already closed")

    # The database away: the server answers 503, as a proxy answers 502 while it restarts.
    monkeypatch.setattr("tournament.views.referee.table_sheet", database_away)
    reload_offline(browser)
    assert "Session 1 · Table 1" in browser.find_element(By.TAG_NAME, "h1").text
    assert browser.find_element(By.CSS_SELECTOR, "#entry h2").text == "Enter hand 1"


def test_the_referees_home_comes_back_from_the_server_and_a_logout_drops_the_kept_pages(
    browser, table_in_play
):
    log_in(browser, "referee", "pw-referee")
    path = f"/t/{table_in_play.session.tournament.slug}/referee/"
    browser.get(browser.live_server_url + path)
    wait_kept(browser, path)
    network(browser, offline=True)
    reload_offline(browser)
    assert "Session 1 in play" in browser.find_element(By.TAG_NAME, "main").text
    # Back: nothing on it brings itself up to date, so it is loaded again from the server.
    network(browser, offline=False)
    wait_for(browser, 30).until(
        lambda d: (
            d.find_element(By.CSS_SELECTOR, "[data-offline-line]").get_attribute("data-page-source")
            == "server"
        )
    )
    assert kept_page(browser, path) is not None
    # Logged out: the pages the account saw are no longer on the device.
    browser.execute_script("document.querySelector('form[action$=\"/logout/\"]').submit();")
    wait_for(browser, 15).until(lambda d: kept_page(d, path) is None)
