"""Bad input for every message of the pure cores' errors, with the English it gives.

Each case calls a core (scoring or seating) with bad input; ``code`` and ``message`` are
what its error says, word for word as before the messages became translatable (the
command-line tools and the docs quote them).
"""

from collections.abc import Callable
from dataclasses import dataclass

from tournament import seating
from tournament.scoring import __main__ as scoring_cli
from tournament.scoring import calculator, claims, notation
from tournament.scoring.hand import Meld, WinningHand
from tournament.scoring.rules import Rules, validate_rules
from tournament.scoring.settlement import HandResult, Outcome, Penalty, PenaltyKind, validate_hand
from tournament.seating import modes, pairings, published, replan, seats

GOOD = dict(
    concealed=("1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "E", "C"),
    win_tile="C",
)
FOUR_PLAYERS = [1, 2, 3, 4]


def hand(**changes) -> WinningHand:
    return WinningHand(**{**GOOD, **changes})


def with_melds(*melds: Meld, **changes) -> WinningHand:
    concealed = GOOD["concealed"][: 13 - 3 * len(melds)]
    return WinningHand(**{**GOOD, "concealed": concealed, "melds": melds, **changes})


def win(**changes) -> HandResult:
    return HandResult(**{"outcome": Outcome.SELF_DRAWN, "winner": 0, "fan": 8, **changes})


def penalty(**changes) -> HandResult:
    fields = {"offender": 1, "kind": PenaltyKind.TO_EACH_OTHER, "points": 10, **changes}
    return HandResult(outcome=Outcome.DRAW, penalties=(Penalty(**fields),))


@dataclass(frozen=True)
class Case:
    name: str
    call: Callable[[], object]
    code: str
    message: str


CASES = [
    # rules: the options a tournament plays
    Case(
        "kong_reading",
        lambda: validate_rules(Rules(melded_and_concealed_kong=4)),
        "kong_reading_invalid",
        "one melded and one concealed kong score 3, 5 or 6 points",
    ),
    Case(
        "minimum_fan",
        lambda: validate_rules(Rules(minimum_fan=0)),
        "minimum_fan_invalid",
        "the minimum is a whole number of fan from 1 to 88",
    ),
    # notation: tiles and melds of a hand built in code
    Case(
        "tile_in_concealed",
        lambda: notation.validate(hand(concealed=("X", *GOOD["concealed"][1:]))),
        "unknown_tile",
        "'X' in the concealed hand is not a tile; tiles are 1m-9m, 1p-9p, 1s-9s, the winds E S "
        "W N and the dragons C F P",
    ),
    Case(
        "tile_win",
        lambda: notation.validate(hand(win_tile="0m")),
        "unknown_tile",
        "'0m' in the winning tile is not a tile; tiles are 1m-9m, 1p-9p, 1s-9s, the winds E S "
        "W N and the dragons C F P",
    ),
    Case(
        "tile_in_meld",
        lambda: notation.validate(with_melds(Meld("pung", ("X", "X", "X")))),
        "unknown_tile",
        "'X' in meld 1 is not a tile; tiles are 1m-9m, 1p-9p, 1s-9s, the winds E S W N and the "
        "dragons C F P",
    ),
    Case(
        "tile_format",
        lambda: notation.format_hand(hand(win_tile="Z")),
        "unknown_tile",
        "'Z' in the hand is not a tile; tiles are 1m-9m, 1p-9p, 1s-9s, the winds E S W N and "
        "the dragons C F P",
    ),
    Case(
        "meld_not_meld",
        lambda: notation.validate(with_melds("555p")),
        "wrong_type",
        "meld 1 is str, not a Meld",
    ),
    Case(
        "meld_kind",
        lambda: notation.validate(with_melds(Meld("set", ("5p", "5p", "5p")))),
        "invalid_meld_kind",
        "meld 1 has kind 'set'; a meld is a chow, pung or kong",
    ),
    Case(
        "meld_tiles_type",
        lambda: notation.validate(with_melds(Meld("pung", "555"))),
        "wrong_type",
        "the tiles of meld 1 must be a list of tiles",
    ),
    Case(
        "chow_stated",
        lambda: notation.validate(with_melds(Meld("chow", ("1m", "2m", "5m")))),
        "invalid_chow",
        "meld 1 (125m) is not a chow: three consecutive tiles of one suit, no honors",
    ),
    Case(
        "pung",
        lambda: notation.validate(with_melds(Meld("pung", ("1m", "1m", "2m")))),
        "invalid_pung",
        "meld 1 (112m) is not a pung: three identical tiles",
    ),
    Case(
        "kong",
        lambda: notation.validate(with_melds(Meld("kong", ("1m", "1m", "1m", "2m")))),
        "invalid_kong",
        "meld 1 (1112m) is not a kong: four identical tiles",
    ),
    Case(
        "meld_concealed_type",
        lambda: notation.validate(with_melds(Meld("kong", ("1m",) * 4, concealed="yes"))),
        "wrong_type",
        "concealed of meld 1 must be true or false",
    ),
    Case(
        "concealed_pung",
        lambda: notation.validate(with_melds(Meld("pung", ("1m",) * 3, concealed=True))),
        "concealed_meld_not_kong",
        "meld 1 (111m) is a concealed pung; only a kong is declared concealed",
    ),
    Case(
        "concealed_chow",
        lambda: notation.validate(with_melds(Meld("chow", ("1m", "2m", "3m"), concealed=True))),
        "concealed_meld_not_kong",
        "meld 1 (123m) is a concealed chow; only a kong is declared concealed",
    ),
    Case(
        "claimed_from",
        lambda: notation.validate(with_melds(Meld("pung", ("1m",) * 3, claimed_from=5))),
        "invalid_claimed_from",
        "meld 1 is claimed from 5; write 1 (the player on the left), 2 (opposite), 3 (on the "
        "right) or nothing",
    ),
    Case(
        "concealed_kong_claimed",
        lambda: notation.validate(
            with_melds(Meld("kong", ("1m",) * 4, concealed=True, claimed_from=1))
        ),
        "concealed_kong_claimed",
        "meld 1 (1111m) is a concealed kong, so it is not claimed from anyone",
    ),
    # notation: the whole hand
    Case(
        "flag_type",
        lambda: notation.validate(hand(self_drawn="yes")),
        "wrong_type",
        "self_drawn must be true or false",
    ),
    Case(
        "seat_wind",
        lambda: notation.validate(hand(seat_wind="X")),
        "invalid_seat_wind",
        "seat wind 'X' is not E, S, W or N",
    ),
    Case(
        "prevalent_wind",
        lambda: notation.validate(hand(prevalent_wind="X")),
        "invalid_prevalent_wind",
        "prevalent wind 'X' is not E, S, W or N",
    ),
    Case(
        "flowers",
        lambda: notation.validate(hand(flowers=9)),
        "invalid_flowers",
        "flowers is 9; it must be a whole number from 0 to 8",
    ),
    Case(
        "concealed_type",
        lambda: notation.validate(hand(concealed="123m")),
        "wrong_type",
        "the concealed tiles must be a list of tiles",
    ),
    Case(
        "melds_type",
        lambda: notation.validate(hand(melds="x")),
        "wrong_type",
        "the melds must be a list of melds",
    ),
    Case(
        "tile_count",
        lambda: notation.validate(hand(concealed=GOOD["concealed"][:10])),
        "wrong_tile_count",
        "the hand has 11 tiles (10 concealed, 0 meld(s) counted as 3 each, and the winning "
        "tile); a winning hand has 14",
    ),
    Case(
        "copies",
        lambda: notation.validate(hand(concealed=("C", "C", "C", "C", *GOOD["concealed"][:9]))),
        "too_many_copies",
        "5 copies of C in the hand, melds and winning tile together; the set has 4",
    ),
    Case(
        "replacement_without_kong",
        lambda: notation.validate(hand(kong=True, self_drawn=True)),
        "replacement_without_kong",
        "out with replacement tile (kong, self-drawn) needs a kong among the melds",
    ),
    Case(
        "robbing_with_copy",
        lambda: notation.validate(
            hand(kong=True, win_tile="F", concealed=(*GOOD["concealed"][:12], "F"))
        ),
        "robbing_kong_with_copy",
        "robbing the kong (kong, not self-drawn) on F while the hand holds 1 other copy of it: "
        "the robbed kong would need three more",
    ),
    Case(
        "robbing_with_copies",
        lambda: notation.validate(hand(kong=True, win_tile="E")),
        "robbing_kong_with_copy",
        "robbing the kong (kong, not self-drawn) on E while the hand holds 3 other copies of "
        "it: the robbed kong would need three more",
    ),
    Case(
        "robbing_last_tile",
        lambda: notation.validate(hand(kong=True, last_tile=True, win_tile="F")),
        "robbing_kong_last_tile",
        "robbing the kong cannot also be last tile: a kong is robbed when it is declared, not "
        "from the last discard, and no kong is declared once the wall is empty",
    ),
    Case(
        "fourth_with_copy",
        lambda: notation.validate(hand(fourth_tile=True, win_tile="E")),
        "fourth_tile_with_copy",
        "fourth tile on E while the concealed hand holds another copy of it, so the winning "
        "tile cannot be the last one",
    ),
    # notation: the blessings a referee declares
    Case(
        "blessing_unknown",
        lambda: notation.validate(hand(blessing="divine")),
        "invalid_blessing",
        "blessing 'divine' is not heavenly, earthly, human or nothing",
    ),
    Case(
        "blessing_with_melds",
        lambda: notation.validate(
            with_melds(Meld("pung", ("5p",) * 3), blessing="heavenly", self_drawn=True)
        ),
        "blessing_with_melds",
        "Heavenly Hand is won in the first go-around, before any set is claimed or kong "
        "declared: the hand has no melds",
    ),
    Case(
        "heavenly_not_dealer",
        lambda: notation.validate(hand(blessing="heavenly", self_drawn=True, seat_wind="S")),
        "blessing_seat",
        "Heavenly Hand is the dealer's: write seat=E",
    ),
    Case(
        "earthly_dealer",
        lambda: notation.validate(hand(blessing="earthly")),
        "blessing_seat",
        "Earthly Hand is a non-dealer's: the seat is not E",
    ),
    Case(
        "heavenly_on_discard",
        lambda: notation.validate(hand(blessing="heavenly")),
        "blessing_win",
        "Heavenly Hand is won on the dealer's 14 tiles: write it self-drawn",
    ),
    Case(
        "earthly_self_drawn",
        lambda: notation.validate(hand(blessing="earthly", seat_wind="S", self_drawn=True)),
        "blessing_win",
        "Earthly Hand is won on the dealer's first discard, so not self-drawn; a non-dealer's "
        "own first draw is Human Hand",
    ),
    Case(
        "blessing_last_tile",
        lambda: notation.validate(hand(blessing="human", seat_wind="S", last_tile=True)),
        "blessing_conditions",
        "Human Hand is won in the first go-around, so neither on the last tile nor by robbing "
        "a kong",
    ),
    Case(
        "blessing_twice",
        lambda: notation.parse_hand("123m +9s | heavenly earthly"),
        "duplicate_condition",
        "at character 21 (… | heavenly >>earthly<<): a hand has one blessing at most: heavenly "
        "was given at character 12",
    ),
    # calculator: what the tournament's rules do not play
    Case(
        "flowers_not_played",
        lambda: calculator.score(hand(flowers=2), Rules(flowers=False)),
        "flowers_not_played",
        "this tournament plays without flowers; the hand has 2",
    ),
    Case(
        "blessings_not_played",
        lambda: calculator.score(hand(blessing="human", seat_wind="S")),
        "blessings_not_played",
        "this tournament does not play the blessings (Heavenly, Earthly and Human Hand); the "
        "hand declares Human Hand",
    ),
    # notation: reading text
    Case(
        "not_text",
        lambda: notation.parse_hand(5),
        "wrong_type",
        "a hand in notation is text, not int",
    ),
    Case(
        "empty",
        lambda: notation.parse_hand("   "),
        "empty_hand",
        "at character 1 (>>   <<): write the tiles, e.g. 123m ... +9s",
    ),
    Case(
        "digits_end",
        lambda: notation.parse_hand("123m45"),
        "missing_suit",
        "at character 5 (123m>>45<<): 45 must be followed by a suit letter m, p or s, or by z for "
        "the honors 1z-7z",
    ),
    Case(
        "digits_space",
        lambda: notation.parse_hand("123 +9s"),
        "missing_suit",
        "at character 1 (>>123<< +9s): 123 must be followed by a suit letter m, p or s, or by z "
        "for the honors 1z-7z",
    ),
    Case(
        "digits_upper_m",
        lambda: notation.parse_hand("123M +9s"),
        "missing_suit",
        "at character 1 (>>123<<M +9s): 123 must be followed by a suit letter m, p or s, or by z "
        "for the honors 1z-7z; these letters are lowercase",
    ),
    Case(
        "digits_upper_p",
        lambda: notation.parse_hand("123P +9s"),
        "missing_suit",
        "at character 1 (>>123<<P +9s): 123 must be followed by a suit letter m, p or s, or by z "
        "for the honors 1z-7z; these letters are lowercase (P alone is an honor: the white dragon)",
    ),
    Case(
        "digits_upper_s",
        lambda: notation.parse_hand("123S +9s"),
        "missing_suit",
        "at character 1 (>>123<<S +9s): 123 must be followed by a suit letter m, p or s, or by z "
        "for the honors 1z-7z; these letters are lowercase (S alone is an honor: the South wind)",
    ),
    Case(
        "digits_upper_z",
        lambda: notation.parse_hand("11Z +9s"),
        "missing_suit",
        "at character 1 (>>11<<Z +9s): 11 must be followed by a suit letter m, p or s, or by z "
        "for the honors 1z-7z; these letters are lowercase",
    ),
    Case(
        "honor_number_eight",
        lambda: notation.parse_hand("123m78z +9s"),
        "unknown_tile",
        "at character 6 (123m7>>8<<z +9s): 8z is not a tile; the honors are 1z-7z: East, South, "
        "West, North, red, green and white dragon",
    ),
    Case(
        "bare_honor_suffix",
        lambda: notation.parse_hand("123m z +9s"),
        "unknown_tile",
        "at character 6 (123m >>z<< +9s): 'z' is not a tile; the suit letter z needs ranks "
        "before it, as in 5z",
    ),
    Case(
        "zero_rank",
        lambda: notation.parse_hand("105m +9s"),
        "unknown_tile",
        "at character 2 (1>>0<<5m +9s): 0m is not a tile; ranks are 1-9",
    ),
    Case(
        "chinese_honor",
        lambda: notation.parse_hand("123m东 +9s"),
        "unknown_tile",
        "at character 5 (123m>>东<< +9s): '东' is not a tile; write 东 as E",
    ),
    Case(
        "bare_suit",
        lambda: notation.parse_hand("123m s +9s"),
        "unknown_tile",
        "at character 6 (123m >>s<< +9s): 's' is not a tile; the suit letter s needs ranks "
        "before it, as in 5s",
    ),
    Case(
        "lowercase_honor",
        lambda: notation.parse_hand("123m e +9s"),
        "unknown_tile",
        "at character 6 (123m >>e<< +9s): 'e' is not a tile; honors are uppercase: write E",
    ),
    Case(
        "other_letter",
        lambda: notation.parse_hand("123m x +9s"),
        "unknown_tile",
        "at character 6 (123m >>x<< +9s): 'x' is not a tile; tiles are 1m-9m, 1p-9p, 1s-9s, "
        "the winds E S W N and the dragons C F P (or the honors as 1z-7z)",
    ),
    Case(
        "meld_never_closed",
        lambda: notation.parse_hand("123m [555p"),
        "unclosed_meld",
        "at character 6 (123m >>[555p<<): the [ at character 6 is never closed with ]",
    ),
    Case(
        "meld_claim_suffix",
        lambda: notation.parse_hand("[555p:4] +9s"),
        "invalid_claimed_from",
        "at character 6 ([555p>>:4<<] +9s): after ':' write who the meld was claimed from: 1 "
        "(the player on the left), 2 (opposite) or 3 (on the right)",
    ),
    Case(
        "meld_closed_by_other",
        lambda: notation.parse_hand("[555p +9s"),
        "unclosed_meld",
        "at character 7 ([555p >>+<<9s): expected ] to close the [ at character 1",
    ),
    Case(
        "meld_character",
        lambda: notation.parse_hand("[555p#] +9s"),
        "unexpected_character",
        "at character 6 ([555p>>#<<] +9s): '#' cannot stand inside a meld; write tiles then an "
        "optional claim suffix :1, :2 or :3 before ]",
    ),
    Case(
        "meld_after_suffix",
        lambda: notation.parse_hand("[555p:3 5p] +9s"),
        "unexpected_character",
        "at character 9 ([555p:3 >>5<<p] +9s): '5' cannot stand inside a meld; write tiles "
        "then an optional claim suffix :1, :2 or :3, which comes last, before ]",
    ),
    Case(
        "concealed_kong_size",
        lambda: notation.parse_hand("{CCC} +9s"),
        "invalid_meld_size",
        "at character 1 (>>{CCC}<< +9s): a concealed kong in { } has 4 tiles, this one has 3",
    ),
    Case(
        "meld_size",
        lambda: notation.parse_hand("[12m] +9s"),
        "invalid_meld_size",
        "at character 1 (>>[12m]<< +9s): a meld in [ ] has 3 tiles (chow or pung) or 4 (kong), "
        "this one has 2",
    ),
    Case(
        "chow_inferred",
        lambda: notation.parse_hand("123456789m11p [125m] +9s"),
        "invalid_chow",
        "at character 15 (…3456789m11p >>[125m]<< +9s): meld 1 (125m) is neither a pung (three "
        "identical tiles) nor a chow (three consecutive tiles of one suit)",
    ),
    Case(
        "kong_claimed_text",
        lambda: notation.parse_hand("{CCCC:1} +9s"),
        "concealed_kong_claimed",
        "at character 1 (>>{CCCC:1}<< +9s): meld 1 (CCCC) is a concealed kong, so it is not "
        "claimed from anyone",
    ),
    Case(
        "condition_twice",
        lambda: notation.parse_hand("123m +9s | self self"),
        "duplicate_condition",
        "at character 17 (… +9s | self >>self<<): self was already given at character 12",
    ),
    Case(
        "condition_seat",
        lambda: notation.parse_hand("123m +9s | seat=X"),
        "invalid_seat_wind",
        "at character 17 (… +9s | seat=>>X<<): seat= takes a wind, E, S, W or N, not 'X'",
    ),
    Case(
        "condition_wind",
        lambda: notation.parse_hand("123m +9s | wind=Q"),
        "invalid_prevalent_wind",
        "at character 17 (… +9s | wind=>>Q<<): wind= takes a wind, E, S, W or N, not 'Q'",
    ),
    Case(
        "condition_flowers",
        lambda: notation.parse_hand("123m +9s | flowers=9"),
        "invalid_flowers",
        "at character 20 (…s | flowers=>>9<<): flowers= takes a whole number from 0 to 8, not '9'",
    ),
    Case(
        "condition_unknown",
        lambda: notation.parse_hand("123m +9s | bogus"),
        "unknown_condition",
        "at character 12 (123m +9s | >>bogus<<): 'bogus' is not a win condition: use self, "
        "kong, fourth, last, heavenly, earthly, human, seat=E|S|W|N, wind=E|S|W|N, flowers=0..8",
    ),
    Case(
        "condition_setting_alone",
        lambda: notation.parse_hand("123m +9s | seat E"),
        "unknown_condition",
        "at character 12 (123m +9s | >>seat<< E): 'seat' is not a win condition: use self, "
        "kong, fourth, last, heavenly, earthly, human, seat=E|S|W|N, wind=E|S|W|N, "
        "flowers=0..8; write seat=value with no spaces",
    ),
    Case(
        "condition_flag_value",
        lambda: notation.parse_hand("123m +9s | self=1"),
        "unknown_condition",
        "at character 12 (123m +9s | >>self=1<<): 'self=1' is not a win condition: use self, "
        "kong, fourth, last, heavenly, earthly, human, seat=E|S|W|N, wind=E|S|W|N, "
        "flowers=0..8; self takes no value",
    ),
    Case(
        "after_win_tile",
        lambda: notation.parse_hand("123m +9s 5p"),
        "text_after_win_tile",
        "at character 10 (123m +9s >>5<<p): the winning tile (+9s at character 6) comes last, "
        "before the | and the win conditions",
    ),
    Case(
        "two_win_tiles",
        lambda: notation.parse_hand("123m +99s"),
        "invalid_win_tile",
        "at character 6 (123m >>+99s<<): write exactly one winning tile after +, not 2",
    ),
    Case(
        "no_win_tile_after_plus",
        lambda: notation.parse_hand("123m +"),
        "invalid_win_tile",
        "at character 6 (123m >>+<<): write exactly one winning tile after +, not 0",
    ),
    Case(
        "closing_bracket",
        lambda: notation.parse_hand("123m] +9s"),
        "unexpected_character",
        "at character 5 (123m>>]<< +9s): ] closes no meld; melds are written [789m], [555p:3] "
        "or {CCCC}",
    ),
    Case(
        "stray_character",
        lambda: notation.parse_hand("123m # +9s"),
        "unexpected_character",
        "at character 6 (123m >>#<< +9s): '#' is not part of the notation; write tiles, "
        "[melds], {kongs}, +winning tile, then | conditions",
    ),
    Case(
        "missing_win",
        lambda: notation.parse_hand("123m456p"),
        "missing_win_tile",
        "at character 9 (end of text, after 123m456p): no winning tile: write it after +, as "
        "in +9s, before any |",
    ),
    Case(
        "missing_win_before_bar",
        lambda: notation.parse_hand("123m456p | self"),
        "missing_win_tile",
        "at character 10 (123m456p >>|<< self): no winning tile: write it after +, as in +9s, "
        "before any |",
    ),
    Case(
        "context_long",
        lambda: notation.parse_hand("123m456p789s11s X E +E | self"),
        "unknown_tile",
        "at character 17 (…456p789s11s >>X<< E +E | self): 'X' is not a tile; tiles are 1m-9m, "
        "1p-9p, 1s-9s, the winds E S W N and the dragons C F P (or the honors as 1z-7z)",
    ),
    # notation: JSON
    Case(
        "json_not_object",
        lambda: notation.hand_from_json([1]),
        "not_an_object",
        "a hand is a JSON object, not list",
    ),
    Case(
        "json_missing",
        lambda: notation.hand_from_json({"concealed": []}),
        "missing_field",
        "the field 'win_tile' is required",
    ),
    Case(
        "json_list",
        lambda: notation.hand_from_json({"concealed": "123m", "win_tile": "9s"}),
        "wrong_type",
        "the field 'concealed' must be a list, got '123m'",
    ),
    Case(
        "json_string",
        lambda: notation.hand_from_json({"concealed": [], "win_tile": 9}),
        "wrong_type",
        "the field 'win_tile' must be a string, got 9",
    ),
    Case(
        "json_bool",
        lambda: notation.hand_from_json({"concealed": [], "win_tile": "9s", "self_drawn": 1}),
        "wrong_type",
        "the field 'self_drawn' must be true or false, got 1",
    ),
    Case(
        "json_int",
        lambda: notation.hand_from_json({"concealed": [], "win_tile": "9s", "flowers": True}),
        "wrong_type",
        "the field 'flowers' must be an integer, got True",
    ),
    Case(
        "json_tile",
        lambda: notation.hand_from_json({"concealed": ["1m", 5], "win_tile": "9s"}),
        "wrong_type",
        "concealed[1] must be a tile string like '5p', got 5",
    ),
    Case(
        "json_meld",
        lambda: notation.hand_from_json({"concealed": [], "win_tile": "9s", "melds": [3]}),
        "wrong_type",
        "melds[0] must be an object, got 3",
    ),
    Case(
        "json_meld_field",
        lambda: notation.hand_from_json(
            {"concealed": [], "win_tile": "9s", "melds": [{"kind": "pung"}]}
        ),
        "missing_field",
        "the field 'melds[0].tiles' is required",
    ),
    Case(
        "cli_json",
        lambda: scoring_cli.read_json("{nope"),
        "invalid_json",
        "not a JSON value: Expecting property name enclosed in double quotes: line 1 column 2 "
        "(char 1)",
    ),
    # calculator
    Case(
        "calc_seat",
        lambda: calculator.score(hand(seat_wind="Q")),
        "invalid_seat_wind",
        "seat wind 'Q' is not E, S, W or N",
    ),
    Case(
        "calc_prevalent",
        lambda: calculator.score(hand(prevalent_wind="Q")),
        "invalid_prevalent_wind",
        "prevalent wind 'Q' is not E, S, W or N",
    ),
    Case(
        "calc_tile",
        lambda: calculator.score(hand(win_tile="Z")),
        "unknown_tile",
        "'Z' is not a tile",
    ),
    Case(
        "calc_no_win",
        lambda: calculator.score(
            hand(
                concealed=(
                    "1m",
                    "3m",
                    "5m",
                    "7m",
                    "9m",
                    "2p",
                    "4p",
                    "6p",
                    "8p",
                    "1s",
                    "3s",
                    "5s",
                    "7s",
                )
            )
        ),
        "not_a_winning_hand",
        "the tiles do not form four sets and a pair, seven pairs, thirteen orphans, honors and "
        "knitted tiles or a knitted straight",
    ),
    # claims
    Case(
        "fan_unknown",
        lambda: claims.parse_claimed_fans("Lucky Dragon"),
        "unknown_fan",
        "Unknown fan name: 'Lucky Dragon'.",
    ),
    Case(
        "fan_count",
        lambda: claims.parse_claimed_fans("Pure Straight ×0"),
        "bad_fan_count",
        "Pure Straight: a count is at least 1.",
    ),
    Case(
        "fan_points_one",
        lambda: claims.parse_claimed_fans("Self-Drawn 2"),
        "fan_points_mismatch",
        "Self-Drawn scores 1 point, not 2. A number after a fan's name is read as its points; "
        "write “×2” for a fan counted twice.",
    ),
    Case(
        "fan_points",
        lambda: claims.parse_claimed_fans("Pure Straight 8"),
        "fan_points_mismatch",
        "Pure Straight scores 16 points, not 8. A number after a fan's name is read as its "
        "points; write “×2” for a fan counted twice.",
    ),
    # settlement
    Case(
        "outcome",
        lambda: validate_hand(HandResult(outcome="won")),
        "outcome_invalid",
        "Outcome must be one of self_drawn, discard, draw, not_played; got 'won'.",
    ),
    Case(
        "winner_required",
        lambda: validate_hand(win(winner=None)),
        "winner_required",
        "A win needs a winner.",
    ),
    Case(
        "winner_invalid",
        lambda: validate_hand(win(winner=4)),
        "winner_invalid",
        "The winner must be a player 0..3; got 4.",
    ),
    Case(
        "discarder_required",
        lambda: validate_hand(win(outcome=Outcome.DISCARD)),
        "discarder_required",
        "A discard win needs a discarder.",
    ),
    Case(
        "discarder_invalid",
        lambda: validate_hand(win(outcome=Outcome.DISCARD, discarder=7)),
        "discarder_invalid",
        "The discarder must be a player 0..3; got 7.",
    ),
    Case(
        "discarder_is_winner",
        lambda: validate_hand(win(outcome=Outcome.DISCARD, discarder=0)),
        "discarder_is_winner",
        "P1 cannot win on their own discard.",
    ),
    Case(
        "discarder_self_drawn",
        lambda: validate_hand(win(discarder=1)),
        "discarder_not_allowed",
        "A self-drawn win has no discarder.",
    ),
    Case(
        "fan_required",
        lambda: validate_hand(win(fan=None)),
        "fan_required",
        "A win needs the winner's fan.",
    ),
    Case(
        "flowers_not_played",
        lambda: validate_hand(win(flowers=2), Rules(flowers=False)),
        "flowers_not_played",
        "This tournament plays without flowers; got 2.",
    ),
    Case(
        "fan_invalid",
        lambda: validate_hand(win(fan=8.5)),
        "fan_invalid",
        "Fan must be a whole number; got 8.5.",
    ),
    Case(
        "fan_below",
        lambda: validate_hand(win(fan=6)),
        "fan_below_minimum",
        "A win needs at least 8 fan, flowers not counted; got 6.",
    ),
    Case(
        "flowers_invalid",
        lambda: validate_hand(win(flowers="2")),
        "flowers_invalid",
        "Flowers must be a whole number; got '2'.",
    ),
    Case(
        "flowers_range",
        lambda: validate_hand(win(flowers=9)),
        "flowers_out_of_range",
        "Flowers must be between 0 and 8; got 9.",
    ),
    Case(
        "draw_winner",
        lambda: validate_hand(HandResult(outcome=Outcome.DRAW, winner=1)),
        "winner_not_allowed",
        "There is no winner in a draw.",
    ),
    Case(
        "draw_discarder",
        lambda: validate_hand(HandResult(outcome=Outcome.DRAW, discarder=1)),
        "discarder_not_allowed",
        "There is no discarder in a draw.",
    ),
    Case(
        "draw_fan",
        lambda: validate_hand(HandResult(outcome=Outcome.DRAW, fan=8)),
        "fan_not_allowed",
        "There is no fan in a draw.",
    ),
    Case(
        "draw_flowers",
        lambda: validate_hand(HandResult(outcome=Outcome.DRAW, flowers=1)),
        "flowers_not_allowed",
        "There are no flowers to count in a draw.",
    ),
    Case(
        "not_played_winner",
        lambda: validate_hand(HandResult(outcome=Outcome.NOT_PLAYED, winner=1)),
        "winner_not_allowed",
        "There is no winner in a hand not played.",
    ),
    Case(
        "not_played_discarder",
        lambda: validate_hand(HandResult(outcome=Outcome.NOT_PLAYED, discarder=1)),
        "discarder_not_allowed",
        "There is no discarder in a hand not played.",
    ),
    Case(
        "not_played_fan",
        lambda: validate_hand(HandResult(outcome=Outcome.NOT_PLAYED, fan=8)),
        "fan_not_allowed",
        "There is no fan in a hand not played.",
    ),
    Case(
        "not_played_flowers",
        lambda: validate_hand(HandResult(outcome=Outcome.NOT_PLAYED, flowers=2)),
        "flowers_not_allowed",
        "There are no flowers to count in a hand not played.",
    ),
    Case(
        "penalties_type",
        lambda: validate_hand(HandResult(outcome=Outcome.DRAW, penalties="none")),
        "penalties_invalid",
        "Penalties must be a tuple of Penalty; got 'none'.",
    ),
    Case(
        "penalty_type",
        lambda: validate_hand(HandResult(outcome=Outcome.DRAW, penalties=("p",))),
        "penalty_invalid",
        "Penalty 1 must be a Penalty; got 'p'.",
    ),
    Case(
        "penalty_offender",
        lambda: validate_hand(penalty(offender=4)),
        "penalty_offender_invalid",
        "Penalty 1: the offender must be a player 0..3; got 4.",
    ),
    Case(
        "penalty_kind",
        lambda: validate_hand(penalty(kind="fine")),
        "penalty_kind_invalid",
        "Penalty 1: the kind must be one of to_each_other, to_one, deducted; got 'fine'.",
    ),
    Case(
        "penalty_points",
        lambda: validate_hand(penalty(points=0)),
        "penalty_points_invalid",
        "Penalty 1: points must be a positive whole number; got 0.",
    ),
    Case(
        "penalty_beneficiary_required",
        lambda: validate_hand(penalty(kind=PenaltyKind.TO_ONE)),
        "penalty_beneficiary_required",
        "Penalty 1: a penalty paid to one player needs that player.",
    ),
    Case(
        "penalty_beneficiary_invalid",
        lambda: validate_hand(penalty(kind=PenaltyKind.TO_ONE, beneficiary=9)),
        "penalty_beneficiary_invalid",
        "Penalty 1: the beneficiary must be a player 0..3; got 9.",
    ),
    Case(
        "penalty_beneficiary_offender",
        lambda: validate_hand(penalty(kind=PenaltyKind.TO_ONE, beneficiary=1)),
        "penalty_beneficiary_is_offender",
        "Penalty 1: P2 cannot pay a penalty to themselves.",
    ),
    Case(
        "penalty_beneficiary_not_allowed",
        lambda: validate_hand(penalty(beneficiary=2)),
        "penalty_beneficiary_not_allowed",
        "Penalty 1: only a penalty paid to one player has a beneficiary.",
    ),
    Case(
        "penalised_winner",
        lambda: validate_hand(
            HandResult(
                outcome=Outcome.SELF_DRAWN,
                winner=1,
                fan=8,
                penalties=(Penalty(1, PenaltyKind.TO_EACH_OTHER, 10),),
            )
        ),
        "penalised_player_cannot_win",
        "P2 has a penalty paid to each other player (penalty 1, a false win or claim) and "
        "cannot win this hand.",
    ),
    # seating: the draw by lot
    Case(
        "seed",
        lambda: seating.check_seed(-1),
        "bad_seed",
        "The seed must be a whole number of zero or more, not -1.",
    ),
    Case(
        "player",
        lambda: seating.draw_by_lot([1, 0, 2, 3], 1),
        "bad_player",
        "Player numbers must be positive whole numbers, not 0.",
    ),
    Case(
        "no_players",
        lambda: seating.draw_by_lot([], 1),
        "no_players",
        "There are no players to draw.",
    ),
    Case(
        "duplicates",
        lambda: seating.draw_by_lot([1, 2, 2, 3, 3], 1),
        "duplicate_player",
        "Each player can be drawn only once; repeated: 2, 3.",
    ),
    Case(
        "one_player",
        lambda: seating.draw_by_lot([1], 1),
        "not_multiple_of_four",
        "1 player is registered; 4 players are needed for 1 table: 3 substitutes are missing.",
    ),
    Case(
        "two_players",
        lambda: seating.draw_by_lot([1, 2], 1),
        "not_multiple_of_four",
        "2 players are registered; 4 players are needed for 1 table: 2 substitutes are missing.",
    ),
    Case(
        "three_players",
        lambda: seating.draw_by_lot([1, 2, 3], 1),
        "not_multiple_of_four",
        "3 players are registered; 4 players are needed for 1 table: 1 substitute is missing.",
    ),
    Case(
        "five_players",
        lambda: seating.draw_by_lot([1, 2, 3, 4, 5], 1),
        "not_multiple_of_four",
        "5 players are registered; 8 players are needed for 2 tables: 3 substitutes are missing.",
    ),
    Case(
        "seven_players",
        lambda: seating.draw_by_lot(list(range(1, 8)), 1),
        "not_multiple_of_four",
        "7 players are registered; 8 players are needed for 2 tables: 1 substitute is missing.",
    ),
    # seating: who is drawn
    Case(
        "shortfall_one_substitute",
        lambda: seating.players_to_draw(range(1, 16), []),
        "not_multiple_of_four",
        "15 active players, not counting substitutes, cannot fill tables of four. Register 1 "
        "more substitute to fill the last table. Otherwise, withdraw 3 players so that the "
        "others fill whole tables.",
    ),
    Case(
        "shortfall_one_to_withdraw",
        lambda: seating.players_to_draw(range(1, 14), [20]),
        "not_multiple_of_four",
        "13 active players, not counting substitutes, cannot fill tables of four. Register 2 "
        "more substitutes to fill the last table. Otherwise, withdraw 1 player so that the "
        "others fill whole tables.",
    ),
    Case(
        "shortfall_one_player",
        lambda: seating.players_to_draw([1], []),
        "not_multiple_of_four",
        "1 active player, not counting substitutes, cannot fill tables of four. Register 3 more "
        "substitutes to fill the last table.",
    ),
    Case(
        "nobody_active",
        lambda: seating.players_to_draw([], [20, 21]),
        "no_players",
        "There are no active players to draw.",
    ),
    # seating: modes
    Case(
        "mode",
        lambda: modes.seat_session("alphabetical", players=FOUR_PLAYERS, seed=1),
        "unknown_mode",
        "Unknown seating mode 'alphabetical'; expected one of random, standings, serpentine, "
        "top_tables.",
    ),
    Case(
        "mode_players",
        lambda: modes.seat_session("random", players=[1, 2, 3], seed=1),
        "bad_player_count",
        "The number of players must be a positive multiple of 4, not 3.",
    ),
    Case(
        "mode_repeated",
        lambda: modes.seat_session("random", players=[1, 2, 3, 3], seed=1),
        "duplicate_player",
        "A player is listed more than once.",
    ),
    Case(
        "mode_ranking",
        lambda: modes.seat_session("standings", players=FOUR_PLAYERS, seed=1, ranking=[1, 2]),
        "bad_ranking",
        "The ranking must list every player exactly once, best first.",
    ),
    Case(
        "mode_history",
        lambda: modes.seat_session("random", players=FOUR_PLAYERS, seed=1, history=[[(1, 2, 3)]]),
        "bad_history_table",
        "A table in the history does not hold four players: (1, 2, 3).",
    ),
    Case(
        "mode_top",
        lambda: modes.seat_session(
            "top_tables", players=FOUR_PLAYERS, seed=1, ranking=FOUR_PLAYERS, top=2
        ),
        "bad_top",
        "top must be a whole number from 1 to 1 (the number of tables), not 2.",
    ),
    # seating: re-planning
    Case(
        "replan_players",
        lambda: replan.replan([], played=0, players=[1, 2], seed=1),
        "bad_player_count",
        "The number of players must be a positive multiple of 4, not 2.",
    ),
    Case(
        "replan_repeated",
        lambda: replan.replan([], played=0, players=[1, 2, 3, 3], seed=1),
        "duplicate_player",
        "A player is listed more than once.",
    ),
    Case(
        "replan_played",
        lambda: replan.replan([[(1, 2, 3, 4)]], played=2, players=FOUR_PLAYERS, seed=1),
        "bad_played",
        "played must be from 0 to 1, not 2.",
    ),
    Case(
        "replan_input_played",
        lambda: published.replan_from_input(
            {"seed": 1, "played": 2, "players": FOUR_PLAYERS, "schedule": [[[1, 2, 3, 4]]]}
        ),
        "bad_played",
        "played must be from 0 to 1, not 2.",
    ),
    Case(
        "replan_published",
        lambda: replan.replan([[(1, 2, 3, 3)]], played=0, players=FOUR_PLAYERS, seed=1),
        "bad_published_table",
        "Every published table must hold four distinct players.",
    ),
    # seating: whole-tournament plans
    Case(
        "plan_sessions",
        lambda: pairings.plan_tables(list(range(1, 9)), 0, seed=1),
        "bad_session_count",
        "The number of sessions must be at least 1, not 0.",
    ),
    Case(
        "plan_few",
        lambda: pairings.plan_tables([1, 2, 3], 1, seed=1),
        "too_few_players",
        "At least 4 players are needed, not 3.",
    ),
    Case(
        "plan_multiple",
        lambda: pairings.plan_tables(list(range(1, 7)), 1, seed=1),
        "bad_player_count",
        "The number of players must be a multiple of 4: 6 players (2 more needed).",
    ),
    Case(
        "plan_repeated",
        lambda: pairings.plan_tables([1, 2, 3, 3, 5, 5, 6, 7], 1, seed=1),
        "duplicate_player",
        "Players appear more than once: [3, 5].",
    ),
    Case(
        "plan_fixed_many",
        lambda: pairings.plan_tables(
            FOUR_PLAYERS, 1, seed=1, fixed=[[(1, 2, 3, 4)], [(1, 2, 3, 4)]]
        ),
        "too_many_fixed_sessions",
        "2 fixed sessions given for a plan of 1 sessions.",
    ),
    Case(
        "plan_fixed_table",
        lambda: pairings.plan_tables(FOUR_PLAYERS, 1, seed=1, fixed=[[(1, 2, 3)]]),
        "bad_fixed_table",
        "Fixed session 1 has a table that is not of four players.",
    ),
    Case(
        "plan_fixed_players",
        lambda: pairings.plan_tables(list(range(1, 9)), 1, seed=1, fixed=[[(1, 2, 3, 4)]]),
        "bad_fixed_session",
        "Fixed session 1 does not seat every player exactly once.",
    ),
    Case(
        "seats_table",
        lambda: seats.balance_seats([[(1, 2, 3)]], seed=1),
        "bad_table",
        "Session 1: every table needs four players, not (1, 2, 3).",
    ),
    Case(
        "seats_twice",
        lambda: seats.balance_seats([[(1, 2, 3, 4), (1, 5, 6, 7)]], seed=1),
        "player_seated_twice",
        "Session 1: player 1 is seated more than once.",
    ),
]
