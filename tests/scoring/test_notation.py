"""Reading, writing and checking winning hands: notation, JSON and validate (no Django)."""

import copy
import dataclasses
import json
import random
import re
from pathlib import Path

import pytest

from tests.markdown_tables import code_text, table_rows
from tournament.scoring import __main__ as cli
from tournament.scoring import notation, settlement
from tournament.scoring.hand import HandError, Meld, WinningHand
from tournament.scoring.notation import (
    ERROR_CODES,
    format_hand,
    hand_from_json,
    parse_hand,
    score_hand,
    validate,
)

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "scoring.md"

# Codes only the command line or the calculator produce; tests/scoring/test_cli.py covers them
# (and tests/scoring/test_rule_options.py the two of the tournament's rules).
CLI_AND_CALCULATOR_CODES = {
    "invalid_json",
    "empty_line",
    "internal_error",
    "not_a_winning_hand",
    "flowers_not_played",
    "blessings_not_played",
}
# Codes only other rules than the seed reading reach (score_hand scores under the seed).
OTHER_RULES_CODES = {"flowers_not_played"}


def doc_table(header: str) -> list[list[str]]:
    """The rows of the table in docs/scoring.md whose header line is ``header``, with the
    cells written as code spans unwrapped."""
    return [[code_text(cell) for cell in row] for row in table_rows(DOC, header)]


EXAMPLES = doc_table("| notation | concealed | melds | win | conditions |")
PARSE_ERRORS = doc_table("| notation | code | character |")
ILLEGAL_HANDS = doc_table("| illegal hand | code |")
CODE_TABLE = doc_table("| code | raised by | when |")


def expected_melds(column: str) -> tuple[Meld, ...]:
    if column == "-":
        return ()
    melds = []
    for part in column.split(";"):
        words = part.split()
        concealed = words[0] == "concealed"
        if concealed:
            words.pop(0)
        kind = words.pop(0)
        claimed = None
        if "from" in words:
            claimed = int(words[words.index("from") + 1])
            words = words[: words.index("from")]
        melds.append(Meld(kind, tuple(words), concealed=concealed, claimed_from=claimed))
    return tuple(melds)


def expected_conditions(column: str) -> dict:
    if column == "-":
        return {}
    conditions = {}
    for word in column.split():
        key, _, value = word.partition("=")
        conditions[key] = True if not value else int(value) if value.isdigit() else value
    return conditions


def legal(**changes) -> WinningHand:
    """A legal hand (an exposed pung of 5p, a concealed kong of C), changed as asked."""
    base = WinningHand(
        concealed=("1m", "2m", "3m", "7s", "8s", "E", "E"),
        win_tile="9s",
        melds=(
            Meld("pung", ("5p", "5p", "5p"), claimed_from=3),
            Meld("kong", ("C", "C", "C", "C"), concealed=True),
        ),
    )
    return dataclasses.replace(base, **changes)


def code_of(call, *args) -> HandError:
    with pytest.raises(HandError) as info:
        call(*args)
    assert info.value.code in ERROR_CODES
    assert info.value.message
    return info.value


# --- the worked examples of docs/scoring.md ---------------------------------------------


@pytest.mark.parametrize(("text", "concealed", "melds", "win", "conditions"), EXAMPLES)
def test_doc_example_parses_to_the_stated_hand(text, concealed, melds, win, conditions):
    expected = WinningHand(
        concealed=tuple(concealed.split()),
        win_tile=win,
        melds=expected_melds(melds),
        **expected_conditions(conditions),
    )
    assert parse_hand(text) == expected


@pytest.mark.parametrize("row", EXAMPLES, ids=lambda row: row[0])
def test_doc_example_is_legal_and_survives_a_round_trip(row):
    hand = parse_hand(row[0])
    validate(hand)
    assert parse_hand(format_hand(hand)) == hand
    assert format_hand(parse_hand(format_hand(hand))) == format_hand(hand)


@pytest.mark.parametrize(("text", "code", "character"), PARSE_ERRORS)
def test_doc_notation_mistake_gives_its_code_and_where(text, code, character):
    error = code_of(parse_hand, text)
    assert error.code == code
    assert error.position == int(character) - 1
    assert error.message.startswith(f"at character {character} (")


