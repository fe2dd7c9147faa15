"""A table calls a referee from its tablet, in a real browser: a call made while the network is
down is kept on the tablet (through a reload from the device's copy too) and reaches the desk
once; a referee taking it shows on the tablet within seconds, without a reload; a hand the
players disagree on blocks the table's confirmation until the referee resolves it."""

import uuid

from selenium.webdriver.common.by import By

from tests.browser.conftest import (
    TABLET_UPRIGHT,
    log_in,
    navigates,
    set_viewport,
    wait_for,
)
from tests.browser.test_every_page import AXE_RUN, PHONE_SMALL, axe_script
from tests.browser.test_hand_entry import sheet_url
from tests.browser.test_offline import network
from tests.browser.test_offline_reload import open_kept_sheet, reload_offline
from tournament import services
from tournament.models import RefereeCall


def panel(driver) -> str:
    return driver.find_element(By.CSS_SELECTOR, "[data-calls-panel]").text


def queued(driver) -> str:
    """What the calls kept on the tablet say ("" when none waits)."""
    box = driver.find_element(By.CSS_SELECTOR, "[data-calls-queue]")
    return "" if not box.is_displayed() else box.text


def call_a_referee(driver, reason: str, note: str = "") -> None:
    """One tap on *Call a referee*, the reason chosen, a note, *Send*."""
    summary = driver.find_element(By.CSS_SELECTOR, "[data-call-details] > summary")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", summary)
    summary.click()
    form = driver.find_element(By.CSS_SELECTOR, "[data-call-details] form")
    form.find_element(By.CSS_SELECTOR, f"input[name=reason][value={reason}]").click()
    if note:
        form.find_element(By.NAME, "note").send_keys(note)
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()


def test_a_call_made_offline_is_kept_through_a_reload_and_reaches_the_desk_once(
    browser, table_in_play
):
    open_kept_sheet(browser, table_in_play)
    network(browser, offline=True)
    call_a_referee(browser, "claim", "East claims")
    wait_for(browser, 10).until(lambda d: "Call waiting to send" in queued(d))
    assert not RefereeCall.objects.exists()
    # Reloaded with the network still down: the sheet from the device, the call still kept.
    reload_offline(browser)
    wait_for(browser, 10).until(lambda d: "Call waiting to send" in queued(d))
    page = browser.find_element(By.TAG_NAME, "html")
    network(browser, offline=False)
    wait_for(browser, 40).until(lambda d: queued(d) == "" and "Called at" in panel(d))
    call = RefereeCall.objects.get()
    assert (call.table_id, call.reason, call.hand, call.note) == (
        table_in_play.pk,
        "claim",
        1,
        "East claims",
    )
    assert call.called_by.username == "referee"
    # Never a page load, and the call is not sent again later (its key is spent).
    assert page == browser.find_element(By.TAG_NAME, "html")
    browser.execute_script("window.dispatchEvent(new Event('online'));")
    assert RefereeCall.objects.count() == 1
    kept = browser.execute_script("return Object.keys(localStorage)")
    assert not [key for key in kept if key.startswith("mcr-calls:")]


def test_the_tablet_shows_the_referee_on_the_way_without_a_reload(browser, table_in_play):
    referee = table_in_play.referee
    referee.first_name, referee.last_name = "Ada", "Wong"
    referee.save()
    log_in(browser, "referee", "pw-referee")
    browser.get(sheet_url(browser, table_in_play))
    call_a_referee(browser, "count")
    wait_for(browser, 15).until(lambda d: "Called at" in panel(d))
    page = browser.find_element(By.TAG_NAME, "html")
    call = RefereeCall.objects.get()
    services.call_take(call=call, user=referee)
    wait_for(browser, 8).until(lambda d: "Referee on the way: Ada Wong" in panel(d))
    assert page == browser.find_element(By.TAG_NAME, "html")
    services.ruling_give(table=table_in_play, referee=referee, decision="Count again", call=call)
    wait_for(browser, 8).until(lambda d: "Resolved" in panel(d))
    assert "Count again" in panel(browser)
    # None open: the tablet stops asking.
    assert browser.execute_script(
        "return !document.querySelector('[data-calls-panel][data-call-open]')"
    )


