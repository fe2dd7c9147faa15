"""A table as the people around it use it, in real browsers: the tablet signed in from the
table card's device link (and refused once the link is revoked), the session clock counting
down to "Time is up" and an organiser's extra time, and two referees entering one hand."""

import re
from datetime import timedelta

from django.utils import timezone
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.wait import WebDriverWait

from tests.browser.conftest import log_in, navigates
from tests.browser.test_hand_entry import choose, enter_hand, save, sheet_url, type_into
from tests.browser.test_offline import heading, save_in_background, sync_state
from tournament.models import Hand, Session

DEVICE_LINK_ID = r"table {} · [0-9a-f]{{8}}"


def cards_url(driver, session) -> str:
    return f"{driver.live_server_url}/t/{session.tournament.slug}/sessions/{session.number}/cards/"


def device_link(driver, number: int) -> str:
    return driver.find_element(
        By.CSS_SELECTOR, f"#table-{number} [data-device-link]"
    ).get_attribute("href")


def body_text(driver) -> str:
    return driver.find_element(By.TAG_NAME, "body").text


def click_and_accept(driver, button) -> None:
    """Tap a button whose form asks "Are you sure?" first, and say yes; the page that
    follows has loaded on return."""

    def tap_and_accept():
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", button)
        button.click()
        WebDriverWait(driver, 10).until(expected_conditions.alert_is_present())
        driver.switch_to.alert.accept()

    navigates(driver, tap_and_accept)


def assert_link_refused(driver) -> None:
    """The page a tablet gets once its link is revoked: said so, and no entry form."""
    assert driver.find_element(By.TAG_NAME, "h1").text == "Table link not valid"
    refusal = driver.find_element(By.CSS_SELECTOR, "[data-device-link-refused]").text
    assert "This table link was revoked or is not valid" in refusal
    assert not driver.find_elements(By.ID, "hand-entry")


def open_link(driver, url: str) -> None:
    navigates(driver, lambda: driver.get(url))


# A device link opens one table only, until it is revoked.


def test_a_device_link_opens_its_table_only_until_the_session_links_are_revoked(
    browser, open_browser, table_in_play
):
    session = table_in_play.session
    other_table = session.tables.get(number=2)
    log_in(browser, "organiser", "pw-organiser")
    browser.get(cards_url(browser, session))
    link = device_link(browser, 1)
    assert "/device/" in link
    # The QR code a tablet scans is on the card beside the link.
    card_link = browser.find_element(By.CSS_SELECTOR, "#table-1 .device-link")
    qr = card_link.find_element(By.TAG_NAME, "svg")
    assert qr.is_displayed() and qr.size["width"] > 100
    assert card_link.find_element(By.CSS_SELECTOR, "[data-device-link]").is_displayed()
    assert device_link(browser, 2) != link

    tablet = open_browser()
    open_link(tablet, link)
    # No login page: straight to table 1's sheet, ready for hand 1.
    assert tablet.current_url.startswith(sheet_url(tablet, table_in_play))
    assert tablet.find_element(By.TAG_NAME, "h1").text.startswith("Session 1 · Table 1")
    assert heading(tablet) == "Enter hand 1"
    enter_hand(tablet, 1)
    assert "Hand 1 saved." in body_text(tablet)
    hand = table_in_play.hands.get(number=1)
    assert (hand.outcome, hand.winner, hand.fan) == ("self_drawn", 1, 8)
    assert hand.entered_by is None
    assert re.fullmatch(DEVICE_LINK_ID.format(1), hand.entered_by_device)
    assert "via the table's tablet" in tablet.find_element(By.ID, "hand-1").text

    # Table 2's sheet is not this tablet's.
    open_link(tablet, sheet_url(tablet, other_table))
    assert tablet.find_element(By.TAG_NAME, "h1").text == "Not allowed"
    assert "a table's link opens that table only" in body_text(tablet)
    assert not tablet.find_elements(By.ID, "hand-entry")
    assert not other_table.hands.exists()

    # Back at its own table, the form for hand 2 is open when the organiser revokes every
    # link of the session.
    open_link(tablet, sheet_url(tablet, table_in_play))
    assert heading(tablet) == "Enter hand 2"
    revoke_all = browser.find_element(
        By.XPATH, "//button[normalize-space()='Revoke all table links']"
    )
    click_and_accept(browser, revoke_all)
    assert "Every table link of session 1 is revoked." in body_text(browser)
    new_link = device_link(browser, 1)
    assert new_link != link
    session.refresh_from_db()
    assert session.device_links_version == 2

    # The tablet's next save is refused at once: said so, and the entry kept on the tablet.
    save_in_background(tablet, 2)
    WebDriverWait(tablet, 15).until(lambda d: sync_state(d)[0] == "refused")
    assert "may no longer enter hands at this table" in sync_state(tablet)[1]
    assert list(Hand.objects.values_list("number", flat=True)) == [1]
    # Every later page of the table is refused, and the old link itself.
    open_link(tablet, sheet_url(tablet, table_in_play))
    assert_link_refused(tablet)
    open_link(tablet, link)
    assert_link_refused(tablet)
    # The card printed again carries a link that works; the kept entry waits there, and one
    # tap sends it.
    open_link(tablet, new_link)
    WebDriverWait(tablet, 15).until(lambda d: sync_state(d)[0] == "refused")
    assert heading(tablet) == "Enter hand 3"
    tablet.find_element(By.CSS_SELECTOR, "[data-sync-retry]").click()
    WebDriverWait(tablet, 30).until(lambda d: sync_state(d) == ("saved", "All saved"))
    assert list(Hand.objects.order_by("number").values_list("number", "winner")) == [
        (1, 1),
        (2, 2),
    ]