@pytest.mark.parametrize(("text", "code"), ILLEGAL_HANDS)
def test_doc_illegal_hand_reads_but_does_not_validate(text, code):
    hand = parse_hand(text)
    assert code_of(validate, hand).code == code
    assert code_of(score_hand, hand).code == code


def test_doc_error_code_table_lists_exactly_the_codes_in_the_code():
    codes = [row[0] for row in CODE_TABLE]
    assert len(codes) == len(set(codes))
    assert set(codes) == set(ERROR_CODES)


def test_every_listed_code_is_exercised_by_a_test():
    exercised = (
        {row[1] for row in PARSE_ERRORS}
        | {row[1] for row in ILLEGAL_HANDS}
        | {code for _, code in VALIDATE_ERRORS}
        | {code for _, code in JSON_ERRORS}
        | CLI_AND_CALCULATOR_CODES
    )
    assert exercised == set(ERROR_CODES)


# --- parsing -----------------------------------------------------------------------------


def test_the_full_example_reads_every_group():
    hand = parse_hand("123m456p78sEE [555p] {CCCC} +9s | self kong seat=E wind=S flowers=2")
    assert hand.concealed == ("1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "E", "E")
    assert hand.melds == (
        Meld("pung", ("5p", "5p", "5p")),
        Meld("kong", ("C", "C", "C", "C"), concealed=True),
    )
    assert hand.win_tile == "9s"
    assert (hand.self_drawn, hand.kong, hand.fourth_tile, hand.last_tile) == (
        True,
        True,
        False,
        False,
    )
    assert (hand.seat_wind, hand.prevalent_wind, hand.flowers) == ("E", "S", 2)


def test_defaults_are_a_discard_win_in_the_east_without_flowers():
    hand = parse_hand("123m456p789s11sEE +E")
    assert hand == WinningHand(
        concealed=("1m", "2m", "3m", "4p", "5p", "6p", "1s", "1s", "7s", "8s", "9s", "E", "E"),
        win_tile="E",
    )
    assert not (hand.self_drawn or hand.kong or hand.fourth_tile or hand.last_tile)
    assert (hand.seat_wind, hand.prevalent_wind, hand.flowers, hand.melds) == ("E", "E", 0, ())
    assert parse_hand("123m456p789s11sEE +E |") == hand


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("123m456p789s11sEE +E", set()),
        ("123m456p789s11sEE +E |", set()),
        ("123m456p789s11sEE +E | seat=E", {"seat"}),
        ("123m456p789s11sEE +E | wind=e", {"wind"}),
        ("123m456p789s11sEE +E | FLOWERS=0", {"flowers"}),
        (
            "123m456p789s11sEE +E | SELF Kong Fourth LAST Seat=n WIND=w flowers=3",
            {"self", "kong", "fourth", "last", "seat", "wind", "flowers"},
        ),
        ("123m456p789s11sEE +E|last,seat=S", {"last", "seat"}),
    ],
)
def test_parse_hand_with_conditions_says_which_conditions_were_written(text, written):
    hand, found = notation.parse_hand_with_conditions(text)
    assert found == written
    assert isinstance(found, frozenset)
    assert found <= notation.CONDITION_WORDS
    assert hand == parse_hand(text)


def test_a_condition_written_with_its_default_value_is_still_written():
    # seat=E is the default: only the set of words tells it was typed.
    typed, written = notation.parse_hand_with_conditions("123m456p789s11sEE +E | seat=E")
    left_out, nothing = notation.parse_hand_with_conditions("123m456p789s11sEE +E")
    assert typed == left_out
    assert (written, nothing) == ({"seat"}, set())


def test_parse_hand_with_conditions_raises_the_same_errors_as_parse_hand():
    for text in ("123m +4m | seat=X", "123m +4m | self SELF", "123m * +4m"):
        with pytest.raises(HandError) as ours:
            notation.parse_hand_with_conditions(text)
        with pytest.raises(HandError) as plain:
            parse_hand(text)
        assert (ours.value.code, ours.value.position) == (plain.value.code, plain.value.position)


