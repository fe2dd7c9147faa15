"""A request declaring a body larger than any the site takes is refused before it is read.

Django reads a body only when something asks for the form: the CSRF check does, for any post
without the token in a header, so an anonymous upload of 600 MB with a made-up CSRF cookie
was read in full (the file part spooled to /tmp) before its 403. This middleware, first of
all, answers 413 from the declared ``Content-Length`` alone: nothing of the body is read,
and the server closes the connection with the rest unread. A body sent without a length
(chunked) is never read by Django at all. In front, nginx refuses the same bodies with the
same limit (``client_max_body_size``, deploy/nginx-venue.conf, docs/deploy.md).
"""

import logging

from django.conf import settings
from django.http import HttpResponse
from django.template import loader
from django.utils import translation
from django.utils.translation import gettext

logger = logging.getLogger(__name__)

MEGABYTE = 1024 * 1024


def declared_length(request) -> int:
    """The body's declared length; 0 without one, or with one Django would not read
    either (it reads no body then)."""
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


class BodyLimitMiddleware:
    """Answers 413 to a request whose declared body is over ``REQUEST_BODY_MAX_BYTES``,
    ahead of the other middleware (the health check's included)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        length = declared_length(request)
        if length <= settings.REQUEST_BODY_MAX_BYTES:
            return self.get_response(request)
        logger.warning(
            "Request body too large: %s declares %d bytes, the limit is %d",
            request.path,
            length,
            settings.REQUEST_BODY_MAX_BYTES,
        )
        return too_large(request)


def too_large(request) -> HttpResponse:
    """The 413 page, in the reader's language (the locale middleware has not run yet): a
    short page for a browser, a line of text for anything else. Nothing here reads the
    database, the session or the body."""
    with translation.override(translation.get_language_from_request(request)):
        limit = settings.REQUEST_BODY_MAX_BYTES // MEGABYTE
        if "text/html" in request.headers.get("Accept", ""):
            try:
                page = loader.render_to_string("413.html", {"limit": limit})
            except Exception:  # The refusal must answer whatever else is broken.
                pass
            else:
                return HttpResponse(page, status=413)
        message = gettext("The request is too large: the site takes at most %(limit)s MB.")
        return HttpResponse(
            message % {"limit": limit} + "\n", status=413, content_type="text/plain; charset=utf-8"
        )
