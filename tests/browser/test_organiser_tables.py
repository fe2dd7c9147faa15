"""The organiser's lists on a phone (360 × 740): the players, the check-in desk, the
referees' tables, the activity log. The page never scrolls sideways; a table wider than the
screen scrolls inside its own box; the pager's links and the sorting headings are big enough
to tap (44 px)."""

import pytest

from tests.browser.conftest import log_in, set_viewport
from tests.browser.test_public_tables import PHONE_SMALL, fits, heights, scrolls_in_its_box
from tests.conftest import make_players, make_tournament, make_user
from tournament import services, tables


@pytest.fixture
def drawn(transactional_db):
    organiser = make_user("organiser", can_create=True)
    tournament = make_tournament(creator=organiser)
    make_players(tournament, 24)  # six tables: more than a page of five
    services.session_draw(tournament=tournament, number=1, seed=7)
    services.session_open(session=tournament.sessions.get(number=1))
    return tournament


@pytest.mark.parametrize(
    "page, selector",
    [
        ("players/", "table.players"),
        ("check-in/", "table.check-in"),
        ("referee/", ".table-wrap table"),
        ("sessions/1/referees/", ".table-wrap table"),
        ("activity/", "table.activity"),
    ],
)
def test_the_organisers_lists_fit_a_phone(browser, drawn, monkeypatch, page, selector):
    monkeypatch.setattr(tables, "PAGE_SIZE", 5)
    set_viewport(browser, *PHONE_SMALL)
    log_in(browser, "organiser", "pw-organiser")
    browser.get(f"{browser.live_server_url}/t/{drawn.slug}/{page}")
    assert fits(browser)
    assert heights(browser, f"{selector} tbody tr")
    assert heights(browser, "nav.pager a") and min(heights(browser, "nav.pager a")) >= 44
    if heights(browser, f"{selector} th a"):
        assert min(heights(browser, f"{selector} th a")) >= 44
    if page == "players/":
        assert scrolls_in_its_box(browser, selector)
