"""A referee writes several penalties with one hand in a real browser: rows added on the
page, presets tapped, players chosen with seat tiles, one save."""

from selenium.webdriver.common.by import By
from selenium.webdriver.support.select import Select

from tests.browser.conftest import log_in
from tests.browser.test_hand_entry import saves_in_place


def open_sheet(driver, table) -> None:
    session = table.session
    log_in(driver, "referee", "pw-referee")
    driver.get(
        f"{driver.live_server_url}/t/{session.tournament.slug}/sessions/{session.number}"
        f"/tables/{table.number}/"
    )


def tap(driver, element) -> None:
    """Tap ``element`` as a finger does: brought into view first."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", element)
    element.click()


def tap_tile(driver, name: str, value: str) -> None:
    """Tap the seat (or result) tile of the radio ``name`` whose value is ``value``."""
    radio = driver.find_element(
        By.CSS_SELECTOR, f'#hand-entry input[name="{name}"][value="{value}"]'
    )
    tap(driver, radio.find_element(By.XPATH, "./ancestor::label[1]"))
    assert radio.is_selected()


def tap_preset(driver, row: int, reason_starts: str) -> None:
    tap(
        driver,
        driver.find_element(
            By.CSS_SELECTOR, f'#penalty-{row} button[data-preset-reason^="{reason_starts}"]'
        ),
    )


def row_values(driver, row: int) -> tuple[str, str, str]:
    def value(name):
        return driver.find_element(By.NAME, f"penalty-{row}-{name}").get_attribute("value")

    return value("kind"), value("points"), value("reason")


def open_penalties(driver) -> None:
    details = driver.find_element(By.CSS_SELECTOR, "#hand-entry details.penalties")
    if not details.get_attribute("open"):
        tap(driver, details.find_element(By.TAG_NAME, "summary"))


def save(driver) -> None:
    saves_in_place(
        driver,
        lambda: tap(driver, driver.find_element(By.CSS_SELECTOR, "#hand-entry button.primary")),
    )


def test_two_penalties_from_presets_and_seat_tiles_are_saved_with_one_hand(browser, table_in_play):
    open_sheet(browser, table_in_play)
    tap_tile(browser, "outcome", "draw")
    open_penalties(browser)
    browser.execute_script("window.stillThisPage = true;")
    add = browser.find_element(By.CSS_SELECTOR, "[data-add-penalty]")
    tap(browser, add)
    tap(browser, add)
    # Added on the page, not by a round trip to the server.
    assert browser.execute_script("return window.stillThisPage === true;")
    rows = browser.find_elements(By.CSS_SELECTOR, "#hand-entry [data-penalty-row]")
    assert [row.get_attribute("id") for row in rows] == ["penalty-0", "penalty-1", "penalty-2"]
    assert rows[2].find_element(By.TAG_NAME, "legend").text == "Penalty 3"
    total = browser.find_element(By.NAME, "penalty-TOTAL_FORMS")
    assert total.get_attribute("value") == "3"

    tap_tile(browser, "penalty-1-offender", "2")  # P3
    tap_preset(browser, 1, "False win")
    tap_tile(browser, "penalty-2-offender", "0")  # P1
    tap_preset(browser, 2, "Lateness")
    assert row_values(browser, 1) == ("to_each_other", "10", "False win (错和)")
    assert row_values(browser, 2) == ("deducted", "10", "Lateness")
    range_note = browser.find_element(By.CSS_SELECTOR, "#penalty-2 [data-points-range]")
    assert range_note.text == "The rules allow 10 or 20."

    save(browser)
    assert "Hand 1 saved." in browser.find_element(By.TAG_NAME, "body").text
    hand = table_in_play.hands.get(number=1)
    assert hand.outcome == "draw"
    assert hand.points == (10 - 10, 10, -30, 10)
    assert hand.deducted == 10
    assert list(hand.penalties.values_list("offender", "kind", "points", "reason")) == [
        (2, "to_each_other", 10, "False win (错和)"),
        (0, "deducted", 10, "Lateness"),
    ]
    assert not hand.revisions.exists()


def test_exposing_tiles_asks_whom_to_pay_and_pays_the_seat_tapped(browser, table_in_play):
    open_sheet(browser, table_in_play)
    tap_tile(browser, "outcome", "draw")
    open_penalties(browser)
    beneficiary = browser.find_element(By.CSS_SELECTOR, "#penalty-0 [data-beneficiary]")
    assert not beneficiary.is_displayed()  # nobody is paid until the kind says so

    tap_tile(browser, "penalty-0-offender", "1")  # P2
    tap_preset(browser, 0, "Exposed")
    assert row_values(browser, 0) == ("to_one", "5", "Exposed another player's tiles")
    assert beneficiary.is_displayed()
    assert beneficiary.find_element(By.CSS_SELECTOR, "[data-beneficiary-ask]").is_displayed()
    tap_tile(browser, "penalty-0-beneficiary", "3")  # P4

    # Another preset of the row takes the payee away again.
    tap_preset(browser, 0, "Lateness")
    assert not beneficiary.is_displayed()
    assert browser.find_element(
        By.CSS_SELECTOR, 'input[name="penalty-0-beneficiary"][value=""]'
    ).is_selected()
    Select(browser.find_element(By.NAME, "penalty-0-kind")).select_by_value("to_one")
    tap_tile(browser, "penalty-0-beneficiary", "3")
    tap_preset(browser, 0, "Exposed")

    save(browser)
    assert "Hand 1 saved." in browser.find_element(By.TAG_NAME, "body").text
    hand = table_in_play.hands.get(number=1)
    assert hand.points == (0, -5, 0, 5)
    assert list(hand.penalties.values_list("offender", "kind", "points", "beneficiary")) == [
        (1, "to_one", 5, 3)
    ]
