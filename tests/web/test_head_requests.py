"""HEAD on the public pages (a monitor's or a link checker's request): answered as GET is,
200, without the body; the views that only read take GET and HEAD (``require_safe``)."""

import pytest

from tests.conftest import download, login, play_some_sessions

PAGES = [
    "/",
    "/healthz",
    "/calculator/",
    "/accounts/login/",
    "/t/spring-open/",
    "/t/spring-open/seating/1/",
    "/t/spring-open/players/1/",
    "/t/spring-open/standings/",
    "/t/spring-open/statistics/",
    "/t/spring-open/fairness/",
    "/t/spring-open/standings.xlsx",
]


@pytest.fixture
def played(tournament, organiser, referee):
    play_some_sessions(tournament, organiser=organiser, referee=referee)
    return tournament


@pytest.mark.parametrize("path", PAGES)
def test_head_on_a_public_page_is_200_without_the_body(played, path):
    client = login(None)
    # A download's file is built first (its first GET answers with a page that waits for it).
    get = download(client, path)
    head = client.head(path)
    assert get.status_code == 200
    assert (head.status_code, head.content) == (200, b"")
    assert head["Content-Type"] == get["Content-Type"]
