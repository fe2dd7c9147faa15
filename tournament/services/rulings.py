"""The referees' desk: a table calls a referee, a referee takes the call and gives a ruling
(its penalty entered on the table's sheet through the hand service), a ruling is appealed
and the appeal decided. Every write raises the desk's version (``selectors.desk``)."""

import uuid
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.history import audit
from tournament.models import (
    Appeal,
    Hand,
    Player,
    RefereeCall,
    Ruling,
    Seat,
    Table,
    TournamentVersion,
)
from tournament.models.rulings import OFFENCE_BY_CODE, OTHER_OFFENCE
from tournament.models.validators import validate_multi_line, validate_one_line
from tournament.scoring import PenaltyKind
from tournament.seating import HANDS_PER_SESSION
from tournament.selectors.desk import appeal_deadline, penalty_presets
from tournament.services.common import fields_saved, refused
from tournament.services.hands import (
    HandEntry,
    HandRefused,
    entered_fields,
    hand_record,
    penalty_entries,
)
from tournament.services.results import tournament_touch
from tournament.services.tables import locked_table, table_open_for_entry

NOTE_MAX_LENGTH = 200
TEXT_MAX_LENGTH = 1000


def desk_touch(tournament_id: int, *, on_record: bool = False) -> None:
    """Raise the desk's version: a call, a ruling or an appeal changed in this transaction.
    ``on_record``: a ruling or an appeal, which the record of fouls and the standings
    workbook show, raises the tournament's version too (a call, on the desk alone, does
    not)."""
    if on_record:
        tournament_touch(tournament_id, seating=False, standings=False)
    if not TournamentVersion.objects.filter(tournament_id=tournament_id).update(desk=F("desk") + 1):
        TournamentVersion.objects.get_or_create(tournament_id=tournament_id, defaults={"desk": 1})


def _session_in_play(table: Table) -> None:
    session = table.session
    if session.opened_at is None or session.closed_at is not None:
        raise ValidationError(
            _("Session %(n)s is not in play: a referee is called during play.")
            % {"n": session.number},
            code="session_not_in_play",
        )


def _hand_number(value, field: str = "hand", *, required: bool = False) -> int | None:
    if value in (None, ""):
        if required:
            raise refused(field, _("Choose the hand."), "hand_required")
        return None
    if not isinstance(value, int) or not 1 <= value <= HANDS_PER_SESSION:
        raise refused(
            field, _("A hand number is 1 to %(last)s.") % {"last": HANDS_PER_SESSION}, "bad_hand"
        )
    return value


def _text(value: str, field: str, *, most: int, one_line: bool, required: str = "") -> str:
    value = (value or "").strip()
    if required and not value:
        raise refused(field, required, "required")
    if len(value) > most:
        raise refused(
            field,
            _("Write at most %(most)s characters (this is %(length)s).")
            % {"most": most, "length": len(value)},
            "too_long",
        )
    try:
        (validate_one_line if one_line else validate_multi_line)(value)
    except ValidationError as error:
        raise ValidationError({field: error}) from error
    return value


def _refuse(field: str, message: str, code: str):
    raise refused(field, message, code)


def _checked(errors: dict, check, *args, **kwargs):
    """``check(*args, **kwargs)``, its refusal added to ``errors`` (field → errors)."""
    try:
        return check(*args, **kwargs)
    except ValidationError as error:
        for field, found in error.update_error_dict({}).items():
            errors.setdefault(field, []).extend(found)
        return None


def _seated(table: Table) -> dict[int, int]:
    """The players at ``table`` now: player id → seat."""
    return dict(Seat.objects.filter(table=table).values_list("player_id", "seat"))


