"""The fixed-window rate limits (``tournament.server.rate_limits``): counted atomically in the
shared cache (Redis with MCR_REDIS_URL, the in-process cache otherwise), a new count in each
window, and when the cache fails, open or closed as the caller asks, logged once a minute."""

import logging
import threading
import time

import pytest
import redis.exceptions
from django.core.cache import cache

from tournament.server import rate_limits
from tournament.server.rate_limits import Rate, hit, parse_rate

# In the middle of a minute, so that no window ends while a test runs.
NOON = 1_800_000_030.0


@pytest.fixture
def clock(monkeypatch):
    """The limits' clock, stopped at ``clock.now`` until a test moves it."""

    class Clock:
        now = NOON

    monkeypatch.setattr(rate_limits, "_now", lambda: Clock.now)
    return Clock


@pytest.fixture(autouse=True)
def log_every_failure(monkeypatch):
    """Each test starts as if no failure had been logged yet."""
    monkeypatch.setattr(rate_limits, "_last_logged", float("-inf"))


@pytest.mark.parametrize(
    ("text", "rate"),
    [
        ("300/m", Rate(300, 60)),
        ("5/s", Rate(5, 1)),
        (" 1000 / h ", Rate(1000, 3600)),
        ("20/d", Rate(20, 86400)),
    ],
)
def test_a_rate_is_read_from_its_text(text, rate):
    assert parse_rate(text) == rate


@pytest.mark.parametrize("text", ["", "300", "300/min", "x/m", "0/m", "-1/m", "300/m/2"])
def test_a_rate_that_cannot_be_read_is_refused(text):
    with pytest.raises(ValueError, match=r"e\.g\. 300/m"):
        parse_rate(text)


def test_the_limit_holds_within_a_window_and_says_when_it_ends(clock):
    verdicts = [hit("api", "10.0.0.1", Rate(3, 60), fail_open=True) for _ in range(5)]
    assert [(v.allowed, v.count) for v in verdicts] == [
        (True, 1),
        (True, 2),
        (True, 3),
        (False, 4),
        (False, 5),
    ]
    # NOON is 30 seconds into its minute.
    assert {v.retry_after for v in verdicts} == {30}


def test_each_caller_and_each_thing_is_counted_apart(clock):
    rate = Rate(1, 60)
    assert hit("api", "10.0.0.1", rate, fail_open=True).allowed
    assert not hit("api", "10.0.0.1", rate, fail_open=True).allowed
    assert hit("api", "10.0.0.2", rate, fail_open=True).allowed
    assert hit("form:sign_up", "10.0.0.1", rate, fail_open=True).allowed


def test_a_new_window_starts_a_new_count(clock):
    rate = Rate(2, 60)
    assert [hit("api", "a", rate, fail_open=True).allowed for _ in range(3)] == [
        True,
        True,
        False,
    ]
    clock.now += 29  # the last second of the window
    assert not hit("api", "a", rate, fail_open=True).allowed
    clock.now += 1  # the next window's first
    verdict = hit("api", "a", rate, fail_open=True)
    assert (verdict.allowed, verdict.count, verdict.retry_after) == (True, 1, 60)


def seconds_to_live(key: str) -> float:
    """How long the cache keeps ``key``: Redis says it; the in-process cache keeps the time."""
    if hasattr(cache, "_cache") and hasattr(cache._cache, "get_client"):
        return cache._cache.get_client(write=False).ttl(cache.make_key(key))
    return cache._expire_info[cache.make_and_validate_key(key)] - time.time()


def test_a_windows_key_expires_with_the_window(clock):
    hit("api", "a", Rate(2, 60), fail_open=True)
    key = f"mcr:rate:api:a:60:{int(NOON // 60)}"
    assert cache.get(key) == 1
    # NOON is 30 seconds before its window ends.
    assert 25 < seconds_to_live(key) <= 30 + rate_limits.KEY_MARGIN_SECONDS


