"""Who referees which table: organisers give each referee their tables, session by session.

A referee enters, corrects and confirms only the tables assigned to them; organisers
(head referees) may act at every table. The web layer checks that rule
(``permissions.can_enter_at_table``); the hand services stay callable by an organiser's
scripts, which have no user.
"""

import re
from collections.abc import Iterable

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.models import Session, Table, Tournament
from tournament.selectors.referees import tournament_referees
from tournament.services.common import fields_saved, refused
from tournament.services.results import tournament_touch

# No tournament hall holds more tables; a bound so "1-999999999" is refused, not expanded.
MAX_TABLE_NUMBER = 999

_RANGE = re.compile(r"([0-9]+)(?:-([0-9]+))?", re.ASCII)


def parse_table_numbers(text: str) -> list[int]:
    """The table numbers written as an organiser would: "1-6", "1-3, 7, 9" -> sorted, once each.

    Ranges take a hyphen or a dash (1–6); numbers are parted by commas or spaces.
    A ``ValidationError`` (code ``bad_tables``) says which part is not understood.
    """
    # Dashes as hyphens, no spaces around them, then the parts between commas or spaces.
    text = re.sub(r"\s*[-‐‑‒–—~～]\s*", "-", text or "")
    parts = [part for part in re.split(r"[\s,;，、；]+", text) if part]
    if not parts:
        raise ValidationError(_("Give table numbers, such as 1-6 or 1-3, 7, 9."), code="bad_tables")
    numbers: set[int] = set()
    for part in parts:
        match = _RANGE.fullmatch(part)
        if match is None:
            raise ValidationError(
                _("“%(part)s” is neither a table number nor a range such as 1-6.") % {"part": part},
                code="bad_tables",
            )
        first = int(match.group(1))
        last = int(match.group(2)) if match.group(2) is not None else first
        if first < 1 or last > MAX_TABLE_NUMBER:
            raise ValidationError(
                _("Table numbers go from 1 to %(max)s.") % {"max": MAX_TABLE_NUMBER},
                code="bad_tables",
            )
        if last < first:
            raise ValidationError(
                _("“%(part)s” runs backwards: write %(last)s-%(first)s.")
                % {"part": part, "first": first, "last": last},
                code="bad_tables",
            )
        numbers.update(range(first, last + 1))
    return sorted(numbers)


@transaction.atomic
def tables_assign(
    *, session: Session, referee: AbstractBaseUser | None, tables: Iterable[int]
) -> list[Table]:
    """Give tables ``tables`` of ``session`` to ``referee``; ``referee=None`` leaves them to
    nobody (only organisers may then act there). Returns the tables, by number.

    The referee must referee or organise the tournament. A confirmed table can still be
    given to someone else: that is the organiser's call, and it changes no result.
    """
    numbers = sorted(set(tables))
    if not numbers:
        raise refused("tables", _("Give at least one table."), "no_tables")
    if (
        referee is not None
        and not tournament_referees(session.tournament).filter(pk=referee.pk).exists()
    ):
        raise refused(
            "referee",
            _("%(name)s neither referees nor organises this tournament.")
            % {"name": referee.get_username()},
            "not_a_referee",
        )
    # Locked: the history row of each table saved is the table as stored, not a stale copy.
    found = list(session.tables.select_for_update().filter(number__in=numbers).order_by("number"))
    missing = sorted(set(numbers) - {table.number for table in found})
    if missing:
        raise refused(
            "tables",
            ngettext(
                "Session %(session)s has no table %(tables)s.",
                "Session %(session)s has no tables %(tables)s.",
                len(missing),
            )
            % {"session": session.number, "tables": ", ".join(str(n) for n in missing)},
            "unknown_tables",
        )
    # One save per table whose referee changes (not a QuerySet.update): the history keeps
    # each assignment, and a table given to whom it had already is no change.
    for table in found:
        changed = table.referee_id != (referee.pk if referee is not None else None)
        table.referee = referee
        if changed:
            table.save(update_fields=["referee"])
    tournament_touch(session.tournament_id, seating=False, standings=False)
    return found


def previous_referees(*, tournament_id: int, number: int) -> dict[int, int]:
    """Table number -> the referee of that table in session ``number - 1``, for the
    referees who still referee or organise the tournament."""
    tournament = Tournament.objects.get(pk=tournament_id)
    eligible = tournament_referees(tournament).values("pk")
    return dict(
        Table.objects.filter(
            session__tournament_id=tournament_id,
            session__number=number - 1,
            referee__in=eligible,
        ).values_list("number", "referee_id")
    )


@transaction.atomic
def referees_copy_from_previous(*, session: Session) -> list[Table]:
    """Give each table of ``session`` with no referee the referee of the same table number
    in the session before, if they still referee or organise the tournament.

    A session is drawn with them already (``session_draw``), so a referee keeps their
    tables from session to session unless an organiser moves them; this gives them again
    to tables left without one since. Returns the tables given a referee.
    """
    earlier = previous_referees(tournament_id=session.tournament_id, number=session.number)
    if not earlier:
        return []
    copied = list(
        session.tables.filter(referee__isnull=True, number__in=earlier).order_by("number")
    )
    for table in copied:
        # Saved one by one, not by QuerySet.update: the history keeps each assignment.
        fields_saved(table, referee_id=earlier[table.number])
    if copied:
        tournament_touch(session.tournament_id, seating=False, standings=False)
    return copied
