"""The shared cache (Redis) that may go away: every read or write that fails is a miss.

Everything the app caches can be computed again or read from the database, so a Redis that
cannot be reached (stopped, restarting, its network down, black-holed) must cost the pages
their time, never an error: a read answers the default, a write is dropped, ``add`` answers
False and ``incr`` raises ``ValueError`` as for a missing key (the counters of the request
limits rely on exactly this). The sessions are then read from the database (``cached_db``).

Three things keep an outage cheap and harmless:

- **Short timeouts** (settings): a Redis that does not answer costs a request at most a
  fraction of a second, once.
- **A circuit breaker per process**: after a failure the process leaves Redis alone (every
  call answers at once as a miss) while a look-out thread asks Redis every few seconds;
  requests never pay the timeout again on each of their many cache calls.
- **Nothing stale when it returns**: a key whose write or delete may not have reached Redis
  (a session signed out, a session changed) is remembered, and the look-out deletes those
  keys before the process uses Redis again. Beyond ``STALE_LIMIT`` keys it empties the whole
  cache instead. (Each process deletes what it failed to write; until its look-out finds
  Redis again, a few seconds, another process could still read one of those keys.)

An outage is logged once a minute at most per process, a warning naming it, and its end once.
"""

from __future__ import annotations

import logging
import os
import threading
import time
import urllib.parse

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

# Seconds between the look-out's attempts to reach Redis while it is away.
RETRY_SECONDS = 2.0
# At most one warning a minute per process while Redis stays away or comes and goes.
LOG_SECONDS = 60.0
# Keys remembered for deletion; beyond, the whole cache is emptied when Redis answers again.
STALE_LIMIT = 10_000


# What a Redis client raises when its server cannot be reached or answers wrongly: OSError
# covers the socket's own errors (and the built-in ConnectionError and TimeoutError) that the
# client lets through.
CACHE_ERRORS = (RedisError, OSError)


def _where(location: str) -> str:
    """The server as the log names it: host, port and database, never a password."""
    parts = urllib.parse.urlsplit(location)
    return f"{parts.hostname}:{parts.port or 6379}{parts.path or '/0'}"


class Outage:
    """What one process knows of its Redis being away, shared by its threads (Django gives
    each thread a cache backend of its own)."""

    def __init__(self, location: str):
        self.location = location
        self.where = _where(location)
        self.lock = threading.Lock()
        self.since: float | None = None  # monotonic; None while Redis answers
        self.error = ""
        self.stale: set[str] = set()
        self.overflowed = False
        self.warned_at = -LOG_SECONDS
        self.warned = False
        self.lookout: tuple[int, threading.Thread] | None = None

    @property
    def down(self) -> bool:
        return self.since is not None

    def seconds(self) -> float:
        since = self.since
        return 0.0 if since is None else time.monotonic() - since

    def remember(self, keys) -> None:
        if not keys:
            return
        with self.lock:
            if self.overflowed:
                return
            self.stale.update(keys)
            if len(self.stale) > STALE_LIMIT:
                self.stale.clear()
                self.overflowed = True

    def failed(self, client: TolerantClient, error: BaseException) -> None:
        """Redis failed a call: the breaker opens (if not open yet), the look-out starts."""
        now = time.monotonic()
        with self.lock:
            self.error = f"{type(error).__name__}: {error}"
            if self.since is None:
                self.since = now
            warn = now - self.warned_at >= LOG_SECONDS
            if warn:
                self.warned_at = now
                self.warned = True
            self._watch(client)
        if warn:
            logger.warning(
                "The cache cannot be reached (Redis at %s): pages are drawn without it and "
                "sessions read from the database until it answers again. %s",
                self.where,
                self.error,
            )

    def keep_watching(self, client: TolerantClient) -> None:
        """While Redis is away, a look-out runs in this process: a process forked from one
        that had met the outage (gunicorn's workers, from the master that loaded the app)
        starts its own on its first call, or its breaker would never close."""
        with self.lock:
            if self.since is not None:
                self._watch(client)

    def _watch(self, client: TolerantClient) -> None:
        # In this process: a thread of the process it was forked from is not running here.
        pid = os.getpid()
        if self.lookout and self.lookout[0] == pid and self.lookout[1].is_alive():
            return
        thread = threading.Thread(
            target=self._look_out, args=(client,), name="mcr-cache-lookout", daemon=True
        )
        self.lookout = (pid, thread)
        thread.start()

    def _look_out(self, client: TolerantClient) -> None:
        while True:
            time.sleep(RETRY_SECONDS)
            if _outages.get(self.location) is not self:
                return  # forgotten (``forget_outages``)
            try:
                what = self._recover(client)
            except CACHE_ERRORS as error:
                with self.lock:
                    self.error = f"{type(error).__name__}: {error}"
                continue
            return self._recovered(what)

    def _recover(self, client: TolerantClient) -> str:
        """Delete what may be stale, then close the breaker; what was deleted, for the log."""
        redis_client = client.get_client(write=True)
        redis_client.ping()
        emptied, deleted = False, 0
        while True:
            with self.lock:
                overflowed, keys = self.overflowed, list(self.stale)
                if not overflowed and not keys:
                    # Nothing left that could be stale: the process may use Redis again.
                    self.since = None
                    self.lookout = None
                    if emptied:
                        return "emptied first (more keys written or deleted meanwhile than kept)"
                    return f"{deleted} key(s) written or deleted meanwhile deleted first"
            # Keys remembered meanwhile (a call that failed in another thread) are taken on
            # the next turn, still before the breaker closes.
            if overflowed:
                redis_client.flushdb()
            for start in range(0, len(keys), 1000):
                redis_client.delete(*keys[start : start + 1000])
            with self.lock:
                if overflowed:
                    self.overflowed, emptied = False, True
                self.stale.difference_update(keys)
                deleted += len(keys)

    def _recovered(self, what: str) -> None:
        with self.lock:
            warned, self.warned = self.warned, False
        if warned:
            logger.info("The cache answers again (Redis at %s): %s.", self.where, what)