@transaction.atomic
def call_make(
    *,
    table: Table,
    reason: str = "other",
    hand: int | None = None,
    note: str = "",
    key: uuid.UUID | None = None,
    user=None,
    device: str = "",
    player: Player | None = None,
) -> RefereeCall:
    """A call for a referee at ``table``, made by its tablet (``device``), an account
    (``user``) or a player seated there (``player``), about ``hand`` if given.

    ``key`` is the one-time key the call was made with: a call sent again with it (a double
    tap, the tablet's queue delivered when the network is back) is the call stored the first
    time, never a second one.
    """
    if key is not None:
        stored = RefereeCall.objects.filter(key=key).first()
        if stored is not None:
            if stored.table_id != table.pk:
                raise ValidationError(
                    _("This call was already made for another table: reload the page."),
                    code="call_key_reused",
                )
            return stored
    table = locked_table(table)
    _session_in_play(table)
    if table.confirmed_at is not None:
        raise ValidationError(
            _(
                "Table %(table)s is confirmed: its results are changed only by an appeal, "
                "at the referees' desk."
            )
            % {"table": table.number},
            code="table_confirmed",
        )
    if reason not in dict(RefereeCall.REASON_CHOICES):
        raise refused("reason", _("Choose why a referee is called."), "bad_reason")
    hand = _hand_number(hand, required=reason == RefereeCall.DISPUTE)
    note = _text(note, "note", most=NOTE_MAX_LENGTH, one_line=True)
    if player is not None and player.pk not in _seated(table):
        raise ValidationError(
            _("You do not sit at table %(table)s.") % {"table": table.number},
            code="player_not_at_table",
        )
    with audit.acting(user=user, device=device):
        try:
            with transaction.atomic():
                call = RefereeCall.objects.create(
                    table=table,
                    reason=reason,
                    hand=hand,
                    note=note,
                    key=key,
                    player=player,
                    called_by=user,
                    called_by_device=device,
                )
        except IntegrityError:
            # The same call's first send, committed in between.
            return RefereeCall.objects.get(key=key)
    desk_touch(table.session.tournament_id)
    return call


def _locked_call(call: RefereeCall) -> RefereeCall:
    return (
        RefereeCall.objects.select_for_update(of=("self",))
        .select_related("table__session", "taken_by")
        .get(pk=call.pk)
    )


def _still_open(call: RefereeCall) -> None:
    if not call.is_open:
        raise ValidationError(
            _("This call is %(state)s already.") % {"state": call.get_state_display().lower()},
            code="call_ended",
        )


@transaction.atomic
def call_take(*, call: RefereeCall, user) -> RefereeCall:
    """``user`` goes to the table: the tablet shows their name. Taken again by the same
    referee, nothing changes; by another, it is refused (they see who has it)."""
    call = _locked_call(call)
    _still_open(call)
    if call.state == RefereeCall.TAKEN:
        if call.taken_by_id == user.pk:
            return call
        raise ValidationError(
            _("%(name)s has taken this call.")
            % {"name": call.taken_by.get_full_name() or call.taken_by.get_username()},
            code="call_taken",
        )
    with audit.acting(user=user):
        fields_saved(call, state=RefereeCall.TAKEN, taken_by=user, taken_at=timezone.now())
    desk_touch(call.table.session.tournament_id)
    return call


@transaction.atomic
def call_cancel(*, call: RefereeCall, user=None, device: str = "") -> RefereeCall:
    """The table no longer needs the referee: the call leaves the desk. Cancelled twice, the
    second changes nothing."""
    call = _locked_call(call)
    if call.state == RefereeCall.CANCELLED:
        return call
    _still_open(call)
    with audit.acting(user=user, device=device):
        fields_saved(call, state=RefereeCall.CANCELLED, ended_at=timezone.now())
    desk_touch(call.table.session.tournament_id)
    return call


def _penalty_fields(
    *,
    table: Table,
    hand: int | None,
    kind: str,
    points,
    offender: Player | None,
    beneficiary: Player | None,
) -> dict:
    """The penalty of a ruling as stored, checked: none (no kind), or complete."""
    if not kind:
        none = {"penalty_kind": "", "penalty_points": None, "beneficiary": None}
        return {**none, "offender": offender}
    if kind not in {k.value for k in PenaltyKind}:
        raise refused("penalty_kind", _("Choose how the penalty is paid."), "bad_kind")
    errors = {}
    if hand is None:
        errors["hand"] = ValidationError(_("A penalty is given in a hand: choose it."), "required")
    if not isinstance(points, int) or isinstance(points, bool) or points < 1:
        errors["penalty_points"] = ValidationError(
            _("The points must be a positive whole number."), "bad_points"
        )
    seated = _seated(table)
    if offender is None or offender.pk not in seated:
        errors["offender"] = ValidationError(
            _("Choose the offender among the table's players."), "offender_required"
        )
    if kind == PenaltyKind.TO_ONE:
        if beneficiary is None or beneficiary.pk not in seated:
            errors["beneficiary"] = ValidationError(
                _("Choose the player who is paid."), "beneficiary_required"
            )
        elif offender is not None and beneficiary.pk == offender.pk:
            errors["beneficiary"] = ValidationError(
                _("A player cannot pay a penalty to themselves."), "beneficiary_is_offender"
            )
    else:
        beneficiary = None
    if errors:
        raise ValidationError(errors)
    return {
        "penalty_kind": kind,
        "penalty_points": points,
        "offender": offender,
        "beneficiary": beneficiary,
    }


