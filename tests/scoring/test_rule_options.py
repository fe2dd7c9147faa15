"""The scoring core under a tournament's rule options (docs/scoring.md, "Rule options"): the
kong reading, flowers, blessings and the minimum, in the calculator, the notation, the
claims and the command line (no Django)."""

import dataclasses
import io
import json
from pathlib import Path

import pytest

from reference import hand_generators
from tests.markdown_tables import code_text, table_rows
from tournament.scoring import __main__ as cli
from tournament.scoring import calculator
from tournament.scoring.claims import (
    ClaimedFan,
    check_claim,
    impossible_reason,
    parse_claimed_fans,
)
from tournament.scoring.fans import FANS, fan_by_name
from tournament.scoring.hand import HandError, WinningHand
from tournament.scoring.notation import (
    format_hand,
    hand_from_json,
    parse_hand,
    parse_hand_with_conditions,
    score_hand,
)
from tournament.scoring.rules import SEED_RULES, Rules

DOC = Path(__file__).resolve().parents[2] / "docs" / "scoring.md"
EXAMPLES = table_rows(DOC, "| hand | options | fans | total | valid |")

KONG_3, KONG_5, KONG_6 = (Rules(melded_and_concealed_kong=k) for k in (3, 5, 6))
BLESSINGS = Rules(blessings=True)
# One melded kong of 1m, one concealed kong of red dragons, Half Flush besides.
MIXED_KONGS = parse_hand("456m789m5m [1111m:2] {CCCC} +5m")


def rules_of(options: str) -> Rules:
    read = cli.parse_arguments(["--notation", *code_text(options).split()])
    assert read is not None, options
    return read[1]


def fans_text(scored) -> str:
    return ", ".join(
        f"{fan.name_en} {fan.points}" + (f"×{fan.count}" if fan.count != 1 else "")
        for fan in scored.fans
    )


# --- the worked examples of docs/scoring.md -----------------------------------------------


def test_the_doc_has_an_example_of_every_option():
    options = {code_text(options) for _, options, *_ in EXAMPLES}
    assert {"", "--kong 3", "--kong 5", "--kong 6", "--no-flowers", "--blessings"} <= options
    assert "--minimum 6" in options


@pytest.mark.parametrize(("hand", "options", "fans", "total", "valid"), EXAMPLES)
def test_doc_example_scores_as_written(hand, options, fans, total, valid):
    rules = rules_of(options)
    hand = parse_hand(code_text(hand))
    if fans.startswith("refused: "):
        with pytest.raises(HandError) as refused:
            score_hand(hand, rules)
        assert refused.value.code == code_text(fans.removeprefix("refused: "))
        assert (total, valid) == ("-", "-")
        return
    scored = score_hand(hand, rules)
    assert (fans_text(scored), scored.total, scored.valid) == (fans, int(total), valid == "yes")


# --- the kong reading -----------------------------------------------------------------------


def test_the_three_readings_score_3_5_and_6_for_the_two_kongs():
    kong_fans = {"melded_kong", "concealed_kong", "two_melded_kongs", "melded_and_concealed_kong"}
    points = {}
    for rules in (KONG_3, KONG_5, KONG_6):
        scored = calculator.score(MIXED_KONGS, rules)
        points[rules.melded_and_concealed_kong] = sum(
            fan.points * fan.count for fan in scored.fans if fan.key in kong_fans
        )
    assert points == {3: 3, 5: 5, 6: 6}


def test_under_the_5_reading_each_kong_fan_is_shown_excluded_by_the_mixed_kongs_fan():
    excluded = {(e.key, e.by_key) for e in calculator.score(MIXED_KONGS, KONG_5).excluded}
    assert ("melded_kong", "melded_and_concealed_kong") in excluded
    assert ("concealed_kong", "melded_and_concealed_kong") in excluded


def test_the_seed_reading_is_the_default_and_unchanged():
    assert calculator.score(MIXED_KONGS) == calculator.score(MIXED_KONGS, KONG_3)
    assert "melded_and_concealed_kong" not in {f.key for f in calculator.score(MIXED_KONGS).fans}


