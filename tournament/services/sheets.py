"""A table's whole sheet entered at once: a paper sheet typed in after the session, or a
rehearsal's tables, checked hand by hand as the tablet's entries are."""

import dataclasses
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history

from tournament.history import audit
from tournament.models import Hand, Penalty, Table
from tournament.seating import HANDS_PER_SESSION
from tournament.selectors.desk import ruled_penalties
from tournament.services.common import refused
from tournament.services.hands import (
    HandEntry,
    PenaltyEntry,
    add_error,
    entry_checked,
    number_out_of_range,
)
from tournament.services.results import table_results_store
from tournament.services.tables import (
    locked_table,
    seating_unchanged,
    table_confirm,
    table_open_for_entry,
    table_rules,
)


def _twice(number: int) -> ValidationError:
    message = _("Hand %(number)s is on the sheet twice: keep one.") % {"number": number}
    return refused("number", message, "hand_on_sheet_twice")


def _sheet_refused(refusals: list[tuple[int, dict]]) -> ValidationError:
    """One error per message, each naming its hand ("Hand 3: Choose the winner."), in the
    order of the sheet."""
    return ValidationError(
        [
            ValidationError(
                _("Hand %(number)s: %(message)s") % {"number": number, "message": message},
                code=error.code,
            )
            for number, errors in refusals
            for field_errors in errors.values()
            for error in field_errors
            for message in error.messages
        ]
    )


@transaction.atomic
def table_sheet_record(
    *,
    table: Table,
    entries: Sequence[HandEntry],
    user=None,
    device: str = "",
    record_missing_as_not_played: bool = False,
    initials: Sequence[str] = (),
) -> Table:
    """Enter a table's whole sheet at once and confirm it: a paper sheet typed in after the
    session, or a rehearsal's tables. ``user`` (an account) or ``device`` (a table link)
    enters it; ``user`` confirms it.

    Every hand is checked as ``hand_record`` checks a new hand (the scoring core settles it,
    the calculator checks a typed winning hand and the fans claimed) and the table is
    confirmed as ``table_confirm`` confirms it, with the hands not entered recorded as not
    played when ``record_missing_as_not_played`` says time was called. Stored in a few
    statements, not a few per hand, with their history. Nothing is stored unless every hand
    passes: the error names each hand refused and why. Only for a table with no hand yet
    (hands already entered are corrected one by one). An entry's ``seating`` key, when
    given, must be the table's seating as it is now (``hand_record``'s rule).
    """
    table = locked_table(table)
    table_open_for_entry(table)
    rules = table_rules(table)
    for key in {entry.seating for entry in entries if entry.seating}:
        seating_unchanged(table, key)
    if table.hands.exists():
        raise ValidationError(
            _("Hands are already entered at table %(table)s: enter or correct them one by one.")
            % {"table": table.number},
            code="sheet_already_started",
        )
    refusals: list[tuple[int, dict]] = []
    hands, penalties, numbers = [], [], set()
    ruled: dict[int, list[PenaltyEntry]] = {}
    for found in ruled_penalties(table):
        number = found.pop("number")
        ruled.setdefault(number, []).append(PenaltyEntry(**found))
    for entry in entries:
        if entry.version is not None or entry.submission_key is not None:
            raise TypeError("a sheet's hands are new hands, without version or form key")
        errors: dict = {}
        if not 1 <= entry.number <= HANDS_PER_SESSION:
            add_error(errors, number_out_of_range())
        elif entry.number in numbers:
            add_error(errors, _twice(entry.number))
        else:
            # The penalties the desk's rulings gave in this hand are the hand's, as
            # ``hand_record`` adds them.
            entry = dataclasses.replace(
                entry,
                penalties=[
                    *(p for p in entry.penalties if p.ruling_id is None),
                    *ruled.get(entry.number, ()),
                ],
            )
            checked = entry_checked(entry, errors, rules)
        numbers.add(entry.number)
        if not errors:
            hand = Hand(table=table, number=entry.number, version=1)
            try:
                checked.fill(hand, user=user, device=device)
            except ValidationError as error:
                add_error(errors, error)
        if errors:
            refusals.append((entry.number, errors))
            continue
        hands.append(hand)
        penalties.append(entry.penalties)
    if refusals:
        raise _sheet_refused(refusals)
    with audit.acting(user=user, device=device):
        history = audit.bulk_history()
        hands = bulk_create_with_history(hands, Hand, **history)
        bulk_create_with_history(
            [
                Penalty(hand=hand, **dataclasses.asdict(penalty))
                for hand, entered in zip(hands, penalties, strict=True)
                for penalty in entered
            ],
            Penalty,
            **history,
        )
    table_results_store(table)
    return table_confirm(
        table=table,
        user=user,
        record_missing_as_not_played=record_missing_as_not_played,
        initials=initials,
    )
