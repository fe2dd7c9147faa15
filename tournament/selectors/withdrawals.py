"""Substitutes and withdrawn players: the substitutes who have sat at a table against the
federation's limit, withdrawn players still seated, the registration summary (whether the
next draw can be made, by the seating core's rule).
"""

from dataclasses import dataclass

from django.db.models import Count, Exists, Max, OuterRef, Q
from django.utils.translation import ngettext

from tournament import seating
from tournament.language.translated import core_message
from tournament.models import (
    Player,
    Seat,
    Session,
    Table,
)
from tournament.selectors.lookups import ACTIVE_PLAYERS, PLAYED_SEAT
from tournament.selectors.seating import players_for_draw

# A substitute who has sat at a table: holds a seat in a drawn session (played or to play).
SEATED_SUBSTITUTE = Q(is_substitute=True) & Exists(Seat.objects.filter(player=OuterRef("pk")))


@dataclass(frozen=True)
class SubstituteCount:
    """The substitutes who have sat at a table, and how many the federation counts."""

    seated: int
    limit: int

    @property
    def beyond_limit(self) -> int:
        """Seated substitutes the federation does not count."""
        return max(0, self.seated - self.limit)


def substitute_count(tournament) -> SubstituteCount:
    """How many substitutes have sat at a table (a seat in any drawn session, whether its
    table has started or not), against the tournament's limit: one query."""
    seated = tournament.players.filter(SEATED_SUBSTITUTE).count()
    return SubstituteCount(seated=seated, limit=tournament.substitute_limit)


def substitute_limit_warning(tournament, players) -> str:
    """What to tell the organiser before seating ``players`` (a seat given, a session
    drawn): "" unless it brings substitutes who have not sat at a table yet beyond the
    federation's limit, which still lets them play but counts only that many. One query
    when ``players`` hold a substitute, none otherwise."""
    substitutes = [player for player in players if player.is_substitute]
    if not substitutes:
        return ""
    already = set(tournament.players.filter(SEATED_SUBSTITUTE).values_list("number", flat=True))
    newcomers = sorted(p.number for p in substitutes if p.number not in already)
    total = len(already) + len(newcomers)
    if not newcomers or total <= tournament.substitute_limit:
        return ""
    names = {p.number: str(p) for p in substitutes}
    return ngettext(
        "Seating %(players)s brings the substitutes who have sat at a table to %(total)s: "
        "the federation counts only %(limit)s substitute.",
        "Seating %(players)s brings the substitutes who have sat at a table to %(total)s: "
        "the federation counts only %(limit)s substitutes.",
        tournament.substitute_limit,
    ) % {
        "players": ", ".join(names[n] for n in newcomers),
        "total": total,
        "limit": tournament.substitute_limit,
    }


def draw_substitute_warning(tournament) -> str:
    """``substitute_limit_warning`` for the players the next draw seats ("" if none, or if
    the draw would be refused anyway): every method seats ``players_for_draw``."""
    try:
        players = players_for_draw(tournament)
    except seating.DrawError:
        return ""
    return substitute_limit_warning(tournament, players)


def last_sessions_played(tournament) -> dict[int, int]:
    """Player id -> the last session in which each withdrawn player played a table (those
    who withdrew before playing are not in it): one query."""
    return dict(
        Seat.objects.filter(
            PLAYED_SEAT, session__tournament=tournament, player__withdrawn_at__isnull=False
        )
        .values("player_id")
        .annotate(last=Max("session__number"))
        .order_by()
        .values_list("player_id", "last")
    )


@dataclass(frozen=True)
class WithdrawnSeat:
    """A withdrawn player still holding a seat of a session."""

    table: int
    player: Player


def withdrawn_seated(session: Session) -> list[WithdrawnSeat]:
    """The session's seats held by withdrawn players, by table and seat: one query."""
    seats = (
        Seat.objects.filter(session=session, player__withdrawn_at__isnull=False)
        .select_related("player", "table")
        .order_by("table__number", "seat")
    )
    return [WithdrawnSeat(table=seat.table.number, player=seat.player) for seat in seats]


def unconfirmed_table_count(tournament) -> int:
    """Drawn tables not confirmed yet: while there are any, the standings may still change."""
    return Table.objects.filter(session__tournament=tournament, confirmed_at__isnull=True).count()


@dataclass(frozen=True)
class RegistrationSummary:
    """The player list's figures: who is registered, and what the next draw would seat."""

    active: int
    substitutes: int  # active substitutes
    withdrawn: int
    # Players whose country was written before countries were codes, with no code found.
    unrecognised_countries: int
    draw_ready: bool
    draw_problem: str  # why the draw would be refused, when it would
    table_count: int  # tables of four the next draw fills; 0 when it would be refused

    @property
    def spare_substitutes(self) -> int:
        """Active substitutes the next draw leaves out."""
        return self.active - self.table_count * 4 if self.draw_ready else 0


def registration_summary(tournament) -> RegistrationSummary:
    """Players counted in one query, and the outcome of drawing them now."""
    counts = tournament.players.aggregate(
        active=Count("pk", filter=ACTIVE_PLAYERS),
        substitutes=Count("pk", filter=ACTIVE_PLAYERS & Q(is_substitute=True)),
        withdrawn=Count("pk", filter=~ACTIVE_PLAYERS),
        unrecognised_countries=Count("pk", filter=~Q(country_unrecognised="")),
    )
    try:
        drawn = players_for_draw(tournament)
    except seating.DrawError as refusal:
        return RegistrationSummary(
            **counts, draw_ready=False, draw_problem=core_message(refusal), table_count=0
        )
    return RegistrationSummary(
        **counts, draw_ready=True, draw_problem="", table_count=len(drawn) // 4
    )


def seats_waiting_for_play(player: Player):
    """The player's seats at tables where no hand has been entered yet."""
    return (
        Seat.objects.filter(player=player, table__hands__isnull=True)
        .select_related("table", "session")
        .order_by("session__number")
        .distinct()
    )


# The columns of a seat that say whom its player replaces, in ``replaced_text``'s order.
REPLACED_FIELDS = (
    "replaces__number",
    "replaces__name",
    "stands_in_for__number",
    "stands_in_for__name",
)


def replaced_text(number, name, stood_in_for, stood_in_for_name) -> str:
    """Whom a seat's player replaces, as "8 Player 8", or "": the player given the seat by
    hand (``Seat.replaces``), else the one seated by the draw in their stead
    (``Seat.stands_in_for``)."""
    if number is not None:
        return f"{number} {name}"
    return f"{stood_in_for} {stood_in_for_name}" if stood_in_for is not None else ""


def players_replaced(tournament) -> dict[int, list[str]]:
    """Substitute player id -> the withdrawn players they replaced in the published
    sessions ("8 Player 8"), each once, in the order of the sessions: given the seat by hand
    (``Seat.replaces``) or seated by the draw in their stead (``Seat.stands_in_for``)."""
    replaced: dict[int, list[str]] = {}
    for player, *named in (
        Seat.objects.filter(
            Q(replaces__isnull=False) | Q(stands_in_for__isnull=False),
            session__tournament=tournament,
            session__published_at__isnull=False,
            player__is_substitute=True,
        )
        .order_by("session__number")
        .values_list("player_id", *REPLACED_FIELDS)
    ):
        text = replaced_text(*named)
        if text not in replaced.setdefault(player, []):
            replaced[player].append(text)
    return replaced
