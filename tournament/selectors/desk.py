"""The referees' desk: its version, the open calls, the rulings and their appeals, a table's
call as its tablet shows it, the penalties a hand carries from the rulings, and the
tournament's penalty presets the sheet and the desk offer."""

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models import (
    Appeal,
    Hand,
    RefereeCall,
    Ruling,
    Seat,
    Session,
    Table,
    Tournament,
    TournamentVersion,
)
from tournament.models.rulings import OFFENCE_BY_CODE


@dataclass(frozen=True)
class PenaltyPreset:
    """A penalty the tournament's rules preset for an offence: its kind, the points allowed
    (the usual figure first: a tap fills it in) and the offence's words (``models.OFFENCES``),
    which the sheet writes as the reason."""

    offence: str
    kind: str
    points: Sequence[int]
    reason: str

    @property
    def default_points(self) -> int:
        return self.points[0]

    @property
    def figures(self) -> str:
        """The points as the sheet quotes them: "10", "10 or 20", "5…60"."""
        if len(self.points) == 1:
            return str(self.points[0])
        if len(self.points) == 2:
            return _("%(first)s or %(second)s") % {
                "first": self.points[0],
                "second": self.points[1],
            }
        return f"{min(self.points)}…{max(self.points)}"


def penalty_presets(tournament: Tournament) -> list[PenaltyPreset]:
    """The tournament's penalty presets (``Tournament.penalty_presets``), in its order, each
    with its offence's words: the sheet's preset buttons and the desk's ruling form offer
    these and no other. A preset naming an offence the list no longer has is left out."""
    return [
        PenaltyPreset(
            preset["offence"],
            preset["kind"],
            tuple(preset["points"]),
            OFFENCE_BY_CODE[preset["offence"]].reason,
        )
        for preset in tournament.penalty_presets
        if preset["offence"] in OFFENCE_BY_CODE
    ]


def desk_version(tournament_id: int) -> int:
    """The number every call, ruling and appeal of the tournament raises (0 before the first):
    the desk's and the tablets' polls are answered "not changed" under it."""
    found = (
        TournamentVersion.objects.filter(tournament_id=tournament_id)
        .values_list("desk", flat=True)
        .first()
    )
    return found or 0


def ruling_reason(ruling: Ruling) -> str:
    """What the sheet writes as the reason of the penalty a ruling gave: its offence, or the
    first line of its decision."""
    text = ruling.offence_text or ruling.decision.splitlines()[0]
    return text[:200]


def ruled_penalties(table: Table, number: int | None = None) -> list[dict]:
    """The penalties the rulings at ``table`` gave in hand ``number`` (in every hand, when
    None), in the order given, as ``services.PenaltyEntry`` takes them with the hand's
    ``number`` beside them when every hand's are asked for: seats are the seats the players
    hold at the table now (None for a player no longer there, which the scoring core
    refuses)."""
    rulings = Ruling.objects.filter(table=table).exclude(penalty_kind="")
    if number is not None:
        rulings = rulings.filter(hand=number)
    rulings = list(rulings.order_by("ruled_at", "id"))
    if not rulings:
        return []
    seats = dict(Seat.objects.filter(table=table).values_list("player_id", "seat"))
    return [
        {
            **({"number": ruling.hand} if number is None else {}),
            "offender": seats.get(ruling.offender_id),
            "kind": ruling.penalty_kind,
            "points": ruling.penalty_points,
            "beneficiary": seats.get(ruling.beneficiary_id) if ruling.beneficiary_id else None,
            "reason": ruling_reason(ruling),
            "ruling_id": ruling.pk,
        }
        for ruling in rulings
    ]


def appeal_deadline(session: Session, minutes: int) -> datetime.datetime | None:
    """Until when a ruling of ``session`` may be appealed: ``minutes`` after it closes (None
    while it is not closed: until then, at any time)."""
    if session.closed_at is None:
        return None
    return session.closed_at + datetime.timedelta(minutes=minutes)


def may_be_appealed(ruling: Ruling, tournament: Tournament, now=None) -> bool:
    """Whether ``ruling`` (with its table and session) may be appealed now: not appealed yet,
    and its session open, or closed less than the tournament's appeal time ago."""
    if hasattr(ruling, "appeal"):
        return False
    deadline = appeal_deadline(ruling.table.session, tournament.appeal_minutes)
    return deadline is None or (now or timezone.now()) <= deadline


def _with_places(queryset):
    """Calls or rulings with their table and session, and the players at the table by seat."""
    return queryset.select_related("table__session").prefetch_related(
        Prefetch(
            "table__seats",
            queryset=Seat.objects.select_related("player").order_by("seat"),
            to_attr="seated",
        )
    )


@dataclass(frozen=True)
class DeskCall:
    """An open call as the desk lists it."""

    call: RefereeCall  # with its table, session, the table's players (``table.seated``)
    waited: datetime.timedelta

    @property
    def players(self):
        return [seat.player for seat in self.call.table.seated]


def open_calls(tournament: Tournament, now=None) -> list[DeskCall]:
    """The tournament's open calls, oldest first, with how long each has waited."""
    now = now or timezone.now()
    calls = _with_places(
        RefereeCall.objects.filter(
            table__session__tournament=tournament, state__in=RefereeCall.OPEN
        ).select_related("taken_by", "player")
    ).order_by("called_at", "id")
    return [DeskCall(call=call, waited=now - call.called_at) for call in calls]


@dataclass(frozen=True)
class DeskRuling:
    """A ruling as the desk and the record of fouls list it."""

    ruling: Ruling  # with its table, session, referee, offender, players concerned, appeal
    appealable: bool

    @property
    def appeal(self) -> Appeal | None:
        return getattr(self.ruling, "appeal", None)


