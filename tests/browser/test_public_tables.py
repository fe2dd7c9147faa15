"""The standings on a phone (360 × 740), with the search: the page never scrolls sideways;
the table, wider than the screen, scrolls inside its own box; the pager's links, the sorting
headings and the search's button are big enough to tap (44 px). (Every other page, the
organisers' lists among them, is measured alike by test_every_page.py.)"""

import pytest
from selenium.webdriver.common.by import By

from tests.browser.conftest import navigates, set_viewport
from tests.conftest import make_players, make_tournament, make_user
from tournament import services, tables

PHONE_SMALL = (360, 740)


@pytest.fixture
def drawn(transactional_db):
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
    services.session_draw(tournament=tournament, number=1, seed=7)
    return tournament


def fits(driver) -> bool:
    return driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")


def scrolls_in_its_box(driver, selector: str) -> bool:
    return driver.execute_script(
        "const box = document.querySelector(arguments[0]).closest('.table-wrap');"
        "return box.scrollWidth > box.clientWidth && getComputedStyle(box).overflowX == 'auto';",
        selector,
    )


def heights(driver, selector: str) -> list[float]:
    return [e.rect["height"] for e in driver.find_elements(By.CSS_SELECTOR, selector)]


def test_the_standings_fit_a_phone_and_its_pager_and_search_can_be_tapped(
    browser, drawn, monkeypatch
):
    monkeypatch.setattr(tables, "PAGE_SIZE", 5)
    set_viewport(browser, *PHONE_SMALL)
    browser.get(f"{browser.live_server_url}/t/{drawn.slug}/standings/")
    assert fits(browser)
    assert scrolls_in_its_box(browser, "table.standings")
    assert heights(browser, "nav.pager a") and min(heights(browser, "nav.pager a")) >= 44
    assert min(heights(browser, "form[role=search] button")) >= 44
    assert min(heights(browser, "table.standings th a")) >= 44
    # The search, without any script: a GET form.
    browser.find_element(By.ID, "standings-search").send_keys("alexandrina")
    navigates(
        browser, lambda: browser.find_element(By.CSS_SELECTOR, "form[role=search] button").click()
    )
    rows = browser.find_elements(By.CSS_SELECTOR, "table.standings tbody tr")
    assert [row.find_elements(By.TAG_NAME, "td")[1].text for row in rows] == ["1"]
    assert fits(browser)
