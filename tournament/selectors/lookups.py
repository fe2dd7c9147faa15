"""Lookups by key, the versions that key every cache, and the rules of who is active and
which seats count.

A tournament's data version changes with every write to its results, its seating version
with every draw; cached reads (standings, figures, screens) are kept under them, so they are
never stale.
"""

import time

from django.core.cache import cache
from django.db.models import F, Q

from tournament.models import (
    Player,
    Session,
    Table,
    Tournament,
    TournamentVersion,
)

# Players still in the tournament (not withdrawn).
ACTIVE_PLAYERS = Q(withdrawn_at__isnull=True)


# A session whose draw the players may see: published at once, or after the organiser's
# review (``Tournament.review_draws``). Players' links, the public pages, the hall's screen
# and the public workbook show no other.
PUBLISHED_SESSION = Q(published_at__isnull=False)


# A seat whose table has been played: at least one hand entered, so its result is stored
# (``services.results``). A table drawn but not started has no place yet; counting it would
# give its four players a shared first place and 7/4 table points each. The standings, the
# rank history and the workbook's session sheets all skip such seats by this one rule.
PLAYED_SEAT = Q(place__isnull=False)


def tournament_by_slug(slug: str) -> Tournament | None:
    """The tournament, with its version row (``tournament.version``) read in the same query."""
    return Tournament.objects.select_related("version").filter(slug=slug).first()


def versions(tournament: Tournament, *, as_read: bool = False) -> tuple[int, int, int] | None:
    """The tournament's (data version, seating version, standings stamp) as stored now; None
    before it has a version. Read each time (one small query): what is cached under them is
    then never older than the last write, even one made earlier in the same request.

    ``as_read``: as read with the tournament instead (``tournament_by_slug`` reads its
    version row in the same query), no query of its own. For a page (GET), which writes
    nothing: the data it reads after them is never older than they are."""
    if as_read:
        try:
            row = tournament.version
        except TournamentVersion.DoesNotExist:
            return None
        return row.number, row.seating, row.standings
    return (
        TournamentVersion.objects.filter(tournament_id=tournament.pk)
        .values_list("number", "seating", "standings")
        .first()
    )


def data_version(tournament: Tournament, *, as_read: bool = False) -> int:
    """The version of the tournament's data (``TournamentVersion``) as stored now (as read
    with the tournament: ``versions``); 0 before it has one. Read before the data cached
    under it, so the data is never older."""
    found = versions(tournament, as_read=as_read)
    return 0 if found is None else found[0]


def seating_key(tournament: Tournament, *, as_read: bool = False) -> str:
    """The version of the tournament's seating (``TournamentVersion.seating``: raised by the
    writes that can change it, not by hands) with the standings' stamp, which every such
    write replaces too and no two tournaments share: what is cached under it is never taken
    for another tournament's that had the same id and version (after a rollback or a
    restore). "0" before the tournament has a version. ``as_read``: see ``versions``."""
    found = versions(tournament, as_read=as_read)
    return "0" if found is None else f"{found[1]}-{found[2]}"


def sessions_under_review(tournament) -> set[int]:
    """The numbers of the sessions drawn but not published yet: kept from the players."""
    return set(tournament.sessions.exclude(PUBLISHED_SESSION).values_list("number", flat=True))


def session_by_number(tournament, number: int) -> Session | None:
    """Session ``number``, holding ``tournament`` as read."""
    session = Session.objects.filter(tournament_id=tournament.pk, number=number).order_by().first()
    if session is not None:
        session.tournament = tournament
    return session


def player_by_number(tournament, number: int) -> Player | None:
    """Player ``number``, holding ``tournament`` as read: its pages need no second read."""
    player = Player.objects.filter(tournament_id=tournament.pk, number=number).order_by().first()
    if player is not None:
        player.tournament = tournament
    return player


def session_of(slug: str, number: int) -> Session | None:
    """Session ``number`` of tournament ``slug`` with its tournament and the tournament's
    version row, in one query (a spectator's page reads nothing else while it is kept)."""
    return (
        Session.objects.select_related("tournament__version")
        .filter(tournament__slug=slug, number=number)
        .order_by()
        .first()
    )


def player_of(slug: str, number: int) -> Player | None:
    """Player ``number`` of tournament ``slug`` with its tournament and the tournament's
    version row, in one query."""
    return (
        Player.objects.select_related("tournament__version")
        .filter(tournament__slug=slug, number=number)
        .order_by()
        .first()
    )


def table_by_number(tournament, session: int, number: int) -> Table | None:
    """Table ``number`` of session ``session``, with its session and tournament."""
    return (
        Table.objects.select_related("session__tournament")
        .filter(session__tournament=tournament, session__number=session, number=number)
        .first()
    )


# What is cached is kept under the versions it was computed at, so it is never stale; an
# hour bounds the memory that versions no longer read hold.
STANDINGS_CACHE_SECONDS = 3600
# The single flight (``cached``): how long a computation may hold its key's lock, how long
# another reader waits for its value before computing it too, and how often it looks.
LOCK_SECONDS = 30
WAIT_SECONDS = 3.0
POLL_SECONDS = 0.02

_MISSING = object()


def cached(key: str, compute, timeout: int = STANDINGS_CACHE_SECONDS, *, lock: str = ""):
    """The value cached under ``key`` (which holds the versions it is computed at), or
    ``compute()``'s, cached there for the next reader. ``lock``: the lock's key when one
    computation gives the values of several keys (``key:lock`` by default).

    One computation at a time per key (across processes and servers, through the shared
    cache): the first reader to miss takes a lock (``cache.add``) and computes; the others
    wait for its value, up to ``WAIT_SECONDS``, then compute it themselves. A lock nobody
    holds (its holder gone, or the cache unreachable) makes nobody wait.
    """
    value = cache.get(key, _MISSING)
    if value is not _MISSING:
        return value
    lock = lock or f"{key}:lock"
    if cache.add(lock, 1, LOCK_SECONDS):
        try:
            value = compute()
            cache.set(key, value, timeout)
        finally:
            cache.delete(lock)
        return value
    deadline = time.monotonic() + WAIT_SECONDS
    while cache.get(lock) is not None and time.monotonic() < deadline:
        time.sleep(POLL_SECONDS)
        value = cache.get(key, _MISSING)
        if value is not _MISSING:
            return value
    value = cache.get(key, _MISSING)
    if value is _MISSING:
        value = compute()
        cache.set(key, value, timeout)
    return value


def tournament_list():
    """Every tournament, in the model's order (newest first), for the home page."""
    return Tournament.objects.all()


def badge_players(tournament, *, first: int | None = None, last: int | None = None):
    """The players whose badges are printed, by number: those still in the tournament, or
    every player from number ``first`` to ``last`` (either open) when a range is asked for."""
    players = tournament.players.order_by("number")
    if first is None and last is None:
        return players.filter(ACTIVE_PLAYERS)
    if first is not None:
        players = players.filter(number__gte=first)
    if last is not None:
        players = players.filter(number__lte=last)
    return players


def tournament_with_versions(slug: str) -> tuple[Tournament, int, int] | None:
    """The tournament ``slug`` with its data and seating versions (0 before it has them), in
    one query: all that a hall's screen reads while nothing has changed."""
    found = list(
        Tournament.objects.filter(slug=slug)
        .annotate(data_number=F("version__number"), seating_number=F("version__seating"))
        .order_by()[:1]
    )
    if not found:
        return None
    tournament = found[0]
    return tournament, tournament.data_number or 0, tournament.seating_number or 0
