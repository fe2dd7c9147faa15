"""Hand settlement, session scores, places and table points (no database, no Django)."""

import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from tests.markdown_tables import table_rows
from tournament.scoring import (
    ERROR_CODES,
    MAX_FLOWERS,
    MIN_FAN,
    HandResult,
    Outcome,
    Penalty,
    PenaltyKind,
    Settlement,
    SettlementError,
    SettlementInvariantError,
    places,
    session_scores,
    settle_hand,
    table_points,
    validate_hand,
)
from tournament.scoring import settlement as settlement_module
from tournament.scoring.rules import Rules

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "scoring.md"

P1, P2, P3, P4 = range(4)
SELF = Outcome.SELF_DRAWN
EACH = PenaltyKind.TO_EACH_OTHER
ONE = PenaltyKind.TO_ONE
DEDUCTED = PenaltyKind.DEDUCTED


def self_drawn(winner, fan=8, flowers=0, penalties=()):
    return HandResult(SELF, winner=winner, fan=fan, flowers=flowers, penalties=tuple(penalties))


def discard(winner, discarder, fan=8, flowers=0, penalties=()):
    return HandResult(
        Outcome.DISCARD,
        winner=winner,
        discarder=discarder,
        fan=fan,
        flowers=flowers,
        penalties=tuple(penalties),
    )


def draw(penalties=()):
    return HandResult(Outcome.DRAW, penalties=tuple(penalties))


# --- the win ---------------------------------------------------------------------------


def test_constants_follow_the_rules():
    assert MIN_FAN == 8
    assert MAX_FLOWERS == 8


def test_self_drawn_win_each_other_player_pays_eight_plus_fan():
    result = settle_hand(self_drawn(P1, fan=8))

    assert result.win_points == (48, -16, -16, -16)
    assert result.penalty_points == (0, 0, 0, 0)
    assert result.deducted == 0
    assert result.points == (48, -16, -16, -16)


def test_flowers_count_after_the_minimum_on_a_self_drawn_win():
    result = settle_hand(self_drawn(P3, fan=8, flowers=2))

    assert result.points == (-18, -18, 54, -18)


def test_discard_win_discarder_pays_fan_and_others_pay_the_base():
    result = settle_hand(discard(P2, P4, fan=12))

    assert result.points == (-8, 36, -8, -20)


def test_flowers_count_for_the_discarder_on_a_discard_win():
    result = settle_hand(discard(P1, P2, fan=8, flowers=3))

    assert result.points == (35, -19, -8, -8)


@pytest.mark.parametrize("fan", [8, 9, 24, 88, 200])
@pytest.mark.parametrize("flowers", [0, 1, MAX_FLOWERS])
def test_winner_gets_three_times_eight_plus_fan_on_self_draw(fan, flowers):
    total = fan + flowers
    for winner in range(4):
        points = settle_hand(self_drawn(winner, fan=fan, flowers=flowers)).points
        assert points[winner] == 3 * (8 + total)
        assert all(p == -(8 + total) for i, p in enumerate(points) if i != winner)


@pytest.mark.parametrize("fan", [8, 13, 64, 88])
@pytest.mark.parametrize("flowers", [0, 2, MAX_FLOWERS])
def test_winner_gets_twenty_four_plus_fan_on_discard(fan, flowers):
    total = fan + flowers
    for winner in range(4):
        for discarder in range(4):
            if discarder == winner:
                continue
            points = settle_hand(discard(winner, discarder, fan=fan, flowers=flowers)).points
            assert points[winner] == 24 + total
            assert points[discarder] == -(8 + total)
            others = [p for i, p in enumerate(points) if i not in (winner, discarder)]
            assert others == [-8, -8]
            assert sum(points) == 0


@pytest.mark.parametrize("outcome", [Outcome.DRAW, Outcome.NOT_PLAYED])
def test_nobody_pays_on_a_draw_or_a_hand_not_played(outcome):
    result = settle_hand(HandResult(outcome))

    assert result == Settlement((0, 0, 0, 0), (0, 0, 0, 0), 0)
    assert result.points == (0, 0, 0, 0)


