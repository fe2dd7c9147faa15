"""The score sheet's hands: a hand entered or corrected, checked by the scoring core."""

import dataclasses
import hashlib
import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournament import scoring, seating
from tournament.history import audit
from tournament.language.translated import core_error, core_message, fans_in_words
from tournament.models import (
    Hand,
    HandRevision,
    HandSubmission,
    Penalty,
    Table,
)
from tournament.models.validators import unsafe_character
from tournament.scoring import claims, notation
from tournament.scoring.hand import HandError
from tournament.scoring.rules import SEED_RULES, Rules
from tournament.seating import HANDS_PER_SESSION
from tournament.selectors.desk import ruled_penalties
from tournament.services.common import refused
from tournament.services.results import table_results_store, tournament_touch
from tournament.services.tables import (
    locked_table,
    seating_unchanged,
    table_open_for_entry,
    table_rules,
)


@dataclass(frozen=True)
class PenaltyEntry:
    """A penalty as entered: seats are 0..3 (P1..P4)."""

    offender: int
    kind: str
    points: int
    reason: str
    beneficiary: int | None = None
    # The desk's ruling that gave it (``ruled_penalties``); None for one entered on the sheet.
    ruling_id: int | None = None


# What referees read when a hand is refused, by code, translatable: the service's own codes,
# and the scoring core's where the sheet words them as an instruction beside the field (the
# core's other errors are shown in its own words, translated: ``core_message``).
HAND_MESSAGES = {
    "winner_required": gettext_lazy("Choose the winner."),
    "discarder_required": gettext_lazy("Choose who discarded the winning tile."),
    "discarder_is_winner": gettext_lazy(
        "The winner cannot be the discarder: choose who discarded."
    ),
    "fan_required": gettext_lazy("Enter the winner's fan, without flowers."),
    "hand_out_of_range": gettext_lazy("A hand number is 1 to %(last)s."),
    "fans_without_win": gettext_lazy(
        "Fans are claimed only for a win: clear them, or choose the win."
    ),
    "fan_below_minimum": gettext_lazy("A win needs at least %(minimum)s fan, flowers not counted."),
    "flowers_out_of_range": gettext_lazy("Flowers are 0 to %(most)s."),
    "flowers_not_played": gettext_lazy("This tournament plays without flowers: enter 0."),
    "penalised_player_cannot_win": gettext_lazy(
        "A player penalised for a false win in this hand cannot win it."
    ),
    "penalty_beneficiary_required": gettext_lazy("Penalty %(n)s: choose the player who is paid."),
    "penalty_beneficiary_is_offender": gettext_lazy(
        "Penalty %(n)s: a player cannot pay a penalty to themselves."
    ),
    "penalty_points_invalid": gettext_lazy(
        "Penalty %(n)s: the points must be a positive whole number."
    ),
    "penalty_reason_required": gettext_lazy("Penalty %(n)s: give the reason for the penalty."),
    "penalty_reason_not_one_line": gettext_lazy(
        "Penalty %(n)s: write the reason on one line, without control characters."
    ),
    "too_many_penalties": gettext_lazy("A hand has at most %(most_penalties)s penalties."),
}

# More would be a data-entry accident, not a hand: the form offers this many rows.
MAX_PENALTIES_PER_HAND = 8


def _hand_message(error: scoring.SettlementError, rules: Rules = SEED_RULES) -> str:
    message = HAND_MESSAGES.get(error.code)
    if message is None:
        return core_message(error)
    # Penalties are numbered from 1 on the form, as the referee sees them.
    return str(message) % {
        "n": (error.index or 0) + 1,
        "last": HANDS_PER_SESSION,
        "minimum": rules.minimum_fan,
        "most": scoring.MAX_FLOWERS,
        "most_penalties": MAX_PENALTIES_PER_HAND,
    }


def _penalties_refused(code: str, index: int = 0) -> ValidationError:
    message = str(HAND_MESSAGES[code]) % {"n": index + 1, "most_penalties": MAX_PENALTIES_PER_HAND}
    return refused("penalties", message, code)


# What a referee enters for a hand and for a penalty, as stored on the models: the result
# the scoring core settles, then the fans claimed and the winning hand typed.
RESULT_FIELDS = ("outcome", "winner", "discarder", "fan", "flowers")
HAND_ENTRY_FIELDS = (*RESULT_FIELDS, "fan_names", "winning_hand")
PENALTY_FIELDS = ("offender", "kind", "points", "beneficiary", "reason", "ruling_id")