def test_the_flower_limit_is_settlements():
    # One limit, settlement's: a hand reads and validates with up to settlement.MAX_FLOWERS
    # flowers, exactly the flowers settlement accepts for a win, and not one more.
    limit = settlement.MAX_FLOWERS
    assert notation.MAX_FLOWERS is limit
    text = "123m456p789s11sEE +E | flowers={}"
    assert parse_hand(text.format(limit)).flowers == limit
    assert code_of(parse_hand, text.format(limit + 1)).code == "invalid_flowers"
    validate(legal(flowers=limit))
    assert code_of(validate, legal(flowers=limit + 1)).code == "invalid_flowers"
    win = settlement.HandResult(
        outcome=settlement.Outcome.SELF_DRAWN, winner=0, fan=settlement.MIN_FAN
    )
    settlement.settle_hand(dataclasses.replace(win, flowers=limit))
    with pytest.raises(settlement.SettlementError) as refused:
        settlement.settle_hand(dataclasses.replace(win, flowers=limit + 1))
    assert refused.value.code == "flowers_out_of_range"


@pytest.mark.parametrize(
    ("text", "meld"),
    [
        ("[789m]", Meld("chow", ("7m", "8m", "9m"))),
        ("[978m:1]", Meld("chow", ("7m", "8m", "9m"), claimed_from=1)),
        ("[555p:2]", Meld("pung", ("5p", "5p", "5p"), claimed_from=2)),
        ("[EEE:3]", Meld("pung", ("E", "E", "E"), claimed_from=3)),
        ("[5555p]", Meld("kong", ("5p",) * 4)),
        ("[ 5555p :3 ]", Meld("kong", ("5p",) * 4, claimed_from=3)),
        ("[5p5p5p5p:1]", Meld("kong", ("5p",) * 4, claimed_from=1)),
        ("{PPPP}", Meld("kong", ("P",) * 4, concealed=True)),
    ],
)
def test_meld_kind_is_read_off_its_tiles_and_the_suffix_says_who_it_came_from(text, meld):
    assert parse_hand(f"{text} +1m").melds == (meld,)


def test_spaces_between_groups_are_optional_and_concealed_tiles_may_be_split():
    spaced = parse_hand("123m 78s EE [555p:3] {CCCC} +9s | self kong wind=S flowers=2")
    tight = parse_hand("123m78sEE[555p:3]{CCCC}+9s|self kong wind=S flowers=2")
    split = parse_hand("E 12m [555p:3] 78s {CCCC} 3mE + 9s|flowers=2,wind=S,kong,self")
    assert spaced == tight == split


def test_condition_words_and_wind_values_ignore_case_but_tiles_do_not():
    hand = parse_hand("123m456p789s11sEE +E | SELF Kong Fourth LAST Seat=n WIND=w FLOWERS=3")
    assert (hand.self_drawn, hand.kong, hand.fourth_tile, hand.last_tile) == (True,) * 4
    assert (hand.seat_wind, hand.prevalent_wind, hand.flowers) == ("N", "W", 3)
    assert parse_hand("5p5s +P").concealed == ("5p", "5s")
    assert parse_hand("5p5s +P").win_tile == "P"
    assert code_of(parse_hand, "55P +S").code == "missing_suit"
    assert code_of(parse_hand, "55p +s").code == "unknown_tile"


def test_tiles_come_back_sorted_whatever_order_they_were_written_in():
    assert parse_hand("E9s1m5pC2m +E").concealed == ("1m", "2m", "5p", "9s", "E", "C")
    assert parse_hand("[987s] +E").melds[0].tiles == ("7s", "8s", "9s")


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("123S +4m", "South wind"),
        ("123P +4m", "white dragon"),
        ("123M +4m", "lowercase"),
        ("e +4m", "write E"),
        ("发 +4m", "write 发 as F"),
        ("m +4m", "5m"),
        ("0p +4m", "ranks are 1-9"),
        ("123m +4m | seat = E", "no spaces"),
        ("123m +4m | self=yes", "takes no value"),
        ("[555p:1] 123m 5p +4m 9s", "comes last"),
        ("[555p", "never closed"),
        ("123m +4m | self self", "already given at character 12"),
    ],
)
def test_messages_say_why(text, fragment):
    assert fragment in code_of(parse_hand, text).message


