"""The fan table: the 81 of the seed table (names, points, order, the exclusions 不计 it
states) and the option fans of the rule options, marked as such."""

import re

import pytest

from tournament.scoring.fans import (
    BLESSINGS_OPTION,
    FAN_BY_KEY,
    FANS,
    KONG_OPTION,
    OPTION_FANS,
    SEED_FANS,
    Fan,
    fan_by_name,
    played,
)
from tournament.scoring.rules import BLESSING_POINTS, SEED_RULES, Rules

# docs/mcr-competition-rules.md section 7, in the seed table's order: (English, Chinese, points).
EXPECTED = [
    ("Big Four Winds", "大四喜", 88),
    ("Big Three Dragons", "大三元", 88),
    ("All Green", "绿一色", 88),
    ("Nine Gates", "九莲宝灯", 88),
    ("Four Kongs", "四杠", 88),
    ("Seven Shifted Pairs", "连七对", 88),
    ("Thirteen Orphans", "十三幺", 88),
    ("All Terminals", "清幺九", 64),
    ("Little Four Winds", "小四喜", 64),
    ("Little Three Dragons", "小三元", 64),
    ("All Honors", "字一色", 64),
    ("Four Concealed Pungs", "四暗刻", 64),
    ("Pure Terminal Chows", "一色双龙会", 64),
    ("Quadruple Chow", "一色四同顺", 48),
    ("Four Pure Shifted Pungs", "一色四节高", 48),
    ("Four Pure Shifted Chows", "一色四步高", 32),
    ("Three Kongs", "三杠", 32),
    ("All Terminals and Honors", "混幺九", 32),
    ("Seven Pairs", "七对", 24),
    ("Greater Honors and Knitted Tiles", "七星不靠", 24),
    ("All Even Pungs", "全双刻", 24),
    ("Full Flush", "清一色", 24),
    ("Pure Triple Chow", "一色三同顺", 24),
    ("Pure Shifted Pungs", "一色三节高", 24),
    ("Upper Tiles", "全大", 24),
    ("Middle Tiles", "全中", 24),
    ("Lower Tiles", "全小", 24),
    ("Pure Straight", "清龙", 16),
    ("Three-Suited Terminal Chows", "三色双龙会", 16),
    ("Pure Shifted Chows", "一色三步高", 16),
    ("All Fives", "全带五", 16),
    ("Triple Pung", "三同刻", 16),
    ("Three Concealed Pungs", "三暗刻", 16),
    ("Lesser Honors and Knitted Tiles", "全不靠", 12),
    ("Knitted Straight", "组合龙", 12),
    ("Upper Four", "大于五", 12),
    ("Lower Four", "小于五", 12),
    ("Big Three Winds", "三风刻", 12),
    ("Mixed Straight", "花龙", 8),
    ("Reversible Tiles", "推不倒", 8),
    ("Mixed Triple Chow", "三色三同顺", 8),
    ("Mixed Shifted Pungs", "三色三节高", 8),
    ("Chicken Hand", "无番和", 8),
    ("Last Tile Draw", "妙手回春", 8),
    ("Last Tile Claim", "海底捞月", 8),
    ("Out with Replacement Tile", "杠上开花", 8),
    ("Robbing the Kong", "抢杠和", 8),
    ("All Pungs", "碰碰和", 6),
    ("Half Flush", "混一色", 6),
    ("Mixed Shifted Chows", "三色三步高", 6),
    ("All Types", "五门齐", 6),
    ("Melded Hand", "全求人", 6),
    ("Two Concealed Kongs", "双暗杠", 6),
    ("Two Dragon Pungs", "双箭刻", 6),
    ("Outside Hand", "全带幺", 4),
    ("Fully Concealed Hand", "不求人", 4),
    ("Two Melded Kongs", "双明杠", 4),
    ("Last Tile", "和绝张", 4),
    ("Dragon Pung", "箭刻", 2),
    ("Prevalent Wind", "圈风刻", 2),
    ("Seat Wind", "门风刻", 2),
    ("Concealed Hand", "门前清", 2),
    ("All Chows", "平和", 2),
    ("Tile Hog", "四归一", 2),
    ("Double Pung", "双同刻", 2),
    ("Two Concealed Pungs", "双暗刻", 2),
    ("Concealed Kong", "暗杠", 2),
    ("All Simples", "断幺", 2),
    ("Pure Double Chow", "一般高", 1),
    ("Mixed Double Chow", "喜相逢", 1),
    ("Short Straight", "连六", 1),
    ("Two Terminal Chows", "老少副", 1),
    ("Pung of Terminals or Honors", "幺九刻", 1),
    ("Melded Kong", "明杠", 1),
    ("One Voided Suit", "缺一门", 1),
    ("No Honors", "无字", 1),
    ("Edge Wait", "边张", 1),
    ("Closed Wait", "坎张", 1),
    ("Single Wait", "单钓将", 1),
    ("Self-Drawn", "自摸", 1),
    ("Flower Tiles", "花牌", 1),
]

