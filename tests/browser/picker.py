"""Driving the tile picker in a real browser: tap a plan of ``reference.tile_taps``, then read
what the picker shows once the server has counted the fans."""

from selenium.webdriver.common.by import By
from selenium.webdriver.support.wait import WebDriverWait

from reference.tile_taps import Tap, selector
from tests.fan_lists import listed_fans

PICKER = "[data-tile-picker]"


def tap_plan(driver, taps: list[Tap]) -> int:
    """Tap each control of ``taps`` in the picker, as a finger does; the number of taps."""
    picker = driver.find_element(By.CSS_SELECTOR, PICKER)
    for tap in taps:
        picker.find_element(By.CSS_SELECTOR, selector(tap)).click()
    return len(taps)


def written_hand(driver) -> str:
    """The hand the picker wrote into the form's field."""
    picker = driver.find_element(By.CSS_SELECTOR, PICKER)
    target = picker.get_attribute("data-target")
    return driver.execute_script(
        "return arguments[0].closest('form').querySelector(`[name='${arguments[1]}']`).value;",
        picker,
        target,
    )


def shown_fans(driver, timeout: float = 15) -> dict:
    """What the picker shows for the hand in its field, once it is shown: the total without
    flowers (None when the hand has no fans, or offline), the fans as (name, points, count),
    how long after the last tap they appeared (ms, measured in the page), and the text."""
    picker = driver.find_element(By.CSS_SELECTOR, PICKER)
    hand = written_hand(driver)
    WebDriverWait(driver, timeout).until(lambda d: picker.get_attribute("data-fans-hand") == hand)
    fans = picker.find_element(By.CSS_SELECTOR, "[data-picker-fans]")
    total = picker.get_attribute("data-fans-total")
    html = fans.get_attribute("innerHTML")
    return {
        "total": int(total) if total else None,
        "fans": listed_fans(html),
        "after_ms": float(picker.get_attribute("data-fans-shown-after") or "nan"),
        "text": fans.text,
        "offline": bool(fans.find_elements(By.CSS_SELECTOR, "[data-fans-offline]")),
    }


def fits_the_screen(driver, css: str) -> bool:
    """``css``'s box is no taller than the viewport and nothing in it scrolls sideways."""
    return driver.execute_script(
        "const box = document.querySelector(arguments[0]).getBoundingClientRect();"
        "return box.height <= window.innerHeight"
        " && document.documentElement.scrollWidth <= window.innerWidth;",
        css,
    )