@pytest.mark.parametrize(
    "text",
    [
        "456m789m5m [1111m:2] [CCCC:1] +5m",  # two melded
        "456m789m5m {1111m} {CCCC} +5m",  # two concealed
        "456m5m [1111m:2] {CCCC} [9999m:3] +5m",  # three kongs
        "456m789m5mCCC [1111m:2] +5m",  # one kong
    ],
)
def test_the_reading_changes_nothing_but_one_melded_and_one_concealed_kong(text):
    hand = parse_hand(text)
    assert (
        calculator.score(hand, KONG_5) == calculator.score(hand, KONG_6) == calculator.score(hand)
    )


def test_the_memo_holds_one_key_for_every_reading_where_the_reading_changes_nothing():
    calculator.clear_caches()
    hand = parse_hand("456m789m5mCCC [1111m:2] +5m")
    for rules in (KONG_3, KONG_5, KONG_6, SEED_RULES):
        calculator.score(hand, rules)
    assert calculator._condition_fans.cache_info().currsize == 1
    for rules in (KONG_3, KONG_5, KONG_6):
        calculator.score(MIXED_KONGS, rules)
    assert calculator._condition_fans.cache_info().currsize == 4


def test_a_result_does_not_depend_on_the_reading_scored_before():
    first = [calculator.score(MIXED_KONGS, rules) for rules in (KONG_5, KONG_3, KONG_6)]
    calculator.clear_caches()
    again = [calculator.score(MIXED_KONGS, rules) for rules in (KONG_6, KONG_3, KONG_5)]
    assert first == [again[2], again[1], again[0]]


# --- flowers and blessings --------------------------------------------------------------------


def test_flowers_are_refused_only_when_not_played():
    hand = dataclasses.replace(MIXED_KONGS, flowers=1)
    assert calculator.score(hand).total == 15
    with pytest.raises(HandError) as refused:
        calculator.score(hand, Rules(flowers=False))
    assert refused.value.code == "flowers_not_played"
    assert calculator.score(MIXED_KONGS, Rules(flowers=False)).total == 14
    with pytest.raises(HandError):
        calculator.score_arrangements(hand, Rules(flowers=False))


HUMAN = parse_hand("123m456p789s11sEE +E | human seat=S")


def test_a_blessing_scores_8_only_when_played():
    with pytest.raises(HandError) as refused:
        calculator.score(HUMAN)
    assert refused.value.code == "blessings_not_played"
    scored = calculator.score(HUMAN, BLESSINGS)
    without = calculator.score(dataclasses.replace(HUMAN, blessing=None), BLESSINGS)
    # Human Hand (8) takes the place of Concealed Hand (2), which it leaves out.
    assert scored.total == without.total + 8 - 2
    assert ("concealed_hand", "human_hand") in {(e.key, e.by_key) for e in scored.excluded}


@pytest.mark.parametrize("blessing", ["earthly", "human"])
def test_blessings_on_a_discard_leave_out_concealed_hand(blessing):
    hand = dataclasses.replace(HUMAN, blessing=blessing)
    keys = {fan.key for fan in calculator.score(hand, BLESSINGS).fans}
    assert f"{blessing}_hand" in keys and "concealed_hand" not in keys


def test_self_drawn_blessings_leave_out_self_drawn_and_fully_concealed_hand():
    for text in (
        "123m456p789s11sEE +E | self heavenly",
        "123m456p789s11sEE +E | self human seat=W",
    ):
        keys = {fan.key for fan in calculator.score(parse_hand(text), BLESSINGS).fans}
        assert not keys & {"self_drawn", "fully_concealed_hand", "concealed_hand"}, text


def test_heavenly_hand_has_no_wait_and_no_winning_tile_of_its_own():
    tiles = ("1p", "1p", "1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p", "9p", "9p", "5p")
    totals = set()
    for i in range(len(tiles)):
        hand = WinningHand(
            concealed=tiles[:i] + tiles[i + 1 :],
            win_tile=tiles[i],
            self_drawn=True,
            blessing="heavenly",
        )
        scored = calculator.score(hand, BLESSINGS)
        assert {"nine_gates", "heavenly_hand"} <= {fan.key for fan in scored.fans}
        assert not {"edge_wait", "closed_wait", "single_wait"} & {fan.key for fan in scored.fans}
        totals.add(scored.total)
    assert len(totals) == 1
    # Without the blessing, the same 14 tiles are Nine Gates only on the right wait.
    plain = WinningHand(concealed=tiles[1:], win_tile="1p", self_drawn=True)
    assert "nine_gates" not in {fan.key for fan in calculator.score(plain).fans}


