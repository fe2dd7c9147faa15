"""A table's sheet as a whole: confirmed once its hands are entered (with the players'
initials), reopened by an organiser for a correction."""

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from simple_history.utils import bulk_create_with_history

from tournament import scoring
from tournament.history import audit
from tournament.models import Hand, RefereeCall, Ruling, Seat, Table, TableReopening, Tournament
from tournament.models.validators import validate_multi_line, validate_one_line
from tournament.scoring.rules import Rules
from tournament.seating import HANDS_PER_SESSION
from tournament.selectors.sheets import sheet_version, table_sheet
from tournament.services.common import fields_saved, refused
from tournament.services.results import table_results_store, tournament_touch
from tournament.services.sessions import session_reopen


def locked_table(table: Table, *, with_session: bool = False) -> Table:
    """The table as stored now, its row locked until the transaction ends (and its
    session's row too, for a change that depends on the session being open)."""
    rows = ("self", "session") if with_session else ("self",)
    return Table.objects.select_for_update(of=rows).select_related("session").get(pk=table.pk)


def table_rules(table: Table) -> Rules:
    """The scoring rules of ``table``'s tournament as stored now. Read once the table is
    locked (``locked_table``): a change of the rules locks every table first, so it is either
    made before this write, whose hands then follow it, or waits for it and settles its
    hands again (``services.rules.rules_change``)."""
    fields = ("melded_and_concealed_kong", "flowers", "blessings", "minimum_fan")
    values = Tournament.objects.filter(pk=table.session.tournament_id).values(*fields).get()
    return Rules(**values)


def seating_key(numbers) -> str:
    """Who sits where at a table, as a page carries it: the players' numbers by seat, P1 to
    P4 ("3-9-2-5"). A hand or a seat swap sent with the key of the page it was entered on is
    refused once the seats have changed: its seats would name other players."""
    return "-".join(str(number) for number in numbers)


def table_seating_key(table: Table) -> str:
    """The seating key of ``table`` as stored now."""
    return seating_key(
        Seat.objects.filter(table=table).order_by("seat").values_list("player__number", flat=True)
    )


SEATING_CHANGED = gettext_lazy(
    "The players' seats at this table were changed after this page was opened. Nothing was "
    "saved: check the players on the sheet as it is now (reload the page if it still shows "
    "them in their old seats), then save again."
)


def seating_unchanged(table: Table, key: str, message=SEATING_CHANGED) -> None:
    """Refuse, with ``message``, what was entered on a page that showed other players in the
    table's seats (``key``, the page's seating key; "" from a script: not checked)."""
    if key and key != table_seating_key(table):
        raise ValidationError(str(message), code="seating_changed")


def table_open_for_entry(table: Table) -> None:
    """Refuse an entry at a confirmed table, or in a session not open for play."""
    if table.confirmed_at is not None:
        raise ValidationError(
            _("Table %(table)s is confirmed: only an organiser can reopen it.")
            % {"table": table.number},
            code="table_confirmed",
        )
    session = table.session
    if session.closed_at is not None:
        raise ValidationError(_("The session is closed."), code="session_closed")
    if session.opened_at is None:
        raise ValidationError(
            _("The session has not been opened for play yet."), code="session_not_open"
        )


SHEET_CHANGED = gettext_lazy(
    "The sheet changed after this review was shown (a hand, a penalty or a seat): nothing was "
    "confirmed. Check the sheet as it is now with the four players, then confirm again."
)


def table_review_unchanged(table: Table, version: str | None) -> None:
    """Refuse a confirmation of a review that showed another sheet than the table's now
    (``version``, the review's ``sheet_version``). None, from a script that shows no review,
    is not checked; any other value that does not match (a page sent without it) is refused.
    The table must be locked: no hand or seat can change between this check and the
    confirmation."""
    if version is not None and version != sheet_version(table_sheet(table)):
        raise ValidationError(str(SHEET_CHANGED), code="sheet_changed")


def calls_resolved(table: Table) -> None:
    """Refuse to confirm a table while a referee's call there is open (a hand the players
    disagree on, a foul): the ruling may change the sheet they would sign."""
    hands = sorted(
        set(
            RefereeCall.objects.filter(table=table, state__in=RefereeCall.OPEN).values_list(
                "hand", flat=True
            )
        ),
        key=lambda n: (n is None, n),
    )
    if hands:
        numbered = [str(n) for n in hands if n is not None]
        raise ValidationError(
            _(
                "A referee's call at this table is open (hands: %(hands)s): the referee resolves "
                "it before the table is confirmed."
            )
            % {"hands": ", ".join(numbered) or "—"},
            code="call_open",
        )


# Room for a player's initials, in Latin letters or in Chinese characters.
INITIALS_MAX_LENGTH = 4


