"""Checking a referee's claim: with the winning hand, and from fan names alone."""

import pytest

from reference import hand_generators
from tournament.scoring.claims import (
    FAN_SHAPES,
    MAX_COUNT,
    REASONS,
    SHAPES,
    ClaimedFan,
    check_claim,
    impossible_reason,
    max_count,
    parse_claimed_fans,
)
from tournament.scoring.fans import FANS, fan_by_name
from tournament.scoring.hand import HandError
from tournament.scoring.notation import parse_hand, score_hand


def claimed(*names):
    return tuple(ClaimedFan(fan_by_name(name)) for name in names)


def test_fan_names_are_read_in_english_or_chinese_with_counts():
    fans = parse_claimed_fans("Pure Straight, 一般高 ×2; self-drawn")
    assert [(c.fan.key, c.count) for c in fans] == [
        ("pure_straight", 1),
        ("pure_double_chow", 2),
        ("self_drawn", 1),
    ]


def test_an_unknown_fan_name_is_an_error_naming_it():
    with pytest.raises(HandError) as raised:
        parse_claimed_fans("Pure Straight, Lucky Dragon")
    assert raised.value.code == "unknown_fan"
    assert "Lucky Dragon" in raised.value.message


def test_all_pungs_cannot_be_claimed_with_four_concealed_pungs():
    check = check_claim(claimed_fans=claimed("Four Concealed Pungs", "All Pungs"))
    assert not check.agrees
    assert "incompatible_fans" in check.problems
    assert [(a.name_en, b.name_en) for a, b in check.incompatible] == [
        ("Four Concealed Pungs", "All Pungs")
    ]


def test_names_alone_below_eight_fan_do_not_reach_the_minimum():
    check = check_claim(claimed_fans=claimed("All Simples", "Pure Double Chow", "Self-Drawn"))
    assert check.named_total == 4
    assert check.problems == ("below_minimum",)


def test_a_typed_total_that_differs_from_the_fans_named_is_reported():
    check = check_claim(claimed_total=10, claimed_fans=claimed("Pure Straight"))
    assert "total_differs_from_fans_named" in check.problems


def test_a_total_alone_is_checked_against_the_minimum():
    assert check_claim(claimed_total=8).agrees
    assert check_claim(claimed_total=7).problems == ("below_minimum",)


# 123m 456m 789m (Pure Straight 16) + 234p + EE pair, won on a discard: 16 points.
PURE_STRAIGHT = "123m456m789m234pE +E"


def test_a_claim_matching_the_hand_agrees():
    scored = score_hand(parse_hand(PURE_STRAIGHT))
    names = [f.name_en for f in scored.fans]
    check = check_claim(
        claimed_total=scored.total_without_flowers, claimed_fans=claimed(*names), scored=scored
    )
    assert check.agrees, check.problems
    assert check.computed_total == scored.total_without_flowers


def test_a_wrong_total_and_missing_fans_are_named():
    scored = score_hand(parse_hand(PURE_STRAIGHT))
    check = check_claim(claimed_total=8, claimed_fans=claimed("Pure Straight"), scored=scored)
    assert "wrong_total" in check.problems
    missing = {c.fan.name_en for c in check.missing}
    assert missing == {f.name_en for f in scored.fans} - {"Pure Straight"}
    assert missing  # the hand scores more than the straight alone


def test_a_fan_the_hand_does_not_score_is_extra():
    scored = score_hand(parse_hand(PURE_STRAIGHT))
    names = [f.name_en for f in scored.fans] + ["Full Flush"]
    check = check_claim(claimed_fans=claimed(*names), scored=scored)
    assert [c.fan.name_en for c in check.extra] == ["Full Flush"]
    assert "extra_fans" in check.problems


# --- Reading points and counts -------------------------------------------------------------


def keys_and_counts(text):
    return [(c.fan.key, c.count) for c in parse_claimed_fans(text)]


def test_a_number_after_a_fan_name_is_its_points_not_a_count():
    assert keys_and_counts("Pure Straight 16, Concealed Hand 2") == [
        ("pure_straight", 1),
        ("concealed_hand", 1),
    ]


@pytest.mark.parametrize(
    "text",
    ["Pure Straight (16)", "清龙16", "清龙 16分", "Pure Straight 16 points", "pure straight(16)"],
)
def test_points_may_be_written_in_parentheses_or_with_a_unit(text):
    assert keys_and_counts(text) == [("pure_straight", 1)]