# --- the notation -----------------------------------------------------------------------------


@pytest.mark.parametrize("blessing", ["heavenly", "earthly", "human"])
def test_a_blessing_is_written_read_and_given_as_json(blessing):
    seat, self_drawn = ("E", True) if blessing == "heavenly" else ("S", False)
    hand = dataclasses.replace(HUMAN, blessing=blessing, seat_wind=seat, self_drawn=self_drawn)
    text = format_hand(hand)
    assert f" {blessing} seat=" in text
    again, written = parse_hand_with_conditions(text)
    assert again == hand and blessing in written
    obj = {"concealed": list(hand.concealed), "win_tile": "E", "blessing": blessing}
    assert hand_from_json({**obj, "self_drawn": self_drawn, "seat_wind": seat}) == hand
    assert hand_from_json({**obj, "blessing": None}).blessing is None


# --- claims ---------------------------------------------------------------------------------


def claim(text: str, **kwargs):
    return check_claim(claimed_fans=parse_claimed_fans(text), **kwargs)


def test_option_fans_are_read_by_their_english_and_chinese_names():
    assert parse_claimed_fans("明暗杠, Heavenly Hand, 地和, human hand") == tuple(
        ClaimedFan(fan_by_name(name))
        for name in ("melded_and_concealed_kong", "heavenly_hand", "earthly_hand", "human_hand")
    )


def test_a_claimed_option_fan_the_rules_do_not_play_is_a_problem():
    check = claim("Half Flush, 明暗杠, Dragon Pung")
    assert check.problems == ("fans_not_played",)
    assert check.not_played == (fan_by_name("明暗杠"),)
    assert claim("Half Flush, 明暗杠, Dragon Pung", rules=KONG_6).problems == ("fans_not_played",)
    assert claim("Half Flush, 明暗杠, Dragon Pung", rules=KONG_5).agrees
    assert claim("Mixed Straight, 人和", rules=BLESSINGS).agrees
    assert "fans_not_played" in claim("Mixed Straight, 人和").problems


def test_a_claim_under_the_5_reading_agrees_with_the_hand_scored_under_it():
    scored = score_hand(MIXED_KONGS, KONG_5)
    names = ", ".join(f.name_zh for f in scored.fans)
    assert claim(names, scored=scored, rules=KONG_5).agrees
    seed = claim(names, scored=score_hand(MIXED_KONGS), rules=SEED_RULES)
    assert {"fans_not_played", "extra_fans", "missing_fans"} <= set(seed.problems)


def test_the_kong_fans_claimed_together_follow_the_reading():
    both = "Half Flush, Melded Kong, Concealed Kong"
    assert claim(both).agrees
    for rules in (KONG_5, KONG_6):
        check = claim(both, rules=rules)
        assert check.problems == ("impossible_together",)
        assert check.impossible[0].reason == "kongs"
    six = "Half Flush, Two Melded Kongs, Concealed Kong"
    assert claim(six, rules=KONG_6).agrees
    assert claim(six).problems == ("impossible_together",)
    assert claim("Half Flush, 明暗杠, Two Melded Kongs", rules=KONG_5).problems == (
        "impossible_together",
    )


def test_the_minimum_is_the_rules():
    assert claim("Two Dragon Pungs").problems == ("below_minimum",)
    check = claim("Two Dragon Pungs", rules=Rules(minimum_fan=6))
    assert check.agrees and check.minimum == 6
    assert check_claim(claimed_total=5, rules=Rules(minimum_fan=6)).problems == ("below_minimum",)


def test_a_blessing_is_never_claimed_with_a_kong_or_the_last_tile():
    for other in ("Melded Kong", "Last Tile Claim", "Out with Replacement Tile", "明暗杠"):
        for blessing in ("天和", "地和", "人和"):
            reason = impossible_reason(fan_by_name(blessing), fan_by_name(other), BLESSINGS)
            assert reason == "first_go_around", (blessing, other)
    assert impossible_reason(fan_by_name("天和"), fan_by_name("Concealed Hand")) == "win"
    assert impossible_reason(fan_by_name("地和"), fan_by_name("Self-Drawn")) == "win"
    assert impossible_reason(fan_by_name("人和"), fan_by_name("Melded Hand")) == "claimed_sets"