def test_fan_has_no_upper_bound_in_the_core():
    assert settle_hand(self_drawn(P2, fan=300)).points == (-308, 924, -308, -308)


# --- penalties -------------------------------------------------------------------------


def test_false_win_pays_ten_to_each_other_player():
    result = settle_hand(draw([Penalty(P2, EACH, 10, reason="false win")]))

    assert result.win_points == (0, 0, 0, 0)
    assert result.penalty_points == (10, -30, 10, 10)
    assert result.deducted == 0


def test_penalty_to_one_player_is_paid_to_the_beneficiary_only():
    result = settle_hand(discard(P2, P1, fan=16, penalties=[Penalty(P4, ONE, 5, beneficiary=P1)]))

    assert result.penalty_points == (5, 0, 0, -5)
    assert result.points == (-19, 40, -8, -13)


def test_deducted_penalty_leaves_the_table():
    result = settle_hand(self_drawn(P1, fan=8, flowers=1, penalties=[Penalty(P2, DEDUCTED, 10)]))

    assert result.penalty_points == (0, -10, 0, 0)
    assert result.deducted == 10
    assert result.points == (51, -27, -17, -17)
    assert sum(result.points) == -10


def test_false_win_offender_still_pays_when_someone_else_wins():
    result = settle_hand(discard(P2, P1, fan=10, penalties=[Penalty(P1, EACH, 10)]))

    assert result.win_points == (-18, 34, -8, -8)
    assert result.points == (-48, 44, 2, 2)


@pytest.mark.parametrize("outcome", [Outcome.DRAW, Outcome.NOT_PLAYED])
@pytest.mark.parametrize("kind", list(PenaltyKind))
def test_every_penalty_kind_applies_without_a_win(outcome, kind):
    beneficiary = P3 if kind is ONE else None
    result = settle_hand(HandResult(outcome, penalties=(Penalty(P1, kind, 20, beneficiary),)))

    assert result.win_points == (0, 0, 0, 0)
    assert result.points[P1] == (-60 if kind is EACH else -20)
    assert sum(result.points) == -result.deducted


def test_several_penalties_in_one_hand_add_up():
    penalties = [Penalty(P2, EACH, 10), Penalty(P3, DEDUCTED, 20), Penalty(P1, ONE, 30, P4)]
    result = settle_hand(draw(penalties))

    assert result.penalty_points == (-20, -30, -10, 40)
    assert result.deducted == 20


def test_same_player_can_be_penalised_twice_in_a_hand():
    penalties = [Penalty(P3, DEDUCTED, 5), Penalty(P3, DEDUCTED, 10)]
    result = settle_hand(self_drawn(P3, fan=8, penalties=penalties))

    assert result.points == (-16, -16, 33, -16)
    assert result.deducted == 15


def test_winner_may_carry_a_penalty_that_is_not_a_false_win():
    penalties = [Penalty(P4, DEDUCTED, 10), Penalty(P4, ONE, 5, beneficiary=P1)]
    result = settle_hand(discard(P4, P3, fan=8, penalties=penalties))

    assert result.points == (-3, -8, -16, 17)


# --- the zero-sum check ----------------------------------------------------------------


HANDS = [
    self_drawn(P1),
    self_drawn(P4, fan=88, flowers=8),
    discard(P3, P2, fan=17, flowers=4),
    draw(),
    HandResult(Outcome.NOT_PLAYED, penalties=(Penalty(P4, DEDUCTED, 20),)),
    discard(P1, P2, penalties=[Penalty(P3, EACH, 20), Penalty(P2, DEDUCTED, 60)]),
    self_drawn(P2, fan=9, penalties=[Penalty(P1, ONE, 40, P3), Penalty(P4, DEDUCTED, 5)]),
]


@pytest.mark.parametrize("hand", HANDS)
def test_totals_sum_to_minus_the_deducted_points(hand):
    result = settle_hand(hand)
    deducted = sum(p.points for p in hand.penalties if p.kind is DEDUCTED)

    assert result.deducted == deducted
    assert sum(result.win_points) == 0
    assert sum(result.points) == -deducted


