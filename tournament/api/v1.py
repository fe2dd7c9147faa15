"""Version 1 of the open results API: read-only, public where the pages are public.

Every answer carries an ETag made from the version of what it shows (the tournament's data
version, the series' versions): a poller that sends it back in ``If-None-Match`` gets 304 and
no body while nothing changed. Lists come by pages (``?page=2``, 100 items a page, at most
``page_size=500``). Every address counts against the caller's rate (``MCR_API_RATE``,
per address), answered 429 beyond it. HEAD and OPTIONS are answered on every address
(``methods.py``).
"""

import hashlib
from fractions import Fraction
from functools import wraps

from django.http import Http404, HttpResponse
from ninja import NinjaAPI, Path
from ninja.pagination import PageNumberPagination, paginate

from tournament.api.methods import read_only_urls, with_final_slash
from tournament.api.schemas import (
    HandOut,
    InvalidRequest,
    Message,
    PenaltyOut,
    PlayerOut,
    SeriesOut,
    SeriesResultOut,
    SeriesRowOut,
    SessionOut,
    StandingOut,
    TableOut,
    TournamentDetailOut,
    TournamentOut,
    exact,
    seat_label,
    twelfths,
)
from tournament.api.throttling import AddressRateThrottle
from tournament.scoring import TWELFTHS
from tournament.selectors import api as reads
from tournament.selectors.lookups import tournament_with_versions
from tournament.selectors.rules import reading_options, rule_changes, rule_options
from tournament.selectors.series import (
    series_rule,
    series_standing,
    series_versions,
)
from tournament.selectors.standings import tournament_standings
from tournament.services import RULE_FIELDS

PAGE_SIZE = 100
MAX_PAGE_SIZE = 500
# Raised when a document's shape changes, so that no client keeps an ETag of the old shape.
FORMAT = 2


class ResultsAPI(NinjaAPI):
    @property
    def urls(self):
        return with_final_slash(read_only_urls(super().urls))

    def create_response(self, request, data, *, status=None, temporal_response=None):
        response = super().create_response(
            request, data, status=status, temporal_response=temporal_response
        )
        etag = getattr(request, "api_etag", None)
        if etag and response.status_code == 200:
            response["ETag"] = etag
        # Caches may keep an answer but must ask again each time (the ETag makes that cheap).
        response["Cache-Control"] = "no-cache"
        return response


api = ResultsAPI(
    title="MCR tournament results",
    version="1",
    description=(
        "The public results of the tournaments on this site: tournaments, players, sessions, "
        "tables with their seats and exact table points, standings, each confirmed table's "
        "hands, and series rankings. Read-only. Table points are exact: a fraction as text "
        "and the same value in twelfths."
    ),
    urls_namespace="api-v1",
    docs_url=None,
    # Per address (behind the site's proxies, the caller's): the API has no accounts, a
    # logged-in organiser is one more address.
    throttle=[AddressRateThrottle()],
)


@api.exception_handler(Http404)
def not_found(request, error):
    """What was not found, in words ("No such published session."), as JSON."""
    return api.create_response(request, {"detail": str(error) or "Not found."}, status=404)


def _etag(*parts) -> str:
    digest = hashlib.sha256(":".join(map(str, (FORMAT, *parts))).encode()).hexdigest()
    return f'"{digest[:32]}"'


def _address(request) -> str:
    """What an answer's ETag names: the address without a final slash (both forms answer the
    same, ``methods.with_final_slash``), with its query (each page its own)."""
    address, mark, query = request.get_full_path().partition("?")
    return address.rstrip("/") + mark + query


def conditional(version_of):
    """The operation answers 304 when the caller's ``If-None-Match`` holds the ETag of
    ``version_of(**kwargs)`` (None: not found, the operation says so); else it runs and its
    answer carries that ETag."""

    def decorate(operation):
        @wraps(operation)
        def answered(request, **kwargs):
            version = version_of(**kwargs)
            if version is not None:
                etag = _etag(_address(request), version)
                sent = request.headers.get("If-None-Match", "")
                # A weak validator ("W/...") is the same tag for this comparison (RFC 9110).
                tags = [tag.strip().removeprefix("W/") for tag in sent.split(",")]
                if etag in tags or sent.strip() == "*":
                    response = HttpResponse(status=304)
                    response["ETag"] = etag
                    response["Cache-Control"] = "no-cache"
                    return response
                request.api_etag = etag
            return operation(request, **kwargs)

        return answered

    return decorate


def _tournament_version(slug: str, **_kwargs):
    found = tournament_with_versions(slug)
    return None if found is None else f"t{found[0].pk}.{found[1]}"