# Every exclusion the seed table states (不计 …), by Chinese name, as the seed writes them
# (its 同刻 in 清幺九 is 双同刻, its 单钓 is 单钓将). Rows 5 (四杠), 17 (三杠) and 77 (边张) are
# missing from the scraped table. Row 81 (花牌: 补花成和计自摸分，不计杠上开花) says a win on a
# flower's replacement tile is self-drawn, not Out with Replacement Tile: a rule about the
# win condition, not an exclusion between two fans a hand can hold.
SEED_EXCLUSIONS = {
    "大四喜": ["圈风刻", "门风刻", "三风刻", "碰碰和"],
    "大三元": ["箭刻"],
    "绿一色": ["混一色"],
    "九莲宝灯": ["清一色"],
    "连七对": ["清一色", "不求人", "单钓将"],
    "十三幺": ["五门齐", "不求人", "单钓将"],
    "清幺九": ["碰碰和", "双同刻", "无字"],
    "小四喜": ["三风刻"],
    "小三元": ["箭刻"],
    "字一色": ["碰碰和"],
    "四暗刻": ["门前清", "碰碰和"],
    "一色双龙会": ["平和", "七对", "清一色"],
    "一色四同顺": ["一色三节高", "一般高", "四归一"],
    "一色四节高": ["一色三同顺", "碰碰和"],
    "混幺九": ["碰碰和"],
    "七对": ["不求人", "单钓将"],
    "七星不靠": ["五门齐", "不求人", "单钓将"],
    "全双刻": ["碰碰和", "断幺"],
    "清一色": ["无字"],
    "一色三同顺": ["一色三节高"],
    "一色三节高": ["一色三同顺"],
    "全大": ["无字"],
    "全中": ["断幺"],
    "全小": ["无字"],
    "三色双龙会": ["喜相逢", "老少副", "无字", "平和"],
    "全带五": ["断幺"],
    "全不靠": ["五门齐", "不求人", "单钓将"],
    "大于五": ["无字"],
    "小于五": ["无字"],
    "推不倒": ["缺一门"],
    "妙手回春": ["自摸"],
    "杠上开花": ["自摸"],
    "抢杠和": ["和绝张"],
    "全求人": ["单钓将"],
}

