"""The shared cache's backend (``server.cache``) against a real redis-server of the test's own,
stopped, frozen and started again: every call answers as a miss while Redis is away, without
waiting on it, the outage is logged once, and what was written or deleted meanwhile is not
served stale when Redis returns with what it held."""

import logging
import os
import sys
import time
from pathlib import Path

import pytest
from django.contrib.sessions.backends import cached_db
from django.core.cache import cache
from django.test import override_settings

from tournament.server import cache as tolerant

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from outages import RedisServer, redis_available

pytestmark = pytest.mark.skipif(not redis_available(), reason="needs redis-server")

# As the settings give them with MCR_REDIS_URL.
OPTIONS = {"socket_connect_timeout": 0.25, "socket_timeout": 0.5}


@pytest.fixture
def redis(monkeypatch):
    # The look-out asks every 0.1 s here, not every 2 s.
    monkeypatch.setattr(tolerant, "RETRY_SECONDS", 0.1)
    server = RedisServer()
    server.start()
    yield server
    server.close()
    tolerant.forget_outages()


def backend(server: RedisServer) -> tolerant.TolerantRedisCache:
    return tolerant.TolerantRedisCache(server.url, {"KEY_PREFIX": "t", "OPTIONS": OPTIONS})


def back_again(cache: tolerant.TolerantRedisCache, timeout: float = 10) -> None:
    """Until this process uses Redis again (its look-out found it)."""
    deadline = time.monotonic() + timeout
    while cache.unreachable_for() is not None:
        assert time.monotonic() < deadline, "Redis was not found again"
        time.sleep(0.05)


def test_every_call_answers_as_a_miss_while_redis_is_stopped(redis):
    cache = backend(redis)
    cache.set("page", "html")
    cache.set("count", 3)
    assert cache.get("page") == "html"
    assert cache.unreachable_for() is None
    redis.stop()

    assert cache.get("page") is None
    assert cache.get("page", "default") == "default"
    assert cache.get_many(["page", "count"]) == {}
    assert cache.set("page", "new") is None
    assert cache.set_many({"a": 1, "b": 2}) == []
    assert cache.add("fresh", 1) is False
    with pytest.raises(ValueError):
        cache.incr("count")
    with pytest.raises(ValueError):
        cache.decr("count")
    assert cache.has_key("page") is False
    assert "page" not in cache
    assert cache.touch("page") is False
    assert cache.delete("page") is False
    assert cache.delete_many(["a", "b"]) is None
    assert cache.get_or_set("drawn", lambda: "drawn now") == "drawn now"
    cache.clear()
    assert cache.unreachable_for() > 0


def test_a_redis_that_does_not_answer_costs_one_short_wait(redis):
    """Frozen, the port open and nothing answered: one call waits out the read timeout, the
    process then leaves Redis alone until its look-out finds it again."""
    cache = backend(redis)
    cache.set("page", "html")
    redis.freeze()
    started = time.monotonic()
    assert cache.get("page") is None
    first = time.monotonic() - started
    started = time.monotonic()
    for _ in range(200):
        assert cache.get("page") is None
        cache.set("page", "html")
    rest = time.monotonic() - started
    assert first < 1.0
    assert rest < 0.1
    redis.thaw()
    back_again(cache)
    cache.set("page", "html again")
    assert cache.get("page") == "html again"


def test_an_outage_is_logged_once_a_minute_per_process(redis, caplog):
    cache = backend(redis)
    outage = cache._cache.outage
    caplog.set_level(logging.INFO, logger="tournament.server.cache")
    redis.stop()
    for _ in range(50):
        cache.get("page")
        cache.set("page", "html")
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1
    assert "The cache cannot be reached (Redis at 127.0.0.1:" in warnings[0].getMessage()
    assert "ConnectionError" in warnings[0].getMessage()

    redis.start()
    back_again(cache)
    assert "The cache answers again" in caplog.records[-1].getMessage()
    assert "1 key(s) written or deleted meanwhile deleted first" in caplog.records[-1].getMessage()
    # Gone again within the minute: not logged again.
    redis.stop()
    cache.get("page")
    assert len([r for r in caplog.records if r.levelno == logging.WARNING]) == 1
    # A minute later it is.
    redis.start()
    back_again(cache)
    outage.warned_at -= tolerant.LOG_SECONDS
    redis.stop()
    cache.get("page")
    assert len([r for r in caplog.records if r.levelno == logging.WARNING]) == 2


