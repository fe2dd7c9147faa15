"""The results API's rate limit under parallel clients, against a live server: sixteen
threads asking at once from one address get no more answers than the limit (the counter
in the shared cache, Redis with MCR_REDIS_URL, is incremented atomically; ninja's throttle
read, changed and wrote back a list and let 480 of 480 requests through at 300 a minute)."""

import threading
import urllib.error
import urllib.request

import pytest

from tests.conftest import make_tournament, make_user
from tournament.server import rate_limits

CLIENTS = 16
REQUESTS_EACH = 8
LIMIT = 30


def ask(url: str) -> tuple[int, str | None]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, None
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Retry-After")


@pytest.fixture
def one_window(monkeypatch):
    """Every request counted in one window: 20 seconds into a minute that never ends."""
    monkeypatch.setattr(rate_limits, "_now", lambda: 1_800_000_020.0)


def test_sixteen_parallel_clients_get_no_more_than_the_limit(
    live_server, settings, one_window, transactional_db
):
    make_tournament(creator=make_user("organiser", can_create=True))
    settings.API_RATE = f"{LIMIT}/m"
    url = f"{live_server.url}/api/v1/tournaments"
    start = threading.Barrier(CLIENTS)
    answers = []

    def client():
        start.wait()
        answers.extend(ask(url) for _ in range(REQUESTS_EACH))

    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    codes = [code for code, _retry in answers]
    assert len(codes) == CLIENTS * REQUESTS_EACH
    assert codes.count(200) == LIMIT
    assert codes.count(429) == CLIENTS * REQUESTS_EACH - LIMIT
    assert {retry for code, retry in answers if code == 429} == {"40"}
