"""The 81 fans of the Mahjong Competition Rules, and the fans of the rule options: names,
points and exclusions.

The table follows the seed table's order (Big Four Winds first, Flower Tiles last); names
are those of ``docs/mcr-competition-rules.md`` section 7. ``excludes`` lists the fans a fan
implies and which are therefore not counted beside it (不计): every exclusion the seed table
states, plus those that the first counting principle (不重复: a fan that necessarily comes
with another is not counted again) makes certain. A few exclusions apply to one set only
(a Dragon Pung is not also a Pung of Terminals or Honors, but another pung in the same hand
still is); the calculator applies those per set, so they are not listed here.

Flower Tiles is not a fan of the hand: flowers add one point each after a valid win and
never count toward the 8-point minimum.

Beside the 81, four fans exist only under a tournament's rule options (``rules.Rules``,
docs/scoring.md "Rule options"): 明暗杠 Melded and Concealed Kong (5), when one melded and
one concealed kong score 5, and the blessings 天和 Heavenly Hand, 地和 Earthly Hand and 人和
Human Hand (``BLESSING_POINTS`` each), when blessings are played. Their ``option`` names the
``Rules`` field that plays them; ``SEED_FANS`` is the 81 alone. ``FANS`` holds all of them in
counting order (points never increase), the 81 in the seed table's order.
"""

from dataclasses import dataclass
from typing import Final

from tournament.scoring.rules import BLESSING_POINTS, Rules

# The ``Rules`` fields that play an option fan.
KONG_OPTION: Final = "melded_and_concealed_kong"
BLESSINGS_OPTION: Final = "blessings"


@dataclass(frozen=True)
class Fan:
    """One fan of the table. ``key`` is snake_case English, stable for data exchange."""

    key: str
    name_en: str
    name_zh: str
    points: int
    excludes: frozenset[str]
    option: str | None = None
    """The ``Rules`` field that plays this fan (``KONG_OPTION``, ``BLESSINGS_OPTION``), or
    None for the 81 fans of the seed table."""


