"""Checking what a referee entered: a fan total, a list of fan names, or both.

With the winning hand scored by the calculator, the claim is compared with it: fans
missing from the claim, fans claimed that the hand does not score, and a wrong total.
Without tiles, the claimed fans can still be checked against each other and against the
8-fan minimum:

* fans that exclude one another (不计, ``Fan.excludes``) cannot be counted together;
* fans that can never both be counted for one hand (``impossible_together``): Chicken
  Hand beside any other fan, fans of different hand shapes, a self-drawn fan beside a
  fan won on a discard, and the other families and pairs of the tables below;
* a fan claimed more times than any hand can count it (``MAX_COUNT``);
* a claim with nothing in it (no fan but flowers, no total) is reported, never agreed;
* a fan the tournament's rules do not play (明暗杠 unless one melded and one concealed kong
  score 5, the blessings unless played) is reported (``fans_not_played``), and the
  minimum is the rules' (``Rules.minimum_fan``).

Reading a claim (``parse_claimed_fans``). Fan names, English or Chinese, are separated by
commas, semicolons, 、 or new lines. After a name may come, in either order:

* how many times it counts, always after a multiplication sign: ``×2``, ``x2``, ``X 2``,
  ``*2``;
* its points, as referees write them: ``Pure Straight 16``, ``Pure Straight (16)``,
  ``清龙16``, ``清龙 16分``, ``Pure Straight 16 points``. The points must be the fan's own
  (or, after a count, the fan's points times the count: ``一般高 ×2 2``); they are only
  read to be checked, never used. Any other number is an error (``fan_points_mismatch``)
  rather than a guess: ``Pure Double Chow 2`` may mean twice or two points.

No Django here: the web pages translate the problem codes themselves.
"""

import re
from collections import Counter
from dataclasses import dataclass

from tournament.core_errors import gettext_noop
from tournament.scoring.fans import FAN_BY_KEY, FANS, Fan, fan_by_name, played
from tournament.scoring.hand import HandError
from tournament.scoring.rules import SEED_RULES, Rules
from tournament.scoring.settlement import MAX_FLOWERS

FLOWERS = "flower_tiles"
CHICKEN_HAND = "chicken_hand"
MIXED_KONGS = "melded_and_concealed_kong"  # 明暗杠, the fan of the 5-point kong reading
BLESSINGS = frozenset({"heavenly_hand", "earthly_hand", "human_hand"})