def _confirmed_initials(initials: Sequence[str]) -> list[str]:
    """The players' initials as stored: four stripped strings, or [] when none is given."""
    if isinstance(initials, str) or not all(isinstance(each, str) for each in initials):
        initials = None
    else:
        initials = [each.strip() for each in initials]
    if initials is None or len(initials) not in (0, 4):
        raise ValidationError(
            _("Give the four players' initials, by seat, or none."), code="bad_initials"
        )
    for each in initials:
        validate_one_line(each)
    too_long = [each for each in initials if len(each) > INITIALS_MAX_LENGTH]
    if too_long:
        raise ValidationError(
            _("Initials are at most %(most)s characters: %(initials)s.")
            % {"most": INITIALS_MAX_LENGTH, "initials": ", ".join(too_long)},
            code="bad_initials",
        )
    return initials if any(initials) else []


@transaction.atomic
def table_confirm(
    *,
    table: Table,
    user,
    record_missing_as_not_played: bool = False,
    initials: Sequence[str] = (),
    version: str | None = None,
) -> Table:
    """Confirm a table's sheet; hands not entered must be declared not played (time called).

    ``initials`` are the four players' initials by starting seat, written when they checked
    the sheet ("" for a player who wrote none), or none at all.

    ``version`` is the ``sheet_version`` of the review the players checked: when a hand, a
    penalty or a seat changed since, the confirmation is refused (``sheet_changed``) and
    they must check the sheet again. The review page always sends it; a script that
    confirms without showing a review (time called by a command, a rehearsal) leaves it
    None and is not checked.
    """
    table = locked_table(table)
    table_open_for_entry(table)
    # Under the table's lock: every write of its hands and seats takes it too, so the sheet
    # read here is the one confirmed.
    table_review_unchanged(table, version)
    calls_resolved(table)
    errors = {}
    entered = set(table.hands.values_list("number", flat=True))
    missing = [n for n in range(1, HANDS_PER_SESSION + 1) if n not in entered]
    ruled = sorted(
        set(
            Ruling.objects.filter(table=table, hand__in=missing)
            .exclude(penalty_kind="")
            .values_list("hand", flat=True)
        )
    )
    if ruled:
        # Hands not played are made without penalties: a ruling's would be lost.
        errors["record_missing_as_not_played"] = ValidationError(
            _(
                "A ruling gives a penalty in hands %(hands)s: enter them first (as not played "
                "if they were not), then confirm."
            )
            % {"hands": ", ".join(str(n) for n in ruled)},
            code="ruled_hand_missing",
        )
    gaps = [n for n in missing if entered and n < max(entered)]
    if gaps:
        # Time can only cut the end of a session: a hole in the middle is a forgotten entry.
        errors["record_missing_as_not_played"] = ValidationError(
            _("Hands %(hands)s are missing between entered hands: enter them first.")
            % {"hands": ", ".join(str(n) for n in gaps)},
            code="hands_missing_in_between",
        )
    elif missing and not record_missing_as_not_played:
        errors["record_missing_as_not_played"] = ValidationError(
            _(
                "Hands %(hands)s are not entered. Enter them, or tick the box if time "
                "was called and they were not played."
            )
            % {"hands": ", ".join(str(n) for n in missing)},
            code="hands_missing",
        )
    try:
        initials = _confirmed_initials(initials)
    except ValidationError as error:
        errors["initials"] = error
    if errors:
        # The review page shows every reason at once, each beside what it concerns.
        raise ValidationError(errors)
    with audit.acting(user=user):
        # In one statement, with their history rows (which say time was called).
        with audit.acting(reason=audit.TIME_CALLED):
            bulk_create_with_history(
                [
                    Hand(
                        table=table,
                        number=n,
                        outcome=scoring.Outcome.NOT_PLAYED.value,
                        entered_by=user,
                    )
                    for n in missing
                ],
                Hand,
                **audit.bulk_history(),
            )
        fields_saved(
            table, confirmed_at=timezone.now(), confirmed_by=user, confirmed_initials=initials
        )
    if missing:
        # Hands not played count as entered, with no points: the table has its result.
        table_results_store(table)
    tournament_touch(table.session.tournament_id, seating=False, standings=False)
    return table


@transaction.atomic
def table_reopen(*, table: Table, user, reason: str) -> Table:
    """An organiser's correction after confirmation: the reason is kept."""
    table = locked_table(table, with_session=True)
    reason = (reason or "").strip()
    if not reason:
        raise refused("reason", _("Say why the table is reopened."), "required")
    try:
        # Saved by create(), without full_clean: the model's rule applied here.
        validate_multi_line(reason)
    except ValidationError as error:
        raise ValidationError({"reason": error}) from error
    if table.confirmed_at is None:
        raise ValidationError(_("The table is not confirmed."), code="table_not_confirmed")
    with audit.acting(user=user):
        if table.session.closed_at is not None:
            session_reopen(session=table.session)
        TableReopening.objects.create(table=table, reopened_by=user, reason=reason)
        # The players' check was of the sheet as it was: a new confirmation asks them again.
        fields_saved(table, confirmed_at=None, confirmed_by=None, confirmed_initials=[])
    tournament_touch(table.session.tournament_id, seating=False, standings=False)
    return table
