"""A player's own page and the check-in on a phone (360 × 740), in English and in Chinese:
the table, seat and wind fill the screen's width without scrolling sideways, the check-in
button checks the player in, and a hand entered shows up by itself (the page asks again
every ``MCR_PLAYER_PAGE_SECONDS``, here every second)."""

import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.wait import WebDriverWait

from tests.browser.conftest import navigates, set_viewport
from tests.conftest import make_players, make_tournament, make_user
from tournament import services
from tournament.models import CheckIn, Seat
from tournament.players.player_links import player_token

PHONE_SMALL = (360, 740)

WORDS = {
    "en": {
        "check_in": "I am here: check in for session 1",
        "checked": "You are checked in for session 1.",
        "table": "Table {t}",
        "wind": "you start {wind}",
        "winds": ["East", "South", "West", "North"],
        "won": "You won by self-draw, 8 fan",
    },
    "zh-hans": {
        "check_in": "我已到场：签到第1局",
        "checked": "你已签到第1局。",
        "table": "第{t}桌",
        "wind": "起始为{wind}",
        "winds": ["东", "南", "西", "北"],
        "won": "你自摸和牌，8番",
    },
}


def no_sideways_scroll(driver) -> bool:
    return driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")


@pytest.fixture
def drawn_with_check_in(transactional_db):
    organiser = make_user("organiser", can_create=True)
    tournament = make_tournament(creator=organiser)
    make_players(tournament, 16)
    services.player_save(
        tournament=tournament,
        player=tournament.players.get(number=1),
        number=1,
        name="Alexandrina Konstantinopoulou-Vandermeer",
        name_zh="亚历山德丽娜",
        team="Mahjong Club of the Very Long Name",
    )
    session = services.session_draw(tournament=tournament, number=1, seed=7)
    services.check_in_open(tournament=tournament, number=1)
    return tournament, session


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_phone_page_fits_and_the_check_in_works(
    browser, drawn_with_check_in, settings, language
):
    tournament, session = drawn_with_check_in
    settings.PLAYER_PAGE_SECONDS = 1  # the page asks again every second, not every 30
    words = WORDS[language]
    player = tournament.players.get(number=1)
    seat = Seat.objects.select_related("table").get(session=session, player=player)
    set_viewport(browser, *PHONE_SMALL)
    browser.get(browser.live_server_url + "/")
    browser.add_cookie({"name": "django_language", "value": language})
    link = browser.live_server_url + f"/me/{player_token(player)}/"
    browser.get(link)

    table = browser.find_element(By.CSS_SELECTOR, ".own-table")
    assert table.text == words["table"].format(t=seat.table.number)
    assert (
        words["wind"].format(wind=words["winds"][seat.seat])
        in browser.find_element(By.CSS_SELECTOR, ".own-wind").text
    )
    assert no_sideways_scroll(browser)
    button = browser.find_element(By.CSS_SELECTOR, ".own-check-in button")
    assert button.text == words["check_in"]
    # The button is within the screen's width and big enough to tap.
    box = browser.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return [r.left, r.right, r.height];",
        button,
    )
    assert box[0] >= 0 and box[1] <= PHONE_SMALL[0] and box[2] >= 48
    navigates(browser, button.click)
    assert words["checked"] in browser.find_element(By.CSS_SELECTOR, ".own-check-in").text
    assert CheckIn.objects.filter(player=player).count() == 1
    assert no_sideways_scroll(browser)

    # A hand entered at the table appears by itself on the open page.
    services.session_open(session=session)
    services.hand_record(
        table=seat.table,
        entry=services.HandEntry(number=1, outcome="self_drawn", winner=seat.seat, fan=8),
    )
    # The page's poll swaps the part it reads: an element found just before a swap is stale,
    # and is looked up again.
    WebDriverWait(browser, 10, ignored_exceptions=[StaleElementReferenceException]).until(
        lambda d: words["won"] in d.find_element(By.ID, "own-live").text
    )
    assert no_sideways_scroll(browser)
