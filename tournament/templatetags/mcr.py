"""The template filters and tags of the pages: how figures, seats, winds and fans are
written, the rules' numbers the pages quote, and the tile picker's values."""

from fractions import Fraction

from django import template

from tournament.forms.calculator import rules_query
from tournament.hall import statistics
from tournament.language import formatting, translated
from tournament.language.formatting import (
    SEAT_LABELS,
    WIND_LETTERS,
    WIND_NAMES,
    format_table_points,
)
from tournament.language.tiles import flower_faces, tile_names, tile_rows
from tournament.models import Hand, Penalty
from tournament.scoring import MAX_FLOWERS, MIN_FAN
from tournament.scoring.claims import parse_claimed_fans
from tournament.scoring.fans import FAN_BY_KEY
from tournament.scoring.hand import HandError
from tournament.seating import HANDS_PER_SESSION
from tournament.seating.rotation import HANDS_PER_ROUND

register = template.Library()

# The rules' numbers that pages quote, from the constants the cores enforce.
RULE_NUMBERS = {
    "min_fan": MIN_FAN,
    "max_flowers": MAX_FLOWERS,
    "hands_per_session": HANDS_PER_SESSION,
    # The hands that open a new round, where the players change seats: "5, 9, 13".
    "seat_move_hands": ", ".join(
        str(first) for first in range(HANDS_PER_ROUND + 1, HANDS_PER_SESSION, HANDS_PER_ROUND)
    ),
}


@register.simple_tag
def rule_number(name: str, rules=None) -> int | str:
    """``{% rule_number "min_fan" rules as minimum %}``: the minimum of ``rules`` (a
    tournament's or the calculator's ``scoring.rules.Rules``), 8 as the seed reading has it
    when the page has none."""
    if name == "min_fan" and rules:
        return rules.minimum_fan
    return RULE_NUMBERS[name]


# The languages' own writing, under the names the templates use.
register.filter("signed", formatting.signed)
register.filter("outcome_words", formatting.hand_outcome_words)
register.filter("fans_listed", translated.fans_in_words)
register.simple_tag(statistics.percent, name="share")


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
def wind_letter(wind):
    return WIND_LETTERS.get(wind, wind)


@register.filter
def exact(value):
    """Table points exactly, as on the standings page: 3, 1.75, 0.5 or 7/3."""
    return format_table_points(value) if isinstance(value, Fraction | int) else value


@register.filter
def penalty_kind(kind: str) -> str:
    """How a penalty of ``kind`` is paid, in the reader's language."""
    return dict(Penalty.KIND_CHOICES).get(kind, kind)


@register.filter
def fan_name(fan) -> str:
    """A fan's name in the page's language (清龙 or Pure Straight): ``{{ fan|fan_name }}``
    for a fan of the table, or ``{{ key|fan_name }}`` for its key."""
    if isinstance(fan, str):
        found = FAN_BY_KEY.get(fan)
        return fan if found is None else translated.fan_name(found)
    return translated.fan_name(fan)


@register.filter
def fans_claimed(text: str) -> str:
    """The fans a referee claimed for a hand, as stored, written in the page's language
    ("Pure Straight, Short Straight ×2"); as typed when they cannot be read."""
    try:
        claimed = parse_claimed_fans(text)
    except HandError:
        return text
    return translated.fans_in_words(claimed) or text


@register.filter
def fan_list(fans) -> str:
    """A hand's fans (``statistics.HandFans``: fan keys with their counts) in the page's
    language: "Pure Straight, Pure Double Chow ×2" (清龙、一般高 ×2)."""
    if not fans:
        return ""
    return translated.list_in_words(
        fan_name(key) + (f" ×{count}" if count > 1 else "") for key, count in fans.fans
    )


@register.filter
def fan_points(key: str):
    """The points a fan scores, from the fan table."""
    fan = FAN_BY_KEY.get(key)
    return "" if fan is None else fan.points


@register.filter
def seat_wind(seat):
    """A starting seat's wind at the first hand: P1 (0) East, P2 South, P3 West, P4 North."""
    return "" if seat is None else WIND_NAMES["ESWN"[int(seat)]]


@register.inclusion_tag("scoring/_tile_picker.html")
def tile_picker(target: str, on_sheet: bool = False, rules=None) -> dict:
    """``{% tile_picker "winning_hand" on_sheet=True rules=rules %}``: the tile picker, which
    writes the hand it builds into the form's field ``target`` in the notation
    (static/js/tiles.js). On a referee's sheet the winds, self-draw and flowers come from the
    sheet; on the calculator they are tapped. Its fans are counted under ``rules`` (the
    tournament's, or the calculator's choice; the seed reading without)."""
    return {
        "rules_query": rules_query(rules) if rules else "",
        # Flowers are tapped only where they are played.
        "flowers_played": not rules or rules.flowers,
        # The blessings are conditions the referee taps, where the rules count them.
        "blessings": bool(rules and rules.blessings),
        "target": target,
        "on_sheet": on_sheet,
        "rows": tile_rows(),
        "flowers": flower_faces(),
        "names": tile_names(),
        "winds": [(code, WIND_NAMES[code]) for code in WIND_NAMES],
    }


@register.filter
def waited(delta) -> str:
    """A wait as the desk counts it up: "4:05", "1:02:09" (desk.js ticks it on)."""
    seconds = max(0, int(delta.total_seconds()))
    hours, minutes, seconds = seconds // 3600, seconds // 60 % 60, seconds % 60
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"