def test_message_shows_the_text_around_the_mistake():
    error = code_of(parse_hand, "123m456p789s11s X E +E | self")
    assert error.message.startswith("at character 17 (…456p789s11s >>X<< E +E | self): ")
    error = code_of(parse_hand, "123m")
    assert error.message.startswith("at character 5 (end of text, after 123m): ")


def test_parse_hand_needs_text():
    assert code_of(parse_hand, None).code == "wrong_type"


# --- writing -----------------------------------------------------------------------------


def test_format_hand_writes_the_canonical_form():
    hand = parse_hand("EE 87s 3m12m {CCCC} [555p:3] +9s | wind=s kong self flowers=2")
    assert format_hand(hand) == (
        "123m78sEE {CCCC} [555p:3] +9s | self kong seat=E wind=S flowers=2"
    )
    assert format_hand(WinningHand(concealed=("E",) * 13, win_tile="E")) == (
        "EEEEEEEEEEEEE +E | seat=E wind=E flowers=0"
    )
    assert format_hand(legal(fourth_tile=True, last_tile=True, seat_wind="W")) == (
        "123m78sEE [555p:3] {CCCC} +9s | fourth last seat=W wind=E flowers=0"
    )


def test_format_hand_round_trips_every_meld_form_and_a_hand_without_concealed_tiles():
    hand = WinningHand(
        concealed=("9p",),
        win_tile="9p",
        melds=(
            Meld("chow", ("1m", "2m", "3m"), claimed_from=1),
            Meld("pung", ("W", "W", "W")),
            Meld("kong", ("2s",) * 4, claimed_from=2),
            Meld("kong", ("F",) * 4, concealed=True),
        ),
        self_drawn=True,
        kong=True,
        flowers=8,
    )
    assert format_hand(hand) == (
        "9p [123m:1] [WWW] [2222s:2] {FFFF} +9p | self kong seat=E wind=E flowers=8"
    )
    assert parse_hand(format_hand(hand)) == hand


def test_format_hand_refuses_a_tile_it_cannot_write():
    assert code_of(format_hand, legal(win_tile="10s")).code == "unknown_tile"


# --- validate ----------------------------------------------------------------------------

FIVE_MELDS = tuple(Meld("pung", (tile,) * 3) for tile in ("1m", "2m", "3m", "4m", "5m"))
PUNG_5P = Meld("pung", ("5p",) * 3)
KONG_C = Meld("kong", ("C",) * 4, concealed=True)
# Seven concealed tiles holding one E and no 5p, for the win-condition checks.
SEVEN = ("1m", "2m", "3m", "7s", "8s", "9s", "E")
ODDS_AND_EVENS = ("1m", "3m", "5m", "7m", "9m", "2p", "4p", "6p", "8p", "1s", "3s", "5s", "7s")

