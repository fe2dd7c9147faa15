"""Small display helpers for score sheets."""

from fractions import Fraction

from django import template

from tournament.formatting import WIND_NAMES, format_table_points
from tournament.models import SEAT_LABELS, Hand

register = template.Library()


@register.filter
def signed(value):
    """+12, −8, 0: how the paper sheet writes a player's plus or minus."""
    if value is None or value == "":
        return ""
    value = int(value)
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"−{-value}"
    return "0"


@register.filter
def seat_label(seat):
    return "" if seat is None else SEAT_LABELS[int(seat)]


@register.filter
def outcome_label(outcome):
    return dict(Hand.OUTCOME_CHOICES).get(outcome, outcome)


@register.filter
def wind_name(wind):
    return WIND_NAMES.get(wind, wind)


@register.filter
def exact(value):
    """Table points exactly, as on the standings page: 3, 1.75, 0.5 or 7/3."""
    return format_table_points(value) if isinstance(value, Fraction | int) else value
