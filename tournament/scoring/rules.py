"""The scoring options a tournament plays, as plain data: what changes a hand's fans, its
minimum and its flowers from one rule book to another (docs/scoring.md, "Rule options").

``Rules()`` is the seed documents' reading, the site's default, scored exactly as before the
options existed. The calculator, the claims check and the settlement take a ``Rules`` and
follow it; nothing here knows of a tournament.
"""

from dataclasses import dataclass
from typing import Final

from tournament.core_errors import CoreError, gettext_noop

# How one melded and one concealed kong in the same hand score:
# 3: Melded Kong (1) + Concealed Kong (2), the seed table's fans taken one by one;
# 5: the fan 明暗杠 (5 points) that the Chinese calculators and the League's rulings count;
# 6: Two Melded Kongs (4) + Concealed Kong (2), a reading of the English rule book.
KONG_READINGS: Final = (3, 5, 6)

# The blessings (天和 Heavenly Hand, 地和 Earthly Hand, 人和 Human Hand), when played, are
# worth this many points each.
BLESSING_POINTS: Final = 8

# The lowest and highest minimum a tournament may set (the fan table's smallest and largest
# fans).
LOWEST_MINIMUM_FAN: Final = 1
HIGHEST_MINIMUM_FAN: Final = 88


@dataclass(frozen=True)
class Rules:
    """The scoring options: the seed reading by default."""

    melded_and_concealed_kong: int = 3
    """Points of one melded and one concealed kong together: 3, 5 or 6 (``KONG_READINGS``)."""

    flowers: bool = True
    """Whether the flowers are played (144 tiles) or not (136): a hand without them has none."""

    blessings: bool = False
    """Whether Heavenly, Earthly and Human Hand count, ``BLESSING_POINTS`` each."""

    minimum_fan: int = 8
    """Fan a hand needs to win, flowers not counted."""


SEED_RULES: Final = Rules()


class RulesError(CoreError):
    """Options that cannot be played: ``code`` says why, ``field`` names the option."""

    def __init__(self, code: str, field: str, template: str, params=None) -> None:
        super().__init__(template, params)
        self.code = code
        self.field = field


def rules_error(rules: Rules) -> RulesError | None:
    """Why ``rules`` cannot be played, or None."""
    if rules.melded_and_concealed_kong not in KONG_READINGS:
        return RulesError(
            "kong_reading_invalid",
            "melded_and_concealed_kong",
            gettext_noop("one melded and one concealed kong score 3, 5 or 6 points"),
        )
    minimum = rules.minimum_fan
    if isinstance(minimum, bool) or not isinstance(minimum, int):
        minimum = None
    if minimum is None or not LOWEST_MINIMUM_FAN <= minimum <= HIGHEST_MINIMUM_FAN:
        return RulesError(
            "minimum_fan_invalid",
            "minimum_fan",
            gettext_noop("the minimum is a whole number of fan from %(lowest)s to %(highest)s"),
            {"lowest": LOWEST_MINIMUM_FAN, "highest": HIGHEST_MINIMUM_FAN},
        )
    return None


def validate_rules(rules: Rules) -> Rules:
    """``rules`` when they can be played; raises ``RulesError`` (``rules_error``) otherwise."""
    if error := rules_error(rules):
        raise error
    return rules