VALIDATE_ERRORS = [
    (legal(self_drawn=1), "wrong_type"),
    (legal(last_tile="yes"), "wrong_type"),
    (legal(concealed="123m78sEE"), "wrong_type"),
    (legal(melds=[("pung", ("5p",) * 3)]), "wrong_type"),
    (legal(melds=("5p5p5p",)), "wrong_type"),
    (legal(melds=(Meld("pung", "5p5p5p"),)), "wrong_type"),
    (legal(melds=(Meld("pung", ("5p",) * 3, concealed="no"),)), "wrong_type"),
    (legal(seat_wind="X"), "invalid_seat_wind"),
    (legal(seat_wind="e"), "invalid_seat_wind"),
    (legal(prevalent_wind="C"), "invalid_prevalent_wind"),
    (legal(flowers=9), "invalid_flowers"),
    (legal(flowers=-1), "invalid_flowers"),
    (legal(flowers=True), "invalid_flowers"),
    (legal(flowers="2"), "invalid_flowers"),
    (legal(blessing="divine"), "invalid_blessing"),
    (legal(blessing=1), "invalid_blessing"),
    (legal(concealed=("1m", "2m", "3m", "7s", "8s", "E", "e")), "unknown_tile"),
    (legal(concealed=("1m", "2m", "3m", "7s", "8s", "E", "0m")), "unknown_tile"),
    (legal(concealed=("1m", "2m", "3m", "7s", "8s", "E", 5)), "unknown_tile"),
    (legal(win_tile="Z"), "unknown_tile"),
    (legal(win_tile="10s"), "unknown_tile"),
    (legal(melds=(Meld("pung", ("5x",) * 3), Meld("kong", ("C",) * 4))), "unknown_tile"),
    (legal(melds=(Meld("set", ("5p",) * 3), Meld("kong", ("C",) * 4))), "invalid_meld_kind"),
    (legal(melds=(Meld("chow", ("7m", "8m", "1p")), Meld("kong", ("C",) * 4))), "invalid_chow"),
    (legal(melds=(Meld("chow", ("E", "S", "W")), Meld("kong", ("C",) * 4))), "invalid_chow"),
    (legal(melds=(Meld("chow", ("1m", "2m", "4m")), Meld("kong", ("C",) * 4))), "invalid_chow"),
    (legal(melds=(Meld("chow", ("8m", "9m", "1m")), Meld("kong", ("C",) * 4))), "invalid_chow"),
    (legal(melds=(Meld("chow", ("5p",) * 3), Meld("kong", ("C",) * 4))), "invalid_chow"),
    (
        legal(melds=(Meld("chow", ("1m", "2m", "3m", "4m")), Meld("kong", ("C",) * 4))),
        "invalid_chow",
    ),
    (legal(melds=(Meld("pung", ("5p", "5p", "6p")), Meld("kong", ("C",) * 4))), "invalid_pung"),
    (legal(melds=(Meld("pung", ("5p",) * 4), Meld("kong", ("C",) * 4))), "invalid_pung"),
    (legal(melds=(Meld("pung", ("5p",) * 3), Meld("kong", ("C",) * 3))), "invalid_kong"),
    (
        legal(melds=(Meld("pung", ("5p",) * 3), Meld("kong", ("C", "C", "C", "F")))),
        "invalid_kong",
    ),
    (
        legal(melds=(Meld("pung", ("5p",) * 3, concealed=True), Meld("kong", ("C",) * 4))),
        "concealed_meld_not_kong",
    ),
    (
        legal(melds=(Meld("pung", ("5p",) * 3, claimed_from=0), Meld("kong", ("C",) * 4))),
        "invalid_claimed_from",
    ),
    (
        legal(melds=(Meld("pung", ("5p",) * 3, claimed_from=4), Meld("kong", ("C",) * 4))),
        "invalid_claimed_from",
    ),
    (
        legal(melds=(Meld("pung", ("5p",) * 3, claimed_from=True), Meld("kong", ("C",) * 4))),
        "invalid_claimed_from",
    ),
    (
        legal(melds=(Meld("pung", ("5p",) * 3, claimed_from="1"), Meld("kong", ("C",) * 4))),
        "invalid_claimed_from",
    ),
    (
        legal(
            melds=(
                Meld("pung", ("5p",) * 3),
                Meld("kong", ("C",) * 4, concealed=True, claimed_from=1),
            )
        ),
        "concealed_kong_claimed",
    ),
    (legal(concealed=("1m", "2m", "3m", "7s", "8s", "E")), "wrong_tile_count"),
    (legal(concealed=("1m", "2m", "3m", "7s", "8s", "E", "E", "E")), "wrong_tile_count"),
    (WinningHand(concealed=(), win_tile="E", melds=FIVE_MELDS), "wrong_tile_count"),
    (legal(win_tile="C"), "too_many_copies"),
    (legal(concealed=("5p", "2m", "3m", "7s", "8s", "E", "E"), win_tile="5p"), "too_many_copies"),
    (
        legal(self_drawn=True, kong=True, melds=(PUNG_5P,), concealed=SEVEN[:-1] + ("F",) * 4),
        "replacement_without_kong",
    ),
    (legal(kong=True, win_tile="E", concealed=SEVEN), "robbing_kong_with_copy"),
    (legal(kong=True, win_tile="5p", concealed=SEVEN), "robbing_kong_with_copy"),
    (legal(kong=True, last_tile=True), "robbing_kong_last_tile"),
    (legal(fourth_tile=True, win_tile="E", concealed=SEVEN), "fourth_tile_with_copy"),
    (
        legal(fourth_tile=True, self_drawn=True, win_tile="E", concealed=SEVEN),
        "fourth_tile_with_copy",
    ),
]


