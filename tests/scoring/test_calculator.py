"""The fan calculator: hand-worked examples of the tricky rules, and a quick differential
check against the MahjongGB C++ calculator (the test oracle)."""

import dataclasses
import random
import re
from collections import Counter

import pytest

from reference import oracle
from tournament.scoring import calculator, settlement
from tournament.scoring.calculator import ExcludedFan, FanCount, Scored, score
from tournament.scoring.fans import FANS
from tournament.scoring.hand import ALL_TILES, HandError, Meld, WinningHand
from tournament.scoring.rules import Rules
from tournament.scoring.settlement import HandResult, Outcome, SettlementError, settle_hand

# --- Building hands ------------------------------------------------------------------------


def tiles(text: str) -> tuple[str, ...]:
    """Expand "123m45p EE" into ("1m", "2m", "3m", "4p", "5p", "E", "E")."""
    out: list[str] = []
    for digits, suit, honors in re.findall(r"(\d+)([mps])|([ESWNCFP])", text.replace(" ", "")):
        if honors:
            out.append(honors)
        else:
            out += [f"{d}{suit}" for d in digits]
    return tuple(out)


def chow(text: str) -> Meld:
    return Meld("chow", tiles(text), claimed_from=1)


def pung(tile: str) -> Meld:
    return Meld("pung", (tile,) * 3, claimed_from=2)


def kong(tile: str, *, concealed: bool = False) -> Meld:
    return Meld("kong", (tile,) * 4, concealed=concealed, claimed_from=None if concealed else 3)


def hand(concealed: str, win: str, *melds: Meld, **conditions) -> WinningHand:
    return WinningHand(concealed=tiles(concealed), win_tile=win, melds=melds, **conditions)


def fans(result: Scored) -> dict[str, int]:
    return {f.name_en: f.count for f in result.fans}


# --- Waits: edge, closed and single count only when the winning tile is the only one -------

WAITS = [
    pytest.param(
        hand("456p 789s EEE 1233m", "3m"),
        {
            "Mixed Straight": 1,
            "Prevalent Wind": 1,
            "Seat Wind": 1,
            "Concealed Hand": 1,
            "Edge Wait": 1,
        },
        id="edge_wait_12_waiting_3",
    ),
    pytest.param(
        hand("123m 456p 789s 4556m", "5m"),
        {
            "Mixed Straight": 1,
            "Concealed Hand": 1,
            "All Chows": 1,
            "Mixed Double Chow": 1,
            "Closed Wait": 1,
        },
        id="closed_wait_4556_waiting_5_as_the_seed_says",
    ),
    pytest.param(
        hand("123m 567m 456p 789s E", "E"),
        {"Mixed Straight": 1, "Concealed Hand": 1, "Single Wait": 1},
        id="single_wait_on_an_honor",
    ),
    pytest.param(
        hand("123p 789s EE 45567m", "6m"),
        {"Mixed Straight": 1, "Concealed Hand": 1},
        id="no_closed_wait_45567_waits_on_3_and_6",
    ),
    pytest.param(
        hand("123m 456p 789s 1112m", "2m"),
        {
            "Mixed Straight": 1,
            "Concealed Hand": 1,
            "Tile Hog": 1,
            "Pung of Terminals or Honors": 1,
            "No Honors": 1,
        },
        id="no_single_wait_1112_waits_on_2_and_3",
    ),
    pytest.param(
        hand("234m 456m 6666s 888s", "7s"),
        {
            "Concealed Hand": 1,
            "Tile Hog": 1,
            "One Voided Suit": 1,
            "All Simples": 1,
            "Closed Wait": 1,
        },
        id="closed_wait_when_the_other_wait_is_held_four_times",
    ),
    pytest.param(
        hand("1s 333s", "1s", kong("9s"), kong("7s", concealed=True), kong("2s", concealed=True)),
        {
            "Three Kongs": 1,
            "Full Flush": 1,
            "Three Concealed Pungs": 1,
            "All Pungs": 1,
            "Pung of Terminals or Honors": 1,
            "Single Wait": 1,
        },
        id="single_wait_when_the_other_wait_is_a_kong_of_the_hand",
    ),
]


