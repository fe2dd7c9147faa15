"""Whole public pages kept in the shared cache for the visitors who are nobody in particular:
the spectators reloading the standings and the seating during a session.

Such a visitor (not signed in, no session, no message waiting) is shown the same page as any
other but for the form token of the language switch. The page is kept under the versions of
the data it shows and the fields it shows besides (``page_key``: a page that comes to show
another field needs it in its key), with a stand-in where the token goes; each visitor
gets their own token in its place (``get_token``, which also sets their token cookie, as the
page drawn for them would). A page for anyone else is drawn for them, as before.

A page reads only the query parameters it names (``page_query``): its key, its links and the
language switch's return address are made of those alone, so a made-up ``?x=1`` is served the
page kept for the address without it instead of making a new copy kept an hour.
"""

import hashlib
from collections.abc import Callable, Mapping

from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.http import HttpResponse, QueryDict
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.utils.translation import get_language

from tournament.selectors.lookups import STANDINGS_CACHE_SECONDS, cached
from tournament.server.release import release

# What the page is drawn with in place of the visitor's form token: a token has no space,
# and nobody types this into a name.
TOKEN_STAND_IN = "form-token-of-the-visitor 5c1e0a7f93d24b68"


def plain_visitor(request) -> bool:
    """Nobody in particular: not signed in, with no session (no tablet, no referee) and no
    message waiting to be shown."""
    return (
        settings.SESSION_COOKIE_NAME not in request.COOKIES
        and CookieStorage.cookie_name not in request.COOKIES
        and not request.user.is_authenticated
    )


def page_query(
    query: QueryDict, parameters: Mapping[str, Callable[[str], str | None]]
) -> QueryDict:
    """The ``parameters`` of ``query`` a page reads, each as its reader writes it (one value,
    the last, as ``QueryDict.get`` reads it; none when the reader finds nothing it would
    show), in the order named. The rest is left out of the page, its links and its key, so
    that made-up values make no copies of their own either."""
    kept = QueryDict(mutable=True)
    for name, read in parameters.items():
        value = read(query.get(name, ""))
        if value is not None:
            kept[name] = value
    kept._mutable = False
    return kept


def page_path(request, query: QueryDict) -> str:
    """The page's address with only the parameters it reads (the language switch returns
    there)."""
    return f"{request.path}?{query.urlencode()}" if query else request.path


def page_key(kind: str, shown: tuple, query) -> str:
    """The key of a page of ``kind`` that shows ``shown`` (what it is the page of, the
    versions of the data it is drawn from and any other field it shows that a write could
    change without raising them), for its query, the language and this release. Hashed: a
    visitor may type anything into the query, and keys must stay short and plain."""
    digest = hashlib.sha256(repr((shown, sorted(query.lists()))).encode()).hexdigest()[:32]
    return f"mcr:{kind}:{release()}:{get_language()}:{digest}"


def _page(request, body: str) -> HttpResponse:
    return HttpResponse(body.replace(TOKEN_STAND_IN, get_token(request)))


def shared_page(request, key: str, template: str, context) -> HttpResponse:
    """The page ``template`` drawn with ``context()``, kept under ``key`` (``page_key``:
    what the page is of, the versions of everything it shows, its query) for the plain
    visitors; drawn for anyone else.

    Drawn once per key (``cached``): after a hand the standings are asked for many times a
    second, and the spectators asking while the first of them draws the page wait for it
    instead of drawing it too."""
    if not plain_visitor(request):
        return render(request, template, context())

    def draw() -> str:
        drawn = render(request, template, {**context(), "csrf_token": TOKEN_STAND_IN})
        return drawn.content.decode()

    return _page(request, cached(key, draw, STANDINGS_CACHE_SECONDS))
