"""A drawn session opened for play, closed once every table is confirmed, reopened."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.models import Session


@transaction.atomic
def session_open(*, session: Session) -> Session:
    if session.closed_at:
        raise ValidationError(_("The session is closed."), code="session_closed")
    if session.opened_at is None:
        session.opened_at = timezone.now()
        session.save(update_fields=["opened_at"])
    return session


@transaction.atomic
def session_close(*, session: Session) -> Session:
    unconfirmed = list(
        session.tables.filter(confirmed_at__isnull=True).values_list("number", flat=True)
    )
    if unconfirmed:
        raise ValidationError(
            _("Tables not confirmed yet: %(tables)s.")
            % {"tables": ", ".join(str(n) for n in unconfirmed)},
            code="tables_not_confirmed",
        )
    if session.closed_at is None:
        session.closed_at = timezone.now()
        session.save(update_fields=["closed_at"])
    return session


@transaction.atomic
def session_reopen(*, session: Session) -> Session:
    if session.closed_at is not None:
        session.closed_at = None
        session.save(update_fields=["closed_at"])
    return session
