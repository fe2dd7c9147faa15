"""The session clock's arithmetic, on plain datetimes: no database, no Django."""

from datetime import UTC, datetime, timedelta, timezone

import pytest

from tests.purity import assert_imports_no_django
from tournament.hall.clock import TableClock, format_left, iso_utc, time_left

OPENED = datetime(2026, 11, 30, 14, 0, tzinfo=UTC)


def at(hour: int, minute: int, second: int = 0, microsecond: int = 0) -> datetime:
    return datetime(2026, 11, 30, hour, minute, second, microsecond, tzinfo=UTC)


def clock(now: datetime, *, extra_minutes: int = 0, session_minutes: int = 150) -> TableClock:
    return time_left(
        opened_at=OPENED, session_minutes=session_minutes, extra_minutes=extra_minutes, now=now
    )


@pytest.mark.parametrize(
    ("now", "extra", "ends_at", "seconds_left", "time_up"),
    [
        # Before the opening the clock has not started: the whole time is left.
        (at(13, 50), 0, at(16, 30), 150 * 60, False),
        (at(14, 0), 0, at(16, 30), 150 * 60, False),
        (at(15, 6, 15), 0, at(16, 30), 5025, False),
        (at(16, 29, 59), 0, at(16, 30), 1, False),
        # Half a second left is still a second: the time is up only at the end.
        (at(16, 29, 59, 500_000), 0, at(16, 30), 1, False),
        (at(16, 30), 0, at(16, 30), 0, True),
        (at(16, 45), 0, at(16, 30), 0, True),
        (at(23, 59), 0, at(16, 30), 0, True),
        # Extra minutes move the end of this table's time.
        (at(16, 30), 10, at(16, 40), 600, False),
        (at(16, 40), 10, at(16, 40), 0, True),
        (at(13, 0), 10, at(16, 40), 160 * 60, False),
    ],
)
def test_the_clock_counts_down_from_the_opening(now, extra, ends_at, seconds_left, time_up):
    read = clock(now, extra_minutes=extra)
    assert (read.ends_at, read.seconds_left, read.time_up) == (ends_at, seconds_left, time_up)
    assert read.now == now


def test_the_clock_keeps_the_time_given_to_the_table():
    assert clock(at(15, 0), extra_minutes=30).total_seconds == 180 * 60


def test_the_end_is_the_same_instant_whatever_the_time_zone_of_the_opening():
    beijing = timezone(timedelta(hours=8))
    read = time_left(
        opened_at=OPENED.astimezone(beijing),
        session_minutes=150,
        extra_minutes=0,
        now=at(16, 0),
    )
    assert read.ends_at == at(16, 30)
    assert read.seconds_left == 30 * 60
    assert read.ends_at_iso == "2026-11-30T16:30:00.000Z"


def test_negative_minutes_are_a_programming_error():
    with pytest.raises(ValueError):
        clock(at(15, 0), extra_minutes=-1)


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [(5025, "1:23:45"), (9000, "2:30:00"), (59, "0:00:59"), (600, "0:10:00"), (0, "0:00:00")],
)
def test_time_left_is_shown_as_hours_minutes_seconds(seconds, shown):
    assert format_left(seconds) == shown


def test_the_clock_shows_its_time_left():
    assert clock(at(15, 6, 15)).left == "1:23:45"
    assert clock(at(17, 0)).left == "0:00:00"


def test_instants_are_written_in_utc_to_the_millisecond_for_the_tablet():
    moment = datetime(2026, 11, 30, 22, 40, 5, 123_456, tzinfo=timezone(timedelta(hours=8)))
    assert iso_utc(moment) == "2026-11-30T14:40:05.123Z"
    read = clock(at(15, 0, 0, 999_999))
    assert (read.ends_at_iso, read.now_iso) == (
        "2026-11-30T16:30:00.000Z",
        "2026-11-30T15:00:00.999Z",
    )


def test_importing_the_clock_does_not_import_django():
    assert_imports_no_django("tournament.hall.clock")