@pytest.mark.parametrize(
    "text",
    [
        "Pure Double Chow ×2",
        "Pure Double Chow x 2",
        "Pure Double Chow X2",
        "Pure Double Chow *2",
        "一般高×2",
        "Pure Double Chow ×2 (2)",
        "Pure Double Chow (1) ×2",
        "Pure Double Chow 1 x2",
    ],
)
def test_a_count_follows_a_multiplication_sign_with_or_without_points(text):
    assert keys_and_counts(text) == [("pure_double_chow", 2)]


@pytest.mark.parametrize(
    ("text", "fan", "points", "written"),
    [
        ("Pure Straight 8", "Pure Straight", "16 points,", "8"),
        ("Concealed Hand (3)", "Concealed Hand", "2 points,", "3"),
        ("Pure Double Chow 2", "Pure Double Chow", "1 point,", "2"),
        ("一般高 ×2 3", "Pure Double Chow", "1 point,", "3"),
    ],
)
def test_other_points_after_a_name_are_an_error_naming_the_fan(text, fan, points, written):
    with pytest.raises(HandError) as raised:
        parse_claimed_fans(text)
    assert raised.value.code == "fan_points_mismatch"
    assert f"{fan} scores {points} not {written}." in raised.value.message
    assert "×2" in raised.value.message


def test_a_count_of_zero_is_an_error():
    with pytest.raises(HandError) as raised:
        parse_claimed_fans("Pure Straight ×0")
    assert raised.value.code == "bad_fan_count"


# --- Fans that cannot both be counted, without the tiles ------------------------------------


def test_chicken_hand_with_nine_gates_is_impossible_together():
    check = check_claim(claimed_fans=parse_claimed_fans("Chicken Hand, Nine Gates"))
    assert check.problems == ("impossible_together",)
    assert [(p.first.name_en, p.second.name_en, p.reason) for p in check.impossible] == [
        ("Nine Gates", "Chicken Hand", "chicken_hand")
    ]
    assert not check.agrees


@pytest.mark.parametrize(
    ("first", "second", "reason"),
    [
        ("Chicken Hand", "Self-Drawn", "chicken_hand"),
        ("Chicken Hand", "All Chows", "chicken_hand"),
        ("Melded Hand", "Concealed Hand", "claimed_sets"),
        ("Melded Hand", "Fully Concealed Hand", "win"),
        ("Melded Hand", "Self-Drawn", "win"),
        ("Last Tile Draw", "Last Tile Claim", "win"),
        ("Robbing the Kong", "Self-Drawn", "win"),
        ("Robbing the Kong", "Out with Replacement Tile", "win"),
        ("Robbing the Kong", "Last Tile Draw", "win"),
        ("Robbing the Kong", "Fully Concealed Hand", "win"),
        ("Out with Replacement Tile", "Last Tile Claim", "win"),
        ("Edge Wait", "Closed Wait", "one_wait"),
        ("Edge Wait", "Single Wait", "one_wait"),
        ("Closed Wait", "Single Wait", "one_wait"),
        ("Seven Pairs", "All Pungs", "shape"),
        ("Seven Pairs", "Pure Straight", "shape"),
        ("Seven Pairs", "Dragon Pung", "shape"),
        ("Seven Pairs", "Pung of Terminals or Honors", "shape"),
        ("Seven Pairs", "Out with Replacement Tile", "shape"),
        ("Seven Pairs", "Robbing the Kong", "shape"),
        ("Thirteen Orphans", "Pure Straight", "shape"),
        ("Thirteen Orphans", "Half Flush", "shape"),
        ("Thirteen Orphans", "Seven Pairs", "shape"),
        ("Big Four Winds", "Big Three Dragons", "sets"),
        ("All Pungs", "Pure Double Chow", "sets"),
        ("All Chows", "Dragon Pung", "tiles"),
        ("All Chows", "Pung of Terminals or Honors", "sets"),
        ("Pure Straight", "Triple Pung", "sets"),
        ("Pure Straight", "Mixed Triple Chow", "chows"),
        ("Quadruple Chow", "Short Straight", "chows"),
        ("Triple Pung", "Pure Shifted Pungs", "pungs"),
        ("Half Flush", "All Chows", "tiles"),
        ("Upper Tiles", "Lower Four", "tiles"),
        ("All Green", "Prevalent Wind", "tiles"),
        ("All Types", "Pure Double Chow", "sets"),
        ("Full Flush", "Half Flush", "tiles"),
        ("Two Melded Kongs", "Concealed Kong", "kongs"),
        ("Greater Honors and Knitted Tiles", "Knitted Straight", "knitted_tiles"),
        ("Robbing the Kong", "Single Wait", "winning_tile_copy"),
        ("Robbing the Kong", "Last Tile Claim", "no_kong_after_last_tile"),
        ("Fully Concealed Hand", "All Pungs", "four_concealed_pungs"),
        ("Nine Gates", "Single Wait", "nine_gates"),
        ("Seven Shifted Pairs", "Tile Hog", "seven_shifted_pairs"),
    ],
)
def test_fans_no_hand_can_count_together_are_reported_with_the_reason(first, second, reason):
    a, b = fan_by_name(first), fan_by_name(second)
    assert impossible_reason(a, b) == reason
    assert impossible_reason(b, a) == reason
    check = check_claim(claimed_fans=claimed(first, second))
    assert "impossible_together" in check.problems
    assert {(p.first, p.second) for p in check.impossible} <= {(a, b), (b, a)}
    assert len(check.impossible) == 1


