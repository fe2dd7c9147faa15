"""The session clock: when a table's playing time ends and how much of it is left.

Pure Python on plain values, no Django: every table of a session starts when the organiser
opens the session; it plays for the tournament's time limit plus any minutes an organiser
gave that table. The tablet counts down from the same figures (``ends_at`` and the server's
``now``), so it keeps time offline.
"""

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

_SECOND = timedelta(seconds=1)


@dataclass(frozen=True)
class TableClock:
    """A table's clock read at ``now``: it ends at ``ends_at``; ``seconds_left`` is whole
    seconds, rounded up, never negative and never more than ``total_seconds`` (the time the
    table was given)."""

    ends_at: datetime
    now: datetime
    seconds_left: int
    total_seconds: int

    @property
    def time_up(self) -> bool:
        return self.seconds_left == 0

    @property
    def left(self) -> str:
        """The time left as the tablet shows it: "1:23:45"."""
        return format_left(self.seconds_left)

    @property
    def ends_at_iso(self) -> str:
        return iso_utc(self.ends_at)

    @property
    def now_iso(self) -> str:
        return iso_utc(self.now)


def time_left(
    *, opened_at: datetime, session_minutes: int, extra_minutes: int, now: datetime
) -> TableClock:
    """The clock of a table whose session opened at ``opened_at`` (aware datetimes).

    Before the opening the clock has not started: the whole time is left. At ``ends_at``
    exactly, and after it, the time is up. A part of a second left counts as a second, so
    the time is up only once ``ends_at`` is reached.
    """
    if session_minutes < 0 or extra_minutes < 0:
        raise ValueError("minutes cannot be negative")
    total = timedelta(minutes=session_minutes + extra_minutes)
    ends_at = opened_at + total
    # Ceiling division of timedeltas: -((-a) // b).
    left = -((now - ends_at) // _SECOND)
    total_seconds = total // _SECOND
    return TableClock(
        ends_at=ends_at,
        now=now,
        seconds_left=min(max(left, 0), total_seconds),
        total_seconds=total_seconds,
    )


def format_left(seconds: int) -> str:
    """Hours, minutes and seconds: 5025 -> "1:23:45"; 59 -> "0:00:59"."""
    minutes, seconds = divmod(max(seconds, 0), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}"


def iso_utc(moment: datetime) -> str:
    """An aware datetime as ISO 8601 in UTC to the millisecond, "2026-11-30T14:40:00.000Z":
    the form every browser's ``Date.parse`` reads."""
    text = moment.astimezone(UTC).isoformat(timespec="milliseconds")
    return text.removesuffix("+00:00") + "Z"