# Exclusions that follow from the first principle (不重复: a fan the other one always brings
# is not counted again) and are applied although the seed table does not spell them out.
IMPLIED_EXCLUSIONS = {
    "大四喜": ["幺九刻"],
    "大三元": ["双箭刻"],
    "九莲宝灯": ["门前清", "不求人", "无字", "缺一门"],
    "四杠": ["三杠", "双明杠", "双暗杠", "明杠", "暗杠", "碰碰和", "单钓将"],
    "连七对": ["七对", "门前清", "无字", "缺一门"],
    "十三幺": ["门前清", "混幺九"],
    "清幺九": ["混幺九", "全带幺", "幺九刻"],
    "小三元": ["双箭刻"],
    "字一色": ["混幺九", "全带幺", "幺九刻"],
    "四暗刻": ["不求人", "三暗刻", "双暗刻"],
    "一色双龙会": ["一般高", "老少副", "无字", "缺一门"],
    "一色四同顺": ["一色三同顺"],
    "一色四节高": ["一色三节高"],
    "一色四步高": ["一色三步高", "连六", "老少副"],
    "三杠": ["双明杠", "双暗杠", "明杠", "暗杠"],
    "混幺九": ["全带幺", "幺九刻"],
    "七对": ["门前清"],
    "七星不靠": ["全不靠", "门前清"],
    "全双刻": ["无字"],
    "清一色": ["缺一门"],
    "一色三同顺": ["一般高"],
    "全大": ["大于五"],
    "全中": ["无字"],
    "全小": ["小于五"],
    "清龙": ["连六", "老少副"],
    "全带五": ["无字"],
    "三同刻": ["双同刻"],
    "三暗刻": ["双暗刻"],
    "全不靠": ["门前清"],
    "三色三同顺": ["喜相逢"],
    "双暗杠": ["暗杠", "双暗刻"],
    "双箭刻": ["箭刻"],
    "不求人": ["自摸", "门前清"],
    "双明杠": ["明杠"],
    "平和": ["无字"],
    "断幺": ["无字"],
}


def test_table_has_81_fans_in_seed_order_with_digest_names_and_points():
    assert [(f.name_en, f.name_zh, f.points) for f in SEED_FANS] == EXPECTED
    assert [(f.name_en, f.name_zh, f.points) for f in FANS if f.option is None] == EXPECTED


# The fans of the rule options (docs/scoring.md "Rule options"): (English, Chinese, points,
# the Rules field that plays it, what it excludes).
OPTION_TABLE = [
    (
        "Heavenly Hand",
        "天和",
        BLESSING_POINTS,
        BLESSINGS_OPTION,
        {"Fully Concealed Hand", "Self-Drawn", "Edge Wait", "Closed Wait", "Single Wait"},
    ),
    ("Earthly Hand", "地和", BLESSING_POINTS, BLESSINGS_OPTION, {"Concealed Hand"}),
    (
        "Human Hand",
        "人和",
        BLESSING_POINTS,
        BLESSINGS_OPTION,
        {"Concealed Hand", "Fully Concealed Hand", "Self-Drawn"},
    ),
    ("Melded and Concealed Kong", "明暗杠", 5, KONG_OPTION, {"Melded Kong", "Concealed Kong"}),
]


def test_the_81_plus_the_option_fans_marked_with_the_option_that_plays_them():
    assert len(FANS) == 81 + len(OPTION_TABLE)
    assert [
        (f.name_en, f.name_zh, f.points, f.option, {FAN_BY_KEY[k].name_en for k in f.excludes})
        for f in OPTION_FANS
    ] == OPTION_TABLE
    assert len(SEED_FANS) == 81 and not any(f.option for f in SEED_FANS)
    assert FAN_BY_KEY["melded_and_concealed_kong"].option == KONG_OPTION


def test_option_fans_are_played_only_under_their_option():
    kong, blessing = fan_by_name("明暗杠"), fan_by_name("天和")
    assert not played(kong, SEED_RULES) and not played(blessing, SEED_RULES)
    assert played(kong, Rules(melded_and_concealed_kong=5))
    assert not played(kong, Rules(melded_and_concealed_kong=6))
    assert played(blessing, Rules(blessings=True))
    assert all(played(f, SEED_RULES) for f in SEED_FANS)


