"""Table device links: the signed link on a table card that opens that table's pages on any
tablet, without an account.

A link's token carries the table and the two revocation versions it was made under: the
session's (raised to revoke every link of the session) and the table's (raised to revoke one
lost tablet's). Every request made through a link compares them with the versions stored
now, so a revocation takes effect at the tablet's next request.

Tokens do not expire otherwise: cards are printed before play, sometimes the day before, and
a link must keep working until its table is confirmed, however late play runs. Revocation is
the organiser's control; a confirmed table or a closed session refuses entries anyway.
"""

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

import segno
from django.core import signing
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from tournament.models import Table

# A token signed for anything else (a password reset, a cookie) is never a device link.
SALT = "tournament.hall.device_links"
# The browser session's key for the table a device link signed the tablet in at.
GRANT_KEY = "device_table"
# SVG pixels per QR module: a link's code (about 41 modules and the margin) prints some 5 cm
# wide, easy for a tablet camera.
QR_SCALE = 4


def device_token(table: Table) -> str:
    """The token of ``table``'s device link, valid until its session's or its own links are
    revoked."""
    # Without a timestamp (there is no expiry): a shorter token, a smaller QR code.
    return signing.Signer(salt=SALT).sign_object(
        [table.pk, table.session.device_links_version, table.device_link_version]
    )


def table_for_token(token: str) -> Table | None:
    """The table a token opens (with its session and tournament); None when the token was not
    signed here or was revoked since."""
    try:
        table_pk, session_version, table_version = signing.Signer(salt=SALT).unsign_object(token)
    except (signing.BadSignature, TypeError, ValueError):
        return None
    return (
        Table.objects.select_related("session__tournament")
        .filter(
            pk=table_pk,
            device_link_version=table_version,
            session__device_links_version=session_version,
        )
        .first()
    )


def link_id(table: Table, token: str) -> str:
    """How a hand entered through the link records it, e.g. "table 3 · 1a2b3c4d": the table,
    and 8 hex digits of the token's hash, which change with every new link of the table."""
    digest = hashlib.sha256(token.encode()).hexdigest()[:8]
    return f"table {table.number} · {digest}"


@dataclass(frozen=True)
class DeviceGrant:
    """A tablet signed in at a table through its device link."""

    table: Table
    link: str  # the link's id, as hands entered through it record it


def grant(request, token: str, table: Table) -> DeviceGrant:
    """Sign the browser in at ``table`` (whose link ``token`` is): its session holds the
    token, checked again on every request. A logged-in user stays logged in."""
    # As at a login: a session key someone planted beforehand does not get the grant.
    request.session.cycle_key()
    link = link_id(table, token)
    request.session[GRANT_KEY] = {"table": table.pk, "link": link, "token": token}
    return DeviceGrant(table=table, link=link)


def holds_grant(request) -> bool:
    """The browser was signed in at a table, whether or not its link still holds."""
    return GRANT_KEY in request.session


def current_grant(request) -> DeviceGrant | None:
    """The browser's grant, checked against the links as they are now; None when it holds
    none or its link was revoked."""
    stored = request.session.get(GRANT_KEY)
    if not isinstance(stored, dict):
        return None
    table = table_for_token(str(stored.get("token", "")))
    if table is None or table.pk != stored.get("table"):
        return None
    return DeviceGrant(table=table, link=stored.get("link") or "")


@dataclass(frozen=True)
class DeviceLinkCard:
    """What a table card shows of the table's device link."""

    url: str
    qr_svg: SafeString


def device_link_card(table: Table, absolute_url: Callable[[str], str]) -> DeviceLinkCard:
    """The link of ``table`` as an absolute URL (``absolute_url`` makes one of a path, as
    ``request.build_absolute_uri``) and its QR code, an inline SVG."""
    url = absolute_url(reverse("device_link", args=[device_token(table)]))
    # A full QR code, never a Micro QR, which few tablet cameras read.
    qr = segno.make_qr(url, error="m")
    # segno writes the SVG itself from the code's modules: no text of the URL goes in it.
    return DeviceLinkCard(url=url, qr_svg=mark_safe(qr.svg_inline(scale=QR_SCALE)))
