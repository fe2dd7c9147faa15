"""Login throttling with django-axes (settings: ``AXES_*``): the backend that refuses a
locked-out login, the visitor's address behind the proxies, the lockout page, and the
organisers' list of locked-out accounts with its unlock."""

import ipaddress
import logging
from dataclasses import dataclass
from datetime import datetime

from axes.backends import AxesStandaloneBackend
from axes.helpers import get_cool_off
from axes.models import AccessAttempt
from axes.utils import reset
from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import Max, Sum
from django.shortcuts import render
from django.utils import timezone

logger = logging.getLogger(__name__)


class LoginThrottleBackend(AxesStandaloneBackend):
    """Axes' refusal of a locked-out login, for the logins tried through a page (ours, the
    admin's), which always come with their request.

    ``authenticate()`` without a request comes from the server's own code (a management
    command, the shell) with no visitor to throttle: it goes on to the password check
    instead of failing as axes' own backend would.
    """

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


def username(request, credentials=None) -> str | None:
    """The name a login was tried with, as axes records it: cut to the longest name an
    account can have. (A longer one matches no account; stored whole, it would not fit
    axes' column on PostgreSQL, and the login page would fail instead of refusing it.)"""
    if credentials:
        name = credentials.get("username")
    else:
        name = getattr(request, "data", request.POST).get("username")
    if not isinstance(name, str):
        return name
    return name[: User._meta.get_field("username").max_length]


def _address(text: str) -> str | None:
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        return None


def client_ip(request) -> str | None:
    """The visitor's address (``AXES_CLIENT_IP_CALLABLE``).

    Each of the ``TRUSTED_PROXY_COUNT`` proxies in front of the app appends the address it
    was reached from to X-Forwarded-For, so the visitor's is that many places from the end;
    what comes before is the visitor's own say and not trusted. Without proxies (or with a
    header too short, a request that went round them), the connection's address.
    """
    count = settings.TRUSTED_PROXY_COUNT
    if count > 0:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
        if len(forwarded) >= count:
            found = _address(forwarded[-count])
            if found:
                return found
    return request.META.get("REMOTE_ADDR")


def cool_off_minutes() -> int:
    """The cool-off as the pages say it."""
    return int(get_cool_off().total_seconds() // 60)


def lockout_response(request, original_response, credentials):
    """The page of a refused login (``AXES_LOCKOUT_CALLABLE``): 429, what happened, when to
    try again, who can lift it sooner."""
    username = (credentials or {}).get("username") or request.POST.get("username", "")
    context = {
        "username": username,
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "minutes": cool_off_minutes(),
    }
    return render(request, "registration/locked_out.html", context, status=429)


@dataclass(frozen=True)
class FailedLogins:
    """Recent failed logins of one account from one address."""

    username: str
    ip_address: str | None
    failures: int
    last_failure: datetime
    locked_until: datetime | None  # None: below the limit, not locked out


def failed_logins(
    *, now: datetime | None = None, usernames: frozenset[str] | None = None
) -> list[FailedLogins]:
    """Accounts with failed logins within the cool-off, by account and address, the latest
    first; those at the limit are locked out until ``locked_until``. Only the accounts
    named in ``usernames``, when given (``permissions.unlockable_usernames``)."""
    now = now or timezone.now()
    attempts = AccessAttempt.objects.filter(attempt_time__gte=now - get_cool_off())
    if usernames is not None:
        attempts = attempts.filter(username__in=usernames)
    rows = (
        attempts.values("username", "ip_address")
        .annotate(failures=Sum("failures_since_start"), last_failure=Max("attempt_time"))
        .order_by("-last_failure", "username")
    )
    return [
        FailedLogins(
            username=row["username"] or "",
            ip_address=row["ip_address"],
            failures=row["failures"],
            last_failure=row["last_failure"],
            locked_until=row["last_failure"] + get_cool_off()
            if row["failures"] >= settings.AXES_FAILURE_LIMIT
            else None,
        )
        for row in rows
    ]


def unlock(*, username: str, ip_address: str | None, by) -> int:
    """Lift the lockout of ``username`` from ``ip_address`` (from every address when None):
    it may log in from there again at once. The number of records removed.

    Only the count that locks the account out is reset: each failed login stays in axes'
    failure log (``AXES_ENABLE_ACCESS_FAILURE_LOG``, the admin's *Access failures*), and the
    unlock is logged with who lifted it and the failures it forgave. Who may unlock which
    account is ``permissions.can_unlock_login``'s to say, before this is called."""
    if not username:
        # axes would read no username and no address as "everyone".
        raise ValueError("unlock needs a username")
    attempts = AccessAttempt.objects.filter(username=username)
    if ip_address:
        attempts = attempts.filter(ip_address=ip_address)
    failures = attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0
    removed = reset(username=username, ip=ip_address or None)
    logger.warning(
        "%s unlocked the logins of %r from %s, after %d failed logins.",
        by,
        username,
        ip_address or "every address",
        failures,
    )
    return removed