def test_settlement_refuses_points_that_do_not_balance():
    with pytest.raises(SettlementInvariantError, match="win points"):
        Settlement(win_points=(10, 0, 0, 0), penalty_points=(0, 0, 0, 0), deducted=0)
    with pytest.raises(SettlementInvariantError, match="penalty points"):
        Settlement(win_points=(0, 0, 0, 0), penalty_points=(0, -10, 0, 0), deducted=0)
    with pytest.raises(SettlementInvariantError, match="4 integers"):
        Settlement(win_points=(0, 0, 0), penalty_points=(0, 0, 0, 0), deducted=0)
    with pytest.raises(SettlementInvariantError, match="deducted"):
        Settlement(win_points=(0, 0, 0, 0), penalty_points=(0, 0, 0, 0), deducted=-1)


def test_settle_hand_raises_if_its_own_arithmetic_breaks_the_balance(monkeypatch):
    # Simulate a bug in the win arithmetic: the check must catch it, even under python -O.
    monkeypatch.setattr(settlement_module, "_win_points", lambda hand: (48, -16, -16, -15))

    with pytest.raises(SettlementInvariantError):
        settle_hand(self_drawn(P1))
    assert not issubclass(SettlementInvariantError, SettlementError)


def test_balance_check_is_not_a_bare_assert():
    # A bare assert would vanish under python -O; the check must still raise there.
    code = (
        "from tournament.scoring import Settlement, SettlementInvariantError\n"
        "try:\n"
        "    Settlement((1, 0, 0, 0), (0, 0, 0, 0), 0)\n"
        "except SettlementInvariantError:\n"
        "    pass\n"
        "else:\n"
        "    raise SystemExit('no error under -O')\n"
    )
    subprocess.run([sys.executable, "-O", "-c", code], cwd=ROOT, check=True)


# --- validation ------------------------------------------------------------------------


INVALID_HANDS = [
    ("outcome_invalid", HandResult("self_drawn", winner=P1, fan=8)),
    ("outcome_invalid", HandResult(None)),
    ("winner_required", HandResult(SELF, fan=8)),
    ("winner_required", HandResult(Outcome.DISCARD, discarder=P2, fan=8)),
    ("winner_invalid", self_drawn(4)),
    ("winner_invalid", self_drawn(-1)),
    ("winner_invalid", self_drawn(True)),
    ("winner_invalid", self_drawn("P1")),
    ("winner_not_allowed", HandResult(Outcome.DRAW, winner=P1)),
    ("winner_not_allowed", HandResult(Outcome.NOT_PLAYED, winner=P1)),
    ("discarder_required", HandResult(Outcome.DISCARD, winner=P1, fan=8)),
    ("discarder_invalid", discard(P1, 4)),
    ("discarder_invalid", discard(P1, 1.0)),
    ("discarder_is_winner", discard(P3, P3)),
    ("discarder_not_allowed", HandResult(SELF, winner=P1, discarder=P2, fan=8)),
    ("discarder_not_allowed", HandResult(Outcome.DRAW, discarder=P2)),
    ("fan_required", HandResult(SELF, winner=P1)),
    ("fan_invalid", self_drawn(P1, fan=8.0)),
    ("fan_invalid", self_drawn(P1, fan="8")),
    ("fan_invalid", self_drawn(P1, fan=True)),
    ("fan_below_minimum", self_drawn(P1, fan=7)),
    ("fan_below_minimum", self_drawn(P1, fan=6, flowers=2)),
    ("fan_below_minimum", discard(P1, P2, fan=0)),
    ("fan_not_allowed", HandResult(Outcome.DRAW, fan=8)),
    ("fan_not_allowed", HandResult(Outcome.NOT_PLAYED, fan=0)),
    ("flowers_invalid", self_drawn(P1, flowers=None)),
    ("flowers_invalid", self_drawn(P1, flowers=True)),
    ("flowers_out_of_range", self_drawn(P1, flowers=-1)),
    ("flowers_out_of_range", discard(P1, P2, flowers=MAX_FLOWERS + 1)),
    ("flowers_not_allowed", HandResult(Outcome.DRAW, flowers=1)),
    ("flowers_not_allowed", HandResult(Outcome.NOT_PLAYED, flowers=False)),
    ("penalties_invalid", HandResult(Outcome.DRAW, penalties=None)),
    ("penalties_invalid", HandResult(Outcome.DRAW, penalties=Penalty(P1, EACH, 10))),
]


