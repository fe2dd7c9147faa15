"""The page of a server error, with the id that its log line carries."""

import sys

from django.http import HttpResponseServerError
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
