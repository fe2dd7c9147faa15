"""The referees' desk in real browsers: a table's tablet and the desk open side by side (two
Chromium sessions); calls made at the tables appear on the desk within 3 s each, marked new,
counted in the title and said in its live line; "I'll take it" gives the call to the desk's
referee; a ruling with a penalty changes the hand's points and the standings; the desk fits
a phone with fingers' targets.

The calls are made through the service, as the tables' tablets make them (the table's own
button comes with the table's pages); where the table's address to call from exists, the
tablet's sheet then shows who took the call."""

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from tests.browser.conftest import log_in, navigates, set_viewport, wait_for
from tournament import services
from tournament.models import RefereeCall, Seat

CALLS = 20
# How long a call may take to show before the test fails: a bound for a stalled desk, not a
# figure (``make bench-desk`` prints the times to compare with the 3 seconds asked for).
SHOWN_AT_LATEST = 10


def desk_url(driver, tournament) -> str:
    return f"{driver.live_server_url}/t/{tournament.slug}/desk/"


def shown_calls(driver) -> list[str]:
    return [
        row.get_attribute("data-call")
        for row in driver.find_elements(By.CSS_SELECTOR, "[data-desk-calls] [data-call]")
    ]


def test_calls_reach_the_desk_which_takes_and_resolves_them(
    browser, open_browser, table_in_play, transactional_db
):
    table = table_in_play
    session = table.session
    tournament = session.tournament
    services.hand_record(table=table, entry=services.HandEntry(number=1, outcome="draw"))
    tables = list(session.tables.order_by("number"))

    # The tablet: table 1's sheet, its referee logged in.
    tablet = browser
    log_in(tablet, "referee", "pw-referee")
    tablet.get(f"{tablet.live_server_url}/t/{tournament.slug}/sessions/1/tables/1/")
    # The desk: the head referee (an organiser), on a laptop.
    desk = open_browser()
    log_in(desk, "organiser", "pw-organiser")
    navigates(desk, lambda: desk.get(desk_url(desk, tournament)))
    assert shown_calls(desk) == []
    assert desk.title.startswith("Referees' desk")

    made = []
    # A call from the tablet's own button: "Call a referee", a reason, Send.
    tablet.find_element(By.CSS_SELECTOR, "[data-call-details] > summary").click()
    claim = tablet.find_element(By.CSS_SELECTOR, "[data-call-form] [name=reason][value=claim]")
    tablet.execute_script("arguments[0].click();", claim)
    tablet.find_element(By.CSS_SELECTOR, "[data-call-form] [type=submit]").click()
    wait_for(desk, 10).until(lambda d: RefereeCall.objects.filter(table=table).exists())
    call = RefereeCall.objects.get(table=table)
    assert call.reason == "claim"
    wait_for(desk, SHOWN_AT_LATEST).until(lambda d: str(call.pk) in shown_calls(d))
    made.append(call)
    # Twenty more, from the tables, five at a time: each burst shows on the open desk.
    for burst in range(0, CALLS, 5):
        for n in range(burst, burst + 5):
            where = tables[n % len(tables)]
            call = services.call_make(
                table=where, reason="foul" if n == 0 else "claim", hand=1 if n == 0 else None
            )
            made.append(call)
            if n == 0:
                foul = call
        wait_for(desk, SHOWN_AT_LATEST).until(
            lambda d: {str(call.pk) for call in made} <= set(shown_calls(d))
        )
    # Oldest first, each once; the newest marked new; the title counts them; said aloud.
    assert shown_calls(desk) == [str(call.pk) for call in made]
    newest = desk.find_element(By.CSS_SELECTOR, f"[data-call='{made[-1].pk}']")
    assert "new" in newest.get_attribute("class").split()
    assert newest.find_element(By.CSS_SELECTOR, "[data-new]").is_displayed()
    assert desk.title.startswith(f"({len(made)}) Referees' desk")
    announced = desk.find_element(By.CSS_SELECTOR, "[data-desk-announce]")
    assert "New call: Session 1, table" in announced.get_attribute("textContent")
    # The wait counts up in the page.
    first = desk.find_element(By.CSS_SELECTOR, f"[data-call='{foul.pk}'] [data-called-at]")
    before = first.text
    wait_for(desk, SHOWN_AT_LATEST).until(
        lambda d: (
            d.find_element(By.CSS_SELECTOR, f"[data-call='{foul.pk}'] [data-called-at]").text
            != before
        )
    )

    # "I'll take it" on the first call: the desk's referee has it.
    row = desk.find_element(By.CSS_SELECTOR, f"[data-call='{foul.pk}']")
    navigates(desk, row.find_element(By.CSS_SELECTOR, "[data-take]").click)
    call = RefereeCall.objects.get(pk=foul.pk)
    assert (call.state, call.taken_by.username) == ("taken", "organiser")
    assert (
        "Taken by organiser" in desk.find_element(By.CSS_SELECTOR, f"[data-call='{foul.pk}']").text
    )
    # The tablet, asking while its own call is open, says who is coming, with no reload.
    wait_for(tablet, 10).until(
        lambda d: (
            "Referee on the way: organiser"
            in d.find_element(By.CSS_SELECTOR, "[data-calls-panel]").text
        )
    )

    # Resolve it: a false win by P2, 10 to each other player, in hand 1.
    row = desk.find_element(By.CSS_SELECTOR, f"[data-call='{foul.pk}']")
    navigates(desk, row.find_element(By.LINK_TEXT, "Resolve").click)
    assert desk.find_element(By.NAME, "hand").get_attribute("value") == "1"
    offender = Seat.objects.get(table=table, seat=1).player
    Select(desk.find_element(By.NAME, "offence")).select_by_value("false_win")
    # The script fills the usual penalty and quotes the rules.
    assert (
        Select(desk.find_element(By.NAME, "penalty_kind")).first_selected_option.get_attribute(
            "value"
        )
        == "to_each_other"
    )
    assert desk.find_element(By.NAME, "penalty_points").get_attribute("value") == "10"
    assert "The rules: 10 points" in desk.find_element(By.CSS_SELECTOR, "[data-rules-figures]").text
    Select(desk.find_element(By.NAME, "offender")).select_by_value(str(offender.pk))
    desk.find_element(By.CSS_SELECTOR, f"[name=players][value='{offender.pk}']").click()
    desk.find_element(By.NAME, "decision").send_keys("P2 declared a win on a wrong tile.")
    navigates(desk, desk.find_element(By.CSS_SELECTOR, "form [type=submit].primary").click)
    assert (
        "Ruling recorded for table 1 of session 1." in desk.find_element(By.TAG_NAME, "main").text
    )
    assert str(foul.pk) not in shown_calls(desk)
    assert table.hands.get(number=1).points == (10, -30, 10, 10)

    # The standings show P2's new score.
    navigates(desk, lambda: desk.get(f"{desk.live_server_url}/t/{tournament.slug}/standings/"))
    rows = desk.find_elements(By.CSS_SELECTOR, "table.standings tbody tr")
    cells = next(
        [cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
        for row in rows
        if row.find_elements(By.TAG_NAME, "td")[1].text == str(offender.number)
    )
    assert cells[5] == "-30"


def test_the_desk_fits_a_phone_with_fingers_targets(browser, table_in_play, transactional_db):
    tournament = table_in_play.session.tournament
    services.call_make(table=table_in_play, reason="dispute", hand=2, note="Who won hand 2?")
    log_in(browser, "referee", "pw-referee")
    set_viewport(browser, 360, 740)
    navigates(browser, lambda: browser.get(desk_url(browser, tournament)))
    sizes = browser.execute_script(
        """
        const small = [];
        for (const el of document.querySelectorAll('main :is(a.button, button, select)')) {
          const r = el.getBoundingClientRect();
          if (r.width > 1 && (r.width < 44 || r.height < 44)) small.push(el.textContent.trim());
        }
        return [document.documentElement.scrollWidth, window.innerWidth, small];
        """
    )
    width, screen, small = sizes
    assert width <= screen and small == []
    # The sound's button is offered (a tap is what lets a browser play it), and pressed.
    button = browser.find_element(By.CSS_SELECTOR, "[data-desk-sound]")
    assert button.is_displayed() and button.text == "Sound on"
    button.click()
    assert button.get_attribute("aria-pressed") == "true" and button.text == "Sound off"


def test_the_ruling_form_fills_the_tournaments_preset(browser, table_in_play, transactional_db):
    """Under the EMA's presets, a hand counted before its winning tile was taken fills in a
    deduction of 10, and a win claimed while not ready 10 to each other player (20 under the
    seed's)."""
    tournament = table_in_play.session.tournament
    services.rules_change(
        tournament=tournament, penalty_presets=services.profile_options("ema")["penalty_presets"]
    )
    log_in(browser, "referee", "pw-referee")
    navigates(
        browser,
        lambda: browser.get(
            f"{browser.live_server_url}/t/{tournament.slug}/desk/rulings/new/?table=1-1"
        ),
    )

    def filled(offence: str) -> tuple[str, str]:
        Select(browser.find_element(By.NAME, "offence")).select_by_value(offence)
        kind = Select(browser.find_element(By.NAME, "penalty_kind")).first_selected_option
        points = browser.find_element(By.NAME, "penalty_points").get_attribute("value")
        return kind.get_attribute("value"), points

    assert filled("tile_not_taken") == ("deducted", "10")
    assert filled("not_ready") == ("to_each_other", "10")