@pytest.mark.parametrize(("hand", "code"), VALIDATE_ERRORS)
def test_validate_rejects_an_illegal_hand_with_its_code(hand, code):
    assert code_of(validate, hand).code == code


@pytest.mark.parametrize(
    "hand",
    [
        legal(),
        legal(self_drawn=True),
        legal(self_drawn=True, kong=True),  # out with replacement tile: the kong of C
        legal(self_drawn=True, kong=True, last_tile=True),  # ... on the last tile: accepted
        legal(kong=True),  # robbing the kong on 9s: no other 9s in the hand
        legal(kong=True, fourth_tile=True),  # redundant with robbing the kong: accepted
        legal(self_drawn=True, last_tile=True),
        legal(last_tile=True),
        legal(fourth_tile=True),
        # The last 5p while this hand's own exposed pung shows the other three.
        legal(fourth_tile=True, win_tile="5p", concealed=SEVEN),
        legal(melds=(Meld("chow", ("4p", "5p", "6p"), claimed_from=1), KONG_C)),
        legal(melds=(Meld("kong", ("5p",) * 4, claimed_from=2), KONG_C)),
        # Lists instead of tuples are accepted as well.
        legal(melds=[PUNG_5P, Meld("kong", ["C"] * 4)], concealed=["E", "E", *SEVEN[:5]]),
        legal(seat_wind="N", prevalent_wind="W", flowers=8),
        # Tile count and copies only: whether the tiles win is the calculator's question.
        WinningHand(concealed=ODDS_AND_EVENS, win_tile="9s"),
    ],
)
def test_validate_accepts_a_legal_hand(hand):
    validate(hand)


def test_score_hand_validates_before_it_scores():
    assert code_of(score_hand, legal(flowers=9)).code == "invalid_flowers"


def test_score_hand_scores_a_legal_hand():
    scored = score_hand(parse_hand("123m78sEE [555p:3] {CCCC} +9s | self kong wind=S flowers=2"))
    names = {fan.name_en: (fan.points, fan.count) for fan in scored.fans}
    assert names["Out with Replacement Tile"] == (8, 1)
    assert "Self-Drawn" not in names
    assert (scored.total_without_flowers, scored.total, scored.valid) == (18, 20, True)


# --- JSON --------------------------------------------------------------------------------

FULL_JSON = {
    "id": 7,
    "concealed": ["E", "8s", "1m", "2m", "3m", "7s", "E"],
    "melds": [
        {"kind": "pung", "tiles": ["5p", "5p", "5p"], "concealed": False, "claimed_from": 3},
        {"kind": "kong", "tiles": ["C", "C", "C", "C"], "concealed": True, "claimed_from": None},
    ],
    "win_tile": "9s",
    "self_drawn": True,
    "fourth_tile": False,
    "kong": True,
    "last_tile": False,
    "seat_wind": "E",
    "prevalent_wind": "S",
    "flowers": 2,
    "comment": "ignored",
}


def test_json_hand_equals_the_same_hand_in_notation():
    assert hand_from_json(FULL_JSON) == parse_hand(
        "123m78sEE [555p:3] {CCCC} +9s | self kong seat=E wind=S flowers=2"
    )


def test_json_defaults_and_null_are_the_notations_defaults():
    minimal = {"concealed": ["1m", "2m", "3m", "7s", "8s", "9s", "E"] * 1, "win_tile": "E"}
    hand = hand_from_json(minimal)
    assert hand == WinningHand(concealed=("1m", "2m", "3m", "7s", "8s", "9s", "E"), win_tile="E")
    nulls = dict.fromkeys(
        ("melds", "self_drawn", "fourth_tile", "kong", "last_tile", "seat_wind", "flowers"), None
    )
    assert hand_from_json({**minimal, **nulls, "prevalent_wind": None}) == hand
    meld = hand_from_json({**minimal, "melds": [{"kind": "chow", "tiles": ["9m", "7m", "8m"]}]})
    assert meld.melds == (Meld("chow", ("7m", "8m", "9m")),)


