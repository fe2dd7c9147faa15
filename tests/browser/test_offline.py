"""The tablet keeps working through Wi-Fi drops: hands saved offline are kept on the tablet,
the next form is ready at once, and they reach the server once each when the network returns."""

import json
import uuid

from django.contrib.auth.models import User
from django.urls import reverse
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.wait import WebDriverWait

from tests.browser.conftest import log_in, navigates, server_down, server_up
from tests.browser.test_hand_entry import choose, enter_hand, sheet_url, type_into
from tests.conftest import make_user
from tournament import services
from tournament.models import HandSubmission


def _conditions(offline: bool) -> dict:
    return {"offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}


def network(driver, *, offline: bool) -> None:
    """The network cut (or given back) for the page and for every service worker of the site,
    each a target of its own for the DevTools protocol. A worker's conditions belong to the
    protocol session that set them: one session per worker, kept on the driver. A page that
    installs the service worker (a page kept offline) is first given the time to."""
    WebDriverWait(driver, 20).until(
        lambda d: d.execute_script(
            "return !document.querySelector('[data-offline-line]')"
            " || !!navigator.serviceWorker.controller"
        )
    )
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", _conditions(offline))
    sessions = driver.__dict__.setdefault("worker_sessions", {})
    targets = driver.execute_cdp_cmd("Target.getTargets", {})["targetInfos"]
    for target in targets:
        if target["type"] != "service_worker":
            continue
        if target["targetId"] not in sessions:
            sessions[target["targetId"]] = driver.execute_cdp_cmd(
                "Target.attachToTarget", {"targetId": target["targetId"], "flatten": False}
            )["sessionId"]
        for number, (method, params) in enumerate(
            (("Network.enable", {}), ("Network.emulateNetworkConditions", _conditions(offline)))
        ):
            message = json.dumps({"id": 900 + number, "method": method, "params": params})
            driver.execute_cdp_cmd(
                "Target.sendMessageToTarget",
                {"sessionId": sessions[target["targetId"]], "message": message},
            )
    if not offline:
        # Headless Chromium does not always fire "online" for emulated conditions.
        driver.execute_script("window.dispatchEvent(new Event('online'));")


def sync_state(driver) -> tuple[str, str]:
    element = driver.find_element(By.CSS_SELECTOR, "[data-sync-state]")
    return element.get_attribute("data-sync-state"), element.get_attribute("textContent").strip()


def heading(driver) -> str:
    return driver.find_element(By.CSS_SELECTOR, "#entry h2").text


def tap_a_win_and_save(driver, number: int) -> None:
    """Hand ``number`` tapped in (a self-drawn win, 8 fan), then Save."""
    choose(driver, "outcome", "self_drawn")
    choose(driver, "winner", str(number % 4))
    type_into(driver, "fan", "8")
    button = driver.find_element(By.CSS_SELECTOR, "#hand-entry button.primary")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", button)
    button.click()


def save_in_background(driver, number: int) -> None:
    """Enter hand ``number`` (a self-drawn win) and tap Save: no page load follows."""
    tap_a_win_and_save(driver, number)
    WebDriverWait(driver, 15).until(lambda d: heading(d) == f"Enter hand {number + 1}")


def test_hands_saved_offline_are_sent_once_each_when_the_network_returns(browser, table_in_play):
    log_in(browser, "referee", "pw-referee")
    browser.get(sheet_url(browser, table_in_play))
    WebDriverWait(browser, 15).until(lambda d: sync_state(d) == ("saved", "All saved"))
    page = browser.find_element(By.TAG_NAME, "html")
    network(browser, offline=True)
    for number in (1, 2, 3):
        assert heading(browser) == f"Enter hand {number}"
        save_in_background(browser, number)
        # The form is clean for the next hand.
        assert not browser.find_elements(
            By.CSS_SELECTOR, "#hand-entry input[type=radio]:checked:not([name^=penalty])"
        )
    WebDriverWait(browser, 15).until(lambda d: sync_state(d) == ("pending", "3 waiting to send"))
    badges = browser.find_elements(By.CSS_SELECTOR, "[data-queued-badge=pending]")
    assert len(badges) == 3
    assert "waiting to send" in browser.find_element(By.ID, "hand-2").text
    assert not table_in_play.hands.exists()
    network(browser, offline=False)
    WebDriverWait(browser, 40).until(lambda d: sync_state(d)[0] == "saved")
    assert sync_state(browser) == ("saved", "All saved")
    assert list(table_in_play.hands.order_by("number").values_list("number", flat=True)) == [
        1,
        2,
        3,
    ]
    # Never a page load: the same page, its sheet brought up to date in place.
    assert page == browser.find_element(By.TAG_NAME, "html")
    # The sheet is replaced in place as it refreshes: an element read mid-way may be stale.
    WebDriverWait(browser, 15, ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda d: (
            not d.find_elements(By.CSS_SELECTOR, "[data-queued-badge]")
            and "+" in d.find_element(By.ID, "hand-3").text
        )
    )
    # The next form is hand 4, and online it saves as a plain form post.
    assert heading(browser) == "Enter hand 4"
    enter_hand(browser, 4)
    assert "Hand 4 saved." in browser.find_element(By.TAG_NAME, "body").text
    assert table_in_play.hands.count() == 4


def test_kept_hands_survive_a_reload_and_the_form_follows_them(browser, table_in_play):
    log_in(browser, "referee", "pw-referee")
    url = sheet_url(browser, table_in_play)
    browser.get(url)
    network(browser, offline=True)
    save_in_background(browser, 1)
    save_in_background(browser, 2)
    # Back online but the server still out of reach for the entries' posts (the exact sheet
    # URL blocked); the page itself reloads through another address of the same sheet.
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": [url]})
    network(browser, offline=False)
    browser.get(url + "?woke=1")
    WebDriverWait(browser, 15).until(lambda d: sync_state(d) == ("pending", "2 waiting to send"))
    # The server's next hand is still 1; the form follows the hands kept on the tablet.
    assert heading(browser) == "Enter hand 3"
    assert (
        browser.find_element(By.CSS_SELECTOR, "#hand-entry [name=number]").get_attribute("value")
        == "3"
    )
    assert len(browser.find_elements(By.CSS_SELECTOR, "[data-queued-badge=pending]")) == 2
    assert not table_in_play.hands.exists()
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    network(browser, offline=False)
    WebDriverWait(browser, 40).until(lambda d: sync_state(d) == ("saved", "All saved"))
    assert list(table_in_play.hands.order_by("number").values_list("number", flat=True)) == [1, 2]


def test_an_entry_refused_on_delivery_is_kept_and_shown(browser, table_in_play):
    log_in(browser, "referee", "pw-referee")
    browser.get(sheet_url(browser, table_in_play))
    network(browser, offline=True)
    save_in_background(browser, 1)
    WebDriverWait(browser, 15).until(lambda d: sync_state(d)[0] == "pending")
    # Meanwhile the table is confirmed (another tablet, time called).
    services.table_confirm(table=table_in_play, user=None, record_missing_as_not_played=True)
    network(browser, offline=False)
    WebDriverWait(browser, 40).until(lambda d: sync_state(d)[0] == "refused")
    _state, words = sync_state(browser)
    assert words.startswith("Refused: ") and len(words) > len("Refused: ")
    entry = browser.find_element(By.CSS_SELECTOR, "[data-refused-entry='1']")
    assert "Hand 1" in entry.text
    assert browser.find_elements(By.CSS_SELECTOR, "[data-queued-badge=refused]")
    # Kept across a reload, never dropped, until the referee discards it.
    browser.refresh()
    WebDriverWait(browser, 15).until(lambda d: sync_state(d)[0] == "refused")
    assert browser.find_element(By.CSS_SELECTOR, "[data-refused-entry='1']")
    assert not table_in_play.hands.filter(fan=8).exists()
    browser.find_element(By.CSS_SELECTOR, "[data-sync-discard]").click()
    browser.switch_to.alert.accept()
    WebDriverWait(browser, 15).until(lambda d: sync_state(d) == ("saved", "All saved"))


def test_a_server_out_of_reach_on_a_live_wifi_keeps_the_hand_too(browser, table_in_play):
    # The tablet believes it is online (the Wi-Fi is up) but the server does not answer.
    log_in(browser, "referee", "pw-referee")
    url = sheet_url(browser, table_in_play)
    browser.get(url)
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": [url]})
    assert browser.execute_script("return navigator.onLine")
    save_in_background(browser, 1)
    WebDriverWait(browser, 15).until(lambda d: sync_state(d) == ("pending", "1 waiting to send"))
    assert not table_in_play.hands.exists()
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    WebDriverWait(browser, 40).until(lambda d: sync_state(d) == ("saved", "All saved"))
    assert list(table_in_play.hands.values_list("number", flat=True)) == [1]


def test_hands_entered_while_the_server_is_stopped_are_stored_once_each_after_restart(
    browser, table_in_play, live_server
):
    log_in(browser, "referee", "pw-referee")
    browser.get(sheet_url(browser, table_in_play))
    WebDriverWait(browser, 15).until(lambda d: sync_state(d) == ("saved", "All saved"))
    server_down(live_server)
    try:
        for number in (1, 2, 3):
            assert heading(browser) == f"Enter hand {number}"
            save_in_background(browser, number)
        WebDriverWait(browser, 15).until(
            lambda d: sync_state(d) == ("pending", "3 waiting to send")
        )
        assert "Hand 3 kept on this tablet." in browser.find_element(By.ID, "entry").text
        assert not table_in_play.hands.exists()
    finally:
        server_up(live_server)
    # The tablet tries again by itself, a little later each time (ten seconds at most).
    WebDriverWait(browser, 40).until(lambda d: sync_state(d) == ("saved", "All saved"))
    stored = table_in_play.hands.order_by("number")
    assert [(h.number, h.outcome, h.winner, h.fan) for h in stored] == [
        (1, "self_drawn", 1, 8),
        (2, "self_drawn", 2, 8),
        (3, "self_drawn", 3, 8),
    ]
    assert HandSubmission.objects.filter(hand__table=table_in_play).count() == 3
    assert heading(browser) == "Enter hand 4"


def test_a_refused_entry_is_sent_again_once_its_cause_is_gone(browser, table_in_play):
    session = table_in_play.session
    log_in(browser, "referee", "pw-referee")
    browser.get(sheet_url(browser, table_in_play))
    network(browser, offline=True)
    save_in_background(browser, 1)
    # Meanwhile the table is given to another referee by mistake.
    colleague = make_user("colleague")
    session.tournament.referees.add(colleague)
    services.tables_assign(session=session, referee=colleague, tables=[table_in_play.number])
    network(browser, offline=False)
    WebDriverWait(browser, 40).until(lambda d: sync_state(d)[0] == "refused")
    assert "may no longer enter hands at this table" in sync_state(browser)[1]
    assert not table_in_play.hands.exists()
    # The head referee puts it right; one tap sends the kept entry again.
    referee = User.objects.get(username="referee")
    services.tables_assign(session=session, referee=referee, tables=[table_in_play.number])
    browser.find_element(By.CSS_SELECTOR, "[data-sync-retry]").click()
    WebDriverWait(browser, 40).until(lambda d: sync_state(d) == ("saved", "All saved"))
    hand = table_in_play.hands.get(number=1)
    assert (hand.outcome, hand.winner, hand.fan) == ("self_drawn", 1, 8)


def test_edit_it_puts_a_refused_entry_back_in_the_form_to_change_and_save(browser, table_in_play):
    log_in(browser, "referee", "pw-referee")
    browser.get(sheet_url(browser, table_in_play))
    network(browser, offline=True)
    save_in_background(browser, 1)
    # Meanwhile another tablet stored a different hand 1.
    services.hand_record(table=table_in_play, entry=services.HandEntry(number=1, outcome="draw"))
    network(browser, offline=False)
    WebDriverWait(browser, 40).until(lambda d: sync_state(d)[0] == "refused")
    assert "Hand 1" in browser.find_element(By.CSS_SELECTOR, "[data-refused-entry='1']").text
    browser.find_element(By.CSS_SELECTOR, "[data-sync-edit]").click()
    # The entry is back in the form as it was typed, for hand 1, and no longer queued.
    WebDriverWait(browser, 15).until(lambda d: sync_state(d) == ("saved", "All saved"))
    assert heading(browser) == "Enter hand 1"
    form = browser.find_element(By.ID, "hand-entry")
    assert form.find_element(By.CSS_SELECTOR, "[name=winner][value='1']").is_selected()
    assert form.find_element(By.CSS_SELECTOR, "[name=fan]").get_attribute("value") == "8"
    # Saved again it is refused by the server's page, which shows both versions of hand 1.
    button = form.find_element(By.CSS_SELECTOR, "button.primary")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", button)
    navigates(browser, button.click)
    stored = browser.find_element(By.CSS_SELECTOR, "[data-stored-hand='1']")
    assert "Open hand 1 to correct it" in stored.text
    assert list(table_in_play.hands.values_list("number", "outcome")) == [(1, "draw")]


def test_an_entry_whose_key_saved_other_content_is_shown_as_a_conflict_never_resent(
    browser, table_in_play
):
    # Hand 1 kept on the tablet; its key reaches the server first with other content (the
    # same form's earlier send, its answer lost): the entry kept is refused, never "saved".
    log_in(browser, "referee", "pw-referee")
    browser.get(sheet_url(browser, table_in_play))
    network(browser, offline=True)
    save_in_background(browser, 1)
    WebDriverWait(browser, 15).until(lambda d: sync_state(d)[0] == "pending")
    key = browser.execute_script(
        "var queue = 'mcr-queue:' + document.querySelector('[data-sync]').dataset.queue;"
        "return JSON.parse(localStorage.getItem(queue))[0].key;"
    )
    services.hand_record(
        table=table_in_play,
        entry=services.HandEntry(number=1, outcome="draw", submission_key=uuid.UUID(key)),
    )
    network(browser, offline=False)
    WebDriverWait(browser, 40).until(lambda d: sync_state(d)[0] == "refused")
    assert sync_state(browser) == (
        "refused",
        "Refused: this entry was already saved with other content",
    )
    entry = browser.find_element(By.CSS_SELECTOR, "[data-refused-entry='1']")
    stored = entry.find_element(By.CSS_SELECTOR, "[data-stored-hand='1']")
    assert stored.text == "Stored hand 1: Draw (P1 0, P2 0, P3 0, P4 0)."
    # Sent again, as it is or edited, it would be refused again: the referee corrects the
    # stored hand on its own page, or discards the entry.
    assert not entry.find_elements(By.CSS_SELECTOR, "[data-sync-retry]")
    assert not entry.find_elements(By.CSS_SELECTOR, "[data-sync-edit]")
    assert entry.find_elements(By.CSS_SELECTOR, "[data-sync-discard]")
    correct = entry.find_element(By.CSS_SELECTOR, "[data-sync-correct]")
    assert correct.text == "Correct hand 1"
    assert correct.get_attribute("href").endswith(
        reverse("hand_edit", args=[table_in_play.session.tournament.slug, 1, 1, 1])
    )
    # Kept across a reload, never sent again by itself, the stored hand untouched.
    browser.refresh()
    WebDriverWait(browser, 15).until(lambda d: sync_state(d)[0] == "refused")
    assert browser.find_element(By.CSS_SELECTOR, "[data-stored-hand='1']")
    assert list(table_in_play.hands.values_list("number", "outcome")) == [(1, "draw")]
    assert HandSubmission.objects.get(key=key).hand.outcome == "draw"
