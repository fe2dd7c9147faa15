"""The pages of errors: a server error, with the id that its log line carries; a request
the site cannot read."""

import sys

from django.http import HttpResponseBadRequest, HttpResponseServerError
from django.template import loader

from tournament.server.database_outage import database_unavailable, unavailable_response
from tournament.server.error_log import new_error_id


def server_error(request):
    """``handler500``. The page is rendered without the request's context processors, since
    what failed may be what they need (the database, the session); and should the page fail
    too, a line of text still gives the id. The database away outside a view (a session
    saved after it) is the outage's 503, as in a view (``DatabaseOutageMiddleware``)."""
    error = sys.exc_info()[1]
    if database_unavailable(error):
        return unavailable_response(request, error)
    error_id = new_error_id(request)
    try:
        page = loader.render_to_string("500.html", {"error_id": error_id})
    except Exception:  # The error page must answer whatever else is broken.
        page = f"Server error {error_id}\n"
        return HttpResponseServerError(page, content_type="text/plain")
    return HttpResponseServerError(page)


def bad_request(request, exception):
    """``handler400``: a request the site cannot read (a form posted in a charset other than
    UTF-8, a broken multipart body, more fields than any form has, a host name it does not
    serve). Django's own handler looks for the form's CSRF token in the body again, which
    raises the same error again and turns the client's mistake into a server error with a
    traceback: this one reads nothing of the request, and renders the page without the
    context processors, as the 500 page does. The log line is Django's, one warning
    (``error_log.ClientErrorFilter``)."""
    try:
        page = loader.render_to_string("400.html")
    except Exception:  # The error page must answer whatever else is broken.
        return HttpResponseBadRequest("Bad request\n", content_type="text/plain")
    return HttpResponseBadRequest(page)