def _all_tournaments_version(**_kwargs):
    return ",".join(f"{t.pk}.{t.data_number or 0}" for t in reads.api_tournaments())


def _series_version(slug: str, **_kwargs):
    series = reads.api_series(slug)
    return None if series is None else series_versions(series)[0]


def _all_series_version(**_kwargs):
    """Each series' version and its tournaments' (the list names their slugs)."""
    return reads.api_series_versions()


def _found(value, what: str):
    if value is None:
        raise Http404(what)
    return value


def _tournament(slug: str):
    return _found(reads.api_tournament(slug), "No such tournament.")


# Each answer's codes: the document, not modified, not found, a parameter that cannot be
# read, too many requests.
# A session's or a table's number, as the database holds it (a small positive integer); a
# short name as the site makes them (letters, digits, hyphens, underscores): anything else is
# refused before any query (a NUL character, say, which PostgreSQL cannot compare).
NUMBER = Path(..., ge=1, le=32767)
SLUG = Path(..., pattern=r"^[-a-zA-Z0-9_]+$", max_length=60)


def _answers(document) -> dict:
    return {200: document, 304: None, 404: Message, 422: InvalidRequest, 429: Message}


def _read(route, document, summary: str, version_of, *, tag="tournaments", paged=False):
    """An operation answering ``document`` at ``route`` (by pages, ``paged``), with the ETag
    of ``version_of`` (``conditional``)."""

    def decorate(operation):
        if paged:
            pages = paginate(PageNumberPagination, page_size=PAGE_SIZE, max_page_size=MAX_PAGE_SIZE)
            operation = pages(operation)
        read = api.get(route, response=_answers(document), tags=[tag], summary=summary)
        return read(conditional(version_of)(operation))

    return decorate


def _tournament_read(route: str, document, summary: str, *, paged: bool = False):
    return _read("/tournaments/{slug}" + route, document, summary, _tournament_version, paged=paged)


def _series_read(route: str, document, summary: str, *, paged: bool = False):
    return _read(
        "/series/{slug}" + route, document, summary, _series_version, tag="series", paged=paged
    )


def _tournament_out(tournament) -> dict:
    return {
        "slug": tournament.slug,
        "name": tournament.name,
        "first_day": tournament.first_day,
        "last_day": tournament.last_day,
        "venue": tournament.venue,
        "city": tournament.city,
        "country": tournament.country,
        "website": tournament.website,
        "time_zone": tournament.time_zone,
        "session_count": tournament.session_count,
        "players": tournament.player_count,
        "tiebreaks": tournament.tiebreaks,
        "version": tournament.data_number or 0,
        "created_at": tournament.created_at,
    }


@_read("/tournaments", list[TournamentOut], "Tournaments", _all_tournaments_version, paged=True)
def tournaments(request):
    """Every tournament, newest first."""
    return [_tournament_out(t) for t in reads.api_tournaments()]


@_tournament_read("", TournamentDetailOut, "A tournament")
def tournament(request, slug: str = SLUG):
    found = _tournament(slug)
    return {
        **_tournament_out(found),
        "sessions_published": found.sessions_published,
        "seating_method": found.seating_method,
        "ema_qualifying": found.ema_qualifying,
        "rules": _rules_out(found),
    }


def _options_out(options: dict) -> dict:
    """Rule options as a tournament holds them (``RULE_FIELDS``), in the API's words."""
    return {
        "profile": options["rule_profile"],
        **{
            name: options[name]
            for name in RULE_FIELDS
            if name not in ("rule_profile", "tiebreak_order")
        },
        "tiebreaks": [key for key in options["tiebreak_order"].split(",") if key],
    }


def _rules_out(tournament) -> dict:
    options = rule_options(tournament)
    return {
        **_options_out(options),
        "readings": reading_options(options),
        "changes": [
            {
                "changed_at": change.changed_at,
                "reason": change.reason,
                "before": _options_out(change.before),
                "after": _options_out(change.after),
                "hands_settled": change.hands_settled,
                "hands_changed": change.hands_changed,
            }
            for change in rule_changes(tournament)
        ],
    }


@_tournament_read("/players", list[PlayerOut], "A tournament's players", paged=True)
def players(request, slug: str = SLUG):
    """By number, substitutes and withdrawn players included; never an e-mail."""
    return list(reads.api_players(_tournament(slug)))


@_tournament_read("/sessions", list[SessionOut], "A tournament's published sessions")
def sessions(request, slug: str = SLUG):
    """The sessions whose draw is public, by number (a draw under review is not listed)."""
    return list(reads.api_sessions(_tournament(slug)))


