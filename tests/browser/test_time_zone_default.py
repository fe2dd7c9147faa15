"""A new tournament's time zone starts on the organiser's browser's (the page's script reads
it), and the settings page keeps the one saved, whatever the browser's."""

from selenium.webdriver.common.by import By
from selenium.webdriver.support.select import Select

from tests.browser.conftest import log_in, navigates
from tests.conftest import make_user
from tournament.models import Tournament


def test_the_organisers_browser_gives_a_new_tournament_its_zone(browser, transactional_db):
    make_user("organiser", can_create=True)
    browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "Asia/Shanghai"})
    log_in(browser, "organiser", "pw-organiser")
    browser.get(browser.live_server_url + "/new/")
    zone = Select(browser.find_element(By.NAME, "time_zone"))
    assert zone.first_selected_option.get_attribute("value") == "Asia/Shanghai"
    browser.find_element(By.NAME, "name").send_keys("Shanghai Open")
    browser.find_element(By.NAME, "slug").send_keys("shanghai-open")
    navigates(browser, browser.find_element(By.CSS_SELECTOR, "main form [type=submit]").click)
    assert Tournament.objects.get(slug="shanghai-open").time_zone == "Asia/Shanghai"
    # Another organiser's browser elsewhere does not move a saved tournament's zone.
    browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "Europe/Paris"})
    browser.get(browser.live_server_url + "/t/shanghai-open/edit/")
    zone = Select(browser.find_element(By.NAME, "time_zone"))
    assert zone.first_selected_option.get_attribute("value") == "Asia/Shanghai"
