"""Public forms throttled against floods: at most so many posts from one address in a
window, counted in the cache (shared by every worker and server that share the cache).
No captcha service from outside: a person signing up posts once or twice."""

from django.core.cache import cache

from tournament.server.login_throttle import client_ip

# Sign-ups from one address: a club signing up its members at one desk stays well under.
SIGN_UPS_PER_WINDOW = 10
WINDOW_SECONDS = 10 * 60


def allowed(request, form: str, *, limit: int = SIGN_UPS_PER_WINDOW) -> bool:
    """Count one more post of ``form`` from the visitor's address; False once the address
    has posted ``limit`` within the window."""
    key = f"mcr:throttle:{form}:{client_ip(request) or 'unknown'}"
    # add() starts the window only if none runs; incr() is atomic in every cache backend.
    cache.add(key, 0, WINDOW_SECONDS)
    try:
        count = cache.incr(key)
    except ValueError:  # the window ended between add() and incr()
        cache.set(key, 1, WINDOW_SECONDS)
        count = 1
    return count <= limit


def window_minutes() -> int:
    return WINDOW_SECONDS // 60
