"""Settings for the MCR tournament site, from ``MCR_*`` environment variables.

The defaults run the local demo: DEBUG on, a SQLite file, the demo's secret key. A real event
sets ``MCR_DEBUG=0``, ``MCR_SECRET_KEY`` and ``MCR_ALLOWED_HOSTS`` (README, "Running a real
event"; docs/deploy.md); with DEBUG off the HTTPS protections are on unless turned off.
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF, UNSAFE_INLINE
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def _flag(name: str, default: bool) -> bool:
    """``1`` or ``0``; anything else is refused rather than read as off, so that a
    ``MCR_SECURE_SSL_REDIRECT=true`` cannot turn a protection off by mistake."""
    value = os.environ.get(name, "1" if default else "0").strip()
    if value not in ("0", "1"):
        raise ImproperlyConfigured(f"{name} must be 1 or 0, not {value!r}.")
    return value == "1"


def _list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def _int(name: str, default: int, minimum: int | None = None) -> int:
    value = os.environ.get(name, "").strip() or str(default)
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}.") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name} must be {minimum} or more.")
    return number


DEBUG = _flag("MCR_DEBUG", True)

# The demo's key is public (it is in this file): it signs the sessions and the table cards'
# links, so a real event must not start with it.
DEMO_SECRET_KEY = "demo-only-not-secret-change-me-for-a-real-event"
SECRET_KEY = os.environ.get("MCR_SECRET_KEY", "").strip() or DEMO_SECRET_KEY
if not DEBUG and SECRET_KEY == DEMO_SECRET_KEY:
    raise ImproperlyConfigured(
        "MCR_DEBUG=0 (a real event) needs a secret key of its own, and MCR_SECRET_KEY is "
        + ("the demo's." if os.environ.get("MCR_SECRET_KEY", "").strip() else "not set.")
        + " Set MCR_SECRET_KEY to a long random string, made once for the event and kept: "
        "python3 -c 'import secrets; print(secrets.token_urlsafe(50))'"
    )
ALLOWED_HOSTS = _list("MCR_ALLOWED_HOSTS", "127.0.0.1,localhost")
# Only needed when the proxy does not pass the Host header the browser used,
# e.g. "https://mcr.example.org".
CSRF_TRUSTED_ORIGINS = _list("MCR_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    # Django's own widget templates, found by the site's template engine (FORM_RENDERER).
    "django.forms",
    "axes",
    "simple_history",
    "django_tasks",
    "django_tasks_db",
    "django_tables2",
    "tournament",
]

MIDDLEWARE = [
    # First of all: a body declared larger than REQUEST_BODY_MAX_BYTES is refused (413)
    # before anything reads it, the CSRF check included.
    "tournament.server.body_limit.BodyLimitMiddleware",
    # Then the health check, before the host and HTTPS checks (docs/deploy.md).
    "tournament.server.health.HealthCheckMiddleware",
    # A view that met the database away answers 503, to be tried again (docs/deploy.md).
    "tournament.server.database_outage.DatabaseOutageMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # The site's time zone for every request until a tournament's page sets its own.
    "tournament.server.event_time.EventTimeMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # The Content-Security-Policy header (CONTENT_SECURITY_POLICY below).
    "csp.middleware.CSPMiddleware",
    # Records who made each change kept in the audit trail.
    "simple_history.middleware.HistoryRequestMiddleware",
    # Last, as django-axes asks: turns a refused login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "tournament.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

# The forms drawn by the same engine as the pages: Django's widget templates, and the
# project's own template for a field with its label, help and errors.
FORM_RENDERER = "tournament.forms.renderer.FormRenderer"

# Every data table (tournament/tables/) is drawn by the project's template.
DJANGO_TABLES2_TEMPLATE = "tables/table.html"

WSGI_APPLICATION = "tournament.wsgi.application"

# DATABASE_URL (e.g. postgres://user@host:5432/name) selects the event's database; without
# it, a local SQLite file. On SQLite many referee tablets write at once: WAL lets readers
# continue during a write, IMMEDIATE takes the write lock at BEGIN (no deadlock on lock
# upgrade), and the timeout makes a writer wait for the lock instead of failing at once.
if os.environ.get("DATABASE_URL"):
    DATABASES = {
        "default": dj_database_url.parse(
            os.environ["DATABASE_URL"], conn_max_age=60, conn_health_checks=True
        )
    }
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # The pages send the same few statements again and again with other values: bound on
        # the server and prepared from their fifth use on a connection, PostgreSQL plans each
        # once instead of on every request. Planning a join costs it more than running it
        # (1.1 ms against 0.1 ms for a player's tables): a third of its CPU saved at a
        # 10,000-player event. A URL's own ?server_side_binding= or ?prepare_threshold= wins.
        _options = DATABASES["default"].setdefault("OPTIONS", {})
        _options.setdefault("server_side_binding", True)
        _options.setdefault("prepare_threshold", 5)
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("MCR_DB_PATH", str(BASE_DIR / "db.sqlite3")),
            # Each server process keeps its connection (as on PostgreSQL) instead of opening
            # the file and setting it up again for every request of every tablet.
            "CONN_MAX_AGE": 60,
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
        }
    }

# What is cached (the stored standings, the pages' figures, the hall screens' panels, the
# workbooks, the public forms' and the API's request counters): in each server process's
# memory by default, which needs nothing more; with MCR_REDIS_URL (redis://host:6379/0), in
# Redis, shared by every process of every app server, so that one copy serves them all and the
# counters count every request. Everything cached is keyed by the versions of the data it
# comes from: a process never serves a copy older than the database, shared or not.
# Redis may go away: every call that fails is a miss (tournament/server/cache.py), and the
# short timeouts keep a Redis that does not answer from holding requests up (a call takes
# well under a millisecond when it answers).
REDIS_URL = os.environ.get("MCR_REDIS_URL", "").strip()
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "tournament.server.cache.TolerantRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "mcr",
            "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 0.5},
        }
    }
    # Every request of a tablet or of someone signed in reads its session: from Redis, the
    # database only when Redis does not hold it (written to both). Only with a shared cache:
    # one kept in each process would go on holding a session signed out in another.
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

# The task queue: what is slow or waits on another server (e-mails, big imports, the
# workbooks, backups) runs in the background workers (`manage.py worker`), never in a
# request. A task is a row of the site's own database (django-tasks' database backend),
# written in the transaction of the write that asks for it: it exists exactly when that write
# does, and needs no other server, on SQLite as on PostgreSQL.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
# The event's backups, taken by the task workers every MCR_BACKUP_MINUTES into MCR_BACKUP_DIR
# (none without it), the newest MCR_BACKUP_KEEP kept (docs/backups.md).
BACKUP_DIR = os.environ.get("MCR_BACKUP_DIR", "").strip()
BACKUP_MINUTES = _int("MCR_BACKUP_MINUTES", 5, minimum=1)
BACKUP_KEEP = _int("MCR_BACKUP_KEEP", 48, minimum=1)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("zh-hans", _("Simplified Chinese"))]
# The Chinese catalogue: `python manage.py catalogue` keeps it in step with the source and
# compiles it (docs/translation.md); both the .po and the compiled .mo are committed.
LOCALE_PATHS = [BASE_DIR / "locale"]
# The site's time zone: what a new tournament starts with when the organiser's browser does
# not say its own, and the zone of the pages that belong to no tournament. Each tournament
# has its own (``Tournament.time_zone``), activated for its pages, e-mails and files.
TIME_ZONE = os.environ.get("MCR_TIME_ZONE", "").strip() or "UTC"
USE_I18N = True
# Dates and times as each language writes them: Django's own formats, except English's,
# which are its American ones (12/06/2026, 8:04 a.m.): tournament/formats/en/ holds the
# day-month-year and 24-hour clock an international event reads.
FORMAT_MODULE_PATH = ["tournament.formats"]
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# With DEBUG off whitenoise serves what collectstatic gathered in STATIC_ROOT (`make serve`
# runs it): names with a hash of the content, cached by browsers for good, each with a gzip
# copy. With DEBUG on (the demo, and the tests, which import these settings before turning
# DEBUG off) the files come straight from the apps' static folders, no collectstatic needed.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Tablets stay signed in for the whole event, a long weekend and its setting-up days.
SESSION_COOKIE_AGE = int(timedelta(days=14).total_seconds())

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# The hall's screens ask for their next panel every this many seconds: one small request a
# screen each time (docs/screen.md).
SCREEN_POLL_SECONDS = _int("MCR_SCREEN_SECONDS", 10, minimum=1)

# E-mail to players (their table and seat when a draw is published, a place off the waiting
# list), through this SMTP server. Without MCR_EMAIL_HOST nothing is sent: the messages wait
# in the organiser's list (E-mails) until a server is set and they are sent again.
EMAIL_HOST = os.environ.get("MCR_EMAIL_HOST", "").strip()
EMAIL_PORT = _int("MCR_EMAIL_PORT", 587)
EMAIL_HOST_USER = os.environ.get("MCR_EMAIL_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("MCR_EMAIL_PASSWORD", "")
EMAIL_USE_TLS = _flag("MCR_EMAIL_TLS", EMAIL_PORT == 587)
EMAIL_USE_SSL = _flag("MCR_EMAIL_SSL", EMAIL_PORT == 465)
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise ImproperlyConfigured("Set one of MCR_EMAIL_TLS and MCR_EMAIL_SSL, not both.")
# Seconds an SMTP connection may hang before a message counts as failed (and is retried).
EMAIL_TIMEOUT = _int("MCR_EMAIL_TIMEOUT", 10)
DEFAULT_FROM_EMAIL = os.environ.get("MCR_EMAIL_FROM", "").strip() or "mcr@localhost"
# How many SMTP connections a task worker keeps open at once while sending: a mail server
# that takes a second to accept each message still takes 300 seat messages in well under a
# minute.
EMAIL_CONNECTIONS = _int("MCR_EMAIL_CONNECTIONS", 8, minimum=1)
# The site's address as players open it, for the links in e-mails (which no request makes).
SITE_URL = os.environ.get("MCR_SITE_URL", "http://127.0.0.1:8000").strip().rstrip("/")

# A player's own page asks the server again every this many seconds, so that their hands
# appear as the referee enters them: one small request a phone each time.
PLAYER_PAGE_SECONDS = _int("MCR_PLAYER_PAGE_SECONDS", 30, minimum=1)

# A player's own link (on their badge) works this many days after it was made: long enough
# for badges printed weeks before the event, short enough that an old badge found later
# opens nothing. An organiser revokes one sooner from the player's page.
PLAYER_LINK_DAYS = _int("MCR_PLAYER_LINK_DAYS", 90, minimum=1)

# Uploaded import files are read in memory; a player list is far below this.
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
# The largest body any request may declare: the largest upload is a player list of up to
# 5 MB (players.player_file.MAX_FILE_BYTES, which the form refuses beside its field), and
# its multipart envelope; the largest form without a file, the import's confirmation, is
# under DATA_UPLOAD_MAX_MEMORY_SIZE. Beyond, 413 before the body is read
# (server/body_limit.py). nginx in front refuses the same (client_max_body_size 6m;
# deploy/nginx-venue.conf, docs/deploy.md): a test holds the three to one number.
REQUEST_BODY_MAX_BYTES = 6 * 1024 * 1024
# Form bodies, files aside: the largest is the import confirmation, a signed preview
# (0.25 MB for 5,000 players); a hand entry with eight penalty rows is about 5 KB.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
# The hand entry with 8 penalty rows posts about 66 fields; the tournament settings about
# 20 plus one per ticked account.
DATA_UPLOAD_MAX_NUMBER_FIELDS = 400
# The player import takes one file.
DATA_UPLOAD_MAX_NUMBER_FILES = 5

# HTTPS. With DEBUG off every protection is on unless its variable says 0; a site reached over
# plain HTTP (a closed venue network without a certificate) sets MCR_SECURE_SSL_REDIRECT=0 and
# MCR_SECURE_COOKIES=0. Behind a reverse proxy that ends TLS, MCR_SECURE_PROXY_SSL_HEADER=1
# trusts its X-Forwarded-Proto (the proxy must set it on every request; docs/deploy.md).
SECURE_SSL_REDIRECT = _flag("MCR_SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = _flag("MCR_SECURE_COOKIES", not DEBUG)
if _flag("MCR_SECURE_PROXY_SSL_HEADER", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Sent on HTTPS answers only, so a plain-HTTP site never pins browsers to HTTPS.
SECURE_HSTS_SECONDS = _int("MCR_SECURE_HSTS_SECONDS", 0 if DEBUG else 365 * 24 * 3600)
SECURE_HSTS_INCLUDE_SUBDOMAINS = _flag("MCR_SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
# Preloading asks browser makers to build HTTPS-only into the browser for the whole domain:
# the domain owner's decision, not the event's, so off and its deploy-check warning silenced.
SECURE_HSTS_PRELOAD = _flag("MCR_SECURE_HSTS_PRELOAD", False)
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]

# Login throttling (django-axes): after 10 wrong passwords for one account from one address,
# that account is refused from that address for 15 minutes; a superuser, or an organiser of
# a tournament the account serves, can lift it sooner (the "Locked-out accounts" page). A
# login that succeeds clears the count. Counted in the database, not the cache: nothing that
# guards the logins depends on the cache.
AUTHENTICATION_BACKENDS = [
    "tournament.server.login_throttle.LoginThrottleBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = 10
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_RESET_ON_SUCCESS = True
# The cool-off runs from the lockout: trying again while locked out does not prolong it.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_CALLABLE = "tournament.server.login_throttle.lockout_response"
AXES_CLIENT_IP_CALLABLE = "tournament.server.login_throttle.client_ip"
AXES_USERNAME_CALLABLE = "tournament.server.login_throttle.username"
# Every failed login is kept (axes' AccessFailureLog, the admin's "Access failures"), apart
# from the count that locks out: an unlock resets the count, never the record.
AXES_ENABLE_ACCESS_FAILURE_LOG = True

# Everything from the site itself, and scripts only from its own files: no inline script, no
# event-handler attribute, no script from elsewhere, so a name or a reason typed into a form
# can never run as code (the pages' behaviours live in tournament/static/js, page.js on
# every page). Inline style attributes stay allowed: the printed sheets and the rank chart
# size their parts with them, and a style runs no code.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, UNSAFE_INLINE],
        "img-src": [SELF, "data:"],
        "object-src": [NONE],
        "base-uri": [SELF],
    }
}
# The number of reverse proxies in front of the app that append to X-Forwarded-For (1 for
# the nginx of docs/deploy.md); 0 reads the address the app's connection comes from.
TRUSTED_PROXY_COUNT = _int("MCR_PROXY_COUNT", 0)

# The open results API (/api/v1/): requests an address may make (the address read behind
# the same proxies), as "N/m" (a minute), "N/s" or "N/h"; beyond, 429 with Retry-After. A
# ranking site's poller asks once a minute or so; a spectator's page reload is no API
# request. Counted in the cache (tournament/server/rate_limits.py).
API_RATE = os.environ.get("MCR_API_RATE", "300/m").strip()

# Sign-ups on a tournament's public form, counted in the database by the sign-up service
# (docs/players.md): a tournament takes at most this many an hour, or its player cap if
# that is more, so that a rush of a whole field opening registration at once is taken while
# a flood from many addresses, each sign-up e-mailing an address the sender chose, stops
# there; one e-mail address signs up at most MCR_SIGN_UPS_PER_EMAIL times a day, all
# tournaments together (a family sharing an address fits).
SIGN_UPS_PER_HOUR = _int("MCR_SIGN_UPS_PER_HOUR", 200, minimum=1)
SIGN_UPS_PER_EMAIL = _int("MCR_SIGN_UPS_PER_EMAIL", 5, minimum=1)

# Everything worth seeing goes to stderr, the service's log (journalctl -u mcr): errors with
# their traceback and the error id the 500 page shows, warnings (failed logins, lockouts,
# refused hosts and requests it cannot read, each one line), and the app's own lines.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "error_id": {"()": "tournament.server.error_log.ErrorIdFilter"},
        "client_error": {"()": "tournament.server.error_log.ClientErrorFilter"},
        "database_outage": {"()": "tournament.server.database_outage.DatabaseOutageLogFilter"},
    },
    "formatters": {
        "line": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s%(error_id)s"}
    },
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "filters": ["error_id", "client_error"],
            "formatter": "line",
        }
    },
    "root": {"handlers": ["stderr"], "level": "WARNING"},
    # Named here, these lose Django's default handlers (which print only with DEBUG on)
    # and pass their lines to the root's.
    "loggers": {
        "django": {"level": "INFO"},
        "tournament": {"level": "INFO"},
        "django.request": {"filters": ["database_outage"]},
    },
}
