"""A referee enters hands in a real browser on a tablet-sized window."""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.wait import WebDriverWait

from tests.browser.conftest import (
    TABLET_LANDSCAPE,
    TABLET_UPRIGHT,
    log_in,
    navigates,
    set_viewport,
)
from tests.conftest import make_user
from tournament.models import Hand


def sheet_url(driver, table) -> str:
    session = table.session
    return (
        f"{driver.live_server_url}/t/{session.tournament.slug}/sessions/{session.number}"
        f"/tables/{table.number}/"
    )


def choose(driver, name: str, value: str) -> None:
    """Tap the radio tile of ``name`` whose value is ``value`` (its label, as a finger does)."""
    radio = driver.find_element(
        By.CSS_SELECTOR, f'#hand-entry input[name="{name}"][value="{value}"]'
    )
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", radio)
    radio.find_element(By.XPATH, "./ancestor::label[1]").click()


def type_into(driver, name: str, text: str) -> None:
    field = driver.find_element(By.CSS_SELECTOR, f'#hand-entry [name="{name}"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", field)
    field.clear()
    field.send_keys(text)


def saved_message(driver) -> str:
    """What the hand's status line says ("Hand 6 saved."), or ""."""
    found = driver.find_elements(By.CSS_SELECTOR, "#entry .saved[role=status]")
    return found[0].get_attribute("textContent").strip() if found else ""


def saves_in_place(driver, action, timeout: float = 15) -> None:
    """Run ``action`` (a tap on Save) for a hand the server stores, and wait until the page
    says it saved: in place, the page never left (a mark set on it before is still there)."""
    number = driver.find_element(By.CSS_SELECTOR, "#hand-entry [name=number]").get_attribute(
        "value"
    )
    driver.execute_script("window.beforeTheSave = true;")
    action()
    WebDriverWait(driver, timeout).until(lambda d: saved_message(d) == f"Hand {number} saved.")
    assert driver.execute_script("return window.beforeTheSave === true;")


def save(driver, css: str = "#hand-entry button.primary", *, refused: bool = False) -> None:
    """Tap Save (or the button ``css``): stored, the page moves to the next hand in place;
    ``refused``, the form is posted plainly and the server's page says why."""
    button = driver.find_element(By.CSS_SELECTOR, css)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", button)
    if refused:
        navigates(driver, button.click)
    else:
        saves_in_place(driver, button.click)


def enter_hand(driver, number: int) -> None:
    """Hand ``number``: every fourth is a draw ("Save as a draw", one tap), the others a
    win by a different player."""
    if number % 4 == 0:
        save(driver, "#hand-entry [data-save-draw]")
        return
    if number % 2:
        choose(driver, "outcome", "self_drawn")
        choose(driver, "winner", str(number % 4))
        type_into(driver, "fan", "8")
    else:
        choose(driver, "outcome", "discard")
        choose(driver, "winner", "1")
        choose(driver, "discarder", "3")
        type_into(driver, "fan", "12")
    save(driver)


def test_a_referee_enters_a_whole_table_of_sixteen_hands(browser, table_in_play):
    log_in(browser, "referee", "pw-referee")
    browser.get(sheet_url(browser, table_in_play))
    for number in range(1, 17):
        heading = browser.find_element(By.CSS_SELECTOR, "#entry h2").text
        assert heading == f"Enter hand {number}"
        enter_hand(browser, number)
        header = browser.find_element(By.CSS_SELECTOR, ".hand-header, #entry")
        assert f"Hand {number} saved." in browser.find_element(By.TAG_NAME, "body").text
        # The sync state stays in sight, beside the hand's header while there is a form.
        state = browser.find_element(By.CSS_SELECTOR, "[data-sync-state]")
        assert state.is_displayed() and state.text == "All saved"
        assert number == 16 or header.find_element(By.CSS_SELECTOR, "[data-sync-state]")
    stored = list(table_in_play.hands.order_by("number").values_list("number", "outcome"))
    assert [n for n, _outcome in stored] == list(range(1, 17))
    assert [outcome for _n, outcome in stored].count("draw") == 4
    assert not browser.find_elements(By.ID, "hand-entry")
    assert "All 16 hands are entered" in browser.find_element(By.ID, "entry").text


def test_back_then_save_does_not_store_the_hand_again(browser, table_in_play):
    log_in(browser, "referee", "pw-referee")
    browser.get(sheet_url(browser, table_in_play))
    enter_hand(browser, 1)
    assert "Hand 1 saved." in browser.find_element(By.TAG_NAME, "body").text
    # Saved in place, the sheet adds no page to the history: Back leaves it, Forward brings
    # it back as the form for the next hand, its choices not restored: saving it blindly is
    # refused, never a copy of hand 1 stored as hand 2.
    navigates(browser, browser.back)
    assert "/tables/" not in browser.current_url
    navigates(browser, browser.forward)
    assert browser.find_element(By.CSS_SELECTOR, "#entry h2").text == "Enter hand 2"
    save(browser, refused=True)
    assert "Hand 2 saved." not in browser.find_element(By.TAG_NAME, "body").text
    assert list(table_in_play.hands.values_list("number", flat=True)) == [1]
    assert Hand.objects.count() == 1


def test_a_referee_cannot_open_a_table_that_is_not_theirs(browser, table_in_play):
    stranger = make_user("stranger")
    table_in_play.session.tournament.referees.add(stranger)
    log_in(browser, "stranger", "pw-stranger")
    browser.get(sheet_url(browser, table_in_play))
    assert not browser.find_elements(By.ID, "hand-entry")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Not allowed"
    assert "only at the tables given to them" in browser.find_element(By.TAG_NAME, "body").text


def in_view(driver, css: str) -> bool:
    """The element is entirely inside the window, as it stands (no scrolling)."""
    return driver.execute_script(
        "var r = document.querySelector(arguments[0]).getBoundingClientRect();"
        "return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0;",
        css,
    )


def tap(driver, css: str) -> None:
    """Tap what is on screen, without scrolling to it first (a finger cannot)."""
    element = driver.find_element(By.CSS_SELECTOR, css)
    assert driver.execute_script(
        "var r = arguments[0].getBoundingClientRect();"
        "return r.top >= 0 && r.bottom <= window.innerHeight;",
        element,
    ), f"{css} is off screen"
    element.click()


@pytest.mark.parametrize("size", [TABLET_UPRIGHT, TABLET_LANDSCAPE])
def test_a_plain_discard_win_is_entered_on_one_screen(browser, table_in_play, size):
    set_viewport(browser, *size)
    log_in(browser, "referee", "pw-referee")
    browser.get(sheet_url(browser, table_in_play) + "#entry")
    for number in (1, 2):
        tap(browser, '#hand-entry label:has(input[name="outcome"][value="discard"])')
        tap(browser, '#hand-entry label:has(input[name="winner"][value="1"])')
        tap(browser, '#hand-entry label:has(input[name="discarder"][value="2"])')
        tap(browser, '#hand-entry [data-fan="8"]')
        assert in_view(browser, "#hand-entry button.primary")
        saves_in_place(
            browser, browser.find_element(By.CSS_SELECTOR, "#hand-entry button.primary").click
        )
        assert in_view(browser, ".hand-header")
        assert f"Hand {number} saved." in browser.find_element(By.CSS_SELECTOR, ".hand-header").text
        assert browser.execute_script("return window.scrollY") >= 0
    assert list(table_in_play.hands.values_list("number", "fan", "discarder")) == [
        (1, 8, 2),
        (2, 8, 2),
    ]


def test_the_flower_stepper_and_quick_picks_fill_the_numbers(browser, table_in_play):
    log_in(browser, "referee", "pw-referee")
    browser.get(sheet_url(browser, table_in_play) + "#entry")
    choose(browser, "outcome", "self_drawn")
    choose(browser, "winner", "0")
    browser.find_element(By.CSS_SELECTOR, '#hand-entry [data-fan="24"]').click()
    plus = browser.find_element(By.CSS_SELECTOR, '#hand-entry [data-step="1"]')
    for _ in range(3):
        plus.click()
    save(browser)
    hand = table_in_play.hands.get(number=1)
    assert (hand.fan, hand.flowers) == (24, 3)