def entered_fields(hand: Hand) -> dict:
    """The referee's entry of a stored hand, as plain values (its penalties apart)."""
    return {name: getattr(hand, name) for name in HAND_ENTRY_FIELDS}


def penalty_entries(hand: Hand) -> list[PenaltyEntry]:
    """The stored hand's penalties as entered, in the order they were entered."""
    return [
        PenaltyEntry(**{name: getattr(p, name) for name in PENALTY_FIELDS})
        for p in hand.penalties.all()
    ]


def hand_result(
    *,
    outcome: str,
    winner: int | None,
    discarder: int | None,
    fan: int | None,
    flowers: int,
    penalties: Sequence[PenaltyEntry],
) -> scoring.HandResult:
    """The scoring core's input for a hand; raises ValueError for an unknown outcome or kind."""
    return scoring.HandResult(
        outcome=scoring.Outcome(outcome),
        winner=winner,
        discarder=discarder,
        fan=fan,
        flowers=flowers,
        penalties=tuple(
            scoring.Penalty(
                offender=p.offender,
                kind=scoring.PenaltyKind(p.kind),
                points=p.points,
                beneficiary=p.beneficiary,
                reason=p.reason,
            )
            for p in penalties
        ),
    )


def stored_hand_result(hand: Hand) -> scoring.HandResult:
    """The scoring core's input for a stored hand: settling it again must give its points."""
    return hand_result(
        **{name: getattr(hand, name) for name in RESULT_FIELDS}, penalties=penalty_entries(hand)
    )


def settle(
    *, penalties: Sequence[PenaltyEntry], rules: Rules = SEED_RULES, **result
) -> scoring.Settlement:
    """Settle a hand (``result``: its ``RESULT_FIELDS``, as ``hand_result`` takes them) with
    the scoring core under ``rules`` (the tournament's), turning its errors into form errors.

    Every penalty needs its reason (the sheet and the appeals read it).
    """
    if len(penalties) > MAX_PENALTIES_PER_HAND:
        raise _penalties_refused("too_many_penalties")
    for index, penalty in enumerate(penalties):
        if not (penalty.reason or "").strip():
            raise _penalties_refused("penalty_reason_required", index)
        # Penalties are saved without full_clean (one create each): their model's rule here.
        if unsafe_character(penalty.reason) is not None:
            raise _penalties_refused("penalty_reason_not_one_line", index)
    try:
        return scoring.settle_hand(hand_result(**result, penalties=penalties), rules)
    except scoring.SettlementError as error:
        raise refused(error.field, _hand_message(error, rules), error.code) from error
    except ValueError as error:  # an unknown outcome or penalty kind
        raise ValidationError(_("Unknown outcome or penalty kind."), code="invalid") from error


def score_winning_hand(
    *,
    text: str,
    number: int | None,
    winner: int | None,
    outcome: str,
    flowers: int | None = None,
    hand_flowers_win: bool = False,
    rules: Rules = SEED_RULES,
):
    """The calculator's result for the winning hand the referee typed, or None when empty,
    scored under ``rules`` (the tournament's).

    What the sheet already knows need not be typed: the prevalent wind and the
    winner's seat wind come from the 16-hand schedule, self-drawn from the result,
    flowers from the flowers field. What is typed anyway must agree with the sheet:
    a contradiction is an error beside the winning hand, never silently resolved.
    ``hand_flowers_win`` (for "Compute", which fills the form from the hand) lets
    flowers written in the hand replace the form's.
    """
    text = (text or "").strip()
    if not text:
        return None

    refuse = partial(refused, "winning_hand")
    if outcome not in Hand.WINS:
        raise refuse(_("A winning hand only goes with a win."), "winning_hand_without_win")
    if number is None or not 1 <= number <= HANDS_PER_SESSION or winner is None:
        raise refuse(
            _("Choose the hand number and the winner first: the winds come from the sheet."),
            "winning_hand_needs_winner",
        )
    try:
        hand, written = notation.parse_hand_with_conditions(text)
    except HandError as error:
        raise refuse(core_message(error), error.code) from error
    slot = seating.session_schedule()[number - 1]
    sheet = {
        "prevalent_wind": slot.prevalent_wind,
        "seat_wind": slot.seat_winds[winner],
        "self_drawn": outcome == scoring.Outcome.SELF_DRAWN,
    }
    if flowers is not None and not (hand_flowers_win and "flowers" in written):
        sheet["flowers"] = flowers
    if hand.self_drawn and not sheet["self_drawn"]:
        raise refuse(
            _("The winning hand says self-drawn, but the result is a win on a discard."),
            "winning_hand_contradicts_result",
        )
    labels = {
        "prevalent_wind": ("wind", _("prevalent wind")),
        "seat_wind": ("seat", _("the winner's seat wind")),
        "flowers": ("flowers", _("flowers")),
    }
    for field, (word, label) in labels.items():
        if field in sheet and word in written and getattr(hand, field) != sheet[field]:
            raise refuse(
                _(
                    "The winning hand gives %(label)s %(typed)s, but the sheet says %(sheet)s. "
                    "Leave it out of the hand, or correct the sheet."
                )
                % {"label": label, "typed": getattr(hand, field), "sheet": sheet[field]},
                "winning_hand_contradicts_sheet",
            )
    try:
        return notation.score_hand(dataclasses.replace(hand, **sheet), rules)
    except HandError as error:
        raise refuse(core_message(error), error.code) from error


