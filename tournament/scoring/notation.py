"""Read a winning hand from referee notation or JSON, write it back, and check it is legal.

The notation (described with worked examples in docs/scoring.md)::

    123m78sEE [555p:3] {CCCC} +9s | self kong seat=E wind=S flowers=2

``parse_hand`` and ``hand_from_json`` build a `WinningHand` (``parse_hand_with_conditions``
also says which win conditions were written); ``validate`` checks that it
is a legal hand (right tile count, real melds, consistent win conditions);
``score_hand`` validates then scores, and is the one entry point the web app and the
command line use. Every problem is a `HandError` with a stable code from `ERROR_CODES`.
Whether the tiles actually form a winning hand is the calculator's question
(``not_a_winning_hand``), not this module's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Final

from tournament.scoring.hand import (
    ALL_TILES,
    HONOR_TILES,
    SUITS,
    WIND_TILES,
    HandError,
    Meld,
    WinningHand,
)
from tournament.scoring.settlement import MAX_FLOWERS

if TYPE_CHECKING:
    from tournament.scoring.calculator import Scored

ERROR_CODES: Final[Mapping[str, str]] = MappingProxyType(
    {
        # Reading the notation (parse_hand); these carry HandError.position.
        "empty_hand": "the text has no tiles at all",
        "missing_suit": "digits not followed by a lowercase suit letter m, p or s",
        "unexpected_character": "a character that has no place where it stands",
        "unclosed_meld": "a [ or { without its closing bracket",
        "invalid_meld_size": "a meld in [ ] without 3 or 4 tiles, or a { } kong without 4",
        "missing_win_tile": "no winning tile written after +",
        "invalid_win_tile": "not exactly one tile after +",
        "text_after_win_tile": "tiles or melds after the winning tile",
        "unknown_condition": "a word after | that is not a win condition",
        "duplicate_condition": "the same win condition written twice",
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
        # Scoring (the calculator) and the command line.
        "not_a_winning_hand": "a legal hand whose tiles form no winning arrangement",
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
_FLAGS: Final = ("self", "kong", "fourth", "last")
_SETTINGS: Final = ("seat", "wind", "flowers")
CONDITION_WORDS: Final = frozenset(_FLAGS + _SETTINGS)
"""The words that may follow ``|``, as ``parse_hand_with_conditions`` reports them."""
_CHINESE_HONORS: Final = dict(zip("东東南西北中发發白", "EESWNCFFP", strict=True))
_HONOR_NAMES: Final = {"P": "the white dragon", "S": "the South wind"}
_CONTEXT: Final = 12
_TILE_HELP: Final = "tiles are 1m-9m, 1p-9p, 1s-9s, the winds E S W N and the dragons C F P"


def _error(code: str, message: str, position: int | None = None) -> HandError:
    # Looked up so an unlisted code fails loudly in tests instead of reaching users.
    ERROR_CODES[code]
    return HandError(code, message, position=position)


def _tile_key(tile: str) -> int:
    return _TILE_ORDER.get(tile, len(_TILE_ORDER))


def _sorted(tiles) -> tuple[str, ...]:
    return tuple(sorted(tiles, key=_tile_key))


def _write_tiles(tiles) -> str:
    """Tiles in run-length notation, in the given order: 1m1m2m E C -> ``112mEC``."""
    out: list[str] = []
    pending: list[str] = []  # ranks waiting for their suit letter
    suit = ""
    for tile in tiles:
        if len(tile) == 2 and tile[1] in SUITS and tile[0] in _DIGITS[1:]:
            if pending and tile[1] != suit:
                out.append("".join(pending) + suit)
                pending = []
            suit = tile[1]
            pending.append(tile[0])
        else:
            if pending:
                out.append("".join(pending) + suit)
                pending = []
            out.append(tile)
    if pending:
        out.append("".join(pending) + suit)
    return "".join(out)


# --- legality ----------------------------------------------------------------------------


def _check_tile(tile: object, where: str) -> None:
    if not isinstance(tile, str) or tile not in _TILE_ORDER:
        raise _error("unknown_tile", f"{tile!r} in {where} is not a tile; {_TILE_HELP}")


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
        raise _error("wrong_type", f"meld {number} is {type(meld).__name__}, not a Meld")
    name = f"meld {number}"
    if meld.kind not in ("chow", "pung", "kong"):
        raise _error(
            "invalid_meld_kind", f"{name} has kind {meld.kind!r}; a meld is a chow, pung or kong"
        )
    if not isinstance(meld.tiles, tuple | list):
        raise _error("wrong_type", f"the tiles of {name} must be a list of tiles")
    for tile in meld.tiles:
        _check_tile(tile, name)
    shown = _write_tiles(_sorted(meld.tiles))
    if meld.kind == "chow" and not _is_chow(tuple(meld.tiles)):
        if inferred:
            why = (
                f"{name} ({shown}) is neither a pung (three identical tiles) nor a chow "
                "(three consecutive tiles of one suit)"
            )
        else:
            why = f"{name} ({shown}) is not a chow: three consecutive tiles of one suit, no honors"
        raise _error("invalid_chow", why)
    if meld.kind == "pung" and (len(meld.tiles) != 3 or len(set(meld.tiles)) != 1):
        raise _error("invalid_pung", f"{name} ({shown}) is not a pung: three identical tiles")
    if meld.kind == "kong" and (len(meld.tiles) != 4 or len(set(meld.tiles)) != 1):
        raise _error("invalid_kong", f"{name} ({shown}) is not a kong: four identical tiles")
    if not isinstance(meld.concealed, bool):
        raise _error("wrong_type", f"concealed of {name} must be true or false")
    if meld.concealed and meld.kind != "kong":
        raise _error(
            "concealed_meld_not_kong",
            f"{name} ({shown}) is a concealed {meld.kind}; only a kong is declared concealed",
        )
    claimed = meld.claimed_from
    if claimed is not None and (isinstance(claimed, bool) or claimed not in (1, 2, 3)):
        raise _error(
            "invalid_claimed_from",
            f"{name} is claimed from {claimed!r}; write 1 (the player on the left), "
            "2 (opposite), 3 (on the right) or nothing",
        )
    if meld.concealed and claimed is not None:
        raise _error(
            "concealed_kong_claimed",
            f"{name} ({shown}) is a concealed kong, so it is not claimed from anyone",
        )


def validate(hand: WinningHand) -> None:
    """Check that ``hand`` is a legal hand; raise HandError with a code on the first problem.

    Checks, in this order: flags are booleans, winds, flowers, every tile, every meld,
    14 tiles, at most 4 copies of a tile, and the win conditions. It does not check that
    the tiles form a winning hand: the calculator does (``not_a_winning_hand``).
    """
    for field in ("self_drawn", "fourth_tile", "kong", "last_tile"):
        if not isinstance(getattr(hand, field), bool):
            raise _error("wrong_type", f"{field} must be true or false")
    if hand.seat_wind not in WIND_TILES:
        raise _error("invalid_seat_wind", f"seat wind {hand.seat_wind!r} is not E, S, W or N")
    if hand.prevalent_wind not in WIND_TILES:
        raise _error(
            "invalid_prevalent_wind", f"prevalent wind {hand.prevalent_wind!r} is not E, S, W or N"
        )
    flowers = hand.flowers
    if isinstance(flowers, bool) or not isinstance(flowers, int) or not 0 <= flowers <= MAX_FLOWERS:
        raise _error(
            "invalid_flowers",
            f"flowers is {flowers!r}; it must be a whole number from 0 to {MAX_FLOWERS}",
        )
    if not isinstance(hand.concealed, tuple | list):
        raise _error("wrong_type", "the concealed tiles must be a list of tiles")
    if not isinstance(hand.melds, tuple | list):
        raise _error("wrong_type", "the melds must be a list of melds")
    for tile in hand.concealed:
        _check_tile(tile, "the concealed hand")
    _check_tile(hand.win_tile, "the winning tile")
    for number, meld in enumerate(hand.melds, 1):
        _check_meld(meld, number)

    count = len(hand.concealed) + 3 * len(hand.melds) + 1
    if count != TILES_IN_HAND:
        raise _error(
            "wrong_tile_count",
            f"the hand has {count} tiles ({len(hand.concealed)} concealed, "
            f"{len(hand.melds)} meld(s) counted as 3 each, and the winning tile); "
            f"a winning hand has {TILES_IN_HAND}",
        )
    meld_tiles = [tile for meld in hand.melds for tile in meld.tiles]
    copies = Counter([*hand.concealed, *meld_tiles, hand.win_tile])
    for tile in ALL_TILES:
        if copies[tile] > COPIES_PER_TILE:
            raise _error(
                "too_many_copies",
                f"{copies[tile]} copies of {tile} in the hand, melds and winning tile together; "
                f"the set has {COPIES_PER_TILE}",
            )

    win = hand.win_tile
    if hand.kong and hand.self_drawn and not any(meld.kind == "kong" for meld in hand.melds):
        raise _error(
            "replacement_without_kong",
            "out with replacement tile (kong, self-drawn) needs a kong among the melds",
        )
    if hand.kong and not hand.self_drawn:
        held = copies[win] - 1
        if held:
            raise _error(
                "robbing_kong_with_copy",
                f"robbing the kong (kong, not self-drawn) on {win} while the hand holds "
                f"{held} other cop{'y' if held == 1 else 'ies'} of it: the robbed kong "
                "would need three more",
            )
        if hand.last_tile:
            raise _error(
                "robbing_kong_last_tile",
                "robbing the kong cannot also be last tile: a kong is robbed when it is "
                "declared, not from the last discard, and no kong is declared once the wall "
                "is empty",
            )
    if hand.fourth_tile and win in hand.concealed:
        raise _error(
            "fourth_tile_with_copy",
            f"fourth tile on {win} while the concealed hand holds another copy of it, "
            "so the winning tile cannot be the last one",
        )


def score_hand(hand: WinningHand) -> Scored:
    """Validate ``hand`` and score it: the one entry point for the web app and the CLI."""
    validate(hand)
    # Imported here so reading and checking hands never depends on the calculator.
    from tournament.scoring.calculator import score

    return score(hand)


# --- the notation ------------------------------------------------------------------------


def _snippet(text: str, start: int, end: int) -> str:
    if start >= len(text):
        tail = text[-_CONTEXT:]
        return f"end of text, after {'…' if len(text) > _CONTEXT else ''}{tail}"
    before = text[max(0, start - _CONTEXT) : start]
    after = text[end : end + _CONTEXT]
    lead = "…" if start > _CONTEXT else ""
    trail = "…" if end + _CONTEXT < len(text) else ""
    return f"{lead}{before}>>{text[start:end]}<<{after}{trail}"


def _located(code: str, text: str, start: int, end: int, why: str) -> HandError:
    """An error at text[start:end]; the message counts characters from 1, like an editor."""
    return _error(code, f"at character {start + 1} ({_snippet(text, start, end)}): {why}", start)


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
            if j >= n or text[j] not in SUITS:
                bad = text[j] if j < n else ""
                hint = ""
                if bad in ("M", "P", "S"):
                    hint = "; suit letters are lowercase"
                    if bad in HONOR_TILES:
                        hint += f" ({bad} alone is an honor: {_HONOR_NAMES[bad]})"
                raise _located(
                    "missing_suit",
                    text,
                    i,
                    j,
                    f"{text[i:j]} must be followed by a suit letter m, p or s{hint}",
                )
            for k in range(i, j):
                if text[k] == "0":
                    raise _located(
                        "unknown_tile", text, k, k + 1, f"0{text[j]} is not a tile; ranks are 1-9"
                    )
                tiles.append((text[k] + text[j], k))
            i = j + 1
        elif char in HONOR_TILES:
            tiles.append((char, i))
            i += 1
        elif char.isalpha():
            if char in _CHINESE_HONORS:
                why = f"write {char} as {_CHINESE_HONORS[char]}"
            elif char in SUITS:
                why = f"the suit letter {char} needs ranks before it, as in 5{char}"
            elif char.upper() in HONOR_TILES:
                why = f"honors are uppercase: write {char.upper()}"
            else:
                why = _TILE_HELP
            raise _located("unknown_tile", text, i, i + 1, f"{char!r} is not a tile; {why}")
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
                f"the {opener} at character {start + 1} is never closed with {closer}",
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
                    "after ':' write who the meld was claimed from: 1 (the player on the "
                    "left), 2 (opposite) or 3 (on the right)",
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
                f"expected {closer} to close the {opener} at character {start + 1}",
            )
        else:
            where = ", which comes last," if suffix_at is not None else ""
            raise _located(
                "unexpected_character",
                text,
                i,
                i + 1,
                f"{char!r} cannot stand inside a meld; write tiles then an optional claim "
                f"suffix :1, :2 or :3{where} before {closer}",
            )

    names = _sorted(tile for tile, _ in tiles)
    if opener == "{":
        if len(names) != 4:
            raise _located(
                "invalid_meld_size",
                text,
                start,
                i,
                f"a concealed kong in {{ }} has 4 tiles, this one has {len(names)}",
            )
        meld = Meld("kong", names, concealed=True, claimed_from=claimed)
    else:
        if len(names) not in (3, 4):
            raise _located(
                "invalid_meld_size",
                text,
                start,
                i,
                f"a meld in [ ] has 3 tiles (chow or pung) or 4 (kong), this one has {len(names)}",
            )
        if len(names) == 4:
            kind = "kong"
        elif len(set(names)) == 1:
            kind = "pung"
        else:
            kind = "chow"
        meld = Meld(kind, names, claimed_from=claimed)
    try:
        _check_meld(meld, number, inferred=True)
    except HandError as error:
        raise _located(error.code, text, start, i, error.message) from None
    return meld, i


def _read_conditions(text: str, start: int) -> tuple[dict, frozenset[str]]:
    """Read the words after ``|`` (from ``text[start]``) into WinningHand keyword arguments.

    Also returns the condition words written (lowercase, as in CONDITION_WORDS).
    """
    found: dict = {}
    seen: dict[str, int] = {}
    i = start
    n = len(text)
    while i < n:
        if text[i].isspace() or text[i] == ",":
            i += 1
            continue
        j = i
        while j < n and not (text[j].isspace() or text[j] == ","):
            j += 1
        word = text[i:j]
        written_key, equals, raw_value = word.partition("=")
        key = written_key.lower()
        if (key in _FLAGS and not equals) or (key in _SETTINGS and equals):
            if key in seen:
                raise _located(
                    "duplicate_condition",
                    text,
                    i,
                    j,
                    f"{key} was already given at character {seen[key] + 1}",
                )
            seen[key] = i
        value_at = i + len(written_key) + 1
        if key in _FLAGS and not equals:
            field = {
                "self": "self_drawn",
                "kong": "kong",
                "fourth": "fourth_tile",
                "last": "last_tile",
            }[key]
            found[field] = True
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
                    f"{key}= takes a wind, E, S, W or N, not {raw_value!r}",
                )
            found[field] = raw_value.upper()
        elif key == "flowers" and equals:
            if not raw_value.isascii() or not raw_value.isdigit() or int(raw_value) > MAX_FLOWERS:
                raise _located(
                    "invalid_flowers",
                    text,
                    value_at,
                    max(j, value_at + 1),
                    f"flowers= takes a whole number from 0 to {MAX_FLOWERS}, not {raw_value!r}",
                )
            found["flowers"] = int(raw_value)
        else:
            hint = ""
            if key in _SETTINGS:
                hint = f"; write {key}=value with no spaces"
            elif key in _FLAGS:
                hint = f"; {key} takes no value"
            raise _located(
                "unknown_condition",
                text,
                i,
                j,
                f"{word!r} is not a win condition: use self, kong, fourth, last, "
                f"seat=E|S|W|N, wind=E|S|W|N, flowers=0..{MAX_FLOWERS}{hint}",
            )
        i = j
    return found, frozenset(seen)


def parse_hand(text: str) -> WinningHand:
    """Read a hand written in referee notation (see docs/scoring.md).

    The hand of `parse_hand_with_conditions`, without the set of conditions written.
    """
    return parse_hand_with_conditions(text)[0]


def parse_hand_with_conditions(text: str) -> tuple[WinningHand, frozenset[str]]:
    """Read a hand written in referee notation, and say which win conditions were written.

    Returns the hand and the set of condition words that appear after ``|`` (a subset of
    CONDITION_WORDS: ``self kong fourth last seat wind flowers``, lowercase whatever case
    was typed), so a caller can tell a default (``seat=E`` left out) from a value typed,
    and fill what was left out from elsewhere (the tournament schedule).

    Raises HandError with ``position`` (0-based index into ``text``) for anything wrong
    with the text or local to one tile, meld or condition. Checks that concern the whole
    hand (tile count, copies, win conditions) are `validate`'s. Tiles come back in the
    fixed order of ALL_TILES; melds in the order written.
    """
    if not isinstance(text, str):
        raise _error("wrong_type", f"a hand in notation is text, not {type(text).__name__}")
    if not text.strip():
        raise _located("empty_hand", text, 0, len(text), "write the tiles, e.g. 123m ... +9s")
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
                f"the winning tile (+{win} at character {win_at + 1}) comes last, "
                "before the | and the win conditions",
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
                    f"write exactly one winning tile after +, not {len(run)}",
                )
            win = run[0][0]
            i = end
        elif char in _DIGITS or char.isalpha():
            run, i = _read_tiles(text, i)
            concealed.extend(tile for tile, _ in run)
        elif char in "]}":
            raise _located(
                "unexpected_character",
                text,
                i,
                i + 1,
                f"{char} closes no meld; melds are written [789m], [555p:3] or {{CCCC}}",
            )
        else:
            raise _located(
                "unexpected_character",
                text,
                i,
                i + 1,
                f"{char!r} is not part of the notation; write tiles, [melds], {{kongs}}, "
                "+winning tile, then | conditions",
            )
    if win is None:
        raise _located(
            "missing_win_tile",
            text,
            i,
            i + 1 if i < n else n,
            "no winning tile: write it after +, as in +9s, before any |",
        )
    conditions, written = _read_conditions(text, i + 1) if i < n else ({}, frozenset())
    hand = WinningHand(concealed=_sorted(concealed), win_tile=win, melds=tuple(melds), **conditions)
    return hand, written


def format_hand(hand: WinningHand) -> str:
    """The canonical notation of ``hand``: ``parse_hand(format_hand(h))`` equals ``h``
    with its tiles sorted. Win conditions are written in a fixed order, with seat, wind
    and flowers always given."""
    for tile in (*hand.concealed, hand.win_tile, *(t for m in hand.melds for t in m.tiles)):
        _check_tile(tile, "the hand")
    parts = []
    if hand.concealed:
        parts.append(_write_tiles(_sorted(hand.concealed)))
    for meld in hand.melds:
        suffix = "" if meld.claimed_from is None else f":{meld.claimed_from}"
        body = _write_tiles(_sorted(meld.tiles)) + suffix
        parts.append(f"{{{body}}}" if meld.concealed else f"[{body}]")
    parts.append(f"+{hand.win_tile}")
    words = [
        word
        for word, present in (
            ("self", hand.self_drawn),
            ("kong", hand.kong),
            ("fourth", hand.fourth_tile),
            ("last", hand.last_tile),
        )
        if present
    ]
    words += [f"seat={hand.seat_wind}", f"wind={hand.prevalent_wind}", f"flowers={hand.flowers}"]
    return " ".join(parts) + " | " + " ".join(words)


# --- JSON --------------------------------------------------------------------------------


_REQUIRED: Final = object()
_KIND_NAMES: Final = {list: "a list", str: "a string", bool: "true or false", int: "an integer"}


def _field(obj: dict, name: str, kind: type, default: object, path: str = ""):
    """obj[name], checked to be a ``kind``; absent or null gives ``default``, or a
    missing_field error when the field is required. A boolean is never an integer here."""
    label = f"{path}{name}"
    value = obj.get(name)
    if value is None:
        if default is _REQUIRED:
            raise _error("missing_field", f"the field {label!r} is required")
        return default
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise _error(
            "wrong_type", f"the field {label!r} must be {_KIND_NAMES[kind]}, got {value!r}"
        )
    return value


def _tile_list(obj: dict, name: str, path: str = "") -> tuple[str, ...]:
    tiles = _field(obj, name, list, _REQUIRED, path)
    for index, tile in enumerate(tiles):
        if not isinstance(tile, str):
            raise _error(
                "wrong_type", f"{path}{name}[{index}] must be a tile string like '5p', got {tile!r}"
            )
    return _sorted(tiles)


def hand_from_json(obj: object) -> WinningHand:
    """Build a WinningHand from the command line's JSON object (see docs/scoring.md).

    ``concealed`` and ``win_tile`` are required; the other fields default as in the
    notation (not self-drawn, seat and prevalent wind E, no flowers); null is the same as
    absent; unknown fields are ignored. Types are checked here (``wrong_type``,
    ``missing_field``); tile names and everything else by `validate`.
    """
    if not isinstance(obj, dict):
        raise _error("not_an_object", f"a hand is a JSON object, not {type(obj).__name__}")
    concealed = _tile_list(obj, "concealed")
    win_tile = _field(obj, "win_tile", str, _REQUIRED)
    melds = []
    for index, raw in enumerate(_field(obj, "melds", list, [])):
        path = f"melds[{index}]."
        if not isinstance(raw, dict):
            raise _error("wrong_type", f"melds[{index}] must be an object, got {raw!r}")
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
        self_drawn=_field(obj, "self_drawn", bool, False),
        fourth_tile=_field(obj, "fourth_tile", bool, False),
        kong=_field(obj, "kong", bool, False),
        last_tile=_field(obj, "last_tile", bool, False),
        seat_wind=_field(obj, "seat_wind", str, "E"),
        prevalent_wind=_field(obj, "prevalent_wind", str, "E"),
        flowers=_field(obj, "flowers", int, 0),
    )
