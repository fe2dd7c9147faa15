"""Lookups by key, the versions that key every cache, and the rules of who is active and
which seats count.

A tournament's data version changes with every write to its results, its seating version
with every draw; cached reads (standings, figures, screens) are kept under them, so they are
never stale.
"""

import itertools
import os
import threading
from collections import OrderedDict

from django.core.cache import cache
from django.core.signals import request_finished, request_started
from django.db import DEFAULT_DB_ALIAS, connection
from django.db.models import F, Q

from tournament.models import (
    Player,
    Session,
    Table,
    Tournament,
    TournamentVersion,
)
from tournament.selectors.prepared import PreparedRead, attnames, fits, instance

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


_TOURNAMENT_FIELDS = attnames(Tournament)
# The versions in the order ``versions`` gives them.
_VERSION_FIELDS = ("number", "seating", "standings")

# Every page reads its tournament first: compiled once (``prepared``).
_tournament_read = PreparedRead(
    lambda slug: (
        Tournament.objects.filter(slug=slug)
        .order_by()
        .values_list(*_TOURNAMENT_FIELDS, *(f"version__{name}" for name in _VERSION_FIELDS))
    ),
    "\x00an example slug",
)


def tournament_by_slug(slug: str) -> Tournament | None:
    """The tournament, with its versions read in the same query (``versions``): a page's
    cached parts need no query of their own to find their keys."""
    found = _tournament_read.rows(slug)
    if not found:
        return None
    (row,) = found  # the slug is unique
    count = len(_TOURNAMENT_FIELDS)
    tournament = instance(Tournament, row[:count])
    numbers = row[count:]
    version = None
    if numbers[0] is not None:
        version = TournamentVersion.from_db(
            DEFAULT_DB_ALIAS, ("tournament_id", *_VERSION_FIELDS), (tournament.pk, *numbers)
        )
    # As ``select_related("version")`` holds it: ``tournament.version`` reads nothing more.
    Tournament.version.related.set_cached_value(tournament, version)
    read = None if version is None else tuple(numbers)
    tournament._versions_read = (_request_serial(), _touches(), read)
    return tournament


# The versions read with a tournament serve the rest of the request that read it, and only
# as long as no write of this thread raised a version since (``tournament_touch`` counts them
# on the connection): a page then reads the versions once, before any data it shows, as if
# it had read them first thing. Outside a request (commands, tests) they are read each time.
_requests = threading.local()
_requests_counted = itertools.count(1)


def _request_started(**_kwargs) -> None:
    # The process with the count: a tournament read in another process never matches.
    _requests.serial = (os.getpid(), next(_requests_counted))


def _request_finished(**_kwargs) -> None:
    _requests.serial = None


request_started.connect(_request_started, dispatch_uid="mcr-versions-request-started")
request_finished.connect(_request_finished, dispatch_uid="mcr-versions-request-finished")


def _request_serial() -> tuple[int, int] | None:
    return getattr(_requests, "serial", None)


def _touches() -> int:
    return getattr(connection, "mcr_touches", 0)


NOT_HELD = object()


def versions_held(tournament: Tournament):
    """The (data version, seating version, standings stamp) read with ``tournament`` in this
    request (None: it had no version then) while still good, else ``NOT_HELD``."""
    held = getattr(tournament, "_versions_read", None)
    if held is None or held[0] is None or held[:2] != (_request_serial(), _touches()):
        return NOT_HELD
    return held[2]


def versions(tournament: Tournament) -> tuple[int, int, int] | None:
    """The tournament's (data version, seating version, standings stamp), None before it has
    a version: those read with it at the start of this request while still good, else as
    stored now."""
    held = versions_held(tournament)
    if held is not NOT_HELD:
        return held
    return (
        TournamentVersion.objects.filter(tournament_id=tournament.pk)
        .values_list("number", "seating", "standings")
        .first()
    )


def data_version(tournament: Tournament) -> int:
    """The version of the tournament's data (``TournamentVersion``) as stored when this
    request read the tournament (``versions``), or now outside a request; 0 before it has
    one. Read before the data cached under it, so the data is never older."""
    found = versions(tournament)
    return 0 if found is None else found[0]