@pytest.mark.parametrize(("code", "hand"), INVALID_HANDS, ids=[c for c, _ in INVALID_HANDS])
def test_invalid_hand_is_rejected_with_its_code_and_field(code, hand):
    with pytest.raises(SettlementError) as caught:
        validate_hand(hand)

    assert caught.value.code == code
    assert caught.value.field == ERROR_CODES[code]
    assert caught.value.index is None
    assert str(caught.value)
    with pytest.raises(SettlementError):
        settle_hand(hand)


@pytest.mark.parametrize(
    ("code", "field", "hand"),
    [
        ("outcome_invalid", "outcome", HandResult("draw")),
        ("winner_required", "winner", HandResult(SELF, fan=8)),
        ("discarder_is_winner", "discarder", discard(P3, P3)),
        ("fan_below_minimum", "fan", self_drawn(P1, fan=7)),
        ("flowers_out_of_range", "flowers", self_drawn(P1, flowers=9)),
        ("penalty_points_invalid", "penalties", draw([Penalty(P1, EACH, 0)])),
        (
            "penalised_player_cannot_win",
            "winner",
            self_drawn(P1, penalties=[Penalty(P1, EACH, 10)]),
        ),
    ],
)
def test_error_names_the_field_it_concerns(code, field, hand):
    with pytest.raises(SettlementError) as caught:
        validate_hand(hand)

    assert (caught.value.code, caught.value.field) == (code, field)


INVALID_PENALTIES = [
    ("penalty_invalid", "not a penalty"),
    ("penalty_invalid", (P1, EACH, 10)),
    ("penalty_offender_invalid", Penalty(4, EACH, 10)),
    ("penalty_offender_invalid", Penalty(None, DEDUCTED, 10)),
    ("penalty_offender_invalid", Penalty(False, DEDUCTED, 10)),
    ("penalty_kind_invalid", Penalty(P1, "deducted", 10)),
    ("penalty_points_invalid", Penalty(P1, EACH, 0)),
    ("penalty_points_invalid", Penalty(P1, DEDUCTED, -10)),
    ("penalty_points_invalid", Penalty(P1, DEDUCTED, 2.5)),
    ("penalty_points_invalid", Penalty(P1, DEDUCTED, True)),
    ("penalty_beneficiary_required", Penalty(P1, ONE, 10)),
    ("penalty_beneficiary_invalid", Penalty(P1, ONE, 10, beneficiary=4)),
    ("penalty_beneficiary_invalid", Penalty(P1, ONE, 10, beneficiary="P2")),
    ("penalty_beneficiary_is_offender", Penalty(P2, ONE, 10, beneficiary=P2)),
    ("penalty_beneficiary_not_allowed", Penalty(P1, EACH, 10, beneficiary=P2)),
    ("penalty_beneficiary_not_allowed", Penalty(P1, DEDUCTED, 10, beneficiary=P2)),
]


@pytest.mark.parametrize(
    ("code", "penalty"), INVALID_PENALTIES, ids=[c for c, _ in INVALID_PENALTIES]
)
def test_invalid_penalty_is_rejected_with_its_code_and_index(code, penalty):
    valid = Penalty(P3, DEDUCTED, 10)
    hand = HandResult(Outcome.DRAW, penalties=(valid, penalty))

    with pytest.raises(SettlementError) as caught:
        validate_hand(hand)

    assert caught.value.code == code
    assert caught.value.field == "penalties"
    assert caught.value.index == 1
    assert "Penalty 2" in str(caught.value)


@pytest.mark.parametrize("outcome", [SELF, Outcome.DISCARD])
def test_false_win_offender_cannot_win_the_same_hand(outcome):
    discarder = P2 if outcome is Outcome.DISCARD else None
    hand = HandResult(
        outcome, winner=P1, discarder=discarder, fan=8, penalties=(Penalty(P1, EACH, 10),)
    )

    with pytest.raises(SettlementError) as caught:
        settle_hand(hand)

    assert caught.value.code == "penalised_player_cannot_win"
    assert caught.value.field == "winner"
    assert caught.value.index is None
    assert "P1" in str(caught.value)


