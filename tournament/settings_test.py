"""Settings for the test suite: fast hashing; an in-memory SQLite database, or the
PostgreSQL that DATABASE_URL names (the tests then run in a database of their own,
``test_`` and its name, made and dropped by the test run)."""

import os
from urllib.parse import urlsplit, urlunsplit

from .settings import *  # noqa: F403
from .settings import DATABASES

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["NAME"] = ":memory:"
    DATABASES["default"]["OPTIONS"] = {"transaction_mode": "IMMEDIATE", "timeout": 20}
else:
    # A connection per test thread, closed after each request, as the test client expects.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
# With a Redis cache, each of pytest's workers has a database of its own (1 for gw0, 2 for
# gw1…): every test empties the cache, which must not empty another worker's.
if REDIS_URL:  # noqa: F405
    _worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
    _location = urlsplit(REDIS_URL)._replace(path=f"/{1 + _worker}")  # noqa: F405
    CACHES["default"]["LOCATION"] = urlunsplit(_location)  # noqa: F405
DEBUG = False
ALLOWED_HOSTS = ["testserver", "127.0.0.1", "localhost"]
# The API's schema test makes hundreds of requests from one address; the throttle's own
# test lowers the rate it checks.
API_RATE = "100000/m"
