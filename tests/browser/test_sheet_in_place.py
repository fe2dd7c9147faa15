"""The referee's sheet after a save, in place: the scores, the next hand's form, "Confirm the
table" and the last hand's "all entered" come without a page load; and the tablet's screen
is kept on (the Screen Wake Lock) while the table is in play, not once it is confirmed."""

from selenium.webdriver.common.by import By

from tests.browser.conftest import log_in, wait_for
from tests.browser.test_hand_entry import choose, save, sheet_url, type_into
from tests.browser.test_offline import heading, sync_state
from tournament import seating, services
from tournament.language.formatting import SEAT_LABELS, WIND_NAMES, signed
from tournament.selectors.sheets import table_players

# Before the page's own scripts: every wake lock the page asks for, and what it got.
COUNT_WAKE_LOCKS = """
window.wakeLockRequests = 0;
window.wakeLocks = [];
if (navigator.wakeLock) {
  const request = navigator.wakeLock.request.bind(navigator.wakeLock);
  navigator.wakeLock.request = function (type) {
    window.wakeLockRequests += 1;
    const asked = request(type);
    asked.then(function (sentinel) { window.wakeLocks.push(sentinel); }, function () {});
    return asked;
  };
}
"""


def enter_draws(table, numbers) -> None:
    for number in numbers:
        services.hand_record(table=table, entry=services.HandEntry(number=number, outcome="draw"))


def page_loads(driver) -> tuple[float, int, bool]:
    """This document's start (a new page is a new document, with its own), its navigation
    entries, and whether the mark set on it before the saves is still there."""
    return driver.execute_script(
        "return [performance.timeOrigin, performance.getEntriesByType('navigation').length,"
        " window.beforeTheSaves === true];"
    )


def summary_scores(driver) -> list[str]:
    rows = driver.find_elements(By.CSS_SELECTOR, "table.summary tbody tr")
    return [row.find_elements(By.TAG_NAME, "td")[2].text for row in rows]


def focused(driver) -> str:
    """The element with the focus: its tag and id, or its text."""
    return driver.execute_script(
        "var e = document.activeElement; return e.tagName + ' ' + (e.id || e.textContent.trim());"
    )


def test_hands_saved_in_a_row_move_the_sheet_in_place_to_all_entered(browser, table_in_play):
    enter_draws(table_in_play, range(1, 14))
    players = table_players(table_in_play)
    log_in(browser, "referee", "pw-referee")
    browser.get(sheet_url(browser, table_in_play))
    browser.execute_script("window.beforeTheSaves = true;")
    before = page_loads(browser)
    assert before[1:] == [1, True]
    confirm = browser.find_element(By.ID, "confirm").text
    assert "3 hands are not entered." in confirm
    totals = [0, 0, 0, 0]
    for number in (14, 15, 16):
        assert heading(browser) == f"Enter hand {number}"
        winner = number % 4
        choose(browser, "outcome", "self_drawn")
        choose(browser, "winner", str(winner))
        type_into(browser, "fan", "8")
        save(browser)
        # The page is the one loaded before the saves.
        assert page_loads(browser) == before
        hand = table_in_play.hands.get(number=number)
        totals = [total + points for total, points in zip(totals, hand.points, strict=True)]
        # The sheet has the hand and the running scores, as the server has them.
        row = browser.find_element(By.ID, f"hand-{number}").text
        assert signed(hand.points[winner]) in row and "+48" in row
        assert summary_scores(browser) == [signed(total) for total in totals]
        if number < 16:
            # The next hand's form, clean, with its title and its round and dealer.
            slot = seating.session_schedule()[number]
            assert slot.number == number + 1
            assert heading(browser) == f"Enter hand {number + 1}"
            dealer = players[slot.dealer]
            winds = browser.find_element(By.CSS_SELECTOR, "#entry .hand-winds").text
            assert winds == (
                f"{WIND_NAMES[slot.prevalent_wind]} round · dealer "
                f"{SEAT_LABELS[slot.dealer]} {dealer.name}"
            )
            assert not browser.find_elements(
                By.CSS_SELECTOR, "#hand-entry input[type=radio]:checked:not([name^=penalty])"
            )
            assert browser.find_element(By.NAME, "fan").get_attribute("value") == ""
            # The focus on the next hand's heading, the status line saying the save.
            assert focused(browser) == f"H2 Enter hand {number + 1}"
            status = browser.find_element(By.CSS_SELECTOR, ".hand-header .saved[role=status]")
            assert status.text == f"Hand {number} saved."
            missing = 16 - number
            noun = "hand is" if missing == 1 else "hands are"
            assert f"{missing} {noun} not entered." in browser.find_element(By.ID, "confirm").text
    # The last one: the server's "all entered" where the form was, the focus on it, the
    # table ready to confirm; the sync state still in sight.
    assert not browser.find_elements(By.ID, "hand-entry")
    entry = browser.find_element(By.ID, "entry").text
    assert "Hand 16 saved." in entry
    assert "All 16 hands are entered: check the sheet with the players" in entry
    assert focused(browser).startswith("P all-entered")
    confirm = browser.find_element(By.ID, "confirm").text
    assert "Review and confirm" in confirm and "not entered" not in confirm
    state = browser.find_element(By.CSS_SELECTOR, "[data-sync-state]")
    assert state.is_displayed() and sync_state(browser) == ("saved", "All saved")
    assert page_loads(browser) == before
    assert list(table_in_play.hands.values_list("number", flat=True).order_by("number")) == list(
        range(1, 17)
    )