def test_fan_below_minimum_message_explains_the_rule():
    with pytest.raises(SettlementError) as caught:
        validate_hand(self_drawn(P1, fan=7, flowers=3))

    assert str(caught.value) == "A win needs at least 8 fan, flowers not counted; got 7."


def test_settlement_error_is_a_value_error():
    assert issubclass(SettlementError, ValueError)


def test_penalties_may_be_given_as_a_list():
    hand = HandResult(Outcome.DRAW, penalties=[Penalty(P1, DEDUCTED, 5)])

    assert settle_hand(hand).points == (-5, 0, 0, 0)


# Hands the seed reading settles and a tournament's options refuse.
INVALID_UNDER_RULES = [
    ("flowers_not_played", self_drawn(P1, fan=8, flowers=1), Rules(flowers=False)),
    ("fan_below_minimum", self_drawn(P1, fan=11), Rules(minimum_fan=12)),
]


@pytest.mark.parametrize(("code", "hand", "rules"), INVALID_UNDER_RULES)
def test_the_tournaments_options_refuse_what_the_seed_reading_settles(code, hand, rules):
    settle_hand(hand)
    with pytest.raises(SettlementError) as caught:
        settle_hand(hand, rules)

    assert caught.value.code == code
    assert caught.value.field == ERROR_CODES[code]


def test_a_lower_minimum_settles_a_hand_the_seed_reading_refuses():
    hand = discard(P2, P4, fan=6)
    with pytest.raises(SettlementError):
        settle_hand(hand)

    # 8 base from each loser, the discarder also the 6 fan.
    assert settle_hand(hand, Rules(minimum_fan=6)).points == (-8, 30, -8, -14)


def test_without_flowers_a_win_without_them_settles_as_before():
    hand = self_drawn(P3, fan=9)

    assert settle_hand(hand, Rules(flowers=False)) == settle_hand(hand)


def test_every_error_code_is_tested():
    tested = (
        {code for code, _ in INVALID_HANDS}
        | {code for code, _ in INVALID_PENALTIES}
        | {"penalised_player_cannot_win"}
        | {code for code, _hand, _rules in INVALID_UNDER_RULES}
    )

    assert tested == set(ERROR_CODES)


# --- session scores, places, table points ----------------------------------------------


def test_session_score_is_the_sum_of_each_players_hands():
    settlements = [settle_hand(hand) for hand in HANDS]
    expected = tuple(sum(s.points[player] for s in settlements) for player in range(4))

    assert session_scores(settlements) == expected
    assert sum(session_scores(settlements)) == -sum(s.deducted for s in settlements)


def test_session_score_of_a_short_session():
    settlements = [
        settle_hand(self_drawn(P1)),
        settle_hand(discard(P2, P1)),
        settle_hand(draw([Penalty(P4, DEDUCTED, 10)])),
    ]

    assert session_scores(settlements) == (32, 16, -24, -34)


def test_session_score_of_no_hands_is_zero():
    assert session_scores([]) == (0, 0, 0, 0)
    assert session_scores(iter(())) == (0, 0, 0, 0)


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        ((25, 10, -5, -30), (1, 2, 3, 4)),
        ((-30, 25, 10, -5), (4, 1, 2, 3)),
        ((10, 10, 5, -25), (1, 1, 3, 4)),
        ((30, -10, -10, -10), (1, 2, 2, 2)),
        ((0, 0, 0, 0), (1, 1, 1, 1)),
        ((15, -15, 15, -15), (1, 3, 1, 3)),
        ((30, 0, 0, -30), (1, 2, 2, 4)),
        ((), ()),
    ],
)
def test_tied_players_share_the_best_place_of_their_group(scores, expected):
    assert places(scores) == expected


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        ((25, 10, -5, -30), ("4", "2", "1", "0")),
        ((20, 20, -10, -30), ("3", "3", "1", "0")),
        ((30, -10, -10, -10), ("4", "1", "1", "1")),
        ((0, 0, 0, 0), ("7/4", "7/4", "7/4", "7/4")),
        ((-15, 15, -15, 15), ("1/2", "3", "1/2", "3")),
        ((10, -30, 10, 10), ("7/3", "0", "7/3", "7/3")),
        ((0, 30, -30, 0), ("3/2", "4", "0", "3/2")),
    ],
)
def test_tied_players_share_the_table_points_of_their_places(scores, expected):
    result = table_points(scores)

    assert result == tuple(Fraction(e) for e in expected)
    assert all(isinstance(points, Fraction) for points in result)
    assert sum(result) == 7