def _session(slug: str, number: int):
    return _found(reads.api_session(_tournament(slug), number), "No such published session.")


def _seat_out(seat) -> dict:
    points = Fraction(seat.table_points_twelfths, TWELFTHS)
    return {
        "seat": seat_label(seat.seat),
        "player": seat.player.number,
        "name": seat.player.name,
        "replaces": seat.replaces.number if seat.replaces_id else None,
        "score": seat.score,
        "place": seat.place,
        "table_points": exact(points),
        "table_points_twelfths": seat.table_points_twelfths,
    }


@_tournament_read("/sessions/{number}/tables", list[TableOut], "A session's tables", paged=True)
def tables(request, slug: str = SLUG, number: int = NUMBER):
    """Each table with its four seats: the player, the score, the place and the exact table
    points so far (a table with no hand entered has no place yet)."""
    return [
        {
            "number": table.number,
            "confirmed": table.confirmed_at is not None,
            "hands_entered": table.hands_entered,
            "seats": [_seat_out(seat) for seat in table.seats.all()],
        }
        for table in reads.api_tables(_session(slug, number))
    ]


@_tournament_read(
    "/sessions/{number}/tables/{table}/hands", list[HandOut], "A confirmed table's hands"
)
def hands(request, slug: str = SLUG, number: int = NUMBER, table: int = NUMBER):
    """The hands of a table once its referee confirmed it (404 before)."""
    found = reads.api_table(_session(slug, number), table)
    if found is None or found.confirmed_at is None:
        raise Http404("No such confirmed table.")
    return [
        {
            "number": hand.number,
            "outcome": hand.outcome,
            "winner": seat_label(hand.winner),
            "discarder": seat_label(hand.discarder),
            "fan": hand.fan,
            "flowers": hand.flowers,
            "points": [hand.points_p1, hand.points_p2, hand.points_p3, hand.points_p4],
            "penalties": [
                PenaltyOut(
                    offender=seat_label(p.offender),
                    kind=p.kind,
                    points=p.points,
                    beneficiary=seat_label(p.beneficiary),
                )
                for p in hand.penalties.all()
            ],
        }
        for hand in reads.api_hands(found)
    ]


@_tournament_read("/standings", list[StandingOut], "A tournament's standings", paged=True)
def standings(request, slug: str = SLUG):
    """In the ranking order, as the standings page; substitutes last, without a rank."""
    return [
        {
            "rank": row.rank,
            "player": row.player.number,
            "name": row.player.name,
            "country": row.player.country,
            "table_points": exact(row.table_points),
            "table_points_twelfths": twelfths(row.table_points),
            "score": row.score,
            "sessions_played": row.sessions_played,
            "first_places": row.first_places,
            "second_places": row.second_places,
            "third_places": row.third_places,
            "fourth_places": row.fourth_places,
            "best_session": row.best_session,
            "hands_won": row.hands_won,
        }
        for row in tournament_standings(_tournament(slug))
    ]


def _series_out(series) -> dict:
    return {
        "slug": series.slug,
        "name": series.name,
        "rule": series.rule,
        "counted_results": series.counted_results,
        "place_points": list(series_rule(series).place_points),
        "tournaments": [t.slug for t in series.tournaments.all()],
        "version": series.version,
    }


@_read("/series", list[SeriesOut], "Series", _all_series_version, tag="series", paged=True)
def series_list(request):
    return [_series_out(series) for series in reads.api_series_list()]


def _series(slug: str):
    return _found(reads.api_series(slug, with_tournaments=True), "No such series.")


@_series_read("", SeriesOut, "A series")
def series(request, slug: str = SLUG):
    return _series_out(_series(slug))


@_series_read("/ranking", list[SeriesRowOut], "A series' ranking", paged=True)
def series_ranking(request, slug: str = SLUG):
    """Best first, each person's result in every tournament they played, counted or not."""
    standing = series_standing(_series(slug))
    slugs = [t.slug for t in standing.tournaments]
    return [
        {
            "rank": row.rank,
            "person": row.person_id,
            "name": row.name,
            "country": row.country,
            "total": exact(row.total),
            "table_points": exact(row.table_points),
            "table_points_twelfths": twelfths(row.table_points),
            "score": row.score,
            "results": [
                SeriesResultOut(
                    tournament=slugs[index],
                    player=cell.player_number,
                    rank=cell.rank,
                    table_points=exact(cell.table_points),
                    table_points_twelfths=twelfths(cell.table_points),
                    score=cell.score,
                    place_points=cell.place_points,
                    counted=cell.counted,
                )
                for index, cell in enumerate(row.cells)
                if cell is not None
            ],
        }
        for row in standing.rows
    ]