def test_revoking_one_tables_link_leaves_the_other_tables_tablets_working(
    browser, open_browser, table_in_play
):
    session = table_in_play.session
    table_two = session.tables.get(number=2)
    log_in(browser, "organiser", "pw-organiser")
    browser.get(cards_url(browser, session))
    link_one, link_two = device_link(browser, 1), device_link(browser, 2)
    tablet_one, tablet_two = open_browser(), open_browser()
    open_link(tablet_one, link_one)
    open_link(tablet_two, link_two)
    assert heading(tablet_one) == heading(tablet_two) == "Enter hand 1"

    revoke_one = browser.find_element(
        By.XPATH, "//*[@id='table-1']//button[normalize-space()=\"Revoke this table's link\"]"
    )
    click_and_accept(browser, revoke_one)
    assert "The link of table 1 is revoked." in body_text(browser)
    assert browser.current_url.endswith("#table-1")
    assert device_link(browser, 1) != link_one
    assert device_link(browser, 2) == link_two

    tablet_one.refresh()
    assert_link_refused(tablet_one)
    # Table 2's tablet, signed in before, carries on.
    tablet_two.refresh()
    assert heading(tablet_two) == "Enter hand 1"
    enter_hand(tablet_two, 1)
    assert "Hand 1 saved." in body_text(tablet_two)
    assert not table_in_play.hands.exists()
    stored = table_two.hands.get(number=1)
    assert re.fullmatch(DEVICE_LINK_ID.format(2), stored.entered_by_device)


# The session clock.


def clock_left(driver) -> str:
    return driver.find_element(By.CSS_SELECTOR, "#session-clock [data-clock-left]").text


def seconds(shown: str) -> int:
    """ "1:23:45" -> 5025."""
    hours, minutes, secs = (int(part) for part in shown.split(":"))
    return hours * 3600 + minutes * 60 + secs


def started_ago(session, elapsed: timedelta) -> None:
    """The session opened ``elapsed`` ago, as if play had gone on that long."""
    Session.objects.filter(pk=session.pk).update(opened_at=timezone.now() - elapsed)


def test_the_clock_counts_down_on_the_sheet(browser, table_in_play):
    log_in(browser, "referee", "pw-referee")
    browser.get(sheet_url(browser, table_in_play))
    first = clock_left(browser)
    # The tournament plays 150 minutes a session, and it has just opened.
    assert 150 * 60 - 60 < seconds(first) <= 150 * 60
    WebDriverWait(browser, 5).until(lambda d: clock_left(d) != first)
    assert seconds(clock_left(browser)) < seconds(first)
    assert "Time is up" not in browser.find_element(By.ID, "session-clock").text


def test_the_clock_reaches_time_up_on_the_open_page(browser, table_in_play):
    started_ago(table_in_play.session, timedelta(minutes=150) - timedelta(seconds=4))
    log_in(browser, "referee", "pw-referee")
    browser.get(sheet_url(browser, table_in_play))
    assert 0 < seconds(clock_left(browser)) <= 4
    clock = browser.find_element(By.ID, "session-clock")
    WebDriverWait(browser, 15).until(lambda d: "Time is up" in clock.text)
    assert "time-up" in clock.get_attribute("class").split()
    assert clock.find_element(By.CSS_SELECTOR, "[data-clock-text]").text == "Time is up"
    assert not clock.find_element(By.CSS_SELECTOR, "[data-clock-label]").is_displayed()


def review_time_called(driver) -> bool:
    """Open the table's review from its sheet; whether "time called" is ticked there."""
    link = driver.find_element(By.XPATH, "//a[normalize-space()='Review and confirm']")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", link)
    navigates(driver, link.click)
    assert driver.find_element(By.TAG_NAME, "h1").text.startswith("Review · Session 1 · Table 1")
    return driver.find_element(By.NAME, "record_missing_as_not_played").is_selected()