@pytest.mark.parametrize(("winning", "expected"), WAITS)
def test_wait_fans_count_only_for_the_only_winning_tile(winning, expected):
    assert fans(score(winning)) == expected


def test_edge_wait_is_preferred_to_single_wait_when_both_readings_exist():
    result = score(hand("456p 789s EEE 1233m", "3m"))
    assert "Edge Wait" in fans(result)
    assert "Single Wait" not in fans(result)


# --- Combining chows: each unused chow combines once with a used one (套算一次) --------------

CHOW_COMBINATIONS = [
    pytest.param(
        hand("123m 123p 123s 123s 9s", "9s"),
        {"Mixed Triple Chow": 1, "Pure Double Chow": 1},
        id="mixed_triple_chow_and_the_fourth_chow_once",
    ),
    pytest.param(
        hand("123m 456m 123p 456p 9s", "9s"),
        {"Mixed Double Chow": 2, "Short Straight": 1},
        id="four_chows_give_at_most_three_pairs",
    ),
    pytest.param(
        hand("123m 123m 123p 789m 5s", "5s"),
        {"Pure Double Chow": 1, "Mixed Double Chow": 1, "Two Terminal Chows": 1},
        id="one_chow_combined_with_each_of_three_others",
    ),
    pytest.param(
        hand("123m 456m 789m 456p 5s", "5s"),
        {"Pure Straight": 1, "Mixed Double Chow": 1},
        id="pure_straight_and_one_more_pair",
    ),
    pytest.param(
        hand("123m 345m 567m 789m 5s", "5s"),
        {"Four Pure Shifted Chows": 1},
        id="four_shifted_chows_exclude_two_terminal_chows",
    ),
]


@pytest.mark.parametrize(("winning", "expected"), CHOW_COMBINATIONS)
def test_chows_combine_under_the_fifth_principle(winning, expected):
    shown = fans(score(winning))
    chow_fans = {
        name: count
        for name, count in shown.items()
        if name
        in {
            "Mixed Triple Chow",
            "Pure Straight",
            "Four Pure Shifted Chows",
            "Pure Double Chow",
            "Mixed Double Chow",
            "Short Straight",
            "Two Terminal Chows",
        }
    }
    assert chow_fans == expected


# --- All Pungs and concealed pungs ----------------------------------------------------------


def test_four_concealed_pungs_excludes_all_pungs_and_concealed_hand():
    result = score(hand("111m 222p 444s 555s 9p", "9p"))
    assert fans(result) == {
        "Four Concealed Pungs": 1,
        "Pung of Terminals or Honors": 1,
        "No Honors": 1,
        "Single Wait": 1,
    }
    assert result.total_without_flowers == 67
    excluded = {(e.name_en, e.by_en) for e in result.excluded}
    assert ("All Pungs", "Four Concealed Pungs") in excluded
    assert ("Concealed Hand", "Four Concealed Pungs") in excluded


def test_a_pung_completed_by_a_discard_is_not_concealed():
    result = score(hand("111m 222p 444s 55s 99p", "5s"))
    assert fans(result) == {
        "Three Concealed Pungs": 1,
        "All Pungs": 1,
        "Concealed Hand": 1,
        "Pung of Terminals or Honors": 1,
        "No Honors": 1,
    }


def test_the_same_pung_completed_by_self_draw_stays_concealed():
    result = score(hand("111m 222p 444s 55s 99p", "5s", self_drawn=True))
    assert "Four Concealed Pungs" in fans(result)
    assert "Self-Drawn" in fans(result)
    assert "Fully Concealed Hand" not in fans(result)


def test_a_discard_that_also_fits_a_chow_keeps_the_pung_concealed():
    result = score(hand("111m 99s 23m 567s 999p", "1m"))
    assert "Two Concealed Pungs" in fans(result)


# --- Special shapes ---------------------------------------------------------------------------


