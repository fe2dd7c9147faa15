"""What the open results API reads (``tournament.api``): the public data only, each list in
a constant number of queries whatever its length.

The API shows what the public pages show: every tournament and its players (never an
e-mail), the sessions once published, their tables with seats and results, the standings,
a table's hands once the table is confirmed, and the series.
"""

from django.db.models import Count, F, Prefetch, Q

from tournament.models import Hand, Player, Seat, Series, Session, Table, Tournament
from tournament.selectors.lookups import PUBLISHED_SESSION


def api_tournaments():
    """Every tournament, newest first, with its data version and its player count."""
    return Tournament.objects.annotate(
        data_number=F("version__number"), player_count=Count("players", distinct=True)
    ).order_by("-created_at", "pk")


def api_tournament(slug: str) -> Tournament | None:
    """Tournament ``slug`` as ``api_tournaments`` gives it, with its published sessions
    counted."""
    published = Q(sessions__published_at__isnull=False)
    return (
        api_tournaments()
        .annotate(sessions_published=Count("sessions", filter=published, distinct=True))
        .filter(slug=slug)
        .first()
    )


def api_players(tournament: Tournament):
    return Player.objects.filter(tournament=tournament).order_by("number")


def api_sessions(tournament: Tournament):
    """The published sessions, with their tables counted, confirmed ones apart."""
    return (
        Session.objects.filter(PUBLISHED_SESSION, tournament=tournament)
        .defer("draw_input")
        .annotate(
            table_count=Count("tables", distinct=True),
            tables_confirmed=Count(
                "tables", filter=Q(tables__confirmed_at__isnull=False), distinct=True
            ),
        )
        .order_by("number")
    )


def api_session(tournament: Tournament, number: int) -> Session | None:
    """Session ``number`` if it is published (a draw under review is not public)."""
    return (
        Session.objects.filter(PUBLISHED_SESSION, tournament=tournament, number=number)
        .defer("draw_input")
        .first()
    )


def api_tables(session: Session):
    """The session's tables by number, each with its seats and their players (two queries
    a page)."""
    seats = Seat.objects.select_related("player", "replaces").order_by("seat")
    return (
        Table.objects.filter(session=session)
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("number")
    )


def api_table(session: Session, number: int) -> Table | None:
    return Table.objects.filter(session=session, number=number).first()


def api_hands(table: Table):
    """A table's hands by number with their penalties (two queries)."""
    return Hand.objects.filter(table=table).prefetch_related("penalties").order_by("number")


# A series' tournaments in the series' order, fetched with it.
SERIES_TOURNAMENTS = Prefetch(
    "tournaments", queryset=Tournament.objects.order_by("created_at", "pk")
)


def api_series_list():
    """Every series, newest first, each with its tournaments (two queries)."""
    return Series.objects.order_by("-created_at", "pk").prefetch_related(SERIES_TOURNAMENTS)


def api_series_versions() -> str:
    """Every series' version and its tournaments' data versions, in one query: what the list
    of series shows changes with them (a tournament deleted leaves its series)."""
    rows = Series.objects.order_by("pk", "tournaments__pk").values_list(
        "pk", "version", "tournaments__pk", "tournaments__version__number"
    )
    return ",".join(f"{s}.{v}.{t}.{n}" for s, v, t, n in rows)


def api_series(slug: str, *, with_tournaments: bool = False) -> Series | None:
    found = Series.objects.filter(slug=slug)
    if with_tournaments:
        found = found.prefetch_related(SERIES_TOURNAMENTS)
    return found.first()
