"""Public forms throttled against floods: at most so many posts from one address in a
window, counted in the shared cache (``rate_limits``: every worker and server that share the
cache count together). No captcha service from outside: a person signing up posts once or
twice.

The count fails open: with the cache down, the forms are taken, and what their services
count in the database still holds (a tournament's sign-ups an hour, an e-mail address's a
day: ``services.sign_ups``)."""

from tournament.server import rate_limits
from tournament.server.login_throttle import client_ip

# Sign-ups from one address: a club signing up its members at one desk stays well under.
SIGN_UPS_PER_WINDOW = 10
WINDOW_SECONDS = 10 * 60


def allowed(request, form: str) -> bool:
    """Count one more post of ``form`` from the visitor's address; False once the address
    has posted ``SIGN_UPS_PER_WINDOW`` times within the window."""
    rate = rate_limits.Rate(SIGN_UPS_PER_WINDOW, WINDOW_SECONDS)
    return rate_limits.hit(
        f"form:{form}", client_ip(request) or "unknown", rate, fail_open=True
    ).allowed


def window_minutes() -> int:
    return WINDOW_SECONDS // 60