def test_seven_pairs_counts_four_of_a_kind_as_two_pairs_and_a_tile_hog():
    result = score(hand("2222 4444 8888 6s", "6s"))
    assert result.shape == "seven_pairs"
    assert fans(result) == {
        "All Green": 1,
        "Seven Pairs": 1,
        "Full Flush": 1,
        "Reversible Tiles": 1,
        "Tile Hog": 3,
        "All Simples": 1,
    }
    assert result.total_without_flowers == 88 + 24 + 24 + 8 + 2 * 3 + 2


def test_seven_shifted_pairs_excludes_seven_pairs_and_full_flush():
    result = score(hand("11223344556677p".replace("77p", "7p"), "7p"))
    assert fans(result) == {"Seven Shifted Pairs": 1}


def test_thirteen_orphans():
    result = score(hand("19m 19p 19s ESWNCFP", "9p", self_drawn=True))
    assert result.shape == "thirteen_orphans"
    assert fans(result) == {"Thirteen Orphans": 1, "Self-Drawn": 1}


def test_knitted_straight_with_a_pung_and_a_pair():
    result = score(hand("147m 258p 369s EEE C", "C"))
    assert result.shape == "knitted_straight"
    assert fans(result) == {
        "Knitted Straight": 1,
        "All Types": 1,
        "Prevalent Wind": 1,
        "Seat Wind": 1,
        "Concealed Hand": 1,
        "Single Wait": 1,
    }


def test_knitted_straight_with_a_chow_and_a_number_pair_is_all_chows():
    result = score(hand("147m 258p 369s 7p 456s", "7p"))
    assert result.shape == "knitted_straight"
    assert fans(result) == {
        "Knitted Straight": 1,
        "Concealed Hand": 1,
        "All Chows": 1,
        "Single Wait": 1,
    }


def test_knitted_straight_with_an_exposed_set():
    result = score(hand("147m 258p 369s C", "C", pung("5s")))
    assert fans(result) == {"Knitted Straight": 1, "Single Wait": 1}


def test_lesser_honors_and_knitted_tiles():
    result = score(hand("147m 258p 36s ESWNC", "F"))
    assert result.shape == "honors_and_knitted"
    assert fans(result) == {"Lesser Honors and Knitted Tiles": 1}


def test_lesser_honors_and_knitted_tiles_with_the_whole_knitted_straight():
    result = score(hand("147m 258p 369s ESWN", "C", self_drawn=True))
    assert fans(result) == {
        "Lesser Honors and Knitted Tiles": 1,
        "Knitted Straight": 1,
        "Self-Drawn": 1,
    }


def test_greater_honors_and_knitted_tiles_excludes_the_lesser():
    result = score(hand("147m 25p 3s ESWNCFP", "9s"))
    assert fans(result) == {"Greater Honors and Knitted Tiles": 1}
    excluded = {(e.name_en, e.by_en) for e in result.excluded}
    assert ("Lesser Honors and Knitted Tiles", "Greater Honors and Knitted Tiles") in excluded


# --- Kongs ------------------------------------------------------------------------------------


def test_one_melded_and_one_concealed_kong_count_each_alone():
    # MahjongGB scores a 5-point 明暗杠 here; the 81-fan table has no such fan.
    result = score(hand("23m 11p", "1m", kong("5s", concealed=True), kong("6s"), chow("456m")))
    assert fans(result) == {
        "Concealed Kong": 1,
        "Melded Kong": 1,
        "Short Straight": 1,
        "No Honors": 1,
    }
    assert result.total == 5


@pytest.mark.parametrize(
    ("melds", "expected"),
    [
        ((kong("5s", concealed=True), kong("6s", concealed=True)), "Two Concealed Kongs"),
        ((kong("5s"), kong("6s")), "Two Melded Kongs"),
    ],
)
def test_two_kongs_of_the_same_kind(melds, expected):
    result = score(hand("23m 11p", "1m", *melds, chow("456m")))
    assert expected in fans(result)
    assert "Concealed Kong" not in fans(result)
    assert "Melded Kong" not in fans(result)
    assert "Two Concealed Pungs" not in fans(result)


