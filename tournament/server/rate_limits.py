"""Fixed-window rate limits counted in the shared cache: at most ``limit`` hits of one thing
(``what``: the API, a public form) by one caller (``who``: an address) in each window of
``seconds``.

Each window has a key of its own, ``what:who:window number``, that expires when the window
ends: a key never outlives its window, and a new window never inherits an old count. The
count is kept by ``cache.add(key, 0)`` (starts the window's key only if none exists) then
``cache.incr(key)``, which Redis (INCR) and the in-process cache (under its lock) each do in
one step: parallel requests can never read the same count and all pass, as they could when
the count was read, changed and written back.

A fixed window lets a caller make up to twice the limit across a window's end (the limit
at the end of one window, again at the start of the next): for the floods these limits are
against, that is the same order of magnitude, and it costs one counter per caller.

When the cache fails (Redis down or unreachable), the caller says which way to fail: open
(the hit is allowed: the API and the public forms, which other limits still hold) or closed
(refused). Every caller today fails open; the logins are throttled by django-axes in the
database, which holds whatever the cache does. The failure is logged at most once a minute,
not on every request of an outage.
"""

import logging
import math
import re
import threading
import time
from dataclasses import dataclass
from functools import lru_cache

from django.core.cache import cache

from tournament.server.cache import CACHE_ERRORS

logger = logging.getLogger(__name__)

# Seconds a key is kept past its window's end: a request that read the clock just before
# the end still finds its window's key (a Redis INCR on an expired key would start one
# that never expires).
KEY_MARGIN_SECONDS = 2
LOG_EVERY_SECONDS = 60

_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_RATE = re.compile(r"\s*(\d+)\s*/\s*([smhd])\s*")


@dataclass(frozen=True)
class Rate:
    """``limit`` hits in each window of ``seconds``."""

    limit: int
    seconds: int


@lru_cache(maxsize=32)
def parse_rate(text: str) -> Rate:
    """``"300/m"`` (a minute), ``"N/s"``, ``"N/h"`` or ``"N/d"`` as a ``Rate``."""
    match = _RATE.fullmatch(text or "")
    if match is None or int(match.group(1)) < 1:
        raise ValueError(
            f"A rate is a number of requests, a slash and s, m, h or d (e.g. 300/m), not {text!r}."
        )
    return Rate(int(match.group(1)), _PERIODS[match.group(2)])


@dataclass(frozen=True)
class Verdict:
    """One hit counted: whether it is within the limit, the count in the window (None when
    the cache failed), and the seconds until the window ends (a 429's Retry-After)."""

    allowed: bool
    count: int | None
    retry_after: int


def _now() -> float:
    return time.time()


_log_lock = threading.Lock()
_last_logged = -math.inf


def _log_failure(what: str, error: Exception, fail_open: bool) -> None:
    global _last_logged
    now = time.monotonic()
    with _log_lock:
        if now - _last_logged < LOG_EVERY_SECONDS:
            return
        _last_logged = now
    logger.warning(
        "The rate limit of %s cannot reach the cache (%s: %s): requests are %s until it "
        "answers again (logged at most once a minute).",
        what,
        type(error).__name__,
        error,
        "let through" if fail_open else "refused",
    )


def _count(key: str, timeout: int) -> int:
    """One more hit on ``key``; ValueError when the cache holds no count (a cache that
    treats its own failures as misses answers so)."""
    cache.add(key, 0, timeout)
    try:
        return cache.incr(key)
    except ValueError:
        # The key expired (or was evicted) between add() and incr(): start it again once.
        if cache.add(key, 1, timeout):
            return 1
        return cache.incr(key)


def hit(what: str, who: str, rate: Rate, *, fail_open: bool) -> Verdict:
    """Count one hit of ``what`` by ``who`` in the current window of ``rate``; allowed while
    the window's count is at most ``rate.limit``. When the cache fails, allowed if
    ``fail_open``, refused otherwise."""
    now = _now()
    window = int(now // rate.seconds)
    left = max(1, math.ceil((window + 1) * rate.seconds - now))
    key = f"mcr:rate:{what}:{who}:{rate.seconds}:{window}"
    try:
        count = _count(key, left + KEY_MARGIN_SECONDS)
    except (ValueError, *CACHE_ERRORS) as error:
        _log_failure(what, error, fail_open)
        return Verdict(allowed=fail_open, count=None, retry_after=left)
    return Verdict(allowed=count <= rate.limit, count=count, retry_after=left)