@pytest.mark.parametrize("rules", [KONG_5, KONG_6], ids=["kong 5", "kong 6"])
def test_impossible_together_is_symmetric_under_each_reading(rules):
    for a in FANS:
        for b in FANS:
            assert impossible_reason(a, b, rules) == impossible_reason(b, a, rules), (a.key, b.key)


# Soundness: what the calculator counts for one hand under the rules is never reported as
# impossible together by the claims check under the same rules.
KONG_HANDS = [
    g.hand
    for g in hand_generators.sample(1500)
    if sum(meld.kind == "kong" for meld in g.hand.melds) >= 1
]


@pytest.mark.parametrize("rules", [KONG_5, KONG_6], ids=["kong 5", "kong 6"])
def test_no_hand_with_kongs_has_fans_reported_impossible_under_its_reading(rules):
    assert any(
        len([m for m in hand.melds if m.kind == "kong"]) == 2
        and sum(m.concealed for m in hand.melds) == 1
        for hand in KONG_HANDS
    )
    for hand in KONG_HANDS:
        scored = score_hand(hand, rules)
        fans = tuple(ClaimedFan(fan_by_name(f.key), f.count) for f in scored.fans)
        check = check_claim(claimed_fans=fans, scored=scored, rules=rules)
        assert set(check.problems) <= {"below_minimum"}, (format_hand(hand), check)


def test_no_blessed_hand_has_fans_reported_impossible():
    checked = 0
    for generated in hand_generators.sample(600):
        hand = generated.hand
        if hand.melds or hand.kong or hand.last_tile:
            continue
        for blessing, seat, self_drawn in (
            ("heavenly", "E", True),
            ("earthly", "S", False),
            ("human", "W", hand.self_drawn),
        ):
            if blessing == "heavenly" and hand.fourth_tile:
                continue
            blessed = dataclasses.replace(
                hand, blessing=blessing, seat_wind=seat, self_drawn=self_drawn
            )
            scored = score_hand(blessed, BLESSINGS)
            fans = tuple(ClaimedFan(fan_by_name(f.key), f.count) for f in scored.fans)
            check = check_claim(claimed_fans=fans, scored=scored, rules=BLESSINGS)
            assert set(check.problems) <= {"below_minimum"}, (format_hand(blessed), check)
            checked += 1
    assert checked > 100


# --- the command line -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "rules"),
    [
        (["--jsonl"], SEED_RULES),
        (["--kong", "5", "--notation"], KONG_5),
        (["--notation", "--no-flowers", "--blessings", "--minimum", "6"], None),
    ],
)
def test_the_command_line_reads_the_options(args, rules):
    expected = rules or Rules(flowers=False, blessings=True, minimum_fan=6)
    assert cli.parse_arguments(args)[1] == expected


@pytest.mark.parametrize(
    "args",
    [
        ["--notation", "--kong", "4"],
        ["--notation", "--kong"],
        ["--notation", "--minimum", "0"],
        ["--notation", "--minimum", "eight"],
        ["--notation", "--blessings", "--blessings"],
        ["--notation", "--jsonl"],
        ["--kong", "5"],
    ],
)
def test_the_command_line_refuses_options_it_cannot_play(args):
    assert cli.parse_arguments(args) is None
    assert cli.main(args, io.StringIO(""), io.StringIO()) == 2


def test_the_command_line_scores_under_the_options(capsys):
    out = io.StringIO()
    lines = "456m789m5m [1111m:2] {CCCC} +5m\n123m456p789s11sEE +E | human seat=S\n"
    assert cli.main(["--notation", "--kong", "5"], io.StringIO(lines), out) == 0
    kongs, human = (json.loads(line) for line in out.getvalue().splitlines())
    assert kongs["total"] == 16 and kongs["fans"][1]["name_zh"] == "明暗杠"
    assert human["error"]["code"] == "blessings_not_played"
    assert cli.main(["--help"]) == 0
    usage = capsys.readouterr().out
    assert all(option in usage for option in ("--kong", "--no-flowers", "--blessings"))