_outages: dict[str, Outage] = {}
_outages_lock = threading.Lock()


def outage_of(location: str) -> Outage:
    with _outages_lock:
        found = _outages.get(location)
        if found is None:
            found = _outages[location] = Outage(location)
        return found


def forget_outages() -> None:
    """Forget every outage this process knows of (the tests' fresh start); their look-outs
    stop at their next turn."""
    with _outages_lock:
        _outages.clear()


def _forget_locks_after_fork() -> None:
    # A lock held by another thread at the fork would stay held for good in the child.
    global _outages_lock
    _outages_lock = threading.Lock()
    for outage in _outages.values():
        outage.lock = threading.Lock()


os.register_at_fork(after_in_child=_forget_locks_after_fork)


class TolerantClient(RedisCacheClient):
    """Django's Redis client, every call answered as a miss while Redis is away."""

    def __init__(self, servers, **options):
        super().__init__(servers, **options)
        self.location = servers[0]

    @property
    def outage(self) -> Outage:
        return outage_of(self.location)

    def _call(self, fallback, call, *args, stale=()):
        """``call(*args)``, or ``fallback()`` when Redis is away or fails it; ``stale``: the
        keys it writes or deletes, remembered when it may not have reached Redis."""
        outage = self.outage
        if outage.down:
            outage.remember(stale)
            outage.keep_watching(self)
            return fallback()
        try:
            return call(*args)
        except CACHE_ERRORS as error:
            outage.remember(stale)
            outage.failed(self, error)
            return fallback()

    def add(self, key, value, timeout):
        # Not remembered: an add that did not reach Redis wrote nothing over another value,
        # and one whose answer was lost wrote a key the caller counts as missing (a rate
        # limit's window starting again), never a stale value. The rate limits' counters
        # would otherwise fill the list during an outage and empty the whole cache.
        return self._call(lambda: False, super().add, key, value, timeout)

    def get(self, key, default):
        return self._call(lambda: default, super().get, key, default)

    def set(self, key, value, timeout):
        return self._call(lambda: None, super().set, key, value, timeout, stale=(key,))

    def touch(self, key, timeout):
        # An expiry not moved is no stale value: the key only leaves sooner.
        return self._call(lambda: False, super().touch, key, timeout)

    def delete(self, key):
        return self._call(lambda: False, super().delete, key, stale=(key,))

    def get_many(self, keys):
        return self._call(dict, super().get_many, keys)

    def has_key(self, key):
        return self._call(lambda: False, super().has_key, key)

    def incr(self, key, delta):
        def missing():
            raise ValueError(f"Key '{key}' not found: the cache cannot be reached.")

        # A count that missed one increment is no stale value either.
        return self._call(missing, super().incr, key, delta)

    def set_many(self, data, timeout):
        return self._call(lambda: None, super().set_many, data, timeout, stale=tuple(data))

    def delete_many(self, keys):
        return self._call(lambda: None, super().delete_many, keys, stale=tuple(keys))

    def clear(self):
        def later():
            # Emptied when Redis answers again, before anything else.
            with self.outage.lock:
                self.outage.stale.clear()
                self.outage.overflowed = True
            return False

        return self._call(later, super().clear)

    def ping(self) -> bool:
        return self._call(lambda: False, lambda: bool(self.get_client(write=True).ping()))


class TolerantRedisCache(RedisCache):
    """``RedisCache`` whose every call fails as a miss (``TolerantClient``)."""

    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = TolerantClient

    def unreachable_for(self) -> float | None:
        """Seconds Redis has been away for this process, None while it answers (asked now,
        unless the breaker is already open)."""
        client = self._cache
        if not client.outage.down:
            client.ping()
        return client.outage.seconds() if client.outage.down else None