def test_four_kongs_excludes_all_pungs_and_single_wait():
    result = score(hand("8s", "8s", kong("7m"), kong("8p"), kong("9s"), kong("9m", concealed=True)))
    assert fans(result) == {
        "Four Kongs": 1,
        "Upper Tiles": 1,
        "Mixed Shifted Pungs": 1,
        "Double Pung": 1,
        "Pung of Terminals or Honors": 2,
    }


# --- Win conditions ----------------------------------------------------------------------------


def test_chicken_hand_when_nothing_else_counts():
    result = score(hand("34s EE", "5s", chow("234m"), pung("7s"), chow("567p")))
    assert fans(result) == {"Chicken Hand": 1}
    assert result.total == 8
    assert result.valid


def test_flowers_count_after_the_hand_and_not_toward_the_minimum():
    result = score(hand("34s EE", "5s", chow("234m"), pung("7s"), chow("567p"), flowers=3))
    assert result.fans[-1] == FanCount("flower_tiles", "Flower Tiles", "花牌", 1, 3)
    assert (result.total, result.total_without_flowers) == (11, 8)


def test_flowers_do_not_make_a_hand_valid():
    result = score(hand("345s 1p", "1p", chow("234m"), pung("7s"), chow("567p"), flowers=8))
    assert result.total_without_flowers < 8
    assert result.total >= 8
    assert not result.valid


def test_no_flower_fan_without_flowers():
    result = score(hand("34s EE", "5s", chow("234m"), pung("7s"), chow("567p")))
    assert "Flower Tiles" not in fans(result)


ROBBED = hand("123m 456p 78s EEE 55p", "9s", kong=True)


def test_robbing_the_kong():
    result = score(ROBBED)
    assert fans(result) == {
        "Mixed Straight": 1,
        "Robbing the Kong": 1,
        "Prevalent Wind": 1,
        "Seat Wind": 1,
        "Concealed Hand": 1,
    }
    assert result.total == 22


def test_robbing_the_kong_excludes_last_tile():
    result = score(hand("123m 456p 78s EEE 55p", "9s", kong=True, fourth_tile=True))
    assert "Last Tile" not in fans(result)
    assert (
        ExcludedFan(
            "last_tile", "Last Tile", "和绝张", "robbing_the_kong", "Robbing the Kong", "抢杠和"
        )
        in result.excluded
    )


@pytest.mark.parametrize(
    ("conditions", "shown", "not_shown"),
    [
        ({"self_drawn": True, "kong": True}, "Out with Replacement Tile", "Self-Drawn"),
        ({"self_drawn": True, "last_tile": True}, "Last Tile Draw", "Self-Drawn"),
        ({"last_tile": True}, "Last Tile Claim", "Last Tile Draw"),
        ({"fourth_tile": True}, "Last Tile", "Robbing the Kong"),
        ({"self_drawn": True}, "Self-Drawn", "Concealed Hand"),
    ],
)
def test_win_conditions(conditions, shown, not_shown):
    result = score(
        hand("78s EEE 55p", "9s", chow("123m"), kong("4p", concealed=True), **conditions)
    )
    assert shown in fans(result)
    assert not_shown not in fans(result)


def test_last_tile_is_certain_when_the_other_three_copies_are_in_exposed_chows():
    result = score(hand("45p EE", "6p", chow("456p"), chow("567p"), chow("678p")))
    assert "Last Tile" in fans(result)


def test_fully_concealed_hand_replaces_self_drawn_and_concealed_hand():
    result = score(hand("123m 456p 789s 1233m".replace("1233m", "123s 5s"), "5s", self_drawn=True))
    assert "Fully Concealed Hand" in fans(result)
    assert "Self-Drawn" not in fans(result)
    assert "Concealed Hand" not in fans(result)


def test_melded_hand_excludes_single_wait():
    melds = (chow("123m"), pung("E"), chow("456p"), pung("C"))
    assert fans(score(hand("5s", "5s", *melds))) == {
        "All Types": 1,
        "Melded Hand": 1,
        "Dragon Pung": 1,
        "Prevalent Wind": 1,
        "Seat Wind": 1,
    }


