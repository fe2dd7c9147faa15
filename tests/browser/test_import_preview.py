"""The players' import preview on a tablet held upright (768 px): each row's problem read
first and whole, the e-mail addresses on one line. (The organisers' lists on a phone are
measured with every other page by test_every_page.py.)"""

from selenium.webdriver.common.by import By

from tests.browser.conftest import TABLET_UPRIGHT, log_in, navigates, set_viewport
from tests.browser.test_public_tables import fits, scrolls_in_its_box
from tests.conftest import make_tournament, make_user


def test_the_import_preview_says_each_rows_problem_first_on_a_tablet(
    browser, transactional_db, tmp_path
):
    """At 768 px, a row's problems are read in full without scrolling sideways, before its
    fields; an e-mail address stays on one line (the table scrolls in its box instead)."""
    make_tournament(creator=make_user("organiser", can_create=True))
    listed = tmp_path / "players.csv"
    listed.write_text(
        "number,name,name_zh,team,country,ema_number,email\n"
        "1,Wang Fang,王芳,Beijing Bamboo Club,CHN,04010005,wang.fang.plays.mahjong@example.org\n"
        "2,Cy Martin,,Lyon Dragons,FRA,1234,cy.martin.from.lyon@example.org\n",
        encoding="utf-8",
    )
    set_viewport(browser, *TABLET_UPRIGHT)
    log_in(browser, "organiser", "pw-organiser")
    browser.get(f"{browser.live_server_url}/t/spring-open/players/import/")
    browser.find_element(By.NAME, "file").send_keys(str(listed))
    navigates(browser, browser.find_element(By.CSS_SELECTOR, "main form [type=submit]").click)
    assert fits(browser)
    problem = browser.find_element(By.CSS_SELECTOR, "tr.import-error td.outcome li")
    assert "is too short" in problem.text
    box = problem.rect
    # Wide enough to read (not a few letters a line), and all of it on the screen.
    assert box["width"] >= 250
    assert box["x"] >= 0 and box["x"] + box["width"] <= TABLET_UPRIGHT[0]
    # Before the row's fields, on its left.
    name = browser.find_element(By.XPATH, "//tr[contains(@class, 'import-error')]/td[4]")
    assert name.text == "Cy Martin" and name.rect["x"] > box["x"] + box["width"] - 1
    line = browser.execute_script(
        "return parseFloat(getComputedStyle(arguments[0]).lineHeight)", problem
    )
    for cell in browser.find_elements(By.CSS_SELECTOR, "table.import-rows td.email"):
        assert cell.get_attribute("textContent").endswith("@example.org")
        assert heights_of(cell) < 2 * line
    assert scrolls_in_its_box(browser, "table.import-rows")


def heights_of(element) -> float:
    """The height of an element's text: its lines, however tall the row around it."""
    return element.parent.execute_script(
        "const range = document.createRange(); range.selectNodeContents(arguments[0]);"
        "return range.getBoundingClientRect().height;",
        element,
    )