@pytest.mark.parametrize("scores", [(), (1, 2, 3), (1, 2, 3, 4, 5)])
def test_table_points_need_exactly_four_scores(scores):
    with pytest.raises(ValueError, match="exactly 4 scores"):
        table_points(scores)


# --- docs/scoring.md -------------------------------------------------------------------


def _doc_table(header: str) -> list[list[str]]:
    """Rows of the markdown table in docs/scoring.md whose header line is `header`."""
    return table_rows(DOC, header)


HAND_HEADER = (
    "| example | outcome | winner | discarder | fan | flowers | penalties | P1 | P2 | P3 | P4 |"
)
HAND_ROWS = _doc_table(HAND_HEADER)
TABLE_POINTS_ROWS = _doc_table("| scores | table points |")
ERROR_ROWS = _doc_table("| code | field | when |")


def _player(cell: str) -> int | None:
    if cell == "-":
        return None
    assert cell in ("P1", "P2", "P3", "P4"), cell
    return int(cell[1]) - 1


def _penalties(cell: str) -> tuple[Penalty, ...]:
    if cell == "-":
        return ()
    penalties = []
    for text in cell.split(";"):
        offender, kind, points, *beneficiary = text.split()
        penalties.append(
            Penalty(
                offender=_player(offender),
                kind=PenaltyKind(kind),
                points=int(points),
                beneficiary=_player(beneficiary[0]) if beneficiary else None,
            )
        )
    return tuple(penalties)


def _hand(row: list[str]) -> HandResult:
    _, outcome, winner, discarder, fan, flowers, penalties, *_ = row
    return HandResult(
        outcome=Outcome(outcome),
        winner=_player(winner),
        discarder=_player(discarder),
        fan=None if fan == "-" else int(fan),
        flowers=0 if flowers == "-" else int(flowers),
        penalties=_penalties(penalties),
    )


def test_doc_has_the_worked_examples():
    assert len(HAND_ROWS) >= 12
    assert all(len(row) == 11 for row in HAND_ROWS)
    hands = [_hand(row) for row in HAND_ROWS]
    assert {hand.outcome for hand in hands} == set(Outcome)
    assert {p.kind for hand in hands for p in hand.penalties} == set(PenaltyKind)
    assert any(hand.outcome is Outcome.DRAW and hand.penalties for hand in hands)
    assert any(len(hand.penalties) >= 2 for hand in hands)
    assert len(TABLE_POINTS_ROWS) >= 7


@pytest.mark.parametrize("row", HAND_ROWS, ids=[row[0] for row in HAND_ROWS])
def test_doc_hand_example_settles_as_written(row):
    expected = tuple(int(cell) for cell in row[7:11])

    assert settle_hand(_hand(row)).points == expected


@pytest.mark.parametrize("row", TABLE_POINTS_ROWS, ids=[row[0] for row in TABLE_POINTS_ROWS])
def test_doc_table_points_example_matches(row):
    scores, expected = row

    assert table_points([int(s) for s in scores.split(",")]) == tuple(
        Fraction(e.strip()) for e in expected.split(",")
    )


def test_doc_lists_every_error_code_with_its_field():
    documented = {row[0].strip("`"): row[1] for row in ERROR_ROWS}

    assert documented == dict(ERROR_CODES)


# --- no Django -------------------------------------------------------------------------


def test_scoring_imports_without_django():
    code = "import sys, tournament.scoring; assert 'django' not in sys.modules"

    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)
