"""The session clock's arithmetic, on plain datetimes: no database, no Django."""

from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from tests.purity import assert_imports_no_django
from tournament.hall.clock import (
    SessionEnd,
    TableClock,
    format_left,
    iso_utc,
    last_hand,
    session_end,
    time_left,
)

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


# ---------------------------------------------------------------- the gong


def gong_clock(now: datetime, *, extra_minutes: int = 0, gong_minute: int | None = 115):
    """The EMA's ending (the Danish Open's): 120-minute sessions, the gong at 115."""
    return time_left(
        opened_at=OPENED,
        session_minutes=120,
        extra_minutes=extra_minutes,
        now=now,
        gong_minute=gong_minute,
    )


@pytest.mark.parametrize(
    ("now", "extra", "gong_at", "sounded", "time_up"),
    [
        (at(13, 50), 0, at(15, 55), False, False),
        (at(15, 54, 59, 999_999), 0, at(15, 55), False, False),
        # The gong sounds at its minute exactly; the time runs on to its end.
        (at(15, 55), 0, at(15, 55), True, False),
        (at(15, 59, 59), 0, at(15, 55), True, False),
        (at(16, 0), 0, at(15, 55), True, True),
        # A table given ten minutes (it started late) hears its gong ten minutes later.
        (at(15, 55), 10, at(16, 5), False, False),
        (at(16, 5), 10, at(16, 5), True, False),
        (at(16, 10), 10, at(16, 5), True, True),
    ],
)
def test_the_gong_sounds_at_its_minute_plus_the_tables_extra_minutes(
    now, extra, gong_at, sounded, time_up
):
    read = gong_clock(now, extra_minutes=extra)
    assert (read.gong_at, read.gong_sounded, read.time_up) == (gong_at, sounded, time_up)
    assert read.play_over is sounded
    assert read.ends_at == at(16, 0) + timedelta(minutes=extra)


def test_with_the_bell_there_is_no_gong():
    read = clock(at(16, 30))
    assert (read.gong_at, read.gong_sounded, read.gong_at_iso) == (None, False, "")
    assert read.time_up and read.play_over
    assert not clock(at(16, 29)).play_over


def test_the_gong_is_written_in_utc_for_the_tablet():
    assert gong_clock(at(15, 0)).gong_at_iso == "2026-11-30T15:55:00.000Z"


@pytest.mark.parametrize("gong_minute", [0, 121, -5])
def test_a_gong_outside_the_session_is_a_programming_error(gong_minute):
    with pytest.raises(ValueError):
        gong_clock(at(15, 0), gong_minute=gong_minute)


def test_the_gong_may_sound_at_the_end_of_the_time():
    read = gong_clock(at(16, 0), gong_minute=120)
    assert read.gong_at == read.ends_at and read.gong_sounded


@pytest.mark.parametrize(
    ("before_gong", "last"),
    [(set(), 1), ({1, 2, 3, 4, 5}, 6), ({1, 2, 3, 5}, 4), (set(range(1, 17)), None)],
)
def test_the_last_hand_is_the_first_not_entered_before_the_gong(before_gong, last):
    assert last_hand(before_gong, 16) == last


def end(now, *, entered, before_gong, gong_minute=115):
    read = gong_clock(now, gong_minute=gong_minute) if gong_minute else clock(now)
    return session_end(read, entered=entered, entered_before_gong=before_gong, hands=16)


FIVE = set(range(1, 6))


def test_before_the_gong_play_goes_on():
    assert end(at(15, 54), entered=FIVE, before_gong=FIVE) == SessionEnd("playing")
    assert end(at(15, 54), entered=FIVE, before_gong=FIVE).new_hands_invited


def test_after_the_gong_the_hand_in_play_is_the_last():
    ending = end(at(15, 56), entered=FIVE, before_gong=FIVE)
    assert ending == SessionEnd("gong", 6, tuple(range(7, 17)))
    assert ending.new_hands_invited  # hand 6 is still to enter


def test_once_the_last_hand_is_entered_the_rest_are_not_played():
    ending = end(at(15, 58), entered=FIVE | {6}, before_gong=FIVE)
    assert ending == SessionEnd("gong_over", 6, tuple(range(7, 17)))
    assert not ending.new_hands_invited
    # The time up changes nothing: the gong said which hand was the last.
    assert end(at(16, 5), entered=FIVE | {6}, before_gong=FIVE) == ending


def test_a_hand_entered_before_the_gong_and_deleted_since_is_not_over():
    ending = end(at(15, 58), entered={1, 2, 3, 4}, before_gong=FIVE)
    assert ending == SessionEnd("gong", 5, tuple(range(6, 17)))


def test_every_hand_entered_leaves_nothing_for_the_gong_or_the_bell_to_end():
    every = set(range(1, 17))
    # The sheet then says all 16 are entered, not "hand None is the last" nor "time is up".
    assert end(at(15, 58), entered=every, before_gong=every) == SessionEnd("playing")
    assert end(at(16, 30), entered=every, before_gong=(), gong_minute=None) == SessionEnd("playing")


def test_with_the_bell_time_up_abandons_the_hand_in_play():
    ending = end(at(16, 30), entered=FIVE, before_gong=(), gong_minute=None)
    assert ending == SessionEnd("bell", None, tuple(range(6, 17)))
    assert ending.new_hands_invited  # hands over before the bell may still be entered
    assert end(at(16, 29), entered=FIVE, before_gong=(), gong_minute=None).state == "playing"


def test_the_worked_example_of_docs_screen():
    doc = (Path(__file__).resolve().parents[1] / "docs" / "screen.md").read_text(encoding="utf-8")
    opened = datetime(2026, 11, 30, 14, 0, tzinfo=UTC)

    def read(now, extra):
        return time_left(
            opened_at=opened, session_minutes=120, extra_minutes=extra, now=now, gong_minute=115
        )

    first = read(at(15, 57), 0)
    assert (f"{first.gong_at:%H:%M}", f"{first.ends_at:%H:%M}") == ("15:55", "16:00")
    five = set(range(1, 6))
    ending = session_end(first, entered=five, entered_before_gong=five, hands=16)
    assert (ending.state, ending.last) == ("gong", 6)
    assert "| 1 | 0 | 15:55 | 16:00 | 1 to 5 | hand 6 is the last |" in doc
    ending = session_end(first, entered=five | {6}, entered_before_gong=five, hands=16)
    assert (ending.state, ending.rest) == ("gong_over", tuple(range(7, 17)))
    assert "| 1, hand 6 entered | 0 | 15:55 | 16:00 | 1 to 5 | hands 7 to 16 not played |" in doc
    late = read(at(16, 0), 10)
    assert (f"{late.gong_at:%H:%M}", f"{late.ends_at:%H:%M}") == ("16:05", "16:10")
    assert session_end(late, entered=(), entered_before_gong=(), hands=16).state == "playing"
    assert "| 3 | 10 | 16:05 | 16:10 | 1 to 6 | (at 16:00) no gong yet |" in doc
