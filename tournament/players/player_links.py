"""A player's own link: the signed address on their badge that opens their page on their
phone (next table, seat and time, their hands, their place, the check-in), without an account.

The token carries the player and the link version it was made under; the organiser raises
the version to revoke a lost badge's link (``services.players.player_link_revoke``), and
every request compares it with the version stored now. Unlike a table's device link, a
player's link expires: it is timestamped and refused ``PLAYER_LINK_DAYS`` after it was made,
so a badge found after the event opens nothing.

A link opens only its own player's page and check-in: the views look the player up by the
token alone, never by a number in the address.

A sign-up has a link of its own too (in its e-mails): where it stands, and its withdrawal.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

import segno
from django.conf import settings
from django.core import signing
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from tournament.models import Player, SignUp

# A token signed for anything else (a table's link, a cookie) is never a player's link.
SALT = "tournament.players.player_links"
# SVG pixels per QR module: a badge's code (some 45 modules with its margin) prints about
# 3 cm wide, which a phone reads from arm's length.
QR_SCALE = 2


def player_token(player: Player) -> str:
    """The token of ``player``'s link, valid for ``PLAYER_LINK_DAYS`` unless revoked."""
    return signing.TimestampSigner(salt=SALT).sign_object([player.pk, player.link_version])


def player_for_token(token: str) -> Player | None:
    """The player a token opens (with their tournament); None when the token was not signed
    here, has expired, or was revoked since."""
    try:
        player_pk, version = signing.TimestampSigner(salt=SALT).unsign_object(
            token, max_age=timedelta(days=settings.PLAYER_LINK_DAYS)
        )
    except (signing.BadSignature, TypeError, ValueError):
        return None
    return (
        Player.objects.select_related("tournament")
        .filter(pk=player_pk, link_version=version)
        .first()
    )


@dataclass(frozen=True)
class PlayerLinkCard:
    """What a badge shows of the player's link."""

    url: str
    qr_svg: SafeString


def player_link_card(player: Player, absolute_url: Callable[[str], str]) -> PlayerLinkCard:
    """The link of ``player`` as an absolute URL (``absolute_url`` makes one of a path, as
    ``request.build_absolute_uri``) and its QR code, an inline SVG."""
    url = absolute_url(reverse("player_link", args=[player_token(player)]))
    # A full QR code (phones' cameras read few Micro QR codes); level "l" keeps the code
    # small on a badge, and a badge is not a worn table card.
    qr = segno.make_qr(url, error="l")
    return PlayerLinkCard(url=url, qr_svg=mark_safe(qr.svg_inline(scale=QR_SCALE)))


# A sign-up's own link (in its e-mails): its status, and withdrawing before the first draw.
SIGN_UP_SALT = "tournament.players.sign_up_links"


def sign_up_token(sign_up: SignUp) -> str:
    """The token of ``sign_up``'s link: no expiry (a waiting list can be long), revoked with
    its link version."""
    return signing.Signer(salt=SIGN_UP_SALT).sign_object([sign_up.pk, sign_up.link_version])


def sign_up_for_token(token: str) -> SignUp | None:
    """The sign-up a token opens (with its tournament and player); None when the token was
    not signed here or was revoked."""
    try:
        sign_up_pk, version = signing.Signer(salt=SIGN_UP_SALT).unsign_object(token)
    except (signing.BadSignature, TypeError, ValueError):
        return None
    return (
        SignUp.objects.select_related("tournament", "player")
        .filter(pk=sign_up_pk, link_version=version)
        .first()
    )