@pytest.mark.parametrize(
    ("hand", "first", "second"),
    [
        ("1111m3344p5566s7s +7s", "Seven Pairs", "Tile Hog"),
        ("11m22p33sEESSCCF +F", "Seven Pairs", "All Types"),
        ("19m19p19sESWNCFF +P | kong", "Thirteen Orphans", "Robbing the Kong"),
        ("147m258p369sC [EEEE] +C | self kong", "Knitted Straight", "Out with Replacement Tile"),
        ("147m258p369sEEEC +C", "Knitted Straight", "All Types"),
        ("147m258p369sESWC +F", "Lesser Honors and Knitted Tiles", "Knitted Straight"),
        (
            "123m456m789m5s [EEEE] +5s | self kong last",
            "Last Tile Draw",
            "Out with Replacement Tile",
        ),
        ("123m456m5s [EEEE] {SSSS} +5s", "Melded Kong", "Concealed Kong"),
        ("EEESSSWWWNNN1m +1m", "Big Four Winds", "Half Flush"),
        ("1112345678999m +1m", "Nine Gates", "Pure Straight"),
        ("234m33456sPP [567p:1] +3s | seat=W wind=N flowers=1", "Chicken Hand", "Flower Tiles"),
        ("234234666888s2s +2s", "All Green", "Pure Double Chow"),
        ("345456s5s {5555m} {5555p} +5s", "All Fives", "Two Concealed Kongs"),
    ],
)
def test_fans_a_hand_counts_together_are_never_reported_impossible(hand, first, second):
    scored = score_hand(parse_hand(hand))
    names = {f.name_en for f in scored.fans}
    assert {first, second} <= names  # the hand proves the pair possible
    assert impossible_reason(fan_by_name(first), fan_by_name(second)) is None
    check = check_claim(claimed_fans=claimed(*names), scored=scored)
    assert check.agrees, check.problems


def test_fans_that_exclude_each_other_are_incompatible_not_impossible():
    check = check_claim(claimed_fans=claimed("Seven Pairs", "Concealed Hand", "Tile Hog"))
    assert check.problems == ("incompatible_fans",)
    assert check.impossible == ()


def test_every_fan_has_a_shape_and_every_reason_a_sentence():
    assert set(FAN_SHAPES) == {fan.key for fan in FANS}
    assert all(FAN_SHAPES[fan.key] <= set(SHAPES) and FAN_SHAPES[fan.key] for fan in FANS)
    reasons = {impossible_reason(a, b) for a in FANS for b in FANS} - {None}
    assert reasons <= set(REASONS)
    assert {"shape", "win", "chicken_hand", "sets", "tiles"} <= reasons


def test_impossible_together_is_symmetric():
    for a in FANS:
        for b in FANS:
            assert impossible_reason(a, b) == impossible_reason(b, a), (a.key, b.key)


# Soundness over many real hands: what the calculator counts for one hand is never reported
# as impossible together, nor as counted too often, and each fan is counted in a shape the
# table allows it.
SAMPLE = 3000


@pytest.fixture(scope="module")
def generated():
    return [score_hand(g.hand) for g in hand_generators.sample(SAMPLE)]