def _hand_settled_again(ruling: Ruling, *, user, appeal_decided: bool = False) -> None:
    """The ruling's hand, when entered, settled again with the penalties the rulings give now
    (through the hand service, as a correction carrying the ruling); a hand not entered yet
    takes them when it is. A hand the penalty cannot stand in is refused, nothing saved."""
    hand = Hand.objects.filter(table=ruling.table, number=ruling.hand).first()
    if hand is None:
        return
    entry = HandEntry(
        number=hand.number,
        **entered_fields(hand),
        penalties=[p for p in penalty_entries(hand) if p.ruling_id is None],
        keep_referee_figure=hand.referee_figure_kept,
        version=hand.version,
    )
    try:
        hand_record(
            table=ruling.table,
            entry=entry,
            user=user,
            ruling=ruling,
            appeal_decided=appeal_decided,
        )
    except HandRefused as error:
        messages = [message for message in error.messages]
        raise refused(
            "penalty_kind",
            _("Hand %(n)s as entered cannot take this penalty: %(why)s")
            % {"n": hand.number, "why": " ".join(messages)},
            "penalty_refused_by_hand",
        ) from error


@transaction.atomic
def ruling_give(
    *,
    table: Table,
    referee,
    decision: str,
    hand: int | None = None,
    players: Sequence[Player] = (),
    offence: str = "",
    offence_text: str = "",
    penalty_kind: str = "",
    penalty_points: int | None = None,
    offender: Player | None = None,
    beneficiary: Player | None = None,
    call: RefereeCall | None = None,
    key: uuid.UUID | None = None,
) -> Ruling:
    """A ruling at ``table``, resolving ``call`` if given (its hand, unless another is
    named): the offence (one the tournament's penalty presets name, ``"other"`` with its
    words, or none),
    the decision, the players concerned (the offender among them) and the penalty, if any.

    The penalty is the hand's from now on: an entered hand is settled again through the
    hand service (its revision names the ruling), a hand not yet entered carries it once
    entered. A penalty needs the table open for entry; a ruling without one may be recorded
    after the table is confirmed.

    ``key`` is the one-time key of the form the ruling was given with: given again, it is
    the ruling stored the first time (its penalty counted once), never a second one.
    """
    table = locked_table(table, with_session=True)
    if key is not None:
        stored = Ruling.objects.filter(key=key).first()
        if stored is not None:
            if stored.table_id != table.pk:
                raise ValidationError(
                    _("This form was already used for another table: open it again."),
                    code="ruling_key_reused",
                )
            return stored
    if call is not None:
        call = _locked_call(call)
        if call.table_id != table.pk:
            raise ValidationError(_("This call is another table's."), code="call_other_table")
        _still_open(call)
        if hand in (None, ""):
            hand = call.hand
    errors: dict = {}
    hand = _checked(errors, _hand_number, hand)
    decision = _checked(
        errors,
        _text,
        decision,
        "decision",
        most=TEXT_MAX_LENGTH,
        one_line=False,
        required=_("Write the decision."),
    )
    # The list is the tournament's presets' offences: another one is named in words.
    if (
        offence
        and offence != OTHER_OFFENCE
        and offence not in {preset.offence for preset in penalty_presets(table.session.tournament)}
    ):
        _checked(errors, _refuse, "offence", _("Choose the offence from the list."), "bad_offence")
    offence_text = _checked(
        errors,
        _text,
        offence_text,
        "offence_text",
        most=NOTE_MAX_LENGTH,
        one_line=True,
        required=_("Say what the offence was.") if offence == OTHER_OFFENCE else "",
    )
    if offence in OFFENCE_BY_CODE and not offence_text:
        offence_text = str(OFFENCE_BY_CODE[offence].reason)
    penalty = _checked(
        errors,
        _penalty_fields,
        table=table,
        hand=hand,
        kind=penalty_kind,
        points=penalty_points,
        offender=offender,
        beneficiary=beneficiary,
    )
    if errors:
        # The desk's form shows every reason at once, each beside its field.
        raise ValidationError(errors)
    seated = _seated(table)
    concerned = {player.pk: player for player in players}
    for player in (penalty["offender"], penalty["beneficiary"]):
        if player is not None:
            concerned.setdefault(player.pk, player)
    if any(pk not in seated for pk in concerned):
        raise refused("players", _("Choose players of this table."), "player_not_at_table")
    if penalty["penalty_kind"]:
        table_open_for_entry(table)
    with audit.acting(user=referee):
        ruling = Ruling.objects.create(
            table=table,
            call=call,
            hand=hand,
            offence=offence,
            offence_text=offence_text,
            decision=decision,
            referee=referee,
            key=key,
            **penalty,
        )
        ruling.players.set(concerned.values())
        if call is not None:
            fields_saved(
                call,
                state=RefereeCall.RESOLVED,
                taken_by=call.taken_by or referee,
                taken_at=call.taken_at or timezone.now(),
                ended_at=timezone.now(),
            )
        if ruling.gives_penalty:
            _hand_settled_again(ruling, user=referee)
    desk_touch(table.session.tournament_id, on_record=True)
    return ruling