def already_entered(number: int) -> ValidationError:
    return refused(
        "number",
        _("Hand %(number)s is already entered; open it to correct it.") % {"number": number},
        "hand_already_entered",
    )


def revision_kept(hand: Hand, *, user, ruling=None) -> None:
    """Keep the hand as it stands in a HandRevision before a correction replaces it (the
    desk's ``ruling`` it carries out, if any), and raise its version."""
    previous = {
        **entered_fields(hand),
        "computed_fan": hand.computed_fan,
        "referee_figure_kept": hand.referee_figure_kept,
        "points": list(hand.points),
        "penalties": [dataclasses.asdict(entry) for entry in penalty_entries(hand)],
        "entered_by": hand.entered_by.get_username() if hand.entered_by else None,
        "entered_by_device": hand.entered_by_device,
    }
    HandRevision.objects.create(
        hand=hand, version=hand.version, previous=previous, revised_by=user, ruling=ruling
    )
    hand.version += 1


def fan_list(scored) -> str:
    """The fans of a scored hand as a referee writes them (flowers left out), in the
    reader's language, e.g. "Mixed Straight, Dragon Pung, Short Straight ×2"."""
    return fans_in_words(f for f in scored.fans if f.key != claims.FLOWERS)


DISPUTE_CODES = frozenset({"fan_disputed", "claim_disputed"})


class HandRefused(ValidationError):
    """An entry ``hand_record`` refuses, with what the calculator found, to show beside the
    errors: ``scored`` (the winning hand's result, when one was typed and could be read)
    and ``claim_check`` (the verdict on the fans claimed, when it is disputed)."""

    def __init__(self, errors: dict, *, scored=None, claim_check=None):
        super().__init__(errors)
        self.scored = scored
        self.claim_check = claim_check

    @property
    def disputed(self) -> bool:
        """True when the calculator disputes the referee's figures (``keep_referee_figure``
        would let them stand)."""
        return any(
            error.code in DISPUTE_CODES for errors in self.error_dict.values() for error in errors
        )


def add_error(errors: dict, error: ValidationError, field: str | None = None) -> None:
    """Add a service error to ``errors`` (field → list), under ``field`` when it has none."""
    if field is not None and not hasattr(error, "error_dict"):
        errors.setdefault(field, []).extend(error.error_list)
        return
    for name, field_errors in error.update_error_dict({}).items():
        errors.setdefault(name, []).extend(field_errors)


def _fan_dispute(*, fan, scored) -> ValidationError | None:
    """The fan typed against the winning hand's, when the hand was typed and they differ."""
    if scored is None or fan is None or scored.total_without_flowers == fan:
        return None
    return ValidationError(
        _(
            "The winning hand scores %(computed)s fan (%(fans)s); you entered %(typed)s. "
            "Correct the fan, or tick the box to keep your figure."
        )
        % {"computed": scored.total_without_flowers, "fans": fan_list(scored), "typed": fan},
        code="fan_disputed",
    )