def test_time_up_then_the_organiser_gives_the_table_extra_time(
    browser, open_browser, table_in_play
):
    started_ago(table_in_play.session, timedelta(minutes=151))
    log_in(browser, "referee", "pw-referee")
    url = sheet_url(browser, table_in_play)
    browser.get(url)
    clock = browser.find_element(By.ID, "session-clock")
    assert clock.find_element(By.CSS_SELECTOR, "[data-clock-text]").text == "Time is up"
    assert "time-up" in clock.get_attribute("class").split()
    assert not clock.find_elements(By.CSS_SELECTOR, "[data-clock-label]")
    # A referee does not give extra time.
    assert "Extra time for this table" not in body_text(browser)
    # The review starts with the missing hands recorded as not played.
    assert review_time_called(browser)

    organiser = open_browser()
    log_in(organiser, "organiser", "pw-organiser")
    organiser.get(url)
    assert "Time is up" in organiser.find_element(By.ID, "session-clock").text
    extra = organiser.find_element(
        By.XPATH, "//details[summary[normalize-space()='Extra time for this table']]"
    )
    extra.find_element(By.TAG_NAME, "summary").click()
    minutes = extra.find_element(By.NAME, "minutes")
    assert minutes.is_displayed()
    minutes.clear()
    minutes.send_keys("30")
    navigates(
        organiser,
        extra.find_element(By.XPATH, ".//button[normalize-space()='Set the extra time']").click,
    )
    assert re.search(r"Table 1: 30 extra minutes \(ends \d\d:\d\d\)\.", body_text(organiser))
    table_in_play.refresh_from_db()
    assert table_in_play.extra_minutes == 30

    # The referee's tablet, reloaded, has time again: 150 + 30 minutes from 151 minutes ago.
    browser.get(url)
    left = seconds(clock_left(browser))
    assert 28 * 60 < left <= 29 * 60
    clock = browser.find_element(By.ID, "session-clock")
    assert "Time is up" not in clock.text
    assert "time-up" not in clock.get_attribute("class").split()
    assert "30 extra minutes for this table" in clock.text
    assert not review_time_called(browser)


# Two referees on one hand.


def test_a_second_entry_of_a_stored_hand_shows_both_and_never_stores_two(
    browser, open_browser, table_in_play
):
    log_in(browser, "referee", "pw-referee")
    url = sheet_url(browser, table_in_play)
    browser.get(url)
    assert heading(browser) == "Enter hand 1"

    head_referee = open_browser()
    log_in(head_referee, "organiser", "pw-organiser")
    head_referee.get(url)
    assert heading(head_referee) == "Enter hand 1"
    choose(head_referee, "outcome", "discard")
    choose(head_referee, "winner", "1")
    choose(head_referee, "discarder", "3")
    type_into(head_referee, "fan", "12")
    save(head_referee)
    assert "Hand 1 saved." in body_text(head_referee)

    # The referee, whose form still says hand 1, saves a different hand 1. The background
    # save is refused, and the form is posted plainly for the server's page to say why.
    assert heading(browser) == "Enter hand 1"
    choose(browser, "outcome", "self_drawn")
    choose(browser, "winner", "0")
    type_into(browser, "fan", "8")
    save(browser, refused=True)
    assert "Hand 1 saved." not in body_text(browser)
    refusal = browser.find_element(By.CSS_SELECTOR, "#hand-entry .form-errors").text
    assert "Hand 1 is already entered; open it to correct it." in refusal
    stored = browser.find_element(By.CSS_SELECTOR, "[data-stored-hand='1']")
    assert "Stored hand 1:" in stored.text
    assert "P2 on discard of P4 12" in stored.text
    assert "Your entry is kept in the form below." in stored.text
    # The referee's own entry is still in the form, beside the stored one.
    assert browser.find_element(
        By.CSS_SELECTOR, "#hand-entry input[name=outcome][value=self_drawn]"
    ).is_selected()
    assert browser.find_element(
        By.CSS_SELECTOR, "#hand-entry input[name=winner][value='0']"
    ).is_selected()
    assert (
        browser.find_element(By.CSS_SELECTOR, "#hand-entry [name=fan]").get_attribute("value")
        == "8"
    )
    # Nothing is kept on the tablet to be sent again later.
    state = browser.find_element(By.CSS_SELECTOR, "[data-sync-state]")
    assert state.get_attribute("data-sync-state") == "saved"

    hands = list(Hand.objects.filter(table=table_in_play, number=1))
    assert len(hands) == 1
    assert (hands[0].outcome, hands[0].winner, hands[0].discarder, hands[0].fan) == (
        "discard",
        1,
        3,
        12,
    )
    assert hands[0].entered_by.username == "organiser"
    assert Hand.objects.count() == 1

    # One tap opens the stored hand for correction.
    correct = stored.find_element(By.LINK_TEXT, "Open hand 1 to correct it")
    navigates(browser, correct.click)
    assert heading(browser) == "Correct hand 1"
    assert browser.find_element(
        By.CSS_SELECTOR, "#hand-entry input[name=outcome][value=discard]"
    ).is_selected()
    assert browser.find_element(
        By.CSS_SELECTOR, "#hand-entry input[name=discarder][value='3']"
    ).is_selected()
    assert (
        browser.find_element(By.CSS_SELECTOR, "#hand-entry [name=fan]").get_attribute("value")
        == "12"
    )