@transaction.atomic
def appeal_lodge(
    *, ruling: Ruling, user, grounds: str, player: Player | None = None, now=None
) -> Appeal:
    """A player appeals ``ruling`` (lodged at the desk by ``user``): while its session is in
    play, or within the tournament's appeal time after it closed; once per ruling."""
    ruling = Ruling.objects.select_related("table__session__tournament").get(pk=ruling.pk)
    locked_table(ruling.table)
    session = ruling.table.session
    tournament = session.tournament
    deadline = appeal_deadline(session, tournament.appeal_minutes)
    if deadline is not None and (now or timezone.now()) > deadline:
        raise ValidationError(
            _("The time for appeals of session %(n)s ended %(minutes)s minutes after it closed.")
            % {"n": session.number, "minutes": tournament.appeal_minutes},
            code="appeal_too_late",
        )
    if Appeal.objects.filter(ruling=ruling).exists():
        raise ValidationError(_("This ruling is appealed already."), code="appealed_already")
    grounds = _text(
        grounds, "grounds", most=TEXT_MAX_LENGTH, one_line=False, required=_("Write the grounds.")
    )
    if player is not None and player.pk not in _seated(ruling.table):
        raise refused("player", _("Choose a player of this table."), "player_not_at_table")
    with audit.acting(user=user):
        appeal = Appeal.objects.create(
            ruling=ruling, grounds=grounds, player=player, lodged_by=user
        )
    desk_touch(tournament.pk, on_record=True)
    return appeal


@transaction.atomic
def appeal_decide(
    *,
    appeal: Appeal,
    user,
    decision: str,
    reasons: str = "",
    penalty_kind: str = "",
    penalty_points: int | None = None,
    offender: Player | None = None,
    beneficiary: Player | None = None,
) -> Appeal:
    """Decide ``appeal``: ``"upheld"`` (the ruling stands) or ``"changed"``, the ruling then
    giving the penalty named here instead (none: withdrawn), its hand settled again even if
    the table is confirmed (the appeal is the correction's reason, kept with the revision).
    What the ruling gave before is kept with the appeal."""
    appeal = Appeal.objects.select_for_update().select_related("ruling").get(pk=appeal.pk)
    ruling = appeal.ruling
    table = locked_table(ruling.table)
    if appeal.decision != Appeal.PENDING:
        raise ValidationError(_("This appeal is decided already."), code="appeal_decided")
    if decision not in (Appeal.UPHELD, Appeal.CHANGED):
        raise refused("decision", _("Choose upheld or changed."), "bad_decision")
    reasons = _text(
        reasons,
        "reasons",
        most=TEXT_MAX_LENGTH,
        one_line=False,
        required=_("Say what changes and why.") if decision == Appeal.CHANGED else "",
    )
    with audit.acting(user=user):
        if decision == Appeal.CHANGED:
            penalty = _penalty_fields(
                table=table,
                hand=ruling.hand,
                kind=penalty_kind,
                points=penalty_points,
                offender=offender,
                beneficiary=beneficiary,
            )
            appeal.previous = {
                "penalty_kind": ruling.penalty_kind,
                "penalty_points": ruling.penalty_points,
                "offender": ruling.offender_id,
                "beneficiary": ruling.beneficiary_id,
            }
            had_penalty = ruling.gives_penalty
            fields_saved(ruling, **penalty)
            if had_penalty or ruling.gives_penalty:
                _hand_settled_again(ruling, user=user, appeal_decided=True)
        fields_saved(
            appeal,
            decision=decision,
            decision_text=reasons,
            decided_by=user,
            decided_at=timezone.now(),
            previous=appeal.previous,
        )
    desk_touch(table.session.tournament_id, on_record=True)
    return appeal
