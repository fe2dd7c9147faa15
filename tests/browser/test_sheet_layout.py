"""The referee's sheet on a tablet held either way: Save in view for every kind of hand, even
tap targets, a draw corrected into a win in one step, nothing scrolled sideways."""

import pytest
from selenium.webdriver.common.by import By

from reference.tile_taps import plan
from tests.browser.conftest import TABLET_LANDSCAPE, TABLET_UPRIGHT, log_in, navigates, set_viewport
from tests.browser.picker import PICKER, shown_fans, tap_plan
from tests.browser.test_hand_entry import in_view, sheet_url, tap
from tests.browser.test_tile_picker import open_picker
from tournament import services
from tournament.scoring import notation

SIZES = pytest.mark.parametrize(
    "size", [TABLET_UPRIGHT, TABLET_LANDSCAPE], ids=["upright", "landscape"]
)
SAVE = "#hand-entry button.primary"


def choice(name: str, value: str) -> str:
    return f'#hand-entry label:has(input[name="{name}"][value="{value}"])'


def at_the_top(driver) -> None:
    driver.execute_script("window.scrollTo(0, 0);")


@SIZES
def test_save_is_in_view_for_every_kind_of_hand(browser, table_in_play, size):
    set_viewport(browser, *size)
    log_in(browser, "referee", "pw-referee")
    browser.get(sheet_url(browser, table_in_play))
    # Nothing wider than the screen.
    assert browser.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth;"
    )
    # A draw: one tap, in view from the start.
    assert in_view(browser, "#hand-entry [data-save-draw]")
    # A discard win.
    for css in (choice("outcome", "discard"), choice("winner", "1"), choice("discarder", "2")):
        tap(browser, css)
    tap(browser, '#hand-entry [data-fan="8"]')
    assert in_view(browser, SAVE)
    # A self-drawn win with flowers, its fan taken from the tiles.
    tap(browser, choice("outcome", "self_drawn"))
    tap(browser, '#hand-entry [data-flower-stepper] [data-step="1"]')
    assert in_view(browser, SAVE)
    open_picker(browser)
    tap_plan(browser, plan(notation.parse_hand("1199m2277p3388sE +E | self"), on_sheet=True))
    shown_fans(browser)
    browser.find_element(By.CSS_SELECTOR, f"{PICKER} [data-use-total]").click()
    at_the_top(browser)
    assert in_view(browser, "[data-picker-summary]")
    assert in_view(browser, SAVE)
    # "Not played" and a draw hide the fan: Save stays where it was.
    tap(browser, choice("outcome", "not_played"))
    assert in_view(browser, SAVE)


@SIZES
def test_the_choice_tiles_are_even(browser, table_in_play, size):
    set_viewport(browser, *size)
    log_in(browser, "referee", "pw-referee")
    browser.get(sheet_url(browser, table_in_play))
    for name in ("outcome", "winner", "discarder"):
        heights = browser.execute_script(
            "return Array.from(document.querySelectorAll(arguments[0])).map("
            "  l => Math.round(l.getBoundingClientRect().height));",
            f'#hand-entry label:has(input[name="{name}"])',
        )
        assert len(set(heights)) == 1 and heights[0] >= 44, (name, heights)
        radios = browser.execute_script(
            "return Array.from(document.querySelectorAll(arguments[0])).map("
            "  r => Math.round(r.getBoundingClientRect().width));",
            f'#hand-entry input[name="{name}"]',
        )
        assert len(set(radios)) == 1, (name, radios)


def test_a_draw_is_corrected_into_a_win_in_one_step(browser, table_in_play):
    services.hand_record(table=table_in_play, entry=services.HandEntry(number=1, outcome="draw"))
    log_in(browser, "referee", "pw-referee")
    browser.get(sheet_url(browser, table_in_play) + "hands/1/")
    assert browser.find_element(
        By.CSS_SELECTOR, 'input[name="outcome"][value="draw"]'
    ).is_selected()
    # The winner is there to tap: tapping them takes the draw back, and the fan and the
    # discarder are there as for a new hand.
    tap(browser, choice("winner", "2"))
    assert not browser.find_elements(By.CSS_SELECTOR, "input[name=outcome]:checked")
    assert browser.find_element(By.NAME, "fan").is_displayed()
    tap(browser, choice("discarder", "0"))
    assert browser.find_element(
        By.CSS_SELECTOR, 'input[name="outcome"][value="discard"]'
    ).is_selected()
    tap(browser, '#hand-entry [data-fan="12"]')
    navigates(browser, browser.find_element(By.CSS_SELECTOR, SAVE).click)
    hand = table_in_play.hands.get(number=1)
    assert (hand.outcome, hand.winner, hand.discarder, hand.fan) == ("discard", 2, 0, 12)
    # And back: a draw tapped clears the winner and the discarder.
    browser.get(sheet_url(browser, table_in_play) + "hands/1/")
    tap(browser, choice("outcome", "draw"))
    assert not browser.find_elements(
        By.CSS_SELECTOR, "input[name=winner]:checked, input[name=discarder]:checked"
    )