def rulings(tournament: Tournament, *, session: Session | None = None, now=None):
    """The tournament's rulings (of ``session`` only, when given), newest first, each said
    appealable or not now."""
    found = Ruling.objects.filter(table__session__tournament=tournament)
    if session is not None:
        found = found.filter(table__session=session)
    found = (
        _with_places(found)
        .select_related("referee", "offender", "beneficiary", "call", "appeal__decided_by")
        .prefetch_related("players")
        .order_by("-ruled_at", "-id")
    )
    now = now or timezone.now()
    return [
        DeskRuling(ruling=ruling, appealable=may_be_appealed(ruling, tournament, now))
        for ruling in found
    ]


def pending_appeals(tournament: Tournament) -> list[Appeal]:
    """The appeals waiting for a decision, oldest first."""
    return list(
        Appeal.objects.filter(
            ruling__table__session__tournament=tournament, decision=Appeal.PENDING
        )
        .select_related("ruling__table__session", "ruling__offender", "player")
        .order_by("lodged_at", "id")
    )


def table_calls(table: Table | int) -> list[RefereeCall]:
    """A table's calls of its session as its tablet shows them: the open ones, then those
    ended, newest first, with who took each and the ruling that resolved it."""
    calls = (
        RefereeCall.objects.filter(table=table)
        .select_related("taken_by", "ruling")
        .order_by("-called_at", "-id")
    )
    return sorted(calls, key=lambda call: not call.is_open)


@dataclass(frozen=True)
class CallPanel:
    """A table's calls as its tablet and its players' pages show them (``table_calls``), and
    the hands entered that a ruling among them names (a link corrects such a hand as ruled)."""

    calls: list[RefereeCall]
    entered: frozenset[int]

    @property
    def any_open(self) -> bool:
        return any(call.is_open for call in self.calls)


def call_panel(table: Table | int) -> CallPanel:
    """The panel of ``table``'s calls (the table or its id): one query, two when a ruling
    names a hand."""
    calls = table_calls(table)
    ruled = {
        call.ruling.hand
        for call in calls
        if hasattr(call, "ruling") and call.ruling.hand is not None
    }
    entered = frozenset(
        Hand.objects.filter(table=table, number__in=ruled).values_list("number", flat=True)
        if ruled
        else ()
    )
    return CallPanel(calls=calls, entered=entered)


def table_call(table: Table, call_id: int) -> RefereeCall | None:
    """Call ``call_id`` if ``table`` made it."""
    return RefereeCall.objects.filter(table=table, pk=call_id).first()


def player_table_in_play(player) -> Table | None:
    """The table ``player`` sits at in a session in play (with its session), if any: where
    they may call a referee from their own page."""
    return (
        Table.objects.filter(
            seats__player=player, session__opened_at__isnull=False, session__closed_at__isnull=True
        )
        .select_related("session")
        .order_by("session__number")
        .first()
    )


def table_ruling(table: Table, ruling_id) -> Ruling | None:
    """Ruling ``ruling_id`` if it was given at ``table`` (a correction made as it rules)."""
    try:
        return Ruling.objects.filter(table=table, pk=int(ruling_id)).first()
    except (TypeError, ValueError):
        return None


def table_calls_tag(table: Table, language: str) -> str:
    """What a table's call panel is answered "not changed" under: the desk's version (every
    call, ruling and appeal raises it), the hands entered and whether the table is confirmed
    (the panel's links to correct a hand as ruled depend on both), in the reader's language."""
    confirmed = int(table.confirmed_at.timestamp()) if table.confirmed_at else 0
    desk = desk_version(table.session.tournament_id)
    return f"calls-{table.pk}-{desk}-{table.hands_entered}-{confirmed}-{language}"


def open_call_hands(table: Table) -> set[int]:
    """The hands of ``table`` an open call is about (a table cannot be confirmed meanwhile)."""
    return set(
        RefereeCall.objects.filter(
            table=table, state__in=RefereeCall.OPEN, hand__isnull=False
        ).values_list("hand", flat=True)
    )


def table_has_open_call(table: Table) -> bool:
    return RefereeCall.objects.filter(table=table, state__in=RefereeCall.OPEN).exists()


def call_of(tournament: Tournament, pk: int) -> RefereeCall | None:
    """Call ``pk`` of the tournament, with its table, session and the table's players
    (``table.seated``, by seat), and who took it; None when the tournament has no such call."""
    return (
        _with_places(RefereeCall.objects.filter(table__session__tournament=tournament, pk=pk))
        .select_related("taken_by")
        .first()
    )


def ruling_of(tournament: Tournament, pk: int) -> Ruling | None:
    """Ruling ``pk`` of the tournament, with its table, session, the table's players, its
    offender, who was paid and its appeal; None when the tournament has no such ruling."""
    return (
        _with_places(Ruling.objects.filter(table__session__tournament=tournament, pk=pk))
        .select_related("offender", "beneficiary", "appeal", "referee")
        .first()
    )


def appeal_of(tournament: Tournament, pk: int) -> Appeal | None:
    """Appeal ``pk`` of the tournament, with its ruling as ``ruling_of`` gives it; None when
    the tournament has no such appeal."""
    appeal = (
        Appeal.objects.filter(ruling__table__session__tournament=tournament, pk=pk)
        .select_related("player")
        .first()
    )
    if appeal is not None:
        appeal.ruling = ruling_of(tournament, appeal.ruling_id)
    return appeal


def seated_players(table: Table) -> list:
    """The players at ``table`` now, by seat (P1..P4): those a ruling may concern."""
    return [
        seat.player
        for seat in Seat.objects.filter(table=table).select_related("player").order_by("seat")
    ]