_SEPARATORS = re.compile(r"[,;\n、，；]+")
# "×2", "x 2", "X2", "*2" at the end of a part: how many times the fan counts.
_COUNT_AT_END = re.compile(r"\s*[×xX*]\s*(\d+)\s*$")
# "16", "(16)", "16 points", "16分", "(16 番)" at the end of a part: the fan's points.
_UNIT = r"(?:points?|pts?|fan|番|分)?"
_POINTS_AT_END = re.compile(rf"\s*(?:\(\s*(\d+)\s*{_UNIT}\s*\)|(\d+)\s*{_UNIT})\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class ClaimedFan:
    fan: Fan
    count: int = 1


def _read_part(part: str) -> tuple[str, int, int | None]:
    """Split one claimed fan into its name, its count and the points written after it."""
    rest, count, points = part, None, None
    for _ in range(2):
        if count is None and (match := _COUNT_AT_END.search(rest)):
            count, rest = int(match.group(1)), rest[: match.start()]
        elif points is None and (match := _POINTS_AT_END.search(rest)):
            points, rest = int(match.group(1) or match.group(2)), rest[: match.start()]
    return rest.strip(), (1 if count is None else count), points


def parse_claimed_fans(text: str) -> tuple[ClaimedFan, ...]:
    """Read fan names separated by commas, semicolons or new lines (English or Chinese).

    A count follows a name after a multiplication sign ("×2", "x2", "*2"); a bare number
    is the fan's points and must be right (see the module docstring). A name given twice
    adds up. Raises HandError: ``unknown_fan`` naming the first name it does not know,
    ``fan_points_mismatch`` for points that are not the fan's, ``bad_fan_count`` for ×0.
    """
    counts: Counter[str] = Counter()
    for part in _SEPARATORS.split(text or ""):
        part = part.strip()
        if not part:
            continue
        name, count, points = _read_part(part)
        try:
            fan = fan_by_name(name)
        except KeyError as error:
            raise HandError(
                "unknown_fan", gettext_noop("Unknown fan name: %(name)s."), {"name": repr(name)}
            ) from error
        if count < 1:
            raise HandError(
                "bad_fan_count", gettext_noop("%(fan)s: a count is at least 1."), {"fan": fan}
            )
        if points is not None and points not in (fan.points, fan.points * count):
            if fan.points == 1:
                why = gettext_noop(
                    "%(fan)s scores 1 point, not %(written)s. A number after a fan's name is "
                    "read as its points; write “×2” for a fan counted twice."
                )
            else:
                why = gettext_noop(
                    "%(fan)s scores %(points)s points, not %(written)s. A number after a fan's "
                    "name is read as its points; write “×2” for a fan counted twice."
                )
            raise HandError(
                "fan_points_mismatch", why, {"fan": fan, "points": fan.points, "written": points}
            )
        counts[fan.key] += count
    return tuple(ClaimedFan(FAN_BY_KEY[key], n) for key, n in counts.items())


# --- How many times a fan can count ----------------------------------------------------
#
# One, unless listed. Two sets combine into a one-point fan at most once each and a set
# never forms the same fan twice (不得相同), so the pair fans of four chows or four pungs
# count at most twice. The kong fans count once: two kongs of a kind have their own fan
# (Two Melded Kongs, Two Concealed Kongs) and three or more are Three or Four Kongs.

MAX_COUNT: dict[str, int] = {
    "pure_double_chow": 2,  # 123m 123m 567p 567p; a third identical chow is Pure Triple Chow
    "mixed_double_chow": 2,  # 123m 123p 456m 456p; one chow in three suits is Mixed Triple
    "short_straight": 2,  # 123m 456m 234p 567p; three in a row is Pure Straight
    # 123m 789m 123p 789p: the calculator counts Mixed Double Chow ×2 and Two Terminal
    # Chows once, but Two Terminal Chows ×2 and Mixed Double Chow once is as many points.
    "two_terminal_chows": 2,
    "double_pung": 2,  # 222m 222p 555m 555s; a third is Triple Pung
    "pung_of_terminals_or_honors": 4,  # four pungs of ones, nines or non-scoring winds
    "tile_hog": 3,  # 14 tiles hold three groups of four at most: 777m 888m 999m 789m 55s
    FLOWERS: MAX_FLOWERS,  # the flowers in the set
}


def max_count(fan: Fan) -> int:
    """How many times ``fan`` can count in one hand."""
    return MAX_COUNT.get(fan.key, 1)


# --- Fans that cannot both be counted for one hand ---------------------------------------
#
# Exclusions (不计) are reported as such ("incompatible_fans"); the tables below catch
# the other pairs no hand can count together ("impossible_together"). Each pair gets the
# first reason found, in this order: the fans that allow only a few others (Chicken Hand,
# Nine Gates, Seven Shifted Pairs), the explicit pairs, then the families: hand shape, way
# of winning, claimed sets, chow and pung patterns, the sets a hand holds, its tiles.
# Every entry is a certainty, not a likelihood: a pair caught is never possible, while a
# rare pair not caught may still be impossible. tests/scoring/test_claims.py checks that
# no pair of fans the calculator counts for one hand (over generated hands) is caught.

# The hand shapes, named as ``Scored.shape`` names them.
STANDARD = "standard"  # four sets and a pair
SEVEN_PAIRS = "seven_pairs"
THIRTEEN_ORPHANS = "thirteen_orphans"
HONORS_AND_KNITTED = "honors_and_knitted"  # lesser and greater
KNITTED_STRAIGHT = "knitted_straight"  # knitted straight with one set and a pair
SHAPES = (STANDARD, SEVEN_PAIRS, THIRTEEN_ORPHANS, HONORS_AND_KNITTED, KNITTED_STRAIGHT)

_S, _P, _O, _H, _K = SHAPES
_ANY = frozenset(SHAPES)

# The shapes in which each fan can be *counted* (a fan that a shape's own fan always
# excludes, like Concealed Hand beside Seven Pairs, is not counted in that shape). Two
# fans whose shapes do not meet cannot both be counted. A fan not listed here is counted
# only in four sets and a pair; the few listed with that shape alone say why.
_OTHER_SHAPES: dict[str, set[str]] = {
    # 88
    "big_four_winds": {_S},  # four wind pungs
    "big_three_dragons": {_S},  # three dragon pungs
    "all_green": {_S, _P},  # green tiles only: 222233446688s + FF is seven pairs
    "nine_gates": {_S},  # 1112345678999 + one tile, four sets and a pair
    "seven_shifted_pairs": {_P},
    "thirteen_orphans": {_O},
    # 64
    "all_terminals": {_S, _P},  # four pungs of terminals, or seven terminal pairs
    "little_four_winds": {_S},  # three wind pungs and a wind pair
    "all_honors": {_S, _P},
    "pure_terminal_chows": {_S},  # its seven-pairs reading is excluded by it
    # 32
    "all_terminals_and_honors": {_S, _P},  # excluded by Thirteen Orphans there
    # 24
    "seven_pairs": {_P},
    "greater_honors_and_knitted_tiles": {_H},
    "full_flush": {_S, _P},
    "upper_tiles": {_S, _P},  # fans of the tiles alone: any shape the tiles allow
    "middle_tiles": {_S, _P},
    "lower_tiles": {_S, _P},
    # 16
    "all_fives": {_S},  # every set and the pair hold a five: seven pairs cannot
    # 12
    "lesser_honors_and_knitted_tiles": {_H},
    "knitted_straight": {_K, _H},  # with nine suited knitted tiles, also in 全不靠
    "upper_four": {_S, _P},
    "lower_four": {_S, _P},
    # 8
    "reversible_tiles": {_S, _P},  # knitted and orphan hands need characters
    "chicken_hand": {_S},  # every other shape has a fan of its own
    "last_tile_draw": _ANY,  # how the tile came: any shape
    "last_tile_claim": _ANY,
    "out_with_replacement_tile": {_S, _K},  # needs a kong: the set of a knitted straight
    # No copy of the winning tile may be in the hand: seven pairs always pairs it.
    "robbing_the_kong": {_S, _K, _O, _H},
    # 6
    "half_flush": {_S, _P},
    "all_types": {_S, _P, _K},  # excluded by Thirteen Orphans and by 全不靠/七星不靠
    "melded_hand": {_S},  # four claimed sets
    # 4
    "outside_hand": {_S},  # seven such pairs are All Terminals (and Honors)
    "fully_concealed_hand": {_S, _K},  # excluded by the other shapes' fans
    # The three other copies on the table, none in the concealed hand: not seven pairs.
    "last_tile": {_S, _K, _O, _H},
    # 2
    "dragon_pung": {_S, _K},  # a pung: four sets, or the set of a knitted straight
    "prevalent_wind": {_S, _K},
    "seat_wind": {_S, _K},
    "concealed_hand": {_S, _K},  # excluded by the other shapes' fans
    "all_chows": {_S, _K},  # a knitted straight with a chow and a suited pair
    "tile_hog": {_S, _P, _K},  # four of a tile not in a kong; orphan hands hold no four
    "concealed_kong": {_S, _K},
    "all_simples": {_S, _P},
    # 1
    "pung_of_terminals_or_honors": {_S, _K},
    "melded_kong": {_S, _K},
    "one_voided_suit": {_S, _P},
    "no_honors": {_S, _P, _K},
    "edge_wait": {_S, _K},  # the tile completes a chow
    "closed_wait": {_S, _K},
    "single_wait": {_S, _K},  # excluded by the other shapes' fans
    "self_drawn": _ANY,
    FLOWERS: _ANY,
    # The option fans: two kongs leave a knitted straight no room; a blessing is how the
    # hand was won, in any shape.
    MIXED_KONGS: {_S},
    **dict.fromkeys(BLESSINGS, _ANY),
}
FAN_SHAPES: dict[str, frozenset[str]] = {
    fan.key: frozenset(_OTHER_SHAPES.get(fan.key, {_S})) for fan in FANS
}

# Fans whose hands leave room for only a few other fans: besides those they exclude, these
# are the only fans they can be counted with.
_WIN_CONDITIONS = ("self_drawn", "last_tile_draw", "last_tile_claim", FLOWERS, *sorted(BLESSINGS))
ONLY_WITH: dict[str, frozenset[str]] = {
    # 无番和: the hand scores no fan at all, flowers apart.
    CHICKEN_HAND: frozenset({FLOWERS}),
    # 1112345678999 plus one tile of the suit, concealed, no kong. Its arrangements show
    # Pure Straight and a Tile Hog (extra 1 or 9), Short Straight, two concealed pungs
    # and a pung of ones or nines; it waits on nine tiles, holds every number (no robbing
    # the kong, no Last Tile) and is won self-drawn or not, on the last tile or not.
    "nine_gates": frozenset(
        {
            "pure_straight",
            "tile_hog",
            "short_straight",
            "two_concealed_pungs",
            "pung_of_terminals_or_honors",
            *_WIN_CONDITIONS,
        }
    ),
    # Seven pairs of seven consecutive numbers of one suit: seven different tiles (no Tile
    # Hog), spanning 1-7, 2-8 or 3-9 (only All Simples among the fans of the tiles).
    "seven_shifted_pairs": frozenset({"all_simples", *_WIN_CONDITIONS}),
}

# How the winning tile came. Fans that need a self-drawn win cannot be counted beside fans
# that need a win on another player's discard.
SELF_DRAWN_WIN = frozenset(
    {
        "self_drawn",
        "fully_concealed_hand",  # concealed and self-drawn
        "last_tile_draw",  # the last tile of the wall, drawn
        "out_with_replacement_tile",  # the tile drawn after declaring a kong
        "heavenly_hand",  # the dealer's 14 tiles dealt
    }
)
DISCARD_WIN = frozenset(
    {
        "concealed_hand",  # concealed, won on a discard (self-drawn is Fully Concealed)
        "last_tile_claim",  # the last discard of the game
        "robbing_the_kong",  # the tile another player adds to a pung
        "melded_hand",  # won on a discard with a single wait
        "earthly_hand",  # the dealer's first discard
    }
)

# How many sets were claimed from other players (chows, pungs, melded kongs): the least
# and the most a fan allows, of four. Two fans whose ranges do not meet cannot both count.
CLAIMED_SETS: dict[str, tuple[int, int]] = {
    "nine_gates": (0, 0),  # a concealed hand
    "four_concealed_pungs": (0, 0),  # all four sets concealed pungs or kongs
    "concealed_hand": (0, 0),
    "fully_concealed_hand": (0, 0),
    "three_concealed_pungs": (0, 1),
    "two_concealed_pungs": (0, 2),  # exactly two: with three it is Three Concealed Pungs
    "two_concealed_kongs": (0, 2),
    "concealed_kong": (0, 3),
    "melded_kong": (1, 4),
    "two_melded_kongs": (2, 4),
    "melded_hand": (4, 4),  # every set claimed, none concealed (not even a kong)
    MIXED_KONGS: (1, 3),  # the melded kong, and the concealed one is not claimed
    # Won before any claim (and before any kong: see _FIRST_GO_AROUND).
    **dict.fromkeys(BLESSINGS, (0, 0)),
}
# Under the 6-point kong reading one melded and one concealed kong are Two Melded Kongs.
_CLAIMED_SETS_READING_SIX = {"two_melded_kongs": (1, 4)}

# Pairs that no hand can count together for reasons of their own: (fan, fan, reason).
_IMPOSSIBLE_PAIRS: tuple[tuple[str, str, str], ...] = (
    # A hand is won on one wait only; each wait fan needs the winning tile to be its only one.
    ("edge_wait", "closed_wait", "one_wait"),
    ("edge_wait", "single_wait", "one_wait"),
    ("closed_wait", "single_wait", "one_wait"),
    # Robbing the kong: no other copy of the winning tile may be in the hand (the robbed
    # kong holds three); a single wait pairs the winning tile with a copy held.
    ("robbing_the_kong", "single_wait", "winning_tile_copy"),
    # Melded Hand is won on its last concealed tile, a copy of the winning tile.
    ("robbing_the_kong", "melded_hand", "winning_tile_copy"),
    # Last Tile: the three other copies are on the table, so none is in the concealed hand,
    # but a single wait and Melded Hand pair the winning tile with a concealed copy.
    ("last_tile", "single_wait", "winning_tile_copy"),
    ("last_tile", "melded_hand", "winning_tile_copy"),
    # Melded Hand leaves one tile in the hand: the wait is on the pair, never edge or closed.
    ("melded_hand", "edge_wait", "single_tile_left"),
    ("melded_hand", "closed_wait", "single_tile_left"),
    # No kong is declared once the wall is empty, so no kong can be robbed on the last
    # discard (the notation refuses robbing the kong with last tile).
    ("robbing_the_kong", "last_tile_claim", "no_kong_after_last_tile"),
    # Greater Honors and Knitted Tiles holds seven honors and only seven knitted tiles;
    # Knitted Straight needs all nine.
    ("greater_honors_and_knitted_tiles", "knitted_straight", "knitted_tiles"),
    # Kongs: one alone is Melded or Concealed Kong, two of a kind have their own fan (which
    # excludes the single one), one of each count as Melded + Concealed Kong, and three
    # or four are Three or Four Kongs, which exclude them all.
    ("two_melded_kongs", "concealed_kong", "kongs"),
    ("two_concealed_kongs", "melded_kong", "kongs"),
    ("two_melded_kongs", "two_concealed_kongs", "kongs"),
    # 明暗杠 is one melded and one concealed kong, no other kong.
    (MIXED_KONGS, "two_melded_kongs", "kongs"),
    (MIXED_KONGS, "two_concealed_kongs", "kongs"),
    (MIXED_KONGS, "three_kongs", "kongs"),
    (MIXED_KONGS, "four_kongs", "kongs"),
    # Four pungs, none claimed and self-drawn, are Four Concealed Pungs, which excludes
    # Fully Concealed Hand: beside a fan that needs four pungs it is never counted.
    ("fully_concealed_hand", "all_pungs", "four_concealed_pungs"),
    ("fully_concealed_hand", "big_four_winds", "four_concealed_pungs"),
    ("fully_concealed_hand", "four_kongs", "four_concealed_pungs"),
    ("fully_concealed_hand", "all_even_pungs", "four_concealed_pungs"),
    ("fully_concealed_hand", "four_pure_shifted_pungs", "four_concealed_pungs"),
    ("fully_concealed_hand", "all_honors", "four_concealed_pungs"),  # or seven pairs
    ("fully_concealed_hand", "all_terminals", "four_concealed_pungs"),  # or seven pairs
    ("fully_concealed_hand", "all_terminals_and_honors", "four_concealed_pungs"),
    # Four kongs won on a discard are won on the pair: with none claimed, four concealed
    # kongs are Four Concealed Pungs, which excludes Concealed Hand.
    ("concealed_hand", "four_kongs", "four_concealed_pungs"),
    # Every tile of these hands is in a chow that repeats (or in the pair of fives), so the
    # winning tile always has a copy in the hand, which robbing the kong forbids.
    ("robbing_the_kong", "pure_terminal_chows", "winning_tile_copy"),
    ("robbing_the_kong", "quadruple_chow", "winning_tile_copy"),
    # Two of each of 1 2 3 5 7 8 9, or one of each but two fives: never four of a tile.
    ("tile_hog", "pure_terminal_chows", "tiles"),
    ("tile_hog", "three_suited_terminal_chows", "tiles"),
    # A Tile Hog is four copies in a pung and a chow, or in two chows and the pair, never
    # a kong: beside three kongs only one set is left.
    ("tile_hog", "three_kongs", "sets"),
    # Four Pure Shifted Pungs fixes the four pungs, all in one suit: no pungs of one number
    # in two suits.
    ("double_pung", "four_pure_shifted_pungs", "pungs"),
    # Outside Hand needs a chow (four pungs of terminals and honors are All Terminals and
    # Honors, which excludes it) and every chow to hold a 1 or a 9, so only 123 and 789.
    # These fans need a chow or a pung without one: 456 (straights), the middle of three
    # shifted chows or pungs, the 456 of a short straight.
    ("outside_hand", "pure_straight", "tiles"),
    ("outside_hand", "mixed_straight", "tiles"),
    ("outside_hand", "pure_shifted_chows", "tiles"),
    ("outside_hand", "mixed_shifted_chows", "tiles"),
    ("outside_hand", "four_pure_shifted_chows", "tiles"),
    ("outside_hand", "short_straight", "tiles"),
    ("outside_hand", "pure_shifted_pungs", "tiles"),
    ("outside_hand", "mixed_shifted_pungs", "tiles"),
    ("outside_hand", "four_pure_shifted_pungs", "tiles"),
    # Little Four Winds leaves one set beside its winds: a pung of ones or nines there
    # makes every tile a terminal or an honor, and All Terminals and Honors leaves Pung
    # of Terminals or Honors out (the wind pungs are counted by Little Four Winds).
    ("little_four_winds", "pung_of_terminals_or_honors", "left_out"),
    # Their pair is a pair of fives.
    ("outside_hand", "pure_terminal_chows", "tiles"),
    ("outside_hand", "three_suited_terminal_chows", "tiles"),
)

# Why two fans cannot be counted together: each reason code and its English sentence.
# The web page translates the codes itself (templates/scoring/claim.html).
REASONS: dict[str, str] = {
    "chicken_hand": "Chicken Hand is a hand with no other fan (flowers apart)",
    "nine_gates": "the tiles of Nine Gates leave no room for it",
    "seven_shifted_pairs": "the tiles of Seven Shifted Pairs leave no room for it",
    "shape": "they need different hand shapes",
    "win": "one needs a self-drawn win, the other a win on a discard",
    "claimed_sets": "they need different numbers of sets claimed from other players",
    "kongs": "they count different numbers of kongs",
    "four_concealed_pungs": (
        "four pungs or kongs with none claimed are Four Concealed Pungs, "
        "which leaves out Concealed Hand and Fully Concealed Hand"
    ),
    "left_out": "a hand showing both always counts a bigger fan that leaves one out",
    "chows": "their chows cannot all be in one hand",
    "pungs": "their pungs cannot all be in one hand",
    "sets": "together they need more sets than one hand holds",
    "tiles": "no hand holds the tiles both need",
    "one_wait": "a hand is won on one wait only",
    "winning_tile_copy": (
        "one needs a copy of the winning tile in the hand, the other that none is there"
    ),
    "single_tile_left": "Melded Hand is always won on a single wait",
    "no_kong_after_last_tile": "no kong is declared, nor robbed, once the wall is empty",
    "knitted_tiles": (
        "Greater Honors and Knitted Tiles holds seven knitted tiles, Knitted Straight nine"
    ),
    "first_go_around": (
        "a blessing is won in the first go-around, before any claim or kong, and not on the "
        "last tile"
    ),
}

# The fans no blessing is counted with: a blessing is won in the first go-around, before any
# set is claimed or kong declared, and long before the last tile (notation: the blessings'
# checks).
_FIRST_GO_AROUND = frozenset(
    {
        "four_kongs",
        "three_kongs",
        "two_concealed_kongs",
        "two_melded_kongs",
        MIXED_KONGS,
        "concealed_kong",
        "melded_kong",
        "last_tile_draw",
        "last_tile_claim",
        "out_with_replacement_tile",
        "robbing_the_kong",
    }
)

_EXPLICIT: dict[frozenset[str], str] = {
    frozenset((a, b)): reason for a, b, reason in _IMPOSSIBLE_PAIRS
}

# Chow patterns. Two different patterns of three chows share at most one chow (a straight
# and shifted chows, a straight and a triple chow, one suit and three suits, ...), so
# together they need five chows; a four-chow fan fixes every chow of the hand, and any
# other chow fan it does not exclude needs a chow it lacks (Quadruple Chow: a second
# chow; Four Pure Shifted Chows: a repeat or a second suit; Pure Terminal Chows: 456 or
# a second suit; Three-Suited Terminal Chows: a repeat or 456). Pure Triple Chow is
# three copies of one chow, so beside it another pattern of three needs five as well.
_THREE_CHOW_FANS = frozenset(
    {
        "pure_straight",
        "pure_shifted_chows",
        "mixed_straight",
        "mixed_triple_chow",
        "mixed_shifted_chows",
        "pure_triple_chow",
    }
)
_FOUR_CHOW_FANS = frozenset(
    {
        "quadruple_chow",
        "four_pure_shifted_chows",
        "pure_terminal_chows",
        "three_suited_terminal_chows",
    }
)
_CHOW_FANS = (
    _THREE_CHOW_FANS
    | _FOUR_CHOW_FANS
    | {"pure_double_chow", "mixed_double_chow", "short_straight", "two_terminal_chows"}
)
# Pung patterns: triple pung (one number, three suits), shifted pungs in one suit, shifted
# pungs in three suits, four shifted pungs: two different patterns share at most one
# pung, so need five.
_PUNG_PATTERN_FANS = frozenset(
    {"triple_pung", "pure_shifted_pungs", "mixed_shifted_pungs", "four_pure_shifted_pungs"}
)

# The sets a fan needs in a four-sets-and-a-pair hand: chows, pungs (or kongs) of winds,
# of dragons, of suited tiles or of any tile, suited sets (chows or pungs), the most pungs
# it allows, and the kind of its pair. ``ALL`` means every set. Two fans together need at
# least the larger need of each kind, and the pungs of winds, dragons and suited tiles
# are different sets.
ALL = 99
_SET_NEEDS: dict[str, dict] = {
    "big_four_winds": {"wind": 4},
    "big_three_dragons": {"dragon": 3},
    "nine_gates": {"chows": 2},  # 2345678 need two chows whatever the extra tile
    "four_kongs": {"pungs": 4},
    "all_terminals": {"suited": ALL},  # four pungs of terminals (or seven pairs)
    "little_four_winds": {"wind": 3, "pair": "wind"},
    "little_three_dragons": {"dragon": 2, "pair": "dragon"},
    "all_honors": {"pungs": ALL},
    "four_concealed_pungs": {"pungs": 4},
    "pure_terminal_chows": {"chows": 4},
    "quadruple_chow": {"chows": 4},
    "four_pure_shifted_pungs": {"suited": 4},
    "four_pure_shifted_chows": {"chows": 4},
    "three_kongs": {"pungs": 3},
    "all_terminals_and_honors": {"pungs": ALL},
    "all_even_pungs": {"suited": 4},
    "pure_triple_chow": {"chows": 3},
    "pure_shifted_pungs": {"suited": 3},
    "pure_straight": {"chows": 3},
    "three_suited_terminal_chows": {"chows": 4},
    "pure_shifted_chows": {"chows": 3},
    # Pungs only of fives, and the pair holds a five too: at most two (555m 555p 55s).
    "all_fives": {"most_pungs": 2},
    "triple_pung": {"suited": 3},
    "three_concealed_pungs": {"pungs": 3},
    "big_three_winds": {"wind": 3},
    "mixed_straight": {"chows": 3},
    "mixed_triple_chow": {"chows": 3},
    "mixed_shifted_pungs": {"suited": 3},
    # No copy of the winning tile in the hand: it can only complete a chow.
    "robbing_the_kong": {"chows": 1},
    "out_with_replacement_tile": {"pungs": 1},  # a kong
    "all_pungs": {"pungs": ALL},
    "mixed_shifted_chows": {"chows": 3},
    "two_concealed_kongs": {"pungs": 2},
    "two_dragon_pungs": {"dragon": 2},
    # Four pungs of terminals and honors are All Terminals and Honors: a chow is needed.
    "outside_hand": {"chows": 1},
    "two_melded_kongs": {"pungs": 2},
    MIXED_KONGS: {"pungs": 2},
    # No concealed copy of the winning tile: it can only complete a chow.
    "last_tile": {"chows": 1},
    "dragon_pung": {"dragon": 1},
    "prevalent_wind": {"wind": 1},
    "seat_wind": {"wind": 1},
    "all_chows": {"chows": ALL},
    # Four of a suited tile, not a kong: a pung and a chow, or two chows and the pair.
    "tile_hog": {"chows": 1, "suited_sets": 2},
    "double_pung": {"suited": 2},
    "two_concealed_pungs": {"pungs": 2},
    "concealed_kong": {"pungs": 1},
    "pure_double_chow": {"chows": 2},
    "mixed_double_chow": {"chows": 2},
    "short_straight": {"chows": 2},
    "two_terminal_chows": {"chows": 2},
    "pung_of_terminals_or_honors": {"pungs": 1},
    "melded_kong": {"pungs": 1},
    # Four chows and a suited pair are All Chows, which excludes No Honors: a pung is needed.
    "no_honors": {"pungs": 1},
    "edge_wait": {"chows": 1},  # the winning tile completes 12 or 89 of a chow
    "closed_wait": {"chows": 1},  # the winning tile is the middle of a chow
}
# Beside a knitted straight (one set and a pair) some needs differ: the winning tile can
# be a knitted tile, and a Tile Hog can be a knitted tile and a pung.
_SET_NEEDS_KNITTED: dict[str, dict] = {
    "robbing_the_kong": {},
    "last_tile": {},
    "tile_hog": {},
}
_SETS_IN = {STANDARD: 4, KNITTED_STRAIGHT: 1}  # the free sets of a shape
# In four sets and a pair, how many of the five groups lie in one suit.
_ONE_SUIT_GROUPS: dict[str, int] = {
    "pure_double_chow": 2,
    "short_straight": 2,
    "two_terminal_chows": 2,
    "pure_triple_chow": 3,
    "pure_straight": 3,
    "pure_shifted_chows": 3,
    "pure_shifted_pungs": 3,
    "quadruple_chow": 4,
    "four_pure_shifted_chows": 4,
    "four_pure_shifted_pungs": 4,
    "pure_terminal_chows": 5,
    "nine_gates": 5,
}
# Fans made of one chow several times: (copies, different chows).
_REPEATED_CHOW: dict[str, tuple[int, int]] = {
    "pure_double_chow": (2, 1),
    "pure_triple_chow": (3, 1),
    "quadruple_chow": (4, 1),
    "pure_terminal_chows": (2, 2),
}

_WINDS = frozenset("ESWN")
_DRAGONS = frozenset("CFP")


@dataclass(frozen=True)
class _Tiles:
    """What a fan asks of the tiles.

    ``honor_tiles``: the honors it allows; ``winds``, ``dragons``, ``honors``: how many
    different winds, dragons, honors it needs; ``ranks``: the numbers a suited tile may
    have; ``needs``: numbers that must be there; ``span``: a run of that many consecutive
    numbers must be allowed; ``one_of``: at least one of these must be allowed (a set of
    numbers, or "wind"); ``suits``: how many suits the hand uses, least and most.
    """

    honor_tiles: frozenset[str] = _WINDS | _DRAGONS
    winds: int = 0
    dragons: int = 0
    honors: int = 0
    ranks: frozenset[int] = frozenset(range(1, 10))
    needs: frozenset[int] = frozenset()
    span: int = 0
    one_of: tuple = ()
    suits: tuple[int, int] = (0, 3)


def _r(*ranks: int) -> frozenset[int]:
    return frozenset(ranks)


_NONE: frozenset[str] = frozenset()
_ONE_TO_NINE = _r(*range(1, 10))
_TERMINAL_CHOWS = _r(1, 2, 3, 5, 7, 8, 9)  # 123 and 789 with a pair of fives
_CHOW_WITH_TERMINAL = (_r(1, 2, 3), _r(7, 8, 9))
_TILES: dict[str, _Tiles] = {
    "big_four_winds": _Tiles(winds=4),
    "big_three_dragons": _Tiles(dragons=3),
    "all_green": _Tiles(honor_tiles=frozenset("F"), ranks=_r(2, 3, 4, 6, 8), suits=(1, 1)),
    "nine_gates": _Tiles(honor_tiles=_NONE, needs=_ONE_TO_NINE, suits=(1, 1)),
    "seven_shifted_pairs": _Tiles(honor_tiles=_NONE, span=7, suits=(1, 1)),
    "thirteen_orphans": _Tiles(winds=4, dragons=3, ranks=_r(1, 9), needs=_r(1, 9), suits=(3, 3)),
    # Four pungs and a pair of five different tiles, or seven pairs of at least four: not
    # with the two terminals of one suit alone.
    "all_terminals": _Tiles(honor_tiles=_NONE, ranks=_r(1, 9), suits=(2, 3)),
    "little_four_winds": _Tiles(winds=4),
    "little_three_dragons": _Tiles(dragons=3),
    "all_honors": _Tiles(honors=4, ranks=frozenset(), suits=(0, 0)),
    "pure_terminal_chows": _Tiles(
        honor_tiles=_NONE, ranks=_TERMINAL_CHOWS, needs=_TERMINAL_CHOWS, suits=(1, 1)
    ),
    "quadruple_chow": _Tiles(suits=(1, 2)),  # four chows of one suit, and the pair
    "four_pure_shifted_pungs": _Tiles(span=4, suits=(1, 2)),
    "four_pure_shifted_chows": _Tiles(span=6, suits=(1, 2)),  # 123 234 345 456 at least
    # Counted only with both: all terminals is All Terminals, all honors All Honors.
    "all_terminals_and_honors": _Tiles(honors=1, ranks=_r(1, 9), suits=(1, 3)),
    "greater_honors_and_knitted_tiles": _Tiles(winds=4, dragons=3, suits=(3, 3)),
    "all_even_pungs": _Tiles(honor_tiles=_NONE, ranks=_r(2, 4, 6, 8), suits=(1, 3)),
    "full_flush": _Tiles(honor_tiles=_NONE, suits=(1, 1)),
    "pure_triple_chow": _Tiles(suits=(1, 3)),
    "pure_shifted_pungs": _Tiles(span=3, suits=(1, 3)),
    "upper_tiles": _Tiles(honor_tiles=_NONE, ranks=_r(7, 8, 9), suits=(1, 3)),
    "middle_tiles": _Tiles(honor_tiles=_NONE, ranks=_r(4, 5, 6), suits=(1, 3)),
    "lower_tiles": _Tiles(honor_tiles=_NONE, ranks=_r(1, 2, 3), suits=(1, 3)),
    "pure_straight": _Tiles(needs=_ONE_TO_NINE),
    "three_suited_terminal_chows": _Tiles(
        honor_tiles=_NONE, ranks=_TERMINAL_CHOWS, needs=_TERMINAL_CHOWS, suits=(3, 3)
    ),
    "pure_shifted_chows": _Tiles(span=5),  # 123 234 345 at least
    # Every group holds a five: four sets and a pair need six fives, more than one suit has.
    "all_fives": _Tiles(honor_tiles=_NONE, ranks=_r(3, 4, 5, 6, 7), needs=_r(5), suits=(2, 3)),
    "triple_pung": _Tiles(suits=(3, 3)),
    "lesser_honors_and_knitted_tiles": _Tiles(honors=5, suits=(3, 3)),
    "knitted_straight": _Tiles(needs=_ONE_TO_NINE, suits=(3, 3)),
    "upper_four": _Tiles(honor_tiles=_NONE, ranks=_r(6, 7, 8, 9), suits=(1, 3)),
    "lower_four": _Tiles(honor_tiles=_NONE, ranks=_r(1, 2, 3, 4), suits=(1, 3)),
    "big_three_winds": _Tiles(winds=3),
    "mixed_straight": _Tiles(needs=_ONE_TO_NINE, suits=(3, 3)),
    # Dots 1234589, bamboo 245689 and 白: no 7, no characters, no other honor.
    "reversible_tiles": _Tiles(
        honor_tiles=frozenset("P"), ranks=_r(1, 2, 3, 4, 5, 6, 8, 9), suits=(1, 2)
    ),
    "mixed_triple_chow": _Tiles(suits=(3, 3)),
    "mixed_shifted_pungs": _Tiles(span=3, suits=(3, 3)),
    "half_flush": _Tiles(honors=1, suits=(1, 1)),
    "mixed_shifted_chows": _Tiles(span=5, suits=(3, 3)),
    "all_types": _Tiles(winds=1, dragons=1, suits=(3, 3)),
    "two_dragon_pungs": _Tiles(dragons=2),
    "outside_hand": _Tiles(one_of=_CHOW_WITH_TERMINAL),  # a chow, so 123 or 789
    "dragon_pung": _Tiles(dragons=1),
    "prevalent_wind": _Tiles(winds=1),
    "seat_wind": _Tiles(winds=1),
    "all_chows": _Tiles(honor_tiles=_NONE, suits=(1, 3)),  # chows and a suited pair
    "double_pung": _Tiles(suits=(2, 3)),
    "all_simples": _Tiles(honor_tiles=_NONE, ranks=_r(*range(2, 9)), suits=(1, 3)),
    "mixed_double_chow": _Tiles(suits=(2, 3)),
    "short_straight": _Tiles(span=6),
    "two_terminal_chows": _Tiles(needs=_r(1, 2, 3, 7, 8, 9)),
    # A dragon pung is never also a pung of terminals or honors; a wind pung can be.
    "pung_of_terminals_or_honors": _Tiles(one_of=(_r(1), _r(9), "wind")),
    "one_voided_suit": _Tiles(suits=(2, 2)),  # two suits exactly (one is a flush)
    # One suit and no honors is Full Flush, which excludes No Honors: two suits at least.
    "no_honors": _Tiles(honor_tiles=_NONE, suits=(2, 3)),
    "edge_wait": _Tiles(one_of=_CHOW_WITH_TERMINAL),  # 12 waiting on 3, 89 on 7
}
_NO_TILE_RULE = _Tiles()


def _longest_run(ranks: frozenset[int]) -> int:
    best = run = 0
    for rank in range(1, 10):
        run = run + 1 if rank in ranks else 0
        best = max(best, run)
    return best


def _tiles_fit(a: str, b: str) -> bool:
    """Whether some tiles can satisfy what both fans ask of the tiles (any shape)."""
    ta, tb = _TILES.get(a, _NO_TILE_RULE), _TILES.get(b, _NO_TILE_RULE)
    honor_tiles = ta.honor_tiles & tb.honor_tiles
    winds = max(ta.winds, tb.winds)
    dragons = max(ta.dragons, tb.dragons)
    if winds > len(honor_tiles & _WINDS) or dragons > len(honor_tiles & _DRAGONS):
        return False
    if max(ta.honors, tb.honors, winds + dragons) > len(honor_tiles):
        return False
    ranks = ta.ranks & tb.ranks
    if not (ta.needs | tb.needs) <= ranks or _longest_run(ranks) < max(ta.span, tb.span):
        return False
    for options in (ta.one_of, tb.one_of):
        if options and not any(
            (honor_tiles & _WINDS) if option == "wind" else option <= ranks for option in options
        ):
            return False
    least = max(ta.suits[0], tb.suits[0])
    most = min(ta.suits[1], tb.suits[1]) if ranks else 0
    if least > most:
        return False
    # Fourteen tiles, at most four of a kind: at least four different tiles.
    return len(ranks) * most + len(honor_tiles) >= 4


def _kinds(a: str, b: str) -> int:
    """At most how many different tiles a hand counting both fans can hold."""
    ta, tb = _TILES.get(a, _NO_TILE_RULE), _TILES.get(b, _NO_TILE_RULE)
    ranks = ta.ranks & tb.ranks
    return len(ranks) * min(ta.suits[1], tb.suits[1]) + len(ta.honor_tiles & tb.honor_tiles)


def _sets_fit(a: str, b: str, shape: str) -> bool:
    """Whether a hand of ``shape`` has room for the sets (and groups) both fans need."""
    room = _SETS_IN.get(shape)
    if room is None:  # no free sets: a fan of this shape needs none
        return True
    table = _SET_NEEDS_KNITTED if shape == KNITTED_STRAIGHT else {}
    need_a = table.get(a, _SET_NEEDS.get(a, {}))
    need_b = table.get(b, _SET_NEEDS.get(b, {}))

    def need(kind: str) -> int:
        n = max(need_a.get(kind, 0), need_b.get(kind, 0))
        return room if n == ALL else n

    # The fewest sets that satisfy both: chows, wind, dragon and suited pungs.
    chows = need("chows")
    for x, y in ((a, b), (b, a)):
        copies, _ = _REPEATED_CHOW.get(x, (1, 1))
        if copies > 1 and y in _CHOW_FANS:
            # The other fan's chows but one are not the repeated chow.
            _, different = _REPEATED_CHOW.get(y, (0, _SET_NEEDS[y].get("chows", 0)))
            chows = max(chows, copies + different - 1)
    winds, dragons = need("wind"), need("dragon")
    suited = max(need("suited"), need("suited_sets") - chows)
    pungs = max(winds + dragons + suited, need("pungs"))  # "pungs": of any tile
    most_pungs = min(need_a.get("most_pungs", ALL), need_b.get("most_pungs", ALL))
    if chows + pungs > room or pungs > most_pungs:
        return False
    if shape != STANDARD:
        return True
    # Four pungs and a pair are five different tiles.
    if pungs == room and _kinds(a, b) < 5:
        return False
    # Four sets and a pair are five groups, each of one suit, or of winds, or of dragons,
    # and a pung and the pair of one honor would be five copies.
    ta, tb = _TILES.get(a, _NO_TILE_RULE), _TILES.get(b, _NO_TILE_RULE)
    pairs = {need_a.get("pair"), need_b.get("pair")}
    wind_groups = max(winds + ("wind" in pairs), ta.winds, tb.winds)
    dragon_groups = max(dragons + ("dragon" in pairs), ta.dragons, tb.dragons)
    if wind_groups > len(_WINDS) or dragon_groups > len(_DRAGONS):
        return False
    honors = max(wind_groups + dragon_groups, min(ta.honors, 1), min(tb.honors, 1))
    suits = max(ta.suits[0], tb.suits[0])
    one_suit = max(_ONE_SUIT_GROUPS.get(a, 0), _ONE_SUIT_GROUPS.get(b, 0))
    suited_groups = max(chows + suited, suits, one_suit + suits - 1 if one_suit else 0)
    return honors + suited_groups <= 5


def _patterns_clash(a: str, b: str) -> str | None:
    both = {a, b}
    if both <= _CHOW_FANS and (both & _FOUR_CHOW_FANS or both <= _THREE_CHOW_FANS):
        return "chows"
    return "pungs" if both <= _PUNG_PATTERN_FANS else None


def _explicit(x: str, y: str, rules: Rules) -> str | None:
    """The explicit reason for the pair under ``rules``' kong reading, or None."""
    pair = frozenset((x, y))
    reading = rules.melded_and_concealed_kong
    if (
        pair == {"melded_kong", "concealed_kong"}
        and reading != SEED_RULES.melded_and_concealed_kong
    ):
        # One of each is 明暗杠 (5) or Two Melded Kongs + Concealed Kong (6); three or more
        # kongs leave both out.
        return "kongs"
    if pair == {"two_melded_kongs", "concealed_kong"} and reading == 6:
        return None  # one melded and one concealed kong
    return _EXPLICIT.get(pair)


def _claimed_sets(key: str, rules: Rules) -> tuple[int, int]:
    if rules.melded_and_concealed_kong == 6 and key in _CLAIMED_SETS_READING_SIX:
        return _CLAIMED_SETS_READING_SIX[key]
    return CLAIMED_SETS.get(key, (0, 4))


def impossible_reason(a: Fan, b: Fan, rules: Rules = SEED_RULES) -> str | None:
    """Why fans ``a`` and ``b`` can never both be counted for one hand under ``rules`` (a
    code of ``REASONS``), or None when some hand may count both. Exclusions are not
    reasons: a pair one of which excludes the other gives None (``Fan.excludes`` says
    that). Whether the rules play an option fan at all is ``check_claim``'s question."""
    x, y = a.key, b.key
    if x == y or y in a.excludes or x in b.excludes:
        return None
    for one, allowed in ONLY_WITH.items():
        if one in (x, y) and (y if one == x else x) not in allowed:
            return one
    if (x in BLESSINGS and y in _FIRST_GO_AROUND) or (y in BLESSINGS and x in _FIRST_GO_AROUND):
        return "first_go_around"
    if explicit := _explicit(x, y, rules):
        return explicit
    shapes = FAN_SHAPES[x] & FAN_SHAPES[y]
    if not shapes:
        return "shape"
    if (x in SELF_DRAWN_WIN and y in DISCARD_WIN) or (x in DISCARD_WIN and y in SELF_DRAWN_WIN):
        return "win"
    low_x, high_x = _claimed_sets(x, rules)
    low_y, high_y = _claimed_sets(y, rules)
    if max(low_x, low_y) > min(high_x, high_y):
        return "claimed_sets"
    if clash := _patterns_clash(x, y):
        return clash
    if not _tiles_fit(x, y):
        return "tiles"
    if not any(_sets_fit(x, y, shape) for shape in shapes):
        return "sets"
    return None


@dataclass(frozen=True)
class ImpossiblePair:
    """Two claimed fans that no hand can count together, and why (a code of REASONS)."""

    first: Fan
    second: Fan
    reason: str


@dataclass(frozen=True)
class CountTooHigh:
    """A fan claimed ``count`` times that a hand counts at most ``most`` times."""

    fan: Fan
    count: int
    most: int


@dataclass(frozen=True)
class ClaimCheck:
    """The verdict on a claim; ``problems`` holds codes, the other fields the details.

    The codes, in the order they are reported: ``empty_claim``, ``fans_not_played``,
    ``count_too_high``, ``incompatible_fans``, ``impossible_together``, ``missing_fans``,
    ``extra_fans``, ``total_differs_from_fans_named``, ``wrong_total``, ``below_minimum``.
    """

    claimed_total: int | None  # without flowers: as typed, else the sum of the fans named
    computed_total: int | None  # without flowers, when the hand was scored
    missing: tuple[ClaimedFan, ...]  # scored by the hand, not (or fewer times) claimed
    extra: tuple[ClaimedFan, ...]  # claimed, not (or fewer times) scored by the hand
    incompatible: tuple[tuple[Fan, Fan], ...]  # (fan, fan it excludes), both claimed
    named_total: int | None  # the sum of the fans named, when names were given
    problems: tuple[str, ...]
    impossible: tuple[ImpossiblePair, ...] = ()  # both claimed, never counted together
    too_many: tuple[CountTooHigh, ...] = ()  # claimed more times than a hand counts them
    not_played: tuple[Fan, ...] = ()  # claimed option fans the rules do not play
    minimum: int = SEED_RULES.minimum_fan  # the rules' minimum, for ``below_minimum``

    @property
    def agrees(self) -> bool:
        return not self.problems


_ORDER = {fan.key: index for index, fan in enumerate(FANS)}


def check_claim(
    *, claimed_total=None, claimed_fans=(), scored=None, rules: Rules = SEED_RULES
) -> ClaimCheck:
    """Compare a claim (a total and/or ClaimedFans) with a scored hand, or check it alone,
    under the tournament's ``rules`` (the seed reading by default).

    ``scored`` is the calculator's result for the winning hand (scored under the same
    rules), or None when only the claim is known. Flowers are left out on both sides: the
    minimum (``rules.minimum_fan``) and the totals are without flowers. The checks of the
    claim on its own (fans the rules play, counts, exclusions, fans never counted
    together) are made in both cases.
    """
    all_claimed = sorted(claimed_fans, key=lambda c: _ORDER[c.fan.key])
    claimed = {c.fan.key: c for c in all_claimed if c.fan.key != FLOWERS}
    named_total = sum(c.fan.points * c.count for c in claimed.values()) if claimed else None
    problems = []
    if claimed_total is None and not claimed:
        problems.append("empty_claim")
    not_played = tuple(c.fan for c in all_claimed if not played(c.fan, rules))
    if not_played:
        problems.append("fans_not_played")
    too_many = tuple(
        CountTooHigh(c.fan, c.count, max_count(c.fan))
        for c in all_claimed
        if c.count > max_count(c.fan)
    )
    if too_many:
        problems.append("count_too_high")
    incompatible = tuple(
        (a.fan, b.fan)
        for a in claimed.values()
        for b in claimed.values()
        if a is not b and b.fan.key in a.fan.excludes
    )
    if incompatible:
        problems.append("incompatible_fans")
    fans = [c.fan for c in all_claimed]
    impossible = tuple(
        ImpossiblePair(a, b, reason)
        for i, a in enumerate(fans)
        for b in fans[i + 1 :]
        if (reason := impossible_reason(a, b, rules)) is not None
    )
    if impossible:
        problems.append("impossible_together")
    missing: tuple[ClaimedFan, ...] = ()
    extra: tuple[ClaimedFan, ...] = ()
    computed_total = None
    if scored is not None:
        computed_total = scored.total_without_flowers
        computed = Counter({f.key: f.count for f in scored.fans if f.key != FLOWERS})
        if claimed:
            counts = Counter({key: c.count for key, c in claimed.items()})
            # A Counter's difference keeps only what is left over: the fans, and how many
            # times, one side has beyond the other.
            missing = tuple(
                ClaimedFan(FAN_BY_KEY[key], n) for key, n in (computed - counts).items()
            )
            extra = tuple(ClaimedFan(FAN_BY_KEY[key], n) for key, n in (counts - computed).items())
            if missing:
                problems.append("missing_fans")
            if extra:
                problems.append("extra_fans")
    total = claimed_total if claimed_total is not None else named_total
    if claimed_total is not None and named_total is not None and claimed_total != named_total:
        problems.append("total_differs_from_fans_named")
    if computed_total is not None and total is not None and total != computed_total:
        problems.append("wrong_total")
    reference = computed_total if computed_total is not None else total
    if reference is not None and reference < rules.minimum_fan:
        problems.append("below_minimum")
    return ClaimCheck(
        claimed_total=total,
        computed_total=computed_total,
        missing=missing,
        extra=extra,
        incompatible=incompatible,
        named_total=named_total,
        problems=tuple(problems),
        impossible=impossible,
        too_many=too_many,
        not_played=not_played,
        minimum=rules.minimum_fan,
    )