def wake_lock(driver) -> tuple[str | None, str]:
    line = driver.find_elements(By.CSS_SELECTOR, "[data-wake-lock]")
    if not line:
        return None, ""
    return line[0].get_attribute("data-wake-lock"), line[0].text


def counting_wake_locks(driver) -> None:
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": COUNT_WAKE_LOCKS})


def test_the_screen_stays_on_while_the_table_is_in_play_and_not_once_confirmed(
    browser, table_in_play
):
    enter_draws(table_in_play, range(1, 16))
    log_in(browser, "referee", "pw-referee")
    counting_wake_locks(browser)
    url = sheet_url(browser, table_in_play)
    browser.get(url)
    wait_for(browser, 10).until(lambda d: wake_lock(d)[0] == "held")
    assert wake_lock(browser)[1] == "The screen stays on while this session is in play."
    assert browser.execute_script("return window.wakeLockRequests;") == 1
    # Hidden, the page loses the lock (the browser lets go of it); shown again, it asks again.
    browser.execute_script("window.wakeLocks[0].release();")
    browser.execute_script("document.dispatchEvent(new Event('visibilitychange'));")
    wait_for(browser, 10).until(lambda d: d.execute_script("return window.wakeLocks.length;") == 2)
    assert wake_lock(browser)[0] == "held"
    # The last hand saved in place: still in play (not confirmed), the lock kept.
    save(browser, "#hand-entry [data-save-draw]")
    assert wake_lock(browser)[0] == "held"
    assert browser.execute_script("return window.wakeLockRequests;") == 2
    assert not browser.execute_script("return window.wakeLocks[1].released;")
    # Confirmed meanwhile (on the review page of another device): the sheet, refreshed when
    # the tablet is shown again, says so and lets the screen sleep.
    services.table_confirm(table=table_in_play, user=None)
    browser.execute_script("document.dispatchEvent(new Event('visibilitychange'));")
    wait_for(browser, 10).until(lambda d: "Confirmed" in d.find_element(By.ID, "confirm").text)
    wait_for(browser, 10).until(lambda d: d.execute_script("return window.wakeLocks[1].released;"))
    assert wake_lock(browser) == (None, "")
    assert browser.execute_script("return window.wakeLockRequests;") == 2
    # The confirmed table's sheet, loaded, asks for nothing.
    browser.get(url)
    assert "Confirmed" in browser.find_element(By.ID, "confirm").text
    assert browser.execute_script("return window.wakeLockRequests;") == 0
    assert wake_lock(browser) == (None, "")


def test_the_sheet_says_when_the_browser_refuses_to_keep_the_screen_on(browser, table_in_play):
    log_in(browser, "referee", "pw-referee")
    browser.execute_cdp_cmd(
        "Browser.setPermission",
        {"permission": {"name": "screen-wake-lock"}, "setting": "denied"},
    )
    browser.get(sheet_url(browser, table_in_play))
    wait_for(browser, 10).until(lambda d: wake_lock(d)[0] == "refused")
    assert wake_lock(browser)[1] == (
        "The browser did not let the screen stay on: set the tablet not to sleep during the "
        "session."
    )
