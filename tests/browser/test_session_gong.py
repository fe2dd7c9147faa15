"""The gong on the open score sheet (real Chromium): the countdown says "Gong at" until the
gong sounds, then, at that second and without a reload, that the hand in play is the last;
with the bell, "time is up" brings the hand in play's abandonment the same way."""

from datetime import timedelta

from django.utils import timezone
from selenium.webdriver.common.by import By
from selenium.webdriver.support.wait import WebDriverWait

from tests.browser.conftest import log_in
from tests.browser.test_hand_entry import sheet_url
from tournament.models import Session, Tournament


def started_ago(session, elapsed: timedelta) -> None:
    Session.objects.filter(pk=session.pk).update(opened_at=timezone.now() - elapsed)


def shown(driver, css: str) -> bool:
    return driver.find_element(By.CSS_SELECTOR, css).is_displayed()


def test_the_sheet_says_the_gong_has_sounded_at_the_gong(browser, table_in_play):
    Tournament.objects.filter(pk=table_in_play.session.tournament_id).update(
        session_minutes=120, session_end="gong", gong_minute=115
    )
    # Four seconds before the gong.
    started_ago(table_in_play.session, timedelta(minutes=115) - timedelta(seconds=4))
    log_in(browser, "referee", "pw-referee")
    browser.get(sheet_url(browser, table_in_play))
    loaded = browser.execute_script("return performance.timeOrigin")
    assert shown(browser, "#session-clock [data-clock-until=gong]")
    assert "Gong at" in browser.find_element(By.ID, "session-clock").text
    assert not shown(browser, "[data-clock-from=gong]")

    WebDriverWait(browser, 15).until(lambda d: shown(d, "[data-clock-from=gong]"))

    message = browser.find_element(By.CSS_SELECTOR, "[data-clock-from=gong] strong").text
    assert message == "The gong has sounded: hand 1 is the last; no new hand starts."
    assert not shown(browser, "#session-clock [data-clock-until=gong]")
    # The time limit still counts down, and the page was not loaded again.
    assert "Time is up" not in browser.find_element(By.ID, "session-clock").text
    assert browser.execute_script("return performance.timeOrigin") == loaded
    # Usable at 360 px: the message fits the width of a phone.
    browser.set_window_size(360, 740)
    width = browser.execute_script("return document.documentElement.scrollWidth")
    assert width <= browser.execute_script("return window.innerWidth")


def test_with_the_bell_the_sheet_says_time_is_up_at_the_end(browser, table_in_play):
    started_ago(table_in_play.session, timedelta(minutes=150) - timedelta(seconds=3))
    log_in(browser, "referee", "pw-referee")
    browser.get(sheet_url(browser, table_in_play))
    assert not shown(browser, "[data-clock-from=end]")

    WebDriverWait(browser, 15).until(lambda d: shown(d, "[data-clock-from=end]"))

    assert browser.find_element(By.CSS_SELECTOR, "[data-clock-from=end] strong").text == (
        "Time is up: the hand in play is abandoned; record it and the rest as not played."
    )
    button = browser.find_element(By.CSS_SELECTOR, "[data-clock-from=end] a.button")
    assert button.size["height"] >= 44