def _claim_dispute(check) -> ValidationError | None:
    """The fans claimed, when they cannot hold (against each other or the hand)."""
    if check is None or check.agrees:
        return None
    return ValidationError(
        _("The fans claimed do not hold (see below). Correct them, or tick the box to keep them."),
        code="claim_disputed",
    )


def figure_disputed(*, fan: int | None, fan_names: str, scored, rules: Rules = SEED_RULES) -> bool:
    """Whether the calculator's count of the winning hand (``scored``) disputes the fan the
    referee entered or the fans they claimed: a hand stored so keeps the referee's figure."""
    check = None
    if fan_names:
        claimed = parse_fan_names(fan_names)
        check = claims.check_claim(
            claimed_total=fan, claimed_fans=claimed, scored=scored, rules=rules
        )
    return _fan_dispute(fan=fan, scored=scored) is not None or _claim_dispute(check) is not None


def parse_fan_names(fan_names: str):
    """The fans claimed, read from their names; a coded error for a name it does not know."""
    try:
        return claims.parse_claimed_fans(fan_names)
    except HandError as error:
        raise core_error(error) from error


def submission_conflict(number: int) -> ValidationError:
    """The refusal of an entry whose form key already saved other content for the hand."""
    return refused(
        "number",
        _(
            "This entry was already saved with other content: hand %(number)s stays as it was "
            "stored. Nothing of this entry was saved; open the hand to correct it."
        )
        % {"number": number},
        "submission_key_conflict",
    )


def _submitted(key, table: Table, number: int, digest: str) -> Hand | None:
    """The hand a submission ``key`` already saved, or None when the key is new.

    A key belongs to one form, made for one hand of one table: used for another hand, it is
    refused rather than guessed at. Sent again with other content (``digest``, the entry's
    ``entry_digest``) it is a conflict: answering "saved" would drop the entry sent, and
    storing it would overwrite the first behind the back of whoever was told it was saved.
    A key stored without a digest (before they were kept) matches any content, as then.
    """
    if key is None:
        return None
    submission = HandSubmission.objects.select_related("hand").filter(key=key).first()
    if submission is None:
        return None
    if (submission.hand.table_id, submission.hand.number) != (table.pk, number):
        raise ValidationError(
            _("This entry form was already used for another hand: reload the sheet."),
            code="submission_key_reused",
        )
    if submission.digest and submission.digest != digest:
        raise submission_conflict(number)
    return submission.hand


def _stored_hand(table: Table, number: int, version: int | None) -> Hand | None:
    """The hand a new entry or a correction replaces; refused when it would overwrite."""
    # Locked until the save commits, so two corrections of one hand cannot both pass the
    # version check on a database that does not serialise writers.
    # By id, not the model's order, which would join (and, on PostgreSQL, lock) the table's
    # session and tournament rows too.
    hand = (
        Hand.objects.select_for_update(of=("self",))
        .filter(table=table, number=number)
        .order_by("pk")
        .first()
    )
    if version is None and hand is not None:
        raise already_entered(number)
    if version is not None and (hand is None or hand.version != version):
        raise ValidationError(
            _(
                "Hand %(number)s was changed by someone else after you opened it. "
                "Your entry was not saved: check the sheet and enter it again."
            )
            % {"number": number},
            code="hand_changed_meanwhile",
        )
    return hand


@dataclass(frozen=True)
class HandEntry:
    """One hand as a referee enters it, for ``hand_record``: its number, the result (seats
    are 0..3, P1..P4; the fan without flowers), the fans claimed and the winning hand typed
    (both optional), the penalties; ``keep_referee_figure`` when the referee keeps a figure
    the calculator disputes; ``version``, the version of the hand being corrected (None for
    a new hand), and ``submission_key``, the entry form's one-time key (None from a script);
    ``seating``, the seating key of the page it was entered on ("" from a script).
    """

    number: int
    outcome: str
    winner: int | None = None
    discarder: int | None = None
    fan: int | None = None
    flowers: int = 0
    fan_names: str = ""
    winning_hand: str = ""
    penalties: Sequence[PenaltyEntry] = ()
    keep_referee_figure: bool = False
    version: int | None = None
    submission_key: uuid.UUID | None = None
    seating: str = ""


