"""How figures and labels are written on pages and in the workbook, in one place."""

from fractions import Fraction

from django.utils.translation import gettext_lazy, pgettext_lazy

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