def seating_key(tournament: Tournament) -> str:
    """The version of the tournament's seating (``TournamentVersion.seating``: raised by the
    writes that can change it, not by hands) with the standings' stamp, which every such
    write replaces too and no two tournaments share: what is cached under it is never taken
    for another tournament's that had the same id and version (after a rollback or a
    restore). "0" before the tournament has a version."""
    found = versions(tournament)
    return "0" if found is None else f"{found[1]}-{found[2]}"


def sessions_under_review(tournament) -> set[int]:
    """The numbers of the sessions drawn but not published yet: kept from the players."""
    return set(tournament.sessions.exclude(PUBLISHED_SESSION).values_list("number", flat=True))


_SESSION_FIELDS = attnames(Session)
# The seating pages read their session after the tournament: compiled once too.
_session_read = PreparedRead(
    lambda tournament_id, number: (
        Session.objects.filter(tournament_id=tournament_id, number=number)
        .order_by()
        .values_list(*_SESSION_FIELDS)
    ),
    987_654_321,
    32_001,  # within a small integer's range (PostgreSQL's smallint)
)


def session_by_number(tournament, number: int) -> Session | None:
    """Session ``number``, holding ``tournament`` as read."""
    if not fits(Session, "number", number):
        return None
    found = _session_read.rows(tournament.pk, number)
    if not found:
        return None
    session = instance(Session, found[0])
    session.tournament = tournament
    return session


_PLAYER_FIELDS = attnames(Player)
# A player's page reads its player after the tournament: compiled once too.
_player_read = PreparedRead(
    lambda tournament_id, number: (
        Player.objects.filter(tournament_id=tournament_id, number=number)
        .order_by()
        .values_list(*_PLAYER_FIELDS)
    ),
    987_654_321,
    987_654_322,
)


def player_by_number(tournament, number: int) -> Player | None:
    """Player ``number``, holding ``tournament`` as read: its pages need no second read."""
    if not fits(Player, "number", number):
        return None
    found = _player_read.rows(tournament.pk, number)
    if not found:
        return None
    player = instance(Player, found[0])
    player.tournament = tournament
    return player


def table_by_number(tournament, session: int, number: int) -> Table | None:
    """Table ``number`` of session ``session``, with its session and tournament."""
    return (
        Table.objects.select_related("session__tournament")
        .filter(session__tournament=tournament, session__number=session, number=number)
        .first()
    )


# Cached standings are kept under the tournament's version, so they are never stale; an
# hour bounds the memory that versions no longer read hold.
STANDINGS_CACHE_SECONDS = 3600


def cached(key: str, compute):
    """The value cached under ``key`` (which holds the version it was computed at), or
    ``compute()``'s, cached there for the next reader."""
    value = cache.get(key)
    if value is None:
        value = compute()
        cache.set(key, value, STANDINGS_CACHE_SECONDS)
    return value


# What is kept in this process's memory, by kind, the most recently used last (see ``kept``):
# one version of each kind, for the few tournaments a server serves at once.
_KEPT_IN_PROCESS: OrderedDict = OrderedDict()
_KEPT_LOCK = threading.Lock()
KEPT_IN_PROCESS = 16


def kept(kind: str, version: str, compute):
    """The value of ``kind`` kept in this process at ``version``, or ``compute()``'s, kept for
    the next request in place of any other version of that kind (never read again: a
    version only moves on): for a large value that changes seldom (the seating figures of
    10,000 players took longer to unpickle from the shared cache than to send). ``version``
    must change with the value and never be given to other data (``seating_key``): each
    process then holds the same value for it."""
    with _KEPT_LOCK:
        held = _KEPT_IN_PROCESS.get(kind)
        if held is not None and held[0] == version:
            _KEPT_IN_PROCESS.move_to_end(kind)
            return held[1]
    value = compute()
    with _KEPT_LOCK:
        _KEPT_IN_PROCESS[kind] = (version, value)
        _KEPT_IN_PROCESS.move_to_end(kind)
        while len(_KEPT_IN_PROCESS) > KEPT_IN_PROCESS:
            _KEPT_IN_PROCESS.popitem(last=False)
    return value


def forget_kept() -> None:
    """Drop what this process keeps (the tests' fresh start)."""
    with _KEPT_LOCK:
        _KEPT_IN_PROCESS.clear()


def tournament_list():
    """Every tournament, in the model's order (newest first), for the home page."""
    return Tournament.objects.all()


def tournament_players(tournament):
    """The tournament's players by number, withdrawn ones included."""
    return tournament.players.order_by("number")


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