def test_a_disputed_hand_blocks_the_confirmation_until_resolved(browser, table_in_play):
    for number in (1, 2):
        services.hand_record(
            table=table_in_play, entry=services.HandEntry(number=number, outcome="draw")
        )
    log_in(browser, "referee", "pw-referee")
    review = sheet_url(browser, table_in_play) + "confirm/"
    browser.get(review)
    button = browser.find_element(By.CSS_SELECTOR, "#hand-2 [data-dispute-form] button")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", button)
    navigates(browser, button.click)
    call = RefereeCall.objects.get()
    assert (call.reason, call.hand) == ("dispute", 2)
    note = browser.find_element(By.CSS_SELECTOR, "[data-disputed]").text
    assert "Disputed: hand 2." in note
    assert "cannot be confirmed until the referee resolves" in note
    assert browser.find_element(By.ID, "hand-2").get_attribute("data-disputed-hand") == "2"

    def confirm():
        box = browser.find_element(By.NAME, "record_missing_as_not_played")
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", box)
        if not box.is_selected():
            box.click()
        submit = browser.find_element(By.CSS_SELECTOR, "#confirm form button.primary")
        navigates(browser, submit.click)

    confirm()
    refused = browser.find_element(By.CSS_SELECTOR, "[data-confirm-refused]").text
    assert "A referee's call at this table is open (hands: 2)" in refused
    table_in_play.refresh_from_db()
    assert not table_in_play.is_confirmed
    services.ruling_give(
        table=table_in_play, referee=table_in_play.referee, decision="The draw stands", call=call
    )
    browser.get(review)
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-disputed]")
    confirm()
    table_in_play.refresh_from_db()
    assert table_in_play.is_confirmed
    assert "Table 1 confirmed." in browser.find_element(By.TAG_NAME, "body").text


SMALL_CONTROLS = """
const small = [];
for (const el of document.querySelectorAll(
    '[data-call-details] summary, [data-call-details] button, [data-call-details] .choices label,'
    + ' [data-call-details] input:not([type=hidden]):not([type=radio]), [data-calls-panel] a,'
    + ' [data-calls-panel] button')) {
  const r = el.getBoundingClientRect();
  if (r.width > 1 && r.height > 1 && (r.width < 44 || r.height < 44))
    small.push(`${el.tagName} "${el.textContent.trim()}" ${r.width}x${r.height}`);
}
return {small: small, wide: document.documentElement.scrollWidth};
"""


def test_the_call_controls_fit_a_phone_are_accessible_and_cancel_in_place(browser, table_in_play):
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": axe_script()})
    referee = table_in_play.referee
    services.hand_record(table=table_in_play, entry=services.HandEntry(number=1, outcome="draw"))
    ruled = services.call_make(table=table_in_play, reason="count", hand=1, key=uuid.uuid4())
    services.ruling_give(table=table_in_play, referee=referee, decision="A win", call=ruled)
    services.call_take(
        call=services.call_make(table=table_in_play, reason="time", key=uuid.uuid4()),
        user=referee,
    )
    log_in(browser, "referee", "pw-referee")
    set_viewport(browser, *PHONE_SMALL)
    for language in ("en", "zh-hans"):
        browser.add_cookie({"name": "django_language", "value": language})
        browser.get(sheet_url(browser, table_in_play))
        browser.find_element(By.CSS_SELECTOR, "[data-call-details] > summary").click()
        measured = browser.execute_script(SMALL_CONTROLS)
        assert measured["small"] == []
        assert measured["wide"] <= PHONE_SMALL[0]
        rules = {"color-contrast": {"enabled": language == "en"}}
        assert browser.execute_async_script(AXE_RUN, rules) == []
    browser.add_cookie({"name": "django_language", "value": "en"})
    set_viewport(browser, *TABLET_UPRIGHT)
    browser.get(sheet_url(browser, table_in_play))
    assert "Correct hand 1 as ruled" in panel(browser)
    page = browser.find_element(By.TAG_NAME, "html")
    cancel = browser.find_element(By.CSS_SELECTOR, "[data-call-cancel] button")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", cancel)
    cancel.click()
    wait_for(browser, 10).until(lambda d: "Cancelled" in panel(d))
    assert page == browser.find_element(By.TAG_NAME, "html")
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-call-cancel]")
    assert set(RefereeCall.objects.values_list("state", flat=True)) == {"resolved", "cancelled"}