def test_keys_written_or_deleted_during_the_outage_are_not_served_when_redis_returns(redis):
    cache = backend(redis)
    cache.set_many({"deleted": "old", "changed": "old", "kept": "as it was", "many": "old"})
    redis.stop()  # saved: it comes back with these
    cache.delete("deleted")
    cache.set("changed", "new")
    cache.delete_many(["many"])
    redis.start()
    back_again(cache)
    # What was not touched during the outage came back, and is kept.
    assert cache.get_many(["deleted", "changed", "kept", "many"]) == {"kept": "as it was"}


def test_a_process_forked_during_the_outage_finds_redis_again(redis):
    """gunicorn's master loads the app (and warms it up) before forking the workers: a
    worker forked while the master's breaker was open has no look-out of its own until
    its first call starts one, and must not stay without Redis for good."""
    cache = backend(redis)
    redis.stop()
    cache.get("page")
    assert cache.unreachable_for() is not None
    child = os.fork()
    if child == 0:  # the worker: calls as requests would, until Redis is used again
        found = False
        try:
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and not found:
                cache.get("page")
                found = cache.unreachable_for() is None
                time.sleep(0.05)
        finally:
            os._exit(0 if found else 1)
    redis.start()
    _pid, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0, "the forked process never used Redis again"


def test_an_add_during_the_outage_is_not_kept_to_delete(redis):
    """The rate limits' counters start with ``add``: during an outage their keys must not
    fill the list of keys to delete (beyond its bound the whole cache would be emptied)."""
    cache = backend(redis)
    redis.stop()
    for n in range(20):
        assert cache.add(f"count-{n}", 0) is False
    assert cache._cache.outage.stale == set()


def test_beyond_the_bound_the_whole_cache_is_emptied_when_redis_returns(redis, monkeypatch):
    monkeypatch.setattr(tolerant, "STALE_LIMIT", 3)
    cache = backend(redis)
    cache.set_many({f"page-{n}": n for n in range(6)})
    redis.stop()
    for n in range(5):
        cache.set(f"page-{n}", "new")
    redis.start()
    back_again(cache)
    assert cache.get_many([f"page-{n}" for n in range(6)]) == {}
    assert redis.client().dbsize() == 0


@pytest.mark.django_db
def test_a_session_signed_out_during_the_outage_is_not_served_when_redis_returns(redis):
    """``cached_db`` reads the session from the database while the cache cannot answer, and
    a session deleted then (a logout) does not come back from Redis afterwards."""
    caches = {"default": {"BACKEND": "tournament.server.cache.TolerantRedisCache"}}
    caches["default"] |= {"LOCATION": redis.url, "OPTIONS": OPTIONS}
    with override_settings(CACHES=caches):
        sessions = []
        for table in (7, 8):
            session = cached_db.SessionStore()
            session["table"] = table
            session.create()
            sessions.append(session.session_key)
        key, other = sessions
        assert cached_db.SessionStore(key).load() == {"table": 7}
        redis.stop()
        assert cached_db.SessionStore(key).load() == {"table": 7}  # from the database
        cached_db.SessionStore(key).delete()
        assert cached_db.SessionStore(key).load() == {}
        redis.start()
        back_again(cache)
        assert cached_db.SessionStore(key).load() == {}
        # Redis came back with what it held: the other session, never touched since.
        assert redis.client().exists(f":1:{cached_db.KEY_PREFIX}{other}")
