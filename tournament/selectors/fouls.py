"""The record of fouls: every foul of the tournament as the rules' appendix keeps them, one
row each, numbered in the order they happened.

A foul on record is a penalty on a table's sheet, entered there by its referee (its reason
the decision) or given by a ruling at the desk (the ruling's offence, decision and referee),
and a ruling that named an offence without giving a penalty: a warning. A ruling's penalty
is on the record from the moment it is given, its hand entered or not. A ruling that
settled a claim or a count without naming an offence is no foul and not listed.

The page (``views/fouls.py``) and the standings workbook (``exports/workbook.py``) both
read ``record_of_fouls``: a few queries whatever the number of fouls (a tournament has tens
of them, a few hundred at most).
"""

import datetime
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Exists, OuterRef, Q, Subquery
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournament.models import OFFENCES, Appeal, Hand, Penalty, Ruling, Seat, Tournament
from tournament.scoring import PenaltyKind

# How the record says an appeal's state.
NO_APPEAL = "none"
APPEAL_WAITING = "waiting"


@dataclass(frozen=True)
class FoulPlayer:
    """A player as the record names them."""

    number: int
    name: str
    name_zh: str = ""

    def __str__(self) -> str:
        name = f"{self.name} ({self.name_zh})" if self.name_zh else self.name
        return f"{self.number} {name}"


def penalty_words(kind: str, points: int | None, beneficiary: FoulPlayer | None = None) -> str:
    """A penalty in words: "10 to each other player", "20 to 3 Li Wei", "10 deducted";
    "" for none."""
    if not kind:
        return ""
    if kind == PenaltyKind.TO_EACH_OTHER:
        return _("%(points)s to each other player") % {"points": points}
    if kind == PenaltyKind.TO_ONE:
        if beneficiary is None:
            return _("%(points)s to one player") % {"points": points}
        return _("%(points)s to %(player)s") % {"points": points, "player": beneficiary}
    return _("%(points)s deducted") % {"points": points}


@dataclass(frozen=True)
class Foul:
    """One row of the record of fouls."""

    number: int  # "No.": its place in the whole tournament's record, whatever is filtered
    session: int
    table: int
    hand: int | None
    time: datetime.datetime  # a ruling's time; a sheet penalty's hand's first entry
    players: tuple[FoulPlayer, ...]  # the offender; a warning without one: those concerned
    offence: str
    penalty_kind: str  # "" for none
    penalty_points: int | None
    beneficiary: FoulPlayer | None  # who is paid, for a penalty paid to one player
    decision: str
    referee: str
    ruling_id: int | None  # None: entered on the sheet
    appeal: str  # NO_APPEAL, APPEAL_WAITING, Appeal.UPHELD or Appeal.CHANGED
    appeal_text: str  # the appeal's decision in words
    previous: str  # the penalty before an appeal changed it, in words ("" for none)
    hand_entered: bool  # False: a ruling's penalty, carried by its hand once entered

    @property
    def player_number(self) -> int | None:
        return self.players[0].number if self.players else None

    @property
    def penalty(self) -> str:
        """The penalty in words, "warning" for a ruling that gave none, or "withdrawn on
        appeal"."""
        if self.penalty_kind:
            return penalty_words(self.penalty_kind, self.penalty_points, self.beneficiary)
        if self.appeal == Appeal.CHANGED and self.previous:
            return _("withdrawn on appeal")
        return _("warning")

    @property
    def appeal_label(self) -> str:
        return {
            NO_APPEAL: _("none"),
            APPEAL_WAITING: _("waiting"),
            Appeal.UPHELD: _("upheld"),
            Appeal.CHANGED: pgettext("appeal", "changed"),
        }[self.appeal]

    @property
    def kind_label(self) -> str:
        """How the penalty is paid, as the sheet's choices say it; "warning" for none."""
        if not self.penalty_kind:
            return self.penalty
        return str(dict(Penalty.KIND_CHOICES).get(self.penalty_kind, self.penalty_kind))


@dataclass(frozen=True)
class FoulFilter:
    """A session's fouls, a player's, or both (None: every one)."""

    session: int | None = None
    player: int | None = None

    def keeps(self, foul: Foul) -> bool:
        if self.session is not None and foul.session != self.session:
            return False
        return self.player is None or any(p.number == self.player for p in foul.players)


def _user_name(username: str | None, first: str = "", last: str = "") -> str:
    if username is None:
        return ""
    return f"{first} {last}".strip() or username


def _account(user) -> str:
    return "" if user is None else _user_name(user.get_username(), user.first_name, user.last_name)


def _preset_offences() -> dict[str, str]:
    """The words a sheet's penalty presets write as the reason, in every language of the
    site -> the offence's words in the reader's: a sheet penalty given for an offence of
    the list names it."""
    found = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            found.update({str(offence.reason): offence for offence in OFFENCES})
    return {reason: str(offence.reason) for reason, offence in found.items()}


def _seated(table_ids) -> tuple[dict, dict]:
    """(table id, seat) -> the player seated there now, and player id -> the player: one
    query."""
    by_seat, by_id = {}, {}
    for table_id, seat, pk, number, name, name_zh in (
        Seat.objects.filter(table_id__in=table_ids)
        .order_by()
        .values_list(
            "table_id", "seat", "player_id", "player__number", "player__name", "player__name_zh"
        )
    ):
        by_seat[table_id, seat] = by_id[pk] = FoulPlayer(number, name, name_zh)
    return by_seat, by_id


