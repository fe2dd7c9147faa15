"""A table's tablet signs in from the table card: the card's device link opens that table's
pages without a password (see ``tournament.hall.device_links``)."""

from django.shortcuts import redirect
from django.views.decorators.http import require_safe

from tournament.hall import device_links
from tournament.views.common import token_page


@require_safe
@token_page(device_links.table_for_token, "devices/refused.html")
def device_link(request, table, token):
    """Sign this browser in at the link's table, then open its sheet. A logged-in user stays
    logged in; the grant is checked again on every request, so a revoked link stops at once.

    A GET, as a scanned QR code opens it: it writes nothing but the visitor's own session.
    """
    device_links.grant(request, token, table)
    session = table.session
    return redirect("table_sheet", session.tournament.slug, session.number, table.number)
