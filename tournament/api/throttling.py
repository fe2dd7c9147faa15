"""The results API's rate limit: ``MCR_API_RATE`` requests per address (behind the site's
proxies, the caller's: ``login_throttle.client_ip``), counted atomically in the shared cache
(``server.rate_limits``), answered 429 with Retry-After beyond.

Ninja's own throttle read an address's list of request times from the cache, added one and
wrote it back: parallel requests read the same list and all passed (480 of 480 with eight
threads at 300 a minute). The count here is one atomic increment.

It fails open: with the cache down the API answers (it is read-only and public), and the
outage is logged."""

import threading

from django.conf import settings
from ninja.throttling import BaseThrottle

from tournament.server import rate_limits
from tournament.server.login_throttle import client_ip


class AddressRateThrottle(BaseThrottle):
    """``rate`` ("N/s", "N/m", "N/h") per address; without one, ``settings.API_RATE`` as it
    is at each request (so a test or a settings change takes effect)."""

    def __init__(self, rate: str | None = None):
        self.rate = rate
        # A bad rate is found when the site starts, not on the first request.
        rate_limits.parse_rate(self._rate_text())
        # Ninja asks wait() after allow_request() on the same shared instance: each
        # request's thread keeps its own answer.
        self._local = threading.local()

    def _rate_text(self) -> str:
        return self.rate or settings.API_RATE

    def allow_request(self, request) -> bool:
        verdict = rate_limits.hit(
            "api",
            client_ip(request) or "unknown",
            rate_limits.parse_rate(self._rate_text()),
            fail_open=True,
        )
        self._local.retry_after = verdict.retry_after
        return verdict.allowed

    def wait(self) -> float | None:
        return getattr(self._local, "retry_after", None)
