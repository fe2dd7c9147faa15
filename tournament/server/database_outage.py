"""The database that cannot be reached for a while (PostgreSQL restarting, its machine or
network away): a request that meets it answers 503 with Retry-After, a page in the site's
style that needs no database, or JSON for the tablet's background save (which keeps the
hand and sends it again); the log gets one warning line, not an error with a traceback.

Nothing needs restarting afterwards: each worker's connection is checked before a request
uses it (``conn_health_checks``) and opened again once PostgreSQL answers; the statements it
prepared go with the old connection and are prepared again on the new one.
"""

import logging

from django.db import InterfaceError, OperationalError, connection
from django.http import HttpResponse, JsonResponse
from django.template import loader
from django.utils.translation import gettext

# What the answer asks a client to wait: a fast restart of PostgreSQL takes a few seconds.
RETRY_AFTER_SECONDS = 5

# PostgreSQL's codes for "not now" rather than "wrong": the connection lost or refused
# (class 08), the server shutting down or starting up (57P01–57P03), no connection left.
_UNAVAILABLE_CODES = frozenset({"57P01", "57P02", "57P03", "53300"})


def database_unavailable(error: BaseException | None) -> bool:
    """Whether ``error`` says the database could not be reached or went away, as opposed to
    a query it refused (that one stays a server error, with its traceback)."""
    if isinstance(error, InterfaceError):
        return True  # the connection was already closed
    if not isinstance(error, OperationalError):
        return False
    cause = error.__cause__
    if not type(cause).__module__.startswith("psycopg"):
        return False
    code = getattr(cause, "sqlstate", None)
    if code is None:
        # No code: the client lost or could not open its connection (refused, closed by the
        # server) before any answer; or the driver refused to send a query on a connection
        # that is fine (too many parameters, say), which is the app's error.
        return _connection_gone()
    return code.startswith("08") or code in _UNAVAILABLE_CODES


def _connection_gone() -> bool:
    """Whether this thread's connection to the database is not open (never opened, closed,
    or found broken by the driver)."""
    opened = connection.connection
    return opened is None or getattr(opened, "closed", False) or getattr(opened, "broken", False)


def unavailable_response(request, error: BaseException) -> HttpResponse:
    """503 and Retry-After: JSON to a script that asks for it (the tablet's background save:
    not saved, send it again), else the page. Django's log line for it then says why
    (``DatabaseOutageLogFilter``)."""
    request.database_outage = " ".join(str(error).split()) or type(error).__name__
    if "application/json" in request.headers.get("Accept", ""):
        response = JsonResponse(
            {
                "saved": False,
                "retry": True,
                "error": gettext(
                    "The server cannot reach its database for a moment. The hand is kept "
                    "and sent again."
                ),
            },
            status=503,
        )
    else:
        # Drawn without the request's context, which needs the database (the user).
        context = {"retry_after": RETRY_AFTER_SECONDS, "reloads": request.method == "GET"}
        try:
            page = loader.render_to_string("503.html", context)
        except Exception:  # The page must answer whatever else is broken.
            page = gettext("The server cannot reach its database for a moment.") + "\n"
            response = HttpResponse(page, status=503, content_type="text/plain")
        else:
            response = HttpResponse(page, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


class DatabaseOutageMiddleware:
    """Answers a view that met the database away with ``unavailable_response``."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not database_unavailable(exception):
            return None
        return unavailable_response(request, exception)


class DatabaseOutageLogFilter(logging.Filter):
    """Django's line for a request answered ``unavailable_response`` (``django.request``):
    one warning that says why, without the traceback that would bury the server's own
    errors."""

    def filter(self, record: logging.LogRecord) -> bool:
        said = getattr(getattr(record, "request", None), "database_outage", None)
        # Once per record: logging configured again (a test's settings) adds the filter again.
        if said is not None and not getattr(record, "database_outage_said", False):
            record.database_outage_said = True
            record.msg = f"{record.msg} (the database cannot be reached: %s)"
            record.args = (*(record.args or ()), said)
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info = record.exc_text = None
        return True