def _player(player) -> FoulPlayer | None:
    return None if player is None else FoulPlayer(player.number, player.name, player.name_zh)


def _sheet_penalties(tournament: Tournament, presets: dict[str, str]):
    """The penalties entered on the sheets (not a ruling's), as rows of the record without
    their players (the caller's seats give them)."""
    first_entry = Subquery(
        Hand.history.model.objects.filter(id=OuterRef("hand_id"))
        .order_by("history_date")
        .values("history_date")[:1]
    )
    rows = (
        Penalty.objects.filter(hand__table__session__tournament=tournament, ruling__isnull=True)
        .annotate(first_entry=first_entry)
        .order_by("id")
        .values_list(
            "hand__table__session__number",
            "hand__table_id",
            "hand__table__number",
            "hand__number",
            "offender",
            "kind",
            "points",
            "beneficiary",
            "reason",
            "first_entry",
            "hand__updated_at",
            "hand__entered_by__username",
            "hand__entered_by__first_name",
            "hand__entered_by__last_name",
            "hand__entered_by_device",
        )
    )
    for (
        session,
        table_id,
        table,
        hand,
        offender,
        kind,
        points,
        beneficiary,
        reason,
        first_entry,
        updated_at,
        *user,
        device,
    ) in rows:
        yield {
            "session": session,
            "table_id": table_id,
            "table": table,
            "hand": hand,
            "time": first_entry or updated_at,
            "offender_seat": offender,
            "beneficiary_seat": beneficiary,
            "offence": presets.get(reason, ""),
            "penalty_kind": kind,
            "penalty_points": points,
            "decision": reason,
            "referee": _user_name(*user) or (_("the table's tablet") if device else ""),
            "ruling_id": None,
            "appeal": NO_APPEAL,
            "appeal_text": "",
            "previous": None,
            "hand_entered": True,
        }


def _rulings(tournament: Tournament):
    """The rulings on the record: those that named an offence or gave a penalty (now, or
    before an appeal changed it), with what the record reads of them."""
    return list(
        Ruling.objects.filter(table__session__tournament=tournament)
        .filter(~Q(offence="") | ~Q(penalty_kind="") | Q(appeal__decision=Appeal.CHANGED))
        .select_related("table__session", "referee", "offender", "beneficiary", "appeal")
        .prefetch_related("players")
        .annotate(hand_entered=Exists(Penalty.objects.filter(ruling=OuterRef("pk"))))
        .order_by("id")
    )


def _ruling_row(ruling: Ruling) -> dict:
    appeal = getattr(ruling, "appeal", None)
    state = NO_APPEAL if appeal is None else (appeal.decision or APPEAL_WAITING)
    offender = _player(ruling.offender)
    players = (
        (offender,)
        if offender is not None
        else tuple(sorted((_player(p) for p in ruling.players.all()), key=lambda p: p.number))
    )
    return {
        "session": ruling.table.session.number,
        "table_id": ruling.table_id,
        "table": ruling.table.number,
        "hand": ruling.hand,
        "time": ruling.ruled_at,
        "players": players,
        "beneficiary": _player(ruling.beneficiary),
        "offence": ruling.offence_text,
        "penalty_kind": ruling.penalty_kind,
        "penalty_points": ruling.penalty_points,
        "decision": ruling.decision,
        "referee": _account(ruling.referee),
        "ruling_id": ruling.pk,
        "appeal": state,
        "appeal_text": appeal.decision_text if appeal is not None else "",
        "previous": appeal.previous if state == Appeal.CHANGED else None,
        "hand_entered": not ruling.gives_penalty or ruling.hand_entered,
    }


def record_of_fouls(tournament: Tournament, where: FoulFilter | None = None) -> list[Foul]:
    """The tournament's record of fouls, in the order they happened (session, time, table,
    hand), numbered so; the fouls ``where`` keeps (every one by default), with their
    numbers in the whole record. Four queries: the sheets' penalties, the rulings and the
    players they concern, the seats of their tables."""
    rows = [*_sheet_penalties(tournament, _preset_offences())]
    rows += [_ruling_row(ruling) for ruling in _rulings(tournament)]
    by_seat, by_id = _seated({row["table_id"] for row in rows})
    for row in rows:
        if "offender_seat" in row:
            offender = by_seat.get((row["table_id"], row.pop("offender_seat")))
            row["players"] = (offender,) if offender is not None else ()
            seat = row.pop("beneficiary_seat")
            row["beneficiary"] = None if seat is None else by_seat.get((row["table_id"], seat))
        previous = row["previous"]
        row["previous"] = (
            penalty_words(
                previous.get("penalty_kind", ""),
                previous.get("penalty_points"),
                by_id.get(previous.get("beneficiary")),
            )
            if previous
            else ""
        )
    rows.sort(key=lambda row: (row["session"], row["time"], row["table"], row["hand"] or 0))
    where = where or FoulFilter()
    fouls = []
    for number, row in enumerate(rows, start=1):
        del row["table_id"]
        foul = Foul(number=number, **row)
        if where.keeps(foul):
            fouls.append(foul)
    return fouls