def test_json_values_are_left_to_validate():
    hand = hand_from_json({**FULL_JSON, "flowers": 9, "seat_wind": "north"})
    assert hand.flowers == 9
    assert code_of(validate, hand).code == "invalid_seat_wind"
    odd_meld = {**FULL_JSON, "melds": [{"kind": "set", "tiles": ["5p"] * 3}, FULL_JSON["melds"][1]]}
    assert code_of(validate, hand_from_json(odd_meld)).code == "invalid_meld_kind"
    odd_tile = {**FULL_JSON, "win_tile": "9z"}
    assert code_of(validate, hand_from_json(odd_tile)).code == "unknown_tile"


def _without(key):
    return {name: value for name, value in FULL_JSON.items() if name != key}


def _meld(**changes):
    return {**FULL_JSON, "melds": [{**FULL_JSON["melds"][0], **changes}, FULL_JSON["melds"][1]]}


JSON_ERRORS = [
    ([FULL_JSON], "not_an_object"),
    ("123m", "not_an_object"),
    (None, "not_an_object"),
    (_without("concealed"), "missing_field"),
    (_without("win_tile"), "missing_field"),
    ({**FULL_JSON, "win_tile": None}, "missing_field"),
    (_meld(kind=None), "missing_field"),
    ({**FULL_JSON, "melds": [{"kind": "pung"}]}, "missing_field"),
    ({**FULL_JSON, "concealed": "123m"}, "wrong_type"),
    ({**FULL_JSON, "concealed": ["1m", 2]}, "wrong_type"),
    ({**FULL_JSON, "win_tile": 9}, "wrong_type"),
    ({**FULL_JSON, "win_tile": ["9s"]}, "wrong_type"),
    ({**FULL_JSON, "melds": {"kind": "pung"}}, "wrong_type"),
    ({**FULL_JSON, "melds": ["555p"]}, "wrong_type"),
    (_meld(kind=1), "wrong_type"),
    (_meld(tiles="555p"), "wrong_type"),
    (_meld(concealed="no"), "wrong_type"),
    (_meld(claimed_from=True), "wrong_type"),
    (_meld(claimed_from="3"), "wrong_type"),
    (_meld(claimed_from=3.0), "wrong_type"),
    ({**FULL_JSON, "self_drawn": "true"}, "wrong_type"),
    ({**FULL_JSON, "kong": 1}, "wrong_type"),
    ({**FULL_JSON, "flowers": 2.0}, "wrong_type"),
    ({**FULL_JSON, "flowers": True}, "wrong_type"),
    ({**FULL_JSON, "seat_wind": 1}, "wrong_type"),
]


@pytest.mark.parametrize(("obj", "code"), JSON_ERRORS)
def test_json_input_errors_have_a_code_and_name_the_field(obj, code):
    error = code_of(hand_from_json, obj)
    assert error.code == code
    assert error.position is None


def test_json_message_names_the_nested_field():
    assert "melds[0].claimed_from" in code_of(hand_from_json, _meld(claimed_from=True)).message
    assert "'win_tile' is required" in code_of(hand_from_json, _without("win_tile")).message


def test_error_codes_are_snake_case_and_documented():
    for code, meaning in ERROR_CODES.items():
        assert re.fullmatch(r"[a-z]+(_[a-z]+)*", code)
        assert meaning
    assert notation.TILES_IN_HAND == 14


# --- every error carries a listed code ---------------------------------------------------
# Whatever the input, reading, checking and scoring a hand either succeed or raise a
# HandError whose code is in ERROR_CODES (an unlisted code fails loudly: notation looks each
# one up), and the command line answers every line with a listed code, never an
# internal_error. Thousands of seeded mutations of the documented hands, of the JSON objects
# and of WinningHand values reach the error paths of the parser, the JSON reader, validate,
# the calculator and the command line.

_NOISE = (
    *"0123456789mpsz ESWNCFPx[]{}:+|=,-\t\\中发東",
    *("self", "kong", "fourth", "last", "seat=", "wind=", "flowers=", "[555p]", "{CCCC}"),
)
_JSON_VALUES = (
    *(None, True, False, 0, 1, 3, 4, -1, 9, 2.5, 1e400, "", "x", "E", "9s", "5p", "0m"),
    *("pung", "chow", "kong", "set", [], ["1m"], ["1m", 2], ["5p"] * 3, {}, {"kind": "pung"}),
)


