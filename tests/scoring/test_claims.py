"""Checking a referee's claim: with the winning hand, and from fan names alone."""

import pytest

from tournament.scoring.claims import ClaimedFan, check_claim, parse_claimed_fans
from tournament.scoring.fans import fan_by_name
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
    assert not check.reaches_minimum


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
