"""What the organiser prints, printed by Chromium: each table card and each blank score
sheet on one A4 page, the session's penalty record on one, in English and in Chinese."""

import base64
import re

import pytest
from selenium.webdriver.common.by import By

from tests.browser.conftest import log_in, navigates

# A4 in PDF points (1/72 inch): 210 × 297 mm.
A4 = (595, 842)


def printed_pages(driver, url: str) -> list[tuple[int, int]]:
    """Print ``url`` as the browser's Print button does and return each page's size."""
    driver.get(url)
    pdf = base64.b64decode(
        driver.execute_cdp_cmd("Page.printToPDF", {"preferCSSPageSize": True})["data"]
    )
    boxes = re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", pdf)
    return [(round(float(w)), round(float(h))) for w, h in boxes]


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_each_table_prints_on_one_a4_page(browser, table_in_play, language):
    session = table_in_play.session
    log_in(browser, "organiser", "pw-organiser")
    if language != "en":
        navigates(browser, browser.find_element(By.CSS_SELECTOR, ".language-switch button").click)
        assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == language
    base = f"{browser.live_server_url}/t/{session.tournament.slug}/sessions/{session.number}"
    tables = session.tables.count()
    assert tables == 4
    for path, pages in (
        ("/cards/", tables),
        ("/score-sheets/", tables),
        ("/score-sheets/?blank=1", tables),
        ("/score-sheets/?table=2", 1),
        ("/penalty-sheet/", 1),
    ):
        assert printed_pages(browser, base + path) == [A4] * pages, path
