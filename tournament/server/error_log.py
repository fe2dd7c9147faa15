"""What the service log says of errors. A short id for each server error: the 500 page shows
it and the log line with the traceback carries it, so that "error 3f2a9c1b" read out by a
referee finds its traceback (``journalctl -u mcr | grep 3f2a9c1b``). A request for another
host name is one warning line, not an error with a traceback."""

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


class WrongHostFilter(logging.Filter):
    """A request naming a host the site does not serve (a scanner, a stale DNS entry) is the
    client's mistake, answered 400: one warning line, without the traceback that would bury
    the server's own errors."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.levelno, record.levelname = logging.WARNING, logging.getLevelName(logging.WARNING)
        record.exc_info = record.exc_text = None
        return True
