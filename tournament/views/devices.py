"""A table's tablet signs in from the table card: the card's device link opens that table's
pages without a password (see ``tournament.hall.device_links``)."""

from django.shortcuts import redirect
from django.views.decorators.http import require_safe

from tournament.hall import device_links
from tournament.views.common import device_link_refused


@require_safe
def device_link(request, token):
    """Sign this browser in at the link's table, then open its sheet. A logged-in user stays
    logged in; the grant is checked again on every request, so a revoked link stops at once.

    A GET, as a scanned QR code opens it: it writes nothing but the visitor's own session.
    """
    table = device_links.table_for_token(token)
    if table is None:
        return device_link_refused(request)
    device_links.grant(request, token, table)
    session = table.session
    return redirect("table_sheet", session.tournament.slug, session.number, table.number)