# (English name, Chinese name, points, keys of the fans it excludes), in the seed table's order,
# with the option fans at their points.
_TABLE: tuple[tuple[str, str, int, tuple[str, ...]], ...] = (
    # 88 points
    (
        "Big Four Winds",
        "大四喜",
        88,
        (
            "big_three_winds",
            "all_pungs",
            "prevalent_wind",
            "seat_wind",
            "pung_of_terminals_or_honors",
            "little_four_winds",
        ),
    ),
    ("Big Three Dragons", "大三元", 88, ("dragon_pung", "two_dragon_pungs")),
    ("All Green", "绿一色", 88, ("half_flush",)),
    (
        "Nine Gates",
        "九莲宝灯",
        88,
        (
            "full_flush",
            "concealed_hand",
            "fully_concealed_hand",
            "no_honors",
            "one_voided_suit",
        ),
    ),
    (
        "Four Kongs",
        "四杠",
        88,
        (
            "three_kongs",
            "two_melded_kongs",
            "two_concealed_kongs",
            "melded_kong",
            "concealed_kong",
            "all_pungs",
            "single_wait",
        ),
    ),
    (
        "Seven Shifted Pairs",
        "连七对",
        88,
        (
            "seven_pairs",
            "full_flush",
            "concealed_hand",
            "fully_concealed_hand",
            "single_wait",
            "no_honors",
            "one_voided_suit",
        ),
    ),
    (
        "Thirteen Orphans",
        "十三幺",
        88,
        (
            "all_types",
            "concealed_hand",
            "fully_concealed_hand",
            "single_wait",
            "all_terminals_and_honors",
        ),
    ),
    # 64 points
    (
        "All Terminals",
        "清幺九",
        64,
        (
            "all_terminals_and_honors",
            "all_pungs",
            "outside_hand",
            "double_pung",
            "pung_of_terminals_or_honors",
            "no_honors",
        ),
    ),
    ("Little Four Winds", "小四喜", 64, ("big_three_winds",)),
    ("Little Three Dragons", "小三元", 64, ("dragon_pung", "two_dragon_pungs")),
    (
        "All Honors",
        "字一色",
        64,
        (
            "all_terminals_and_honors",
            "all_pungs",
            "outside_hand",
            "pung_of_terminals_or_honors",
        ),
    ),
    (
        "Four Concealed Pungs",
        "四暗刻",
        64,
        (
            "concealed_hand",
            "fully_concealed_hand",
            "all_pungs",
            "three_concealed_pungs",
            "two_concealed_pungs",
        ),
    ),
    (
        "Pure Terminal Chows",
        "一色双龙会",
        64,
        (
            "all_chows",
            "seven_pairs",
            "full_flush",
            "pure_double_chow",
            "two_terminal_chows",
            "no_honors",
            "one_voided_suit",
        ),
    ),
    # 48 points
    (
        "Quadruple Chow",
        "一色四同顺",
        48,
        (
            "pure_shifted_pungs",
            "pure_triple_chow",
            "pure_double_chow",
            "tile_hog",
        ),
    ),
    (
        "Four Pure Shifted Pungs",
        "一色四节高",
        48,
        ("pure_triple_chow", "pure_shifted_pungs", "all_pungs"),
    ),
    # 32 points
    (
        "Four Pure Shifted Chows",
        "一色四步高",
        32,
        ("pure_shifted_chows", "short_straight", "two_terminal_chows"),
    ),
    (
        "Three Kongs",
        "三杠",
        32,
        ("two_melded_kongs", "two_concealed_kongs", "melded_kong", "concealed_kong"),
    ),
    (
        "All Terminals and Honors",
        "混幺九",
        32,
        ("all_pungs", "outside_hand", "pung_of_terminals_or_honors"),
    ),
    # 24 points
    (
        "Seven Pairs",
        "七对",
        24,
        ("concealed_hand", "fully_concealed_hand", "single_wait"),
    ),
    (
        "Greater Honors and Knitted Tiles",
        "七星不靠",
        24,
        (
            "lesser_honors_and_knitted_tiles",
            "all_types",
            "concealed_hand",
            "fully_concealed_hand",
            "single_wait",
        ),
    ),
    ("All Even Pungs", "全双刻", 24, ("all_pungs", "all_simples", "no_honors")),
    ("Full Flush", "清一色", 24, ("no_honors", "one_voided_suit")),
    ("Pure Triple Chow", "一色三同顺", 24, ("pure_shifted_pungs", "pure_double_chow")),
    ("Pure Shifted Pungs", "一色三节高", 24, ("pure_triple_chow",)),
    ("Upper Tiles", "全大", 24, ("upper_four", "no_honors")),
    ("Middle Tiles", "全中", 24, ("all_simples", "no_honors")),
    ("Lower Tiles", "全小", 24, ("lower_four", "no_honors")),
    # 16 points
    ("Pure Straight", "清龙", 16, ("short_straight", "two_terminal_chows")),
    (
        "Three-Suited Terminal Chows",
        "三色双龙会",
        16,
        ("mixed_double_chow", "two_terminal_chows", "no_honors", "all_chows"),
    ),
    ("Pure Shifted Chows", "一色三步高", 16, ()),
    ("All Fives", "全带五", 16, ("all_simples", "no_honors")),
    ("Triple Pung", "三同刻", 16, ("double_pung",)),
    ("Three Concealed Pungs", "三暗刻", 16, ("two_concealed_pungs",)),
    # 12 points
    (
        "Lesser Honors and Knitted Tiles",
        "全不靠",
        12,
        ("all_types", "concealed_hand", "fully_concealed_hand", "single_wait"),
    ),
    ("Knitted Straight", "组合龙", 12, ()),
    ("Upper Four", "大于五", 12, ("no_honors",)),
    ("Lower Four", "小于五", 12, ("no_honors",)),
    ("Big Three Winds", "三风刻", 12, ()),
    # 8 points
    ("Mixed Straight", "花龙", 8, ()),
    ("Reversible Tiles", "推不倒", 8, ("one_voided_suit",)),
    ("Mixed Triple Chow", "三色三同顺", 8, ("mixed_double_chow",)),
    ("Mixed Shifted Pungs", "三色三节高", 8, ()),
    ("Chicken Hand", "无番和", 8, ()),
    ("Last Tile Draw", "妙手回春", 8, ("self_drawn",)),
    ("Last Tile Claim", "海底捞月", 8, ()),
    ("Out with Replacement Tile", "杠上开花", 8, ("self_drawn",)),
    ("Robbing the Kong", "抢杠和", 8, ("last_tile",)),
    # Option fans (_OPTIONS): played only under a tournament's rule options.
    # The dealer wins on the 14 tiles dealt: self-drawn, concealed, with no wait.
    (
        "Heavenly Hand",
        "天和",
        BLESSING_POINTS,
        ("fully_concealed_hand", "self_drawn", "edge_wait", "closed_wait", "single_wait"),
    ),
    # A non-dealer wins on the dealer's first discard: concealed.
    ("Earthly Hand", "地和", BLESSING_POINTS, ("concealed_hand",)),
    # A non-dealer wins in the first go-around before any claim, on another non-dealer's
    # discard or on their own first draw: concealed, and self-drawn or not.
    (
        "Human Hand",
        "人和",
        BLESSING_POINTS,
        ("concealed_hand", "fully_concealed_hand", "self_drawn"),
    ),
    # 6 points
    ("All Pungs", "碰碰和", 6, ()),
    ("Half Flush", "混一色", 6, ()),
    ("Mixed Shifted Chows", "三色三步高", 6, ()),
    ("All Types", "五门齐", 6, ()),
    ("Melded Hand", "全求人", 6, ("single_wait",)),
    ("Two Concealed Kongs", "双暗杠", 6, ("concealed_kong", "two_concealed_pungs")),
    ("Two Dragon Pungs", "双箭刻", 6, ("dragon_pung",)),
    # Option fan: one melded and one concealed kong, counted instead of each kong alone.
    ("Melded and Concealed Kong", "明暗杠", 5, ("melded_kong", "concealed_kong")),
    # 4 points
    ("Outside Hand", "全带幺", 4, ()),
    ("Fully Concealed Hand", "不求人", 4, ("self_drawn", "concealed_hand")),
    ("Two Melded Kongs", "双明杠", 4, ("melded_kong",)),
    ("Last Tile", "和绝张", 4, ()),
    # 2 points
    ("Dragon Pung", "箭刻", 2, ()),
    ("Prevalent Wind", "圈风刻", 2, ()),
    ("Seat Wind", "门风刻", 2, ()),
    ("Concealed Hand", "门前清", 2, ()),
    ("All Chows", "平和", 2, ("no_honors",)),
    ("Tile Hog", "四归一", 2, ()),
    ("Double Pung", "双同刻", 2, ()),
    ("Two Concealed Pungs", "双暗刻", 2, ()),
    ("Concealed Kong", "暗杠", 2, ()),
    ("All Simples", "断幺", 2, ("no_honors",)),
    # 1 point
    ("Pure Double Chow", "一般高", 1, ()),
    ("Mixed Double Chow", "喜相逢", 1, ()),
    ("Short Straight", "连六", 1, ()),
    ("Two Terminal Chows", "老少副", 1, ()),
    ("Pung of Terminals or Honors", "幺九刻", 1, ()),
    ("Melded Kong", "明杠", 1, ()),
    ("One Voided Suit", "缺一门", 1, ()),
    ("No Honors", "无字", 1, ()),
    ("Edge Wait", "边张", 1, ()),
    ("Closed Wait", "坎张", 1, ()),
    ("Single Wait", "单钓将", 1, ()),
    ("Self-Drawn", "自摸", 1, ()),
    ("Flower Tiles", "花牌", 1, ()),
)


