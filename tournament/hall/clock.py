"""The session clock: when a table's playing time ends and how much of it is left.

Pure Python on plain values, no Django: every table of a session starts when the organiser
opens the session; it plays for the tournament's time limit plus any minutes an organiser
gave that table. The tablet counts down from the same figures (``ends_at`` and the server's
``now``), so it keeps time offline.

How a session ends is the tournament's choice (``session_end``):

- "bell": at the end of the time the hand in play is abandoned and no new hand starts; the
  hands not played are recorded as not played.
- "gong" (as the EMA plays it): the gong sounds ``gong_minute`` minutes into the session; the
  hand in play then is finished and counts, no new hand starts, and the rest are recorded as
  not played. The time limit still shows.

A table's extra minutes move its gong as they move its end: a table given ten minutes
because it started late hears its gong ten minutes later (``gong_at``).
"""

from collections.abc import Iterable
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
    # When the table's gong sounds; None when the session ends with the bell.
    gong_at: datetime | None = None

    @property
    def time_up(self) -> bool:
        return self.seconds_left == 0

    @property
    def gong_sounded(self) -> bool:
        """The gong has sounded (at ``gong_at`` exactly, and after): the hand in play is the
        last. Never with the bell."""
        return self.gong_at is not None and self.now >= self.gong_at

    @property
    def play_over(self) -> bool:
        """No new hand starts: the gong has sounded, or the time is up."""
        return self.gong_sounded or self.time_up

    @property
    def gong_at_iso(self) -> str:
        return iso_utc(self.gong_at) if self.gong_at is not None else ""

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
    *,
    opened_at: datetime,
    session_minutes: int,
    extra_minutes: int,
    now: datetime,
    gong_minute: int | None = None,
) -> TableClock:
    """The clock of a table whose session opened at ``opened_at`` (aware datetimes).

    Before the opening the clock has not started: the whole time is left. At ``ends_at``
    exactly, and after it, the time is up. A part of a second left counts as a second, so
    the time is up only once ``ends_at`` is reached. With a ``gong_minute`` (the "gong"
    ending) the gong sounds that many minutes into the session, plus the table's extra
    minutes.
    """
    if session_minutes < 0 or extra_minutes < 0:
        raise ValueError("minutes cannot be negative")
    if gong_minute is not None and not 0 < gong_minute <= session_minutes:
        raise ValueError("the gong sounds within the session")
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
        gong_at=(
            None
            if gong_minute is None
            else opened_at + timedelta(minutes=gong_minute + extra_minutes)
        ),
    )


def last_hand(entered_before_gong: Iterable[int], hands: int) -> int | None:
    """The hand in play when the gong sounded, the session's last: the first of ``1..hands``
    not entered before the gong (the hands entered then were over). None when every hand
    was entered before it."""
    done = set(entered_before_gong)
    return next((n for n in range(1, hands + 1) if n not in done), None)


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


@dataclass(frozen=True)
class SessionEnd:
    """What a table's sheet says of the session's end, read from its clock and its hands.

    ``state`` is one of:

    - "playing": the time runs, no gong has sounded (the sheet shows the countdown, and with
      the gong when it sounds);
    - "gong": the gong has sounded and ``last`` (the hand in play then) is not entered yet:
      it is the last, no new hand starts;
    - "gong_over": the last hand is entered: the ``rest`` are recorded as not played;
    - "bell": the time is up with the bell: the hand in play is abandoned, it and the
      ``rest`` are recorded as not played.
    """

    state: str
    last: int | None = None
    rest: tuple[int, ...] = ()

    @property
    def new_hands_invited(self) -> bool:
        """The sheet offers to enter another hand (it never refuses one: referees correct)."""
        return self.state != "gong_over"


def session_end(
    table_clock: TableClock,
    *,
    entered: Iterable[int],
    entered_before_gong: Iterable[int],
    hands: int,
) -> SessionEnd:
    """The end of the session at a table read at the clock's ``now``: ``entered`` the hands
    entered now, ``entered_before_gong`` those entered before the gong sounded."""
    entered = set(entered)
    missing = tuple(n for n in range(1, hands + 1) if n not in entered)
    if not missing:
        # Every hand entered: neither the gong nor the bell has anything left to end.
        return SessionEnd("playing")
    if table_clock.gong_sounded:
        last = last_hand(set(entered_before_gong) & entered, hands)
        if last is None or last in entered:
            return SessionEnd(
                "gong_over", last, tuple(n for n in missing if last is None or n > last)
            )
        return SessionEnd("gong", last, tuple(n for n in missing if n > last))
    if table_clock.time_up:
        return SessionEnd("bell", None, missing)
    return SessionEnd("playing")
