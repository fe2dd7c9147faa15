"""Read a winning hand from referee notation or JSON, write it back, and check it is legal.

The notation (described with worked examples in docs/scoring.md)::

    123m78sEE [555p:3] {CCCC} +9s | self kong seat=E wind=S flowers=2
    1112345678999p +5p | self heavenly seat=E

``parse_hand`` and ``hand_from_json`` build a `WinningHand` (``parse_hand_with_conditions``
also says which win conditions were written); ``validate`` checks that it
is a legal hand (right tile count, real melds, consistent win conditions);
``score_hand`` validates then scores, and is the one entry point the web app and the
command line use. Every problem is a `HandError` with a stable code from `ERROR_CODES`.
Whether the tiles actually form a winning hand is the calculator's question
(``not_a_winning_hand``), not this module's.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from itertools import groupby
from types import MappingProxyType
from typing import TYPE_CHECKING, Final

from tournament.core_errors import Message, gettext_noop
from tournament.scoring.hand import (
    ALL_TILES,
    BLESSING_NAMES,
    BLESSINGS,
    DEALER_WIND,
    HONOR_TILES,
    SUITS,
    WIND_TILES,
    HandError,
    Meld,
    WinningHand,
    blessing_error,
    wind_error,
)
from tournament.scoring.rules import SEED_RULES, Rules
from tournament.scoring.settlement import MAX_FLOWERS

if TYPE_CHECKING:
    from tournament.scoring.calculator import Scored

ERROR_CODES: Final[Mapping[str, str]] = MappingProxyType(
    {
        # Reading the notation (parse_hand); these carry HandError.position.
        "empty_hand": "the text has no tiles at all",
        "missing_suit": "digits not followed by a lowercase suit letter m, p, s or z",
        "unexpected_character": "a character that has no place where it stands",
        "unclosed_meld": "a [ or { without its closing bracket",
        "invalid_meld_size": "a meld in [ ] without 3 or 4 tiles, or a { } kong without 4",
        "missing_win_tile": "no winning tile written after +",
        "invalid_win_tile": "not exactly one tile after +",
        "text_after_win_tile": "tiles or melds after the winning tile",
        "unknown_condition": "a word after | that is not a win condition",
        "duplicate_condition": "the same win condition, or two blessings, written twice",
        # Reading JSON (hand_from_json).
        "not_an_object": "the JSON value is not an object",
        "missing_field": "a required field (concealed, win_tile, a meld's kind or tiles) is absent",
        "wrong_type": "a field of the wrong type (a number where a list is expected, ...)",
        # Legal hands (validate; parse_hand also reports the ones local to a tile or meld).
        "unknown_tile": "a tile that is not one of the 34 kinds",
        "invalid_meld_kind": "a meld kind other than chow, pung or kong",
        "invalid_chow": "a chow that is not three consecutive tiles of one suit",
        "invalid_pung": "a pung that is not three identical tiles",
        "invalid_kong": "a kong that is not four identical tiles",
        "concealed_meld_not_kong": "a concealed meld that is not a kong",
        "invalid_claimed_from": "claimed_from other than 1, 2, 3 or null",
        "concealed_kong_claimed": "a concealed kong said to be claimed from a player",
        "wrong_tile_count": "not 14 tiles (concealed + 3 per meld + the winning tile)",
        "too_many_copies": "more than 4 copies of a tile",
        "invalid_flowers": f"flowers not an integer from 0 to {MAX_FLOWERS}",
        "invalid_seat_wind": "a seat wind other than E, S, W, N",
        "invalid_prevalent_wind": "a prevalent wind other than E, S, W, N",
        "replacement_without_kong": "out with replacement tile without a kong in the hand",
        "robbing_kong_with_copy": "robbing the kong while holding another copy of its tile",
        "robbing_kong_last_tile": "robbing the kong together with last tile",
        "fourth_tile_with_copy": "fourth tile while the concealed hand holds another copy",
        "invalid_blessing": "a blessing other than heavenly, earthly, human or none",
        "blessing_with_melds": "a blessing declared for a hand with melds",
        "blessing_seat": "heavenly hand not the dealer's (seat E), earthly or human the dealer's",
        "blessing_win": "heavenly hand not self-drawn, or earthly hand self-drawn",
        "blessing_conditions": "a blessing with last tile or a kong (robbing the kong)",
        # Scoring (the calculator) and the command line.
        "not_a_winning_hand": "a legal hand whose tiles form no winning arrangement",
        "flowers_not_played": "flowers in a hand scored under rules without flowers",
        "blessings_not_played": "a blessing in a hand scored under rules without blessings",
        "invalid_json": "a command-line input line that is not JSON",
        "empty_line": "a blank command-line input line",
        "internal_error": "an unexpected failure while scoring one line (a bug)",
    }
)
"""Every code a HandError from reading, checking or scoring a hand can carry."""

TILES_IN_HAND: Final = 14
COPIES_PER_TILE: Final = 4

_TILE_ORDER: Final = {tile: index for index, tile in enumerate(ALL_TILES)}
_DIGITS: Final = "0123456789"
# The words after | that stand alone, each setting a flag of the hand, in the order
# format_hand writes them; and those written word=value.
_FLAGS: Final = {"self": "self_drawn", "kong": "kong", "fourth": "fourth_tile", "last": "last_tile"}
_SETTINGS: Final = ("seat", "wind", "flowers")
# The blessing words (at most one), each naming WinningHand.blessing; written after the flags.
_BLESSING_WORDS: Final = tuple(BLESSINGS)
CONDITION_WORDS: Final = frozenset((*_FLAGS, *_BLESSING_WORDS, *_SETTINGS))
_CONDITION_WORD: Final = re.compile(r"[^\s,]+")  # the words are parted by spaces or commas
"""The words that may follow ``|``, as ``parse_hand_with_conditions`` reports them."""
# The numbered form of the honors that other calculators write: 1z-7z in the order players
# of these rules name them, 东南西北中发白 (so 5z is the red dragon, C).
_HONOR_SUFFIX: Final = "z"
_CHINESE_HONORS: Final = dict(zip("东東南西北中发發白", "EESWNCFFP", strict=True))
_CONTEXT: Final = 12

# Where a tile that is not a tile was found, for _check_tile's message.
IN_CONCEALED: Final = Message(gettext_noop("the concealed hand"))
IN_WIN_TILE: Final = Message(gettext_noop("the winning tile"))
IN_HAND: Final = Message(gettext_noop("the hand"))


def _error(
    code: str,
    template: str,
    params: Mapping[str, object] | None = None,
    position: int | None = None,
) -> HandError:
    # Looked up so an unlisted code fails loudly in tests instead of reaching users.
    ERROR_CODES[code]
    return HandError(code, template, params, position=position)


def _tile_key(tile: str) -> int:
    return _TILE_ORDER.get(tile, len(_TILE_ORDER))


def _sorted(tiles) -> tuple[str, ...]:
    return tuple(sorted(tiles, key=_tile_key))


def _suit_letter(tile: str) -> str:
    """The suit letter of a suited tile; "" for an honor (or a string that is no tile)."""
    return tile[1] if len(tile) == 2 and tile[1] in SUITS and tile[0] in _DIGITS[1:] else ""


def _write_tiles(tiles) -> str:
    """Tiles in run-length notation, in the given order: 1m1m2m E C -> ``112mEC``."""
    return "".join(
        "".join(tile[0] for tile in run) + suit if suit else "".join(run)
        for suit, run in groupby(tiles, key=_suit_letter)
    )


# --- legality ----------------------------------------------------------------------------


def _check_tile(tile: object, where: Message) -> None:
    if not isinstance(tile, str) or tile not in _TILE_ORDER:
        raise _error(
            "unknown_tile",
            gettext_noop(
                "%(tile)s in %(where)s is not a tile; tiles are 1m-9m, 1p-9p, 1s-9s, "
                "the winds E S W N and the dragons C F P"
            ),
            {"tile": repr(tile), "where": where},
        )


def _is_chow(tiles: tuple[str, ...]) -> bool:
    if len(tiles) != 3 or any(tile in HONOR_TILES for tile in tiles):
        return False
    if len({tile[1] for tile in tiles}) != 1:
        return False
    first, second, third = sorted(int(tile[0]) for tile in tiles)
    return second == first + 1 and third == first + 2


def _check_meld(meld: object, number: int, *, inferred: bool = False) -> None:
    """Raise HandError if ``meld`` is not a real chow, pung or kong with a legal origin.

    ``inferred`` is true when the kind was read off the notation (3 identical tiles are a
    pung, 3 others a chow), so a message can say what the tiles are neither of.
    """
    if not isinstance(meld, Meld):
        raise _error(
            "wrong_type",
            gettext_noop("meld %(number)s is %(type)s, not a Meld"),
            {"number": number, "type": type(meld).__name__},
        )
    if meld.kind not in ("chow", "pung", "kong"):
        raise _error(
            "invalid_meld_kind",
            gettext_noop("meld %(number)s has kind %(kind)s; a meld is a chow, pung or kong"),
            {"number": number, "kind": repr(meld.kind)},
        )
    if not isinstance(meld.tiles, tuple | list):
        raise _error(
            "wrong_type",
            gettext_noop("the tiles of meld %(number)s must be a list of tiles"),
            {"number": number},
        )
    for tile in meld.tiles:
        _check_tile(tile, Message(gettext_noop("meld %(number)s"), {"number": number}))
    shown = {"number": number, "tiles": _write_tiles(_sorted(meld.tiles))}
    if meld.kind == "chow" and not _is_chow(tuple(meld.tiles)):
        if inferred:
            why = gettext_noop(
                "meld %(number)s (%(tiles)s) is neither a pung (three identical tiles) nor a "
                "chow (three consecutive tiles of one suit)"
            )
        else:
            why = gettext_noop(
                "meld %(number)s (%(tiles)s) is not a chow: three consecutive tiles of one "
                "suit, no honors"
            )
        raise _error("invalid_chow", why, shown)
    if meld.kind == "pung" and (len(meld.tiles) != 3 or len(set(meld.tiles)) != 1):
        raise _error(
            "invalid_pung",
            gettext_noop("meld %(number)s (%(tiles)s) is not a pung: three identical tiles"),
            shown,
        )
    if meld.kind == "kong" and (len(meld.tiles) != 4 or len(set(meld.tiles)) != 1):
        raise _error(
            "invalid_kong",
            gettext_noop("meld %(number)s (%(tiles)s) is not a kong: four identical tiles"),
            shown,
        )
    if not isinstance(meld.concealed, bool):
        raise _error(
            "wrong_type",
            gettext_noop("concealed of meld %(number)s must be true or false"),
            {"number": number},
        )
    if meld.concealed and meld.kind != "kong":
        why = {
            "chow": gettext_noop(
                "meld %(number)s (%(tiles)s) is a concealed chow; only a kong is declared concealed"
            ),
            "pung": gettext_noop(
                "meld %(number)s (%(tiles)s) is a concealed pung; only a kong is declared concealed"
            ),
        }[meld.kind]
        raise _error("concealed_meld_not_kong", why, shown)
    claimed = meld.claimed_from
    if claimed is not None and (isinstance(claimed, bool) or claimed not in (1, 2, 3)):
        raise _error(
            "invalid_claimed_from",
            gettext_noop(
                "meld %(number)s is claimed from %(claimed)s; write 1 (the player on the "
                "left), 2 (opposite), 3 (on the right) or nothing"
            ),
            {"number": number, "claimed": repr(claimed)},
        )
    if meld.concealed and claimed is not None:
        raise _error(
            "concealed_kong_claimed",
            gettext_noop(
                "meld %(number)s (%(tiles)s) is a concealed kong, so it is not claimed from anyone"
            ),
            shown,
        )


def validate(hand: WinningHand) -> None:
    """Check that ``hand`` is a legal hand; raise HandError with a code on the first problem.

    Checks, in this order: flags are booleans, winds, flowers, every tile, every meld,
    14 tiles, at most 4 copies of a tile, and the win conditions. It does not check that
    the tiles form a winning hand: the calculator does (``not_a_winning_hand``).
    """
    for field in _FLAGS.values():
        if not isinstance(getattr(hand, field), bool):
            raise _error(
                "wrong_type", gettext_noop("%(field)s must be true or false"), {"field": field}
            )
    if error := wind_error(hand) or blessing_error(hand):
        raise error
    flowers = hand.flowers
    if isinstance(flowers, bool) or not isinstance(flowers, int) or not 0 <= flowers <= MAX_FLOWERS:
        raise _error(
            "invalid_flowers",
            gettext_noop("flowers is %(flowers)s; it must be a whole number from 0 to %(most)s"),
            {"flowers": repr(flowers), "most": MAX_FLOWERS},
        )
    if not isinstance(hand.concealed, tuple | list):
        raise _error("wrong_type", gettext_noop("the concealed tiles must be a list of tiles"))
    if not isinstance(hand.melds, tuple | list):
        raise _error("wrong_type", gettext_noop("the melds must be a list of melds"))
    for tile in hand.concealed:
        _check_tile(tile, IN_CONCEALED)
    _check_tile(hand.win_tile, IN_WIN_TILE)
    for number, meld in enumerate(hand.melds, 1):
        _check_meld(meld, number)

    count = len(hand.concealed) + 3 * len(hand.melds) + 1
    if count != TILES_IN_HAND:
        raise _error(
            "wrong_tile_count",
            gettext_noop(
                "the hand has %(count)s tiles (%(concealed)s concealed, %(melds)s meld(s) "
                "counted as 3 each, and the winning tile); a winning hand has %(needed)s"
            ),
            {
                "count": count,
                "concealed": len(hand.concealed),
                "melds": len(hand.melds),
                "needed": TILES_IN_HAND,
            },
        )
    meld_tiles = [tile for meld in hand.melds for tile in meld.tiles]
    copies = Counter([*hand.concealed, *meld_tiles, hand.win_tile])
    for tile in ALL_TILES:
        if copies[tile] > COPIES_PER_TILE:
            raise _error(
                "too_many_copies",
                gettext_noop(
                    "%(copies)s copies of %(tile)s in the hand, melds and winning tile "
                    "together; the set has %(most)s"
                ),
                {"copies": copies[tile], "tile": tile, "most": COPIES_PER_TILE},
            )

    win = hand.win_tile
    if hand.kong and hand.self_drawn and not any(meld.kind == "kong" for meld in hand.melds):
        raise _error(
            "replacement_without_kong",
            gettext_noop(
                "out with replacement tile (kong, self-drawn) needs a kong among the melds"
            ),
        )
    if hand.kong and not hand.self_drawn:
        held = copies[win] - 1
        if held:
            if held == 1:
                why = gettext_noop(
                    "robbing the kong (kong, not self-drawn) on %(tile)s while the hand holds "
                    "1 other copy of it: the robbed kong would need three more"
                )
            else:
                why = gettext_noop(
                    "robbing the kong (kong, not self-drawn) on %(tile)s while the hand holds "
                    "%(held)s other copies of it: the robbed kong would need three more"
                )
            raise _error("robbing_kong_with_copy", why, {"tile": win, "held": held})
        if hand.last_tile:
            raise _error(
                "robbing_kong_last_tile",
                gettext_noop(
                    "robbing the kong cannot also be last tile: a kong is robbed when it is "
                    "declared, not from the last discard, and no kong is declared once the "
                    "wall is empty"
                ),
            )
    if hand.fourth_tile and win in hand.concealed:
        raise _error(
            "fourth_tile_with_copy",
            gettext_noop(
                "fourth tile on %(tile)s while the concealed hand holds another copy of it, "
                "so the winning tile cannot be the last one"
            ),
            {"tile": win},
        )
    if hand.blessing is not None:
        _validate_blessing(hand)


def _validate_blessing(hand: WinningHand) -> None:
    """A blessing is won in the first go-around, before any claim: check what that implies."""
    blessing = hand.blessing
    name = {"blessing": BLESSING_NAMES[blessing]}
    if hand.melds:
        raise _error(
            "blessing_with_melds",
            gettext_noop(
                "%(blessing)s is won in the first go-around, before any set is claimed or "
                "kong declared: the hand has no melds"
            ),
            name,
        )
    dealer = hand.seat_wind == DEALER_WIND
    if blessing == "heavenly" and not dealer:
        raise _error(
            "blessing_seat",
            gettext_noop("Heavenly Hand is the dealer's: write seat=E"),
        )
    if blessing != "heavenly" and dealer:
        raise _error(
            "blessing_seat",
            gettext_noop("%(blessing)s is a non-dealer's: the seat is not E"),
            name,
        )
    if blessing == "heavenly" and not hand.self_drawn:
        raise _error(
            "blessing_win",
            gettext_noop("Heavenly Hand is won on the dealer's 14 tiles: write it self-drawn"),
        )
    if blessing == "earthly" and hand.self_drawn:
        raise _error(
            "blessing_win",
            gettext_noop(
                "Earthly Hand is won on the dealer's first discard, so not self-drawn; a "
                "non-dealer's own first draw is Human Hand"
            ),
        )
    if hand.last_tile or hand.kong:
        raise _error(
            "blessing_conditions",
            gettext_noop(
                "%(blessing)s is won in the first go-around, so neither on the last tile nor "
                "by robbing a kong"
            ),
            name,
        )


def score_hand(hand: WinningHand, rules: Rules = SEED_RULES) -> Scored:
    """Validate ``hand`` and score it under ``rules`` (the seed reading by default): the one
    entry point for the web app and the CLI."""
    validate(hand)
    # Imported here so reading and checking hands never depends on the calculator.
    from tournament.scoring.calculator import score

    return score(hand, rules)


# --- the notation ------------------------------------------------------------------------


def _snippet(text: str, start: int, end: int) -> str | Message:
    if start >= len(text):
        tail = text[-_CONTEXT:]
        lead = "…" if len(text) > _CONTEXT else ""
        return Message(gettext_noop("end of text, after %(tail)s"), {"tail": f"{lead}{tail}"})
    before = text[max(0, start - _CONTEXT) : start]
    after = text[end : end + _CONTEXT]
    lead = "…" if start > _CONTEXT else ""
    trail = "…" if end + _CONTEXT < len(text) else ""
    return f"{lead}{before}>>{text[start:end]}<<{after}{trail}"


def _located(
    code: str,
    text: str,
    start: int,
    end: int,
    template: str,
    params: Mapping[str, object] | None = None,
) -> HandError:
    """An error at text[start:end], saying why with ``template`` and ``params``; the message
    counts characters from 1, like an editor."""
    return _error(
        code,
        gettext_noop("at character %(character)s (%(context)s): %(problem)s"),
        {
            "character": start + 1,
            "context": _snippet(text, start, end),
            "problem": Message(template, params or {}),
        },
        start,
    )


# Digits not followed by a suit letter, by the character that follows them instead: an
# uppercase suit letter, which may be an honor of its own.
_LOWERCASE_SUIT: Final = gettext_noop(
    "%(digits)s must be followed by a suit letter m, p or s, or by z for the honors 1z-7z; "
    "these letters are lowercase"
)
_MISSING_SUIT: Final = {
    "": gettext_noop(
        "%(digits)s must be followed by a suit letter m, p or s, or by z for the honors 1z-7z"
    ),
    "M": _LOWERCASE_SUIT,
    "P": gettext_noop(
        "%(digits)s must be followed by a suit letter m, p or s, or by z for the honors 1z-7z; "
        "these letters are lowercase (P alone is an honor: the white dragon)"
    ),
    "S": gettext_noop(
        "%(digits)s must be followed by a suit letter m, p or s, or by z for the honors 1z-7z; "
        "these letters are lowercase (S alone is an honor: the South wind)"
    ),
    "Z": _LOWERCASE_SUIT,
}


def _honors_by_number(text: str, start: int, suffix: int) -> list[tuple[str, int]]:
    """The honors written as digits before ``z`` (``text[start:suffix]``), as tile and position."""
    tiles = []
    for k in range(start, suffix):
        rank = int(text[k])
        if not 1 <= rank <= len(HONOR_TILES):
            raise _located(
                "unknown_tile",
                text,
                k,
                k + 1,
                gettext_noop(
                    "%(digit)sz is not a tile; the honors are 1z-7z: "
                    "East, South, West, North, red, green and white dragon"
                ),
                {"digit": text[k]},
            )
        tiles.append((HONOR_TILES[rank - 1], k))
    return tiles


def _read_tiles(text: str, i: int) -> tuple[list[tuple[str, int]], int]:
    """Read a run of tiles from ``text[i]``; return (tile, position) pairs and the new index."""
    tiles: list[tuple[str, int]] = []
    n = len(text)
    while i < n:
        char = text[i]
        if char in _DIGITS:
            j = i
            while j < n and text[j] in _DIGITS:
                j += 1
            if j >= n or text[j] not in (*SUITS, _HONOR_SUFFIX):
                bad = text[j] if j < n else ""
                raise _located(
                    "missing_suit",
                    text,
                    i,
                    j,
                    _MISSING_SUIT.get(bad, _MISSING_SUIT[""]),
                    {"digits": text[i:j]},
                )
            if text[j] == _HONOR_SUFFIX:
                tiles.extend(_honors_by_number(text, i, j))
                i = j + 1
                continue
            for k in range(i, j):
                if text[k] == "0":
                    raise _located(
                        "unknown_tile",
                        text,
                        k,
                        k + 1,
                        gettext_noop("0%(suit)s is not a tile; ranks are 1-9"),
                        {"suit": text[j]},
                    )
                tiles.append((text[k] + text[j], k))
            i = j + 1
        elif char in HONOR_TILES:
            tiles.append((char, i))
            i += 1
        elif char.isalpha():
            params = {"typed": repr(char), "character": char}
            if char in _CHINESE_HONORS:
                why = gettext_noop("%(typed)s is not a tile; write %(character)s as %(tile)s")
                params["tile"] = _CHINESE_HONORS[char]
            elif char in SUITS or char == _HONOR_SUFFIX:
                why = gettext_noop(
                    "%(typed)s is not a tile; the suit letter %(character)s needs ranks "
                    "before it, as in 5%(character)s"
                )
            elif char.upper() in HONOR_TILES:
                why = gettext_noop("%(typed)s is not a tile; honors are uppercase: write %(tile)s")
                params["tile"] = char.upper()
            else:
                why = gettext_noop(
                    "%(typed)s is not a tile; tiles are 1m-9m, 1p-9p, 1s-9s, the winds "
                    "E S W N and the dragons C F P (or the honors as 1z-7z)"
                )
            raise _located("unknown_tile", text, i, i + 1, why, params)
        else:
            break
    return tiles, i


def _read_meld(text: str, start: int, number: int) -> tuple[Meld, int]:
    """Read ``[...]`` or ``{...}`` starting at ``text[start]``; return the meld and new index."""
    opener = text[start]
    closer = "]" if opener == "[" else "}"
    n = len(text)
    tiles: list[tuple[str, int]] = []
    claimed: int | None = None
    suffix_at: int | None = None
    i = start + 1
    while True:
        if i >= n:
            raise _located(
                "unclosed_meld",
                text,
                start,
                n,
                gettext_noop(
                    "the %(opener)s at character %(character)s is never closed with %(closer)s"
                ),
                {"opener": opener, "character": start + 1, "closer": closer},
            )
        char = text[i]
        if char.isspace():
            i += 1
        elif char == closer:
            i += 1
            break
        elif char == ":" and suffix_at is None:
            j = i + 1
            while j < n and text[j] in _DIGITS:
                j += 1
            if text[i + 1 : j] not in ("1", "2", "3"):
                j = max(j, min(i + 2, n))
                raise _located(
                    "invalid_claimed_from",
                    text,
                    i,
                    j,
                    gettext_noop(
                        "after ':' write who the meld was claimed from: 1 (the player on the "
                        "left), 2 (opposite) or 3 (on the right)"
                    ),
                )
            claimed = int(text[i + 1 : j])
            suffix_at = i
            i = j
        elif suffix_at is None and (char in _DIGITS or char.isalpha()):
            run, i = _read_tiles(text, i)
            tiles.extend(run)
        elif char in "[{+|]}" and char != closer:
            raise _located(
                "unclosed_meld",
                text,
                i,
                i + 1,
                gettext_noop(
                    "expected %(closer)s to close the %(opener)s at character %(character)s"
                ),
                {"opener": opener, "character": start + 1, "closer": closer},
            )
        else:
            if suffix_at is None:
                why = gettext_noop(
                    "%(typed)s cannot stand inside a meld; write tiles then an optional claim "
                    "suffix :1, :2 or :3 before %(closer)s"
                )
            else:
                why = gettext_noop(
                    "%(typed)s cannot stand inside a meld; write tiles then an optional claim "
                    "suffix :1, :2 or :3, which comes last, before %(closer)s"
                )
            raise _located(
                "unexpected_character", text, i, i + 1, why, {"typed": repr(char), "closer": closer}
            )

    names = _sorted(tile for tile, _ in tiles)
    concealed = opener == "{"
    if len(names) not in ((4,) if concealed else (3, 4)):
        if concealed:
            why = gettext_noop("a concealed kong in { } has 4 tiles, this one has %(count)s")
        else:
            why = gettext_noop(
                "a meld in [ ] has 3 tiles (chow or pung) or 4 (kong), this one has %(count)s"
            )
        raise _located("invalid_meld_size", text, start, i, why, {"count": len(names)})
    if len(names) == 4:
        kind = "kong"
    elif len(set(names)) == 1:
        kind = "pung"
    else:
        kind = "chow"
    meld = Meld(kind, names, concealed=concealed, claimed_from=claimed)
    try:
        _check_meld(meld, number, inferred=True)
    except HandError as error:
        raise _located(error.code, text, start, i, error.template, error.params) from None
    return meld, i


def _read_conditions(text: str, start: int) -> tuple[dict, frozenset[str]]:
    """Read the words after ``|`` (from ``text[start]``) into WinningHand keyword arguments.

    Also returns the condition words written (lowercase, as in CONDITION_WORDS).
    """
    found: dict = {}
    seen: dict[str, int] = {}
    blessing_at: int | None = None
    for match in _CONDITION_WORD.finditer(text, start):
        i, j, word = match.start(), match.end(), match.group()
        written_key, equals, raw_value = word.partition("=")
        key = written_key.lower()
        if key in _BLESSING_WORDS and not equals:
            if blessing_at is not None:
                raise _located(
                    "duplicate_condition",
                    text,
                    i,
                    j,
                    gettext_noop(
                        "a hand has one blessing at most: %(condition)s was given at character "
                        "%(character)s"
                    ),
                    {"condition": found["blessing"], "character": blessing_at + 1},
                )
            blessing_at = i
            seen[key] = i
            found["blessing"] = key
            continue
        if (key in _FLAGS and not equals) or (key in _SETTINGS and equals):
            if key in seen:
                raise _located(
                    "duplicate_condition",
                    text,
                    i,
                    j,
                    gettext_noop("%(condition)s was already given at character %(character)s"),
                    {"condition": key, "character": seen[key] + 1},
                )
            seen[key] = i
        value_at = i + len(written_key) + 1
        if key in _FLAGS and not equals:
            found[_FLAGS[key]] = True
        elif key in ("seat", "wind") and equals:
            code, field = (
                ("invalid_seat_wind", "seat_wind")
                if key == "seat"
                else ("invalid_prevalent_wind", "prevalent_wind")
            )
            if raw_value.upper() not in WIND_TILES:
                raise _located(
                    code,
                    text,
                    value_at,
                    max(j, value_at + 1),
                    gettext_noop("%(condition)s= takes a wind, E, S, W or N, not %(typed)s"),
                    {"condition": key, "typed": repr(raw_value)},
                )
            found[field] = raw_value.upper()
        elif key == "flowers" and equals:
            if not raw_value.isascii() or not raw_value.isdigit() or int(raw_value) > MAX_FLOWERS:
                raise _located(
                    "invalid_flowers",
                    text,
                    value_at,
                    max(j, value_at + 1),
                    gettext_noop("flowers= takes a whole number from 0 to %(most)s, not %(typed)s"),
                    {"most": MAX_FLOWERS, "typed": repr(raw_value)},
                )
            found["flowers"] = int(raw_value)
        else:
            if key in _SETTINGS:
                why = gettext_noop(
                    "%(typed)s is not a win condition: use self, kong, fourth, last, heavenly, "
                    "earthly, human, seat=E|S|W|N, wind=E|S|W|N, flowers=0..%(most)s; write "
                    "%(condition)s=value with no spaces"
                )
            elif key in _FLAGS or key in _BLESSING_WORDS:
                why = gettext_noop(
                    "%(typed)s is not a win condition: use self, kong, fourth, last, heavenly, "
                    "earthly, human, seat=E|S|W|N, wind=E|S|W|N, flowers=0..%(most)s; "
                    "%(condition)s takes no value"
                )
            else:
                why = gettext_noop(
                    "%(typed)s is not a win condition: use self, kong, fourth, last, heavenly, "
                    "earthly, human, seat=E|S|W|N, wind=E|S|W|N, flowers=0..%(most)s"
                )
            raise _located(
                "unknown_condition",
                text,
                i,
                j,
                why,
                {"typed": repr(word), "most": MAX_FLOWERS, "condition": key},
            )
    return found, frozenset(seen)


def parse_hand(text: str) -> WinningHand:
    """Read a hand written in referee notation (see docs/scoring.md).

    The hand of `parse_hand_with_conditions`, without the set of conditions written.
    """
    return parse_hand_with_conditions(text)[0]


def parse_hand_with_conditions(text: str) -> tuple[WinningHand, frozenset[str]]:
    """Read a hand written in referee notation, and say which win conditions were written.

    Returns the hand and the set of condition words that appear after ``|`` (a subset of
    CONDITION_WORDS: ``self kong fourth last heavenly earthly human seat wind flowers``,
    lowercase whatever case was typed), so a caller can tell a default (``seat=E`` left out)
    from a value typed, and fill what was left out from elsewhere (the tournament schedule).

    Raises HandError with ``position`` (0-based index into ``text``) for anything wrong
    with the text or local to one tile, meld or condition. Checks that concern the whole
    hand (tile count, copies, win conditions) are `validate`'s. Tiles come back in the
    fixed order of ALL_TILES; melds in the order written.
    """
    if not isinstance(text, str):
        raise _error(
            "wrong_type",
            gettext_noop("a hand in notation is text, not %(type)s"),
            {"type": type(text).__name__},
        )
    if not text.strip():
        raise _located(
            "empty_hand", text, 0, len(text), gettext_noop("write the tiles, e.g. 123m ... +9s")
        )
    n = len(text)
    concealed: list[str] = []
    melds: list[Meld] = []
    win: str | None = None
    win_at = 0
    i = 0
    while i < n:
        char = text[i]
        if char.isspace():
            i += 1
        elif char == "|":
            break
        elif win is not None:
            raise _located(
                "text_after_win_tile",
                text,
                i,
                i + 1,
                gettext_noop(
                    "the winning tile (+%(tile)s at character %(character)s) comes last, "
                    "before the | and the win conditions"
                ),
                {"tile": win, "character": win_at + 1},
            )
        elif char in "[{":
            meld, i = _read_meld(text, i, len(melds) + 1)
            melds.append(meld)
        elif char == "+":
            win_at = i
            j = i + 1
            while j < n and text[j].isspace():
                j += 1
            run, end = _read_tiles(text, j)
            if len(run) != 1:
                raise _located(
                    "invalid_win_tile",
                    text,
                    i,
                    max(end, i + 1),
                    gettext_noop("write exactly one winning tile after +, not %(count)s"),
                    {"count": len(run)},
                )
            win = run[0][0]
            i = end
        elif char in _DIGITS or char.isalpha():
            run, i = _read_tiles(text, i)
            concealed.extend(tile for tile, _ in run)
        else:
            if char in "]}":
                why = gettext_noop(
                    "%(typed)s closes no meld; melds are written [789m], [555p:3] or {CCCC}"
                )
                typed = char
            else:
                why = gettext_noop(
                    "%(typed)s is not part of the notation; write tiles, [melds], {kongs}, "
                    "+winning tile, then | conditions"
                )
                typed = repr(char)
            raise _located("unexpected_character", text, i, i + 1, why, {"typed": typed})
    if win is None:
        raise _located(
            "missing_win_tile",
            text,
            i,
            i + 1 if i < n else n,
            gettext_noop("no winning tile: write it after +, as in +9s, before any |"),
        )
    conditions, written = _read_conditions(text, i + 1) if i < n else ({}, frozenset())
    hand = WinningHand(concealed=_sorted(concealed), win_tile=win, melds=tuple(melds), **conditions)
    return hand, written


def format_hand(hand: WinningHand) -> str:
    """The canonical notation of ``hand``: ``parse_hand(format_hand(h))`` equals ``h``
    with its tiles sorted. Win conditions are written in a fixed order, with seat, wind
    and flowers always given."""
    for tile in (*hand.concealed, hand.win_tile, *(t for m in hand.melds for t in m.tiles)):
        _check_tile(tile, IN_HAND)
    parts = []
    if hand.concealed:
        parts.append(_write_tiles(_sorted(hand.concealed)))
    for meld in hand.melds:
        suffix = "" if meld.claimed_from is None else f":{meld.claimed_from}"
        body = _write_tiles(_sorted(meld.tiles)) + suffix
        parts.append(f"{{{body}}}" if meld.concealed else f"[{body}]")
    parts.append(f"+{hand.win_tile}")
    words = [word for word, field in _FLAGS.items() if getattr(hand, field)]
    if hand.blessing is not None:
        words.append(hand.blessing)
    words += [f"seat={hand.seat_wind}", f"wind={hand.prevalent_wind}", f"flowers={hand.flowers}"]
    return " ".join(parts) + " | " + " ".join(words)


# --- JSON --------------------------------------------------------------------------------


_REQUIRED: Final = object()
_WRONG_KIND: Final = {
    list: gettext_noop("the field %(field)s must be a list, got %(value)s"),
    str: gettext_noop("the field %(field)s must be a string, got %(value)s"),
    bool: gettext_noop("the field %(field)s must be true or false, got %(value)s"),
    int: gettext_noop("the field %(field)s must be an integer, got %(value)s"),
}


def _field(obj: dict, name: str, kind: type, default: object, path: str = ""):
    """obj[name], checked to be a ``kind``; absent or null gives ``default``, or a
    missing_field error when the field is required. A boolean is never an integer here."""
    label = f"{path}{name}"
    value = obj.get(name)
    if value is None:
        if default is _REQUIRED:
            raise _error(
                "missing_field",
                gettext_noop("the field %(field)s is required"),
                {"field": repr(label)},
            )
        return default
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise _error("wrong_type", _WRONG_KIND[kind], {"field": repr(label), "value": repr(value)})
    return value


def _tile_list(obj: dict, name: str, path: str = "") -> tuple[str, ...]:
    tiles = _field(obj, name, list, _REQUIRED, path)
    for index, tile in enumerate(tiles):
        if not isinstance(tile, str):
            raise _error(
                "wrong_type",
                gettext_noop("%(field)s[%(index)s] must be a tile string like '5p', got %(value)s"),
                {"field": f"{path}{name}", "index": index, "value": repr(tile)},
            )
    return _sorted(tiles)


def hand_from_json(obj: object) -> WinningHand:
    """Build a WinningHand from the command line's JSON object (see docs/scoring.md).

    ``concealed`` and ``win_tile`` are required; the other fields default as in the
    notation (not self-drawn, seat and prevalent wind E, no flowers, no blessing:
    ``"blessing"`` is ``"heavenly"``, ``"earthly"``, ``"human"`` or null); null is the same as
    absent; unknown fields are ignored. Types are checked here (``wrong_type``,
    ``missing_field``); tile names and everything else by `validate`.
    """
    if not isinstance(obj, dict):
        raise _error(
            "not_an_object",
            gettext_noop("a hand is a JSON object, not %(type)s"),
            {"type": type(obj).__name__},
        )
    concealed = _tile_list(obj, "concealed")
    win_tile = _field(obj, "win_tile", str, _REQUIRED)
    melds = []
    for index, raw in enumerate(_field(obj, "melds", list, [])):
        path = f"melds[{index}]."
        if not isinstance(raw, dict):
            raise _error(
                "wrong_type",
                gettext_noop("melds[%(index)s] must be an object, got %(value)s"),
                {"index": index, "value": repr(raw)},
            )
        melds.append(
            Meld(
                kind=_field(raw, "kind", str, _REQUIRED, path),
                tiles=_tile_list(raw, "tiles", path),
                concealed=_field(raw, "concealed", bool, False, path),
                claimed_from=_field(raw, "claimed_from", int, None, path),
            )
        )
    return WinningHand(
        concealed=concealed,
        win_tile=win_tile,
        melds=tuple(melds),
        **{field: _field(obj, field, bool, False) for field in _FLAGS.values()},
        seat_wind=_field(obj, "seat_wind", str, "E"),
        prevalent_wind=_field(obj, "prevalent_wind", str, "E"),
        flowers=_field(obj, "flowers", int, 0),
        blessing=_field(obj, "blessing", str, None),
    )
