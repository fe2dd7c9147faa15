"""What the service log says of errors. A short id for each server error: the 500 page shows
it and the log line with the traceback carries it, so that "error 3f2a9c1b" read out by a
referee finds its traceback (``journalctl -u mcr | grep 3f2a9c1b``). A request the site
refuses as the client's mistake (another host name, a body it cannot read) is one warning
line, not an error with a traceback."""

import logging
import uuid


def new_error_id(request) -> str:
    """A fresh id, kept on the request for the log line Django writes after the 500 page."""
    request.error_id = uuid.uuid4().hex[:8]
    return request.error_id


class ErrorIdFilter(logging.Filter):
    """Gives every record an ``error_id`` for the log format: `` [error 3f2a9c1b]`` on the
    line of a request that ended in a server error, empty on every other line."""

    def filter(self, record: logging.LogRecord) -> bool:
        error_id = getattr(getattr(record, "request", None), "error_id", None)
        record.error_id = f" [error {error_id}]" if error_id else ""
        return True


class ClientErrorFilter(logging.Filter):
    """A request answered 4xx is the client's mistake, whatever raised it: a host name the
    site does not serve (a scanner, a stale DNS entry), a form posted in a charset other
    than UTF-8, a broken multipart body, too many fields. Django logs some of these as
    errors with their traceback (``django.security.*``, and ``django.request`` for a
    ``BadRequest``): here each is one warning line, so that anyone sending such requests
    cannot bury the server's own errors under tracebacks."""

    def filter(self, record: logging.LogRecord) -> bool:
        if 400 <= getattr(record, "status_code", 0) < 500:
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info = record.exc_text = None
        return True