def test_melded_hand_needs_a_discard_and_exposed_sets_only():
    melds = (chow("123m"), pung("E"), chow("456p"))
    self_drawn = score(hand("5s", "5s", *melds, pung("C"), self_drawn=True))
    assert "Melded Hand" not in fans(self_drawn)
    assert {"Single Wait", "Self-Drawn"} <= fans(self_drawn).keys()
    concealed_kong = score(hand("5s", "5s", *melds, kong("C", concealed=True)))
    assert "Melded Hand" not in fans(concealed_kong)


@pytest.mark.parametrize(
    ("seat", "prevalent", "expected"),
    [
        ("E", "E", {"Prevalent Wind": 1, "Seat Wind": 1}),
        ("E", "S", {"Seat Wind": 1}),
        ("S", "E", {"Prevalent Wind": 1}),
        ("S", "W", {"Pung of Terminals or Honors": 1}),
    ],
)
def test_wind_pungs_follow_seat_and_prevalent_wind(seat, prevalent, expected):
    result = score(
        hand(
            "EEE 5s",
            "5s",
            chow("123m"),
            chow("456p"),
            chow("789p"),
            seat_wind=seat,
            prevalent_wind=prevalent,
        )
    )
    wind_fans = {
        k: v
        for k, v in fans(result).items()
        if k in {"Prevalent Wind", "Seat Wind", "Pung of Terminals or Honors"}
    }
    assert wind_fans == expected


# --- Choosing the arrangement ----------------------------------------------------------------


def test_the_arrangement_worth_most_is_kept():
    # 111222333m: three pungs (Pure Shifted Pungs, Three Concealed Pungs) beat three
    # chows (Pure Triple Chow, All Chows).
    result = score(hand("111222333m 456p 7s", "7s"))
    assert fans(result) == {
        "Pure Shifted Pungs": 1,
        "Three Concealed Pungs": 1,
        "Concealed Hand": 1,
        "Pung of Terminals or Honors": 1,
        "No Honors": 1,
        "Single Wait": 1,
    }
    assert result.total == 45


def test_seven_pairs_or_pure_terminal_chows_the_higher_wins():
    result = score(hand("1122337788995m", "5m"))
    assert result.shape == "standard"
    assert "Pure Terminal Chows" in fans(result)
    assert "Seven Pairs" not in fans(result)


def test_nine_gates_counts_one_pung_of_ones_or_nines_as_its_own():
    result = score(hand("1112345678999m", "2m"))
    assert fans(result) == {
        "Nine Gates": 1,
        "Two Concealed Pungs": 1,
        "Short Straight": 1,
        "Pung of Terminals or Honors": 1,
    }
    excluded = {(e.name_en, e.by_en) for e in result.excluded}
    assert ("Pung of Terminals or Honors", "Nine Gates") in excluded
    assert ("Full Flush", "Nine Gates") in excluded


def test_not_a_winning_hand_raises():
    with pytest.raises(HandError) as error:
        score(hand("123m 456p 789s 12s E", "W"))
    assert error.value.code == "not_a_winning_hand"


def test_fans_are_listed_highest_first_then_in_table_order():
    result = score(ROBBED)
    order = [f.key for f in FANS]
    keys = [(-f.points, order.index(f.key)) for f in result.fans]
    assert keys == sorted(keys)


def test_big_four_winds_explains_what_it_excludes():
    result = score(hand("EEE SSS WWW NNN C", "C"))
    assert result.total_without_flowers == 88 + 64 + 64 + 1
    assert {(e.key, e.by_key) for e in result.excluded} >= {
        ("big_three_winds", "big_four_winds"),
        ("all_pungs", "big_four_winds"),
        ("seat_wind", "big_four_winds"),
        ("prevalent_wind", "big_four_winds"),
        ("all_terminals_and_honors", "all_honors"),
    }


def test_order_of_input_tiles_does_not_matter():
    a = hand("123m 456p 789s 4556m", "5m")
    b = WinningHand(concealed=tuple(reversed(a.concealed)), win_tile="5m")
    assert score(a) == score(b)


# --- Quick differential check against MahjongGB ---------------------------------------------
# A guard of its own hands (not the differential test's generators), compared through the one
# oracle adapter, reference/oracle.py, with its documented deviations.