def test_no_generated_hand_has_fans_reported_impossible_or_counted_too_often(generated):
    shapes_seen = set()
    for scored in generated:
        shapes_seen.add(scored.shape)
        fans = tuple(ClaimedFan(fan_by_name(f.key), f.count) for f in scored.fans)
        check = check_claim(claimed_fans=fans, scored=scored)
        # Generated hands may be below the minimum: every other check must pass.
        assert set(check.problems) <= {"below_minimum"}, (scored, check)
        for f in scored.fans:
            assert scored.shape in FAN_SHAPES[f.key], (f.key, scored.shape)
    assert shapes_seen == set(SHAPES)


def test_the_sample_reaches_every_count_limit_above_one(generated):
    most = {}
    for scored in generated:
        for f in scored.fans:
            most[f.key] = max(most.get(f.key, 0), f.count)
    # A limit no hand reaches would let a wrong count through: each is reached, except Two
    # Terminal Chows ×2, the other reading of Mixed Double Chow ×2 + Two Terminal Chows.
    reached = {key: most.get(key, 0) for key in MAX_COUNT if key != "two_terminal_chows"}
    assert reached == {key: n for key, n in MAX_COUNT.items() if key != "two_terminal_chows"}
    assert {key for key, n in most.items() if n > 1} <= set(MAX_COUNT)


# --- Counts --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "most"),
    [
        ("Pure Straight ×2", 1),
        ("Seven Pairs ×2", 1),
        ("Concealed Kong ×2", 1),
        ("Melded Kong ×2", 1),
        ("Dragon Pung ×2", 1),
        ("Pure Double Chow ×3", 2),
        ("Mixed Double Chow ×3", 2),
        ("Short Straight ×3", 2),
        ("Two Terminal Chows ×3", 2),
        ("Double Pung ×3", 2),
        ("Tile Hog ×4", 3),
        ("Pung of Terminals or Honors ×5", 4),
        ("Flower Tiles ×9", 8),
    ],
)
def test_a_fan_claimed_more_often_than_a_hand_counts_it_is_reported(text, most):
    check = check_claim(claimed_total=8, claimed_fans=parse_claimed_fans(text))
    assert "count_too_high" in check.problems
    [too_many] = check.too_many
    assert too_many.most == most == max_count(too_many.fan)
    assert too_many.count == most + 1


@pytest.mark.parametrize(
    "text",
    [
        "Pure Double Chow ×2, Mixed Double Chow ×2",
        "Tile Hog ×3",
        "Pung of Terminals or Honors ×4",
        "Flower Tiles ×8",
    ],
)
def test_counts_a_hand_can_reach_are_not_reported(text):
    check = check_claim(claimed_total=8, claimed_fans=parse_claimed_fans(text))
    assert "count_too_high" not in check.problems
    assert check.too_many == ()


# --- Empty claims --------------------------------------------------------------------------


def test_an_empty_claim_never_agrees():
    assert check_claim().problems == ("empty_claim",)
    assert not check_claim().agrees


def test_flowers_alone_are_an_empty_claim_even_with_a_hand():
    flowers = parse_claimed_fans("Flower Tiles ×3")
    assert check_claim(claimed_fans=flowers).problems == ("empty_claim",)
    scored = score_hand(parse_hand(PURE_STRAIGHT))
    assert check_claim(claimed_fans=flowers, scored=scored).problems == ("empty_claim",)


def test_problems_are_reported_in_order_with_their_details():
    scored = score_hand(parse_hand(PURE_STRAIGHT))  # 20 points without flowers
    check = check_claim(
        claimed_total=30,
        claimed_fans=parse_claimed_fans(
            "Pure Straight ×2, Seven Pairs, Concealed Hand, Chicken Hand"
        ),
        scored=scored,
    )
    assert check.problems == (
        "count_too_high",
        "incompatible_fans",
        "impossible_together",
        "missing_fans",
        "extra_fans",
        "total_differs_from_fans_named",
        "wrong_total",
    )
    fan = fan_by_name
    assert [(x.fan, x.count, x.most) for x in check.too_many] == [(fan("Pure Straight"), 2, 1)]
    assert (fan("Seven Pairs"), fan("Concealed Hand")) in check.incompatible
    pairs = {(p.first, p.second): p.reason for p in check.impossible}
    assert pairs[(fan("Seven Pairs"), fan("Pure Straight"))] == "shape"
    assert (fan("Seven Pairs"), fan("Chicken Hand")) in pairs
    assert check.missing == (
        ClaimedFan(fan("One Voided Suit")),
        ClaimedFan(fan("Single Wait")),
    )
    assert (check.claimed_total, check.named_total, check.computed_total) == (30, 66, 20)
