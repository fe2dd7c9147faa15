"""The audit trail: every change to tournament data is kept, with when and who made it.

The models holding tournament data carry ``history = TournamentHistory()``
(django-simple-history): each save and each deletion, cascaded ones included, stores a
historical row with the values after the change (a deletion: the values it had), its time,
its kind (``+`` created, ``~`` changed, ``-`` deleted) and who made it: an account
(``history_user``) or a table's tablet signed in through its device link (``history_device``,
the link's id, e.g. "table 3 · 1a2b3c4d"). ``history_change_reason`` says why, when the
change was part of a larger one (the rows of a cancelled draw).

Who is found in this order:

1. what the service doing the write says, with ``acting(user=..., device=...)`` around its
   writes (commands and tests call services without a request);
2. the request being served (``simple_history.middleware.HistoryRequestMiddleware``): the
   table device link it came through (``request.device_link``, set by the table pages,
   whose entries record the link and not an account), else its logged-in user.

Services write one row at a time where history matters: ``QuerySet.update()`` and
``bulk_create()`` send no signal, so they would leave no trace.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from django.db import models
from simple_history.models import HistoricalRecords
from simple_history.signals import pre_create_historical_record

# Why a row changed, when a larger change changed it (history_change_reason).
DRAW_CANCELLED = "draw_cancelled"
TOURNAMENT_DELETED = "tournament_deleted"
TIME_CALLED = "time_called"
# Two players sat in each other's seat: the seats and the table's hands were corrected.
SEATS_SWAPPED = "seats_swapped"
# Countries became three-letter codes (migration 0014): the players it rewrote.
COUNTRY_CODES = "country_codes"
# An organiser undid a session's last step (its draw published, opened for play, closed).
UNDONE = "undone"
# The rules changed after play started: the tournament's row and the hands settled again
# (the reason in words is the RuleChange's).
RULES_CHANGED = "rules_changed"

DEVICE_MAX_LENGTH = 40


@dataclass(frozen=True)
class Actor:
    """Who makes the writes in progress: an account, or a table's tablet (its link's id)."""

    user: object | None = None
    device: str = ""
    reason: str = ""


NOBODY = Actor()
_actor: ContextVar[Actor | None] = ContextVar("tournament_history_actor", default=None)


@contextmanager
def acting(*, user=None, device: str = "", reason: str = "") -> Iterator[None]:
    """Inside the block, the history rows written name ``user`` or the table ``device``
    (when either is given; otherwise the request's) and carry ``reason``.

    Blocks nest: what an inner block leaves out is the outer block's.
    """
    outer = _actor.get() or NOBODY
    token = _actor.set(
        Actor(
            user=user if user is not None else outer.user,
            device=device or outer.device,
            reason=reason or outer.reason,
        )
    )
    try:
        yield
    finally:
        _actor.reset(token)


def current_actor() -> Actor:
    """Who the history rows written now name (see the module's docstring)."""
    actor = _actor.get() or NOBODY
    if actor.user is not None or actor.device:
        return actor
    request = getattr(HistoricalRecords.context, "request", None)
    if request is None:
        return actor
    device = getattr(request, "device_link", "") or ""
    user = getattr(request, "user", None)
    if device or user is None or not user.is_authenticated:
        # A tablet's writes are the link's, as its hands record (``views.common.entering_user``).
        user = None
    return Actor(user=user, device=device, reason=actor.reason)


def bulk_history() -> dict:
    """What ``simple_history.utils.bulk_create_with_history`` needs to write history rows that
    name the current actor, as one-by-one saves do (it sends no signal per row)."""
    actor = current_actor()
    return {
        "default_user": actor.user,
        "default_change_reason": actor.reason or None,
        "custom_historical_attrs": {"history_device": actor.device[:DEVICE_MAX_LENGTH]},
    }


class HistoryActor(models.Model):
    """What every historical row adds to simple-history's: the table device that made the
    change, when no account did."""

    history_device = models.CharField(max_length=DEVICE_MAX_LENGTH, blank=True, default="")

    class Meta:
        abstract = True


class TournamentHistory(HistoricalRecords):
    """``HistoricalRecords`` that name the actor of ``acting`` or of the request."""

    def __init__(self, **kwargs):
        kwargs.setdefault("bases", (HistoryActor,))
        super().__init__(**kwargs)

    def get_history_user(self, instance):
        if hasattr(instance, "_history_user"):
            return instance._history_user
        return current_actor().user

    def get_change_reason_for_object(self, instance, history_type, using):
        return super().get_change_reason_for_object(instance, history_type, using) or (
            (_actor.get() or NOBODY).reason or None
        )


def _record_device(sender, history_instance, **kwargs):
    if isinstance(history_instance, HistoryActor) and not history_instance.history_device:
        history_instance.history_device = current_actor().device[:DEVICE_MAX_LENGTH]


pre_create_historical_record.connect(_record_device, dispatch_uid="tournament.history.audit.device")