_TERMINALS_AND_HONORS = [0, 8, 9, 17, 18, 26, *range(27, 34)]


class _Tiles:
    def __init__(self):
        self.used = [0] * 34

    def take(self, *indices: int) -> bool:
        wanted = Counter(indices)
        if any(self.used[t] + n > 4 for t, n in wanted.items()):
            return False
        for t, n in wanted.items():
            self.used[t] += n
        return True


def _random_sets(rng: random.Random) -> tuple[list[int], list[Meld]] | None:
    pool = rng.choice(
        [
            list(range(34)),
            list(range(9)),
            list(range(9)) + list(range(27, 34)),
            _TERMINALS_AND_HONORS,
            [9 * s + r for s in range(3) for r in (3, 4, 5, 6, 7, 8)],
            list(range(27)),
        ]
    )
    suited = [t for t in pool if t < 27]
    box = _Tiles()
    sets: list[tuple[str, list[int]]] = []
    for _ in range(60):
        if len(sets) == 4:
            break
        roll = rng.random()
        if roll < 0.5 and suited:
            start = rng.choice(suited)
            if start % 9 > 6 or start + 2 not in pool or not box.take(start, start + 1, start + 2):
                continue
            sets.append(("chow", [start, start + 1, start + 2]))
        else:
            t = rng.choice(pool)
            size = 4 if roll > 0.9 else 3
            if box.take(*[t] * size):
                sets.append(("kong" if size == 4 else "pung", [t] * size))
    pair = rng.choice(pool)
    if len(sets) < 4 or not box.take(pair, pair):
        return None
    exposed = rng.choice([0, 0, 1, 2, 3, 4])
    concealed = [pair, pair]
    melds = []
    for i, (kind, set_tiles) in enumerate(sets):
        names = tuple(ALL_TILES[t] for t in set_tiles)
        if kind == "kong":
            hidden = rng.random() < 0.5
            melds.append(Meld("kong", names, concealed=hidden, claimed_from=None if hidden else 1))
        elif i < exposed:
            melds.append(Meld(kind, names, claimed_from=1))
        else:
            concealed += set_tiles
    return concealed, melds


def _random_special(rng: random.Random) -> tuple[list[int], list[Meld]]:
    kind = rng.choice(["pairs", "orphans", "knitted", "straight"])
    perm = rng.sample(range(3), 3)
    knitted = [9 * suit + perm[suit] + 3 * k for suit in range(3) for k in range(3)]
    if kind == "pairs":
        kinds = rng.sample(range(34), 6)
        return [t for t in (*kinds, rng.choice(kinds)) for _ in range(2)], []
    if kind == "orphans":
        return [*_TERMINALS_AND_HONORS, rng.choice(_TERMINALS_AND_HONORS)], []
    if kind == "knitted":
        honors = rng.sample(range(27, 34), rng.choice([5, 6, 7]))
        return honors + rng.sample(knitted, 14 - len(honors)), []
    start = rng.choice([t for t in range(27) if t % 9 < 7])
    pair = rng.choice(range(27, 34))
    return [*knitted, start, start + 1, start + 2, pair, pair], []


def _random_hand(rng: random.Random) -> WinningHand:
    while True:
        shape = _random_sets(rng) if rng.random() < 0.85 else _random_special(rng)
        if shape is None:
            continue
        concealed, melds = shape
        win = rng.choice(concealed)
        concealed.remove(win)
        self_drawn = rng.random() < 0.4
        alone = win not in concealed and all(ALL_TILES[win] not in m.tiles for m in melds)
        kong_drawn = self_drawn and any(m.kind == "kong" for m in melds)
        return WinningHand(
            concealed=tuple(ALL_TILES[t] for t in concealed),
            win_tile=ALL_TILES[win],
            melds=tuple(melds),
            self_drawn=self_drawn,
            fourth_tile=win not in concealed and rng.random() < 0.1,
            kong=(kong_drawn or (alone and not self_drawn)) and rng.random() < 0.2,
            last_tile=rng.random() < 0.1,
            seat_wind=rng.choice("ESWN"),
            prevalent_wind=rng.choice("ESWN"),
            flowers=rng.choice([0, 0, 1, 3]),
        )


