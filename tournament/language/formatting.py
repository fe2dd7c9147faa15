"""How figures and labels are written on pages and in the workbook, in one place."""

import datetime
import zoneinfo
from fractions import Fraction

from django.utils import formats
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext_lazy

from tournament.scoring import Outcome

# The seats as the score sheet names them, by seat index (0 = the first player drawn, East
# in the first hand).
SEAT_LABELS = ("P1", "P2", "P3", "P4")

WIND_NAMES = {
    "E": gettext_lazy("East"),
    "S": gettext_lazy("South"),
    "W": gettext_lazy("West"),
    "N": gettext_lazy("North"),
}
# A wind in one letter, where a grid has room for no more (东 南 西 北 in Chinese).
WIND_LETTERS = {
    "E": pgettext_lazy("wind letter", "E"),
    "S": pgettext_lazy("wind letter", "S"),
    "W": pgettext_lazy("wind letter", "W"),
    "N": pgettext_lazy("wind letter", "N"),
}


def format_table_points(value: Fraction | int) -> str:
    """Table points as exact text, never rounded.

    Whole numbers print as integers ("7"); values that are exact with at most two
    decimals print as decimals without trailing zeros ("1.75", "0.5"); the rest
    (thirds, sixths, twelfths after tied places) print as an improper fraction
    ("7/3", "29/12"). An improper fraction rather than "2⅓" because Unicode has no
    single glyph for twelfths, and the same text is used in the spreadsheet export.
    """
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    hundredths = value * 100
    if hundredths.denominator == 1:
        sign = "-" if value < 0 else ""
        whole, cents = divmod(abs(hundredths.numerator), 100)
        return f"{sign}{whole}.{cents:02d}".rstrip("0")
    return f"{value.numerator}/{value.denominator}"


def signed(value) -> str:
    """+12, −8, 0: how the paper sheet writes a player's plus or minus ("" for no value)."""
    if value is None or value == "":
        return ""
    value = int(value)
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"−{-value}"
    return "0"


def hand_outcome_words(hand) -> str:
    """Who won a hand and how, in plain words: "P2 self-drawn 88 + 2 flowers", "Draw". The
    first line of a hand's result on the score sheet, and what the tablet's script shows of
    a stored hand."""
    flowers = ""
    if hand.flowers:
        flowers = " + " + ngettext("%(n)s flower", "%(n)s flowers", hand.flowers) % {
            "n": hand.flowers
        }
    if hand.outcome == Outcome.SELF_DRAWN:
        words = gettext("%(winner)s self-drawn %(fan)s") % {
            "winner": SEAT_LABELS[hand.winner],
            "fan": hand.fan,
        }
        return words + flowers
    if hand.outcome == Outcome.DISCARD:
        words = gettext("%(winner)s on discard of %(discarder)s %(fan)s") % {
            "winner": SEAT_LABELS[hand.winner],
            "discarder": SEAT_LABELS[hand.discarder],
            "fan": hand.fan,
        }
        return words + flowers
    if hand.outcome == Outcome.DRAW:
        return gettext("Draw")
    return gettext("Not played")


def days_text(days: tuple[datetime.date, datetime.date] | None) -> str:
    """A tournament's first and last day as a heading says them, in the reader's language:
    "12 April 2026", "12 April 2026 – 13 April 2026"; "" for none."""
    if not days:
        return ""
    first, last = (formats.date_format(day, "DATE_FORMAT") for day in days)
    return first if first == last else f"{first} – {last}"


def place_text(tournament) -> str:
    """Where a tournament is played, as a heading says it: "Hall 3, Shanghai, China"."""
    parts = (tournament.venue, tournament.city, tournament.country)
    return ", ".join(part for part in parts if part)


def zone_label(name: str, moment: datetime.datetime) -> str:
    """A time zone by its name and its offset from UTC at ``moment`` (an aware datetime):
    "Asia/Shanghai (UTC+08:00)"."""
    offset = moment.astimezone(zoneinfo.ZoneInfo(name)).strftime("%z")
    return f"{name} (UTC{offset[:3]}:{offset[3:]})"