class Yielding:
    """The cache, each call of it letting the other threads run first: the in-process cache
    answers so fast that threads seldom meet in it otherwise (Redis, over its socket, makes
    them meet without help)."""

    def __getattr__(self, name):
        method = getattr(cache, name)

        def called(*args, **kwargs):
            time.sleep(0.0002)
            return method(*args, **kwargs)

        return called


def test_parallel_hits_are_each_counted_once(monkeypatch, clock):
    """Sixteen threads hit at once: every count from 1 to 800 is given exactly once, and
    exactly the limit is allowed (a count read, changed and written back would give some
    counts twice and let more through)."""
    monkeypatch.setattr(rate_limits, "cache", Yielding())
    rate = Rate(300, 60)
    start = threading.Barrier(16)
    verdicts = []

    def client():
        start.wait()
        mine = [hit("api", "10.0.0.1", rate, fail_open=True) for _ in range(50)]
        verdicts.extend(mine)

    threads = [threading.Thread(target=client) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(v.count for v in verdicts) == list(range(1, 801))
    assert sum(v.allowed for v in verdicts) == 300


class RaisingCache:
    """A cache whose client cannot reach its server."""

    def __init__(self, error: Exception):
        self.error = error

    def add(self, *args, **kwargs):
        raise self.error

    def incr(self, *args, **kwargs):
        raise self.error


class MissingCache:
    """A cache that reads its own failures as misses: nothing is ever added or found."""

    def add(self, *args, **kwargs):
        return False

    def incr(self, key, *args, **kwargs):
        raise ValueError(f"Key {key!r} not found.")


FAILING_CACHES = {
    "redis-connection": RaisingCache(redis.exceptions.ConnectionError("Connection refused")),
    "redis-timeout": RaisingCache(redis.exceptions.TimeoutError("Timeout reading")),
    "socket": RaisingCache(ConnectionRefusedError(111, "Connection refused")),
    "misses": MissingCache(),
}


@pytest.mark.parametrize("failing", FAILING_CACHES.values(), ids=FAILING_CACHES.keys())
def test_a_failed_cache_lets_through_what_fails_open(monkeypatch, clock, failing):
    monkeypatch.setattr(rate_limits, "cache", failing)
    verdicts = [hit("api", "10.0.0.1", Rate(1, 60), fail_open=True) for _ in range(3)]
    assert [(v.allowed, v.count, v.retry_after) for v in verdicts] == [(True, None, 30)] * 3


@pytest.mark.parametrize("failing", FAILING_CACHES.values(), ids=FAILING_CACHES.keys())
def test_a_failed_cache_refuses_what_fails_closed(monkeypatch, clock, failing):
    monkeypatch.setattr(rate_limits, "cache", failing)
    verdict = hit("logins", "10.0.0.1", Rate(100, 60), fail_open=False)
    assert (verdict.allowed, verdict.count) == (False, None)


def test_a_failure_is_logged_once_a_minute(monkeypatch, clock, caplog):
    monkeypatch.setattr(rate_limits, "cache", FAILING_CACHES["redis-connection"])
    seconds = iter([1000.0, 1030.0, 1059.0, 1061.0])
    monkeypatch.setattr(rate_limits.time, "monotonic", lambda: next(seconds))
    with caplog.at_level(logging.WARNING, logger="tournament.server.rate_limits"):
        for _ in range(4):
            hit("api", "10.0.0.1", Rate(1, 60), fail_open=True)
    lines = [r.getMessage() for r in caplog.records if r.name == "tournament.server.rate_limits"]
    assert len(lines) == 2
    assert "The rate limit of api cannot reach the cache (ConnectionError" in lines[0]
    assert "let through" in lines[0]


def test_an_other_error_is_not_hidden(monkeypatch, clock):
    """A fault in the code, not in the cache, still fails loudly."""
    monkeypatch.setattr(rate_limits, "cache", RaisingCache(TypeError("a bug")))
    with pytest.raises(TypeError):
        hit("api", "10.0.0.1", Rate(1, 60), fail_open=True)
