"""Settings for the test suite: fast hashing, an in-memory database."""

from .settings import *  # noqa: F403
from .settings import DATABASES

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
DATABASES["default"]["NAME"] = ":memory:"
DATABASES["default"]["OPTIONS"] = {"transaction_mode": "IMMEDIATE", "timeout": 20}
DEBUG = False
ALLOWED_HOSTS = ["testserver", "127.0.0.1", "localhost"]