def test_keys_are_unique_snake_case_english():
    keys = [f.key for f in FANS]
    assert len(set(keys)) == len(FANS) == 85
    assert all(re.fullmatch(r"[a-z0-9]+(_[a-z0-9]+)*", key) for key in keys)
    assert FANS[0].key == "big_four_winds"
    assert FANS[-1].key == "flower_tiles"
    assert FAN_BY_KEY["out_with_replacement_tile"].name_zh == "杠上开花"


def test_fan_by_key_matches_the_table():
    assert list(FAN_BY_KEY.values()) == list(FANS)


def test_points_never_increase_along_the_table():
    points = [f.points for f in FANS]
    assert points == sorted(points, reverse=True)


@pytest.mark.parametrize(("fan", "excluded"), sorted(SEED_EXCLUSIONS.items()))
def test_every_exclusion_the_seed_table_states_is_in_the_table(fan, excluded):
    assert {fan_by_name(name).key for name in excluded} <= fan_by_name(fan).excludes


@pytest.mark.parametrize(("fan", "excluded"), sorted(IMPLIED_EXCLUSIONS.items()))
def test_exclusions_implied_by_the_first_principle_are_in_the_table(fan, excluded):
    assert {fan_by_name(name).key for name in excluded} <= fan_by_name(fan).excludes


def test_table_has_no_exclusion_beyond_seed_and_implied_ones():
    stated = {
        fan_by_name(fan).key: {fan_by_name(n).key for n in names}
        for fan, names in SEED_EXCLUSIONS.items()
    }
    for fan, names in IMPLIED_EXCLUSIONS.items():
        stated.setdefault(fan_by_name(fan).key, set()).update(fan_by_name(n).key for n in names)
    # Big Four Winds also lists Little Four Winds (they can never both be shown) and
    # Quadruple Chow lists Pure Shifted Pungs as the seed table has it.
    stated["big_four_winds"].add("little_four_winds")
    for f in SEED_FANS:
        assert f.excludes == stated.get(f.key, set()), f.key


def test_exclusions_name_existing_fans_and_never_the_fan_itself():
    for f in FANS:
        assert f.key not in f.excludes
        assert f.excludes <= FAN_BY_KEY.keys()


def test_an_excluded_fan_comes_after_its_excluder_unless_the_two_never_meet():
    # Counting takes the table from the top, so an excluder must be met first; the only
    # mutual pair (Pure Triple Chow / Pure Shifted Pungs) cannot be in the same arrangement.
    order = {f.key: i for i, f in enumerate(FANS)}
    for f in FANS:
        for key in f.excludes:
            if order[key] < order[f.key]:
                assert f.key in FAN_BY_KEY[key].excludes, (f.key, key)


def test_flower_tiles_and_chicken_hand_exclude_nothing():
    assert FAN_BY_KEY["flower_tiles"].excludes == frozenset()
    assert FAN_BY_KEY["chicken_hand"].excludes == frozenset()


@pytest.mark.parametrize(
    "name",
    ["seven_pairs", "Seven Pairs", "seven pairs", "SEVEN PAIRS", "七对", "  Seven Pairs "],
)
def test_fan_by_name_accepts_key_english_any_case_and_chinese(name):
    assert fan_by_name(name).key == "seven_pairs"


@pytest.mark.parametrize("name", ["", "Seven Pair", "七對", "seven-pairs", "88"])
def test_fan_by_name_raises_key_error_for_unknown_names(name):
    with pytest.raises(KeyError):
        fan_by_name(name)


def test_every_fan_is_found_by_each_of_its_names():
    for f in FANS:
        assert fan_by_name(f.key) is f
        assert fan_by_name(f.name_en) is f
        assert fan_by_name(f.name_en.upper()) is f
        assert fan_by_name(f.name_zh) is f


def test_fans_are_immutable():
    with pytest.raises(AttributeError):
        FANS[0].points = 1  # type: ignore[misc]
    assert isinstance(FANS[0], Fan)
    assert isinstance(FANS[0].excludes, frozenset)