def _mutated_text(rng: random.Random, text: str) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 3)):
        at = rng.randint(0, len(chars))
        roll = rng.random()
        if roll < 0.35 and chars:
            del chars[min(at, len(chars) - 1)]
        elif roll < 0.7:
            chars.insert(at, rng.choice(_NOISE))
        else:
            chars[at : at + 1] = [rng.choice(_NOISE)]
    return "".join(chars)


def _mutated_json(rng: random.Random, obj: object) -> object:
    obj = copy.deepcopy(obj)
    for _ in range(rng.randint(1, 3)):
        if not isinstance(obj, dict) or rng.random() < 0.03:
            return rng.choice(_JSON_VALUES)
        target = obj
        melds = obj.get("melds")
        if isinstance(melds, list) and melds and rng.random() < 0.4:
            index = rng.randrange(len(melds))
            if not isinstance(melds[index], dict):
                melds[index] = {}
            target = melds[index]
        key = rng.choice([*target, "extra"])
        if rng.random() < 0.2:
            target.pop(key, None)
        else:
            target[key] = copy.deepcopy(rng.choice(_JSON_VALUES))
    return obj


def _mutated_hand(rng: random.Random, hand: WinningHand) -> WinningHand:
    value = copy.deepcopy(rng.choice(_JSON_VALUES))
    if hand.melds and rng.random() < 0.5:
        index = rng.randrange(len(hand.melds))
        field = rng.choice([field.name for field in dataclasses.fields(Meld)])
        meld = dataclasses.replace(hand.melds[index], **{field: value})
        return dataclasses.replace(
            hand, melds=(*hand.melds[:index], meld, *hand.melds[index + 1 :])
        )
    field = rng.choice([field.name for field in dataclasses.fields(WinningHand)])
    return dataclasses.replace(hand, **{field: value})


def test_every_error_raised_on_any_input_has_a_listed_code():
    rng = random.Random(20240611)
    texts = [row[0] for row in (*EXAMPLES, *PARSE_ERRORS, *ILLEGAL_HANDS)]
    objects = [FULL_JSON, *(obj for obj, _ in JSON_ERRORS)]
    hands = [
        legal(),
        # (those the mutations can take apart: melds a tuple of Melds)
        *(
            hand
            for hand, _ in VALIDATE_ERRORS
            if isinstance(hand.melds, tuple) and all(isinstance(m, Meld) for m in hand.melds)
        ),
        *(parse_hand(row[0]) for row in (*EXAMPLES, *ILLEGAL_HANDS)),
    ]
    seen: set[str] = set()

    def check(source, read=lambda hand: hand) -> None:
        """Read ``source``, then validate and score it: any error is a listed HandError."""
        try:
            score_hand(read(source))
        except HandError as error:
            assert error.code in ERROR_CODES, (error.code, source)
            seen.add(error.code)

    def check_answer(answer: dict, source) -> None:
        if "error" in answer:
            code = answer["error"]["code"]
            assert code in ERROR_CODES and code != "internal_error", (answer, source)
            seen.add(code)

    # The starting texts themselves first: each error row of the doc reaches its code
    # whatever the random mutations below happen to draw.
    for text in texts:
        check(text, parse_hand)
    for _ in range(2000):
        text = _mutated_text(rng, rng.choice(texts))
        check(text, parse_hand)
        check_answer(cli.answer_notation_line(text, 1), text)
        obj = _mutated_json(rng, rng.choice(objects))
        check(obj, hand_from_json)
        line = json.dumps(obj)
        check_answer(cli.answer_json_line(line), line)
        line = _mutated_text(rng, line)
        check_answer(cli.answer_json_line(line), line)
        check(_mutated_hand(rng, rng.choice(hands)))
    # The mutations reach every code but internal_error (a bug, never seen when all is well);
    # a code they stop reaching needs a starting text, object or hand that leads to it.
    missed = set(ERROR_CODES) - {"internal_error"} - OTHER_RULES_CODES - seen
    assert not missed, sorted(missed)