def test_agrees_with_mahjong_gb_on_300_random_hands():
    rng = random.Random(20240601)
    disagreements = []
    compared = 0
    for _ in range(300):
        winning = _random_hand(rng)
        if not oracle.is_oracle_win(winning):  # not a win for the oracle either
            with pytest.raises(HandError):
                score(winning)
            continue
        comparison = oracle.compare(winning, score(winning))
        compared += 1
        if not comparison.accepted:
            disagreements.append(comparison.report())
    assert compared >= 250
    assert disagreements == [], "\n".join(disagreements[:10])


# --- Error codes, shared constants and the helpers for tests ---------------------------------


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"win_tile": "0m"}, "unknown_tile"),
        ({"concealed": ("X", *ROBBED.concealed[1:])}, "unknown_tile"),
        ({"melds": (Meld("pung", ("Z", "Z", "Z")),)}, "unknown_tile"),
        ({"seat_wind": "X"}, "invalid_seat_wind"),
        ({"prevalent_wind": "east"}, "invalid_prevalent_wind"),
    ],
)
def test_a_tile_or_wind_the_calculator_cannot_read_has_a_listed_code(changes, code):
    from tournament.scoring.notation import ERROR_CODES

    with pytest.raises(HandError) as error:
        score(dataclasses.replace(ROBBED, **changes))
    assert error.value.code == code
    assert error.value.code in ERROR_CODES


def _settles(scored: Scored) -> bool:
    """Whether settlement accepts a self-drawn win with the fan and flowers of ``scored``."""
    flowers = scored.total - scored.total_without_flowers
    win = HandResult(
        outcome=Outcome.SELF_DRAWN, winner=0, fan=scored.total_without_flowers, flowers=flowers
    )
    try:
        settle_hand(win)
    except SettlementError as error:
        assert error.code == "fan_below_minimum"
        return False
    return True


def test_the_eight_fan_minimum_is_settlements():
    # One minimum, the rules': the calculator calls a hand valid exactly when settlement
    # accepts its fan, just below and at the minimum, flowers never counting.
    assert Rules().minimum_fan == settlement.MIN_FAN
    assert not hasattr(calculator, "MIN_POINTS") and not hasattr(calculator, "MIN_FAN")
    seven = score(hand("234m 456p 678s 22s 23p", "4p"))  # 2 + 2 + 2 + 1
    assert (seven.total_without_flowers, seven.valid) == (settlement.MIN_FAN - 1, False)
    flowers = score(hand("234m 456p 678s 22s 23p", "4p", flowers=3))  # flowers do not count
    assert (flowers.total, flowers.total_without_flowers, flowers.valid) == (10, 7, False)
    eight = score(hand("234m 456p 678s 22s 24p", "3p"))  # 2 + 2 + 2 + 1 + Closed Wait 1
    assert (eight.total_without_flowers, eight.valid) == (settlement.MIN_FAN, True)
    for scored in (seven, flowers, eight):
        assert scored.valid == _settles(scored)
    # A tournament's lower minimum makes the seven-fan hand a win.
    six = Rules(minimum_fan=6)
    assert score(hand("234m 456p 678s 22s 23p", "4p"), six).valid


def test_score_arrangements_lists_every_arrangement_and_score_keeps_one_worth_most():
    # 1122344m 3m: the 3m closes 234m (pair 11) or ends 123m (pair 44); both worth 68.
    winning = hand("1122344m", "3m", chow("234m"), chow("123m"), self_drawn=True)
    kept = score(winning)
    arrangements = calculator.score_arrangements(winning)
    waits = {f.name_en for s in arrangements for f in s.fans if f.name_en.endswith("Wait")}
    assert waits == {"Edge Wait", "Closed Wait"}
    assert {s.total for s in arrangements} == {68}
    assert kept in arrangements
    assert kept.total == max(s.total for s in arrangements)
    assert calculator.score_arrangements(hand("123m 456p 789s 12s E", "W")) == []