def _key(name_en: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in name_en.lower()).replace("__", "_")


# The option fans, by English name: the ``Rules`` field that plays each.
_OPTIONS: Final = {
    "Melded and Concealed Kong": KONG_OPTION,
    "Heavenly Hand": BLESSINGS_OPTION,
    "Earthly Hand": BLESSINGS_OPTION,
    "Human Hand": BLESSINGS_OPTION,
}

FANS: tuple[Fan, ...] = tuple(
    Fan(_key(en), en, zh, points, frozenset(excludes), _OPTIONS.get(en))
    for en, zh, points, excludes in _TABLE
)
SEED_FANS: tuple[Fan, ...] = tuple(fan for fan in FANS if fan.option is None)
"""The 81 fans of the seed table, in its order."""
OPTION_FANS: tuple[Fan, ...] = tuple(fan for fan in FANS if fan.option is not None)
FAN_BY_KEY: dict[str, Fan] = {fan.key: fan for fan in FANS}

_BY_NAME: dict[str, Fan] = {
    name: fan for fan in FANS for name in (fan.key, fan.name_en.lower(), fan.name_zh)
}


def fan_by_name(name: str) -> Fan:
    """The fan named by its key, English name (any case) or Chinese name; KeyError if none."""
    fan = _BY_NAME.get(name.strip().lower()) if isinstance(name, str) else None
    if fan is None:
        raise KeyError(name)
    return fan


# The points of one melded and one concealed kong under which 明暗杠 is the fan counted.
MIXED_KONGS_FAN_READING: Final = 5


def played(fan: Fan, rules: Rules) -> bool:
    """Whether ``fan`` can be counted under ``rules``: the 81 always, an option fan when the
    rules play its option."""
    if fan.option == KONG_OPTION:
        return rules.melded_and_concealed_kong == MIXED_KONGS_FAN_READING
    if fan.option == BLESSINGS_OPTION:
        return rules.blessings
    return True