def entry_digest(entry: HandEntry) -> str:
    """Everything of ``entry`` that decides what its save stores, as one digest kept with its
    form's key: the number, the result, the fans claimed and the winning hand (stripped, as
    they are stored), the penalties, the choice to keep the referee's figure, the version
    corrected and the seating it was entered under. The key itself is not part of it, nor
    anything the browser adds (the form's CSRF token)."""
    content = [
        entry.number,
        entry.outcome,
        entry.winner,
        entry.discarder,
        entry.fan,
        entry.flowers,
        (entry.fan_names or "").strip(),
        (entry.winning_hand or "").strip(),
        [
            [p.offender, p.kind, p.points, p.beneficiary, (p.reason or "").strip()]
            for p in entry.penalties
        ],
        bool(entry.keep_referee_figure),
        entry.version,
        entry.seating or "",
    ]
    text = json.dumps(content, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class CheckedEntry:
    """An entry as the calculator and the rules read it: what a hand stores from it."""

    result: dict
    fan_names: str
    winning_hand: str
    scored: object
    settlement: scoring.Settlement | None
    disputes: dict
    check: object

    @property
    def disputed_claim(self):
        """The verdict on the fans claimed, when it disputes them."""
        return self.check if self.check is not None and not self.check.agrees else None

    def fill(self, hand: Hand, *, user, device: str) -> None:
        """Write the entry on ``hand`` (new or corrected) and check it as the model does."""
        for name, value in self.result.items():
            setattr(hand, name, value)
        hand.fan_names = self.fan_names
        hand.winning_hand = self.winning_hand
        hand.computed_fan = self.scored.total_without_flowers if self.scored else None
        hand.referee_figure_kept = bool(self.disputes)
        (hand.points_p1, hand.points_p2, hand.points_p3, hand.points_p4) = self.settlement.points
        hand.deducted = self.settlement.deducted
        hand.entered_by = user
        hand.entered_by_device = device
        # The table was just read and locked, the user is the one making the request: no need
        # to ask the database whether they exist again.
        hand.full_clean(
            exclude=["table", "entered_by"], validate_unique=False, validate_constraints=False
        )


def entry_checked(entry: HandEntry, errors: dict, rules: Rules = SEED_RULES) -> CheckedEntry:
    """Check ``entry`` (its number already in range) without the database, under ``rules``
    (the tournament's): the fans claimed, the winning hand typed, the settlement, the
    calculator's disputes (errors unless the referee keeps their figure). Adds every error to
    ``errors`` (field → list)."""
    outcome, winner, fan, flowers = entry.outcome, entry.winner, entry.fan, entry.flowers
    fan_names = (entry.fan_names or "").strip()
    winning_hand = (entry.winning_hand or "").strip()
    if fan_names and outcome not in Hand.WINS:
        add_error(
            errors,
            ValidationError(HAND_MESSAGES["fans_without_win"], code="fans_without_win"),
            "fan_names",
        )
        fan_names = ""
    scored = claimed = settlement = None
    try:
        claimed = parse_fan_names(fan_names)
    except ValidationError as error:
        add_error(errors, error, "fan_names")
    try:
        scored = score_winning_hand(
            text=winning_hand,
            number=entry.number,
            winner=winner,
            outcome=outcome,
            flowers=flowers,
            rules=rules,
        )
    except ValidationError as error:
        add_error(errors, error)
    result = {name: getattr(entry, name) for name in RESULT_FIELDS}
    try:
        settlement = settle(**result, penalties=entry.penalties, rules=rules)
    except ValidationError as error:
        add_error(errors, error)
    check = None
    if fan_names and claimed is not None:
        check = claims.check_claim(
            claimed_total=fan, claimed_fans=claimed, scored=scored, rules=rules
        )
    candidates = (
        ("fan", _fan_dispute(fan=fan, scored=scored)),
        ("fan_names", _claim_dispute(check)),
    )
    disputes = {field: dispute for field, dispute in candidates if dispute is not None}
    if not entry.keep_referee_figure:
        for field, dispute in disputes.items():
            add_error(errors, dispute, field)
    return CheckedEntry(
        result=result,
        fan_names=fan_names,
        winning_hand=winning_hand,
        scored=scored,
        settlement=settlement,
        disputes=disputes,
        check=check,
    )


def number_out_of_range() -> ValidationError:
    message = HAND_MESSAGES["hand_out_of_range"] % {"last": HANDS_PER_SESSION}
    return refused("number", message, "hand_out_of_range")


@transaction.atomic
def hand_record(
    *,
    table: Table,
    entry: HandEntry,
    user=None,
    device: str = "",
    ruling=None,
    appeal_decided: bool = False,
) -> Hand:
    """Create hand ``entry.number`` at ``table``, or update it when ``entry.version`` is
    given; ``user`` (an account) or ``device`` (a table link) is who entered it.

    ``version`` is the version of the hand the referee was editing: if someone
    saved it in between, the save is refused rather than overwriting their entry.

    ``submission_key`` is the one-time key of the entry form (a UUID). A key seen before
    with the same content (``entry_digest``) returns the hand its first save stored,
    unchanged: a double tap, a reload, Back then Save or a tablet retrying after a lost
    answer never stores a hand twice. A key seen before with other content is refused
    (``submission_key_conflict``, on the number), never answered "saved": the entry sent
    would be lost without a word.

    The calculator checks the referee's figures: a ``fan`` that differs from the typed
    ``winning_hand``'s, or ``fan_names`` that cannot hold, are refused unless
    ``keep_referee_figure`` says the referee saw the difference and decides; the hand
    then records that the figure was kept. Unknown fan names are always refused.

    Every error of the entry is reported at once, as a ``HandRefused`` carrying the
    calculator's result. A plain ``ValidationError`` says the table is not open for entry,
    the hand number is out of range, or (rarely) another tablet created the same hand in
    the instant between the check and the save.

    The penalties the desk's rulings gave in this hand are the hand's too, whatever the entry
    says (``selectors.desk.ruled_penalties``): entered after a ruling, a hand carries its
    penalty. ``ruling`` is the ruling a correction carries out (kept with its revision);
    ``appeal_decided``, an appeal's decision settling again a hand of a confirmed table
    (``services.rulings.appeal_decide``: the one correction that does not reopen it).
    """
    number, version, submission_key = entry.number, entry.version, entry.submission_key
    digest = entry_digest(entry) if submission_key is not None else ""
    # The table's row is locked for the whole save: a confirmation, a reopening or another
    # save at the same table waits for this one instead of acting on what it read before.
    # (SQLite takes its one write lock at BEGIN and has no row locks: this is a no-op there.)
    table = locked_table(table)
    # Before any other check: a repeated save succeeds as the first one did, even if the
    # table was confirmed in between.
    saved = _submitted(submission_key, table, number, digest)
    if saved is not None:
        return saved
    if not appeal_decided:
        table_open_for_entry(table)
    seating_unchanged(table, entry.seating)
    entry = dataclasses.replace(
        entry,
        penalties=[
            *(penalty for penalty in entry.penalties if penalty.ruling_id is None),
            *(PenaltyEntry(**ruled) for ruled in ruled_penalties(table, number)),
        ],
    )
    if not 1 <= number <= HANDS_PER_SESSION:
        raise number_out_of_range()
    errors: dict = {}
    checked = entry_checked(entry, errors, table_rules(table))
    try:
        hand = _stored_hand(table, number, version)
    except ValidationError as error:
        # The lock may have waited for the same form's first save (a double tap).
        saved = _submitted(submission_key, table, number, digest)
        if saved is not None:
            return saved
        add_error(errors, error)
    if errors:
        raise HandRefused(errors, scored=checked.scored, claim_check=checked.disputed_claim)
    # The history names the referee, or the table's tablet, for the hand, its penalties
    # (deleted and new) and its revision.
    with audit.acting(user=user, device=device):
        if hand is None:
            hand = Hand(table=table, number=number, version=1)
        else:
            revision_kept(hand, user=user, ruling=ruling)
            hand.penalties.all().delete()
        checked.fill(hand, user=user, device=device)
        try:
            with transaction.atomic():
                hand.save()
        except IntegrityError as error:
            # Two saves creating the same hand at once: the same form's is its first save's
            # success; another tablet's is told the hand is entered.
            saved = _submitted(submission_key, table, number, digest)
            if saved is not None:
                return saved
            raise already_entered(number) from error
        # One by one, not bulk_create (which sends no signal): the history keeps each penalty.
        for penalty in entry.penalties:
            Penalty.objects.create(hand=hand, **dataclasses.asdict(penalty))
        if submission_key is not None:
            HandSubmission.objects.create(
                key=submission_key,
                hand=hand,
                version=hand.version,
                digest=digest,
                submitted_by=user,
            )
    table_results_store(table)
    tournament_touch(table.session.tournament_id, seating=False, standings=False)
    return hand
