"""The EMA's checks and the tournament's ranking weight (``rankings.ema_checks``), from the
tournament's data: four queries, whatever its size."""

from dataclasses import dataclass
from fractions import Fraction

from django.db.models import Exists, OuterRef
from django.utils.translation import gettext_lazy as _

from tournament.models import Seat
from tournament.players import federation
from tournament.rankings import ema_checks
from tournament.selectors.lookups import PLAYED_SEAT
from tournament.selectors.overview import session_dates

# Each check's words, by its code.
CHECK_LABELS = {
    "tables_complete": _("Every table has its four players and sixteen hands, confirmed"),
    "whole_scores": _("Every score is a whole number"),
    "table_points_seven": _("The table points of each table add up to 7"),
    "guests_marked": _("A player without an EMA number is marked an EMA guest"),
    "countries_known": _("A member's country is one of the EMA's codes"),
    "substitutes_counted": _("At most 3 substitutes played"),
    "sessions_closed": _("Every session is played and closed"),
}
KNOWN_COUNTRIES = frozenset(code for code, _aliases in federation.COUNTRIES)


def ema_facts(tournament) -> ema_checks.TournamentFacts:
    tables: dict[int, list[tuple]] = {}
    for row in (
        Seat.objects.filter(session__tournament=tournament)
        .order_by("session__number", "table__number", "seat")
        .values_list(
            "table_id",
            "session__number",
            "table__number",
            "table__hands_entered",
            "table__confirmed_at",
            "score",
            "table_points_twelfths",
        )
    ):
        tables.setdefault(row[0], []).append(row)
    played = Seat.objects.filter(PLAYED_SEAT, player=OuterRef("pk"))
    players = tournament.players.annotate(played=Exists(played)).order_by("number")
    return ema_checks.TournamentFacts(
        tables=[
            ema_checks.TableFacts(
                session=rows[0][1],
                table=rows[0][2],
                seats=len(rows),
                hands=rows[0][3],
                confirmed=rows[0][4] is not None,
                scores=tuple(row[5] for row in rows),
                table_points=tuple(Fraction(row[6], 12) for row in rows),
            )
            for rows in tables.values()
        ],
        players=[
            ema_checks.PlayerFacts(
                number=p.number,
                name=p.name,
                ema_number=p.ema_number,
                country=p.country,
                is_guest=p.ema_guest,
                is_substitute=p.is_substitute,
                played=p.played,
            )
            for p in players
        ],
        sessions=tournament.session_count,
        closed_sessions=list(
            tournament.sessions.filter(closed_at__isnull=False).values_list("number", flat=True)
        ),
        days=len(session_dates(tournament)),
        qualifying=tournament.ema_qualifying,
    )


@dataclass(frozen=True)
class EmaReport:
    checks: list[tuple[str, str, list[str]]]  # code, words, what fails it
    weight: ema_checks.Weight

    @property
    def passed(self) -> bool:
        return all(not failures for _code, _label, failures in self.checks)

    @property
    def failed_codes(self) -> list[str]:
        return [code for code, _label, failures in self.checks if failures]


def ema_report(tournament) -> EmaReport:
    facts = ema_facts(tournament)
    return EmaReport(
        checks=[
            (result.code, str(CHECK_LABELS[result.code]), result.failures)
            for result in ema_checks.ema_checks(facts, KNOWN_COUNTRIES)
        ],
        weight=ema_checks.ema_weight(facts),
    )
