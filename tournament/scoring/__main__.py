"""Score hands from the command line, one per input line (see docs/scoring.md).

    python -m tournament.scoring --jsonl      JSON objects in, JSON lines out
    python -m tournament.scoring --notation   referee notation in, JSON lines out

with, optionally, the tournament's rule options (the seed reading without them):
``--kong 3|5|6``, ``--no-flowers``, ``--blessings``, ``--minimum N``.

Every input line gets exactly one output line, in order, flushed at once, so a tool can
pair answers with questions by position; a bad line (blank lines included) gets an
error object and never stops the run. The exit status is 0 once the input is read.

Only standard JSON is read and written: NaN, Infinity and numbers too large for a float
are refused on input (``invalid_json``), and an answer is always valid UTF-8 JSON, with
non-ASCII text (Chinese fan names) written as is unless the line holds a string UTF-8
cannot encode (a lone surrogate from a ``\\ud800`` escape): that line is written with
``\\u`` escapes instead.
"""

from __future__ import annotations

import json
import math
import sys
from typing import TextIO

from tournament.core_errors import gettext_noop
from tournament.scoring.hand import HandError
from tournament.scoring.notation import ERROR_CODES, hand_from_json, parse_hand, score_hand
from tournament.scoring.rules import SEED_RULES, Rules, rules_error

USAGE = """\
usage: python -m tournament.scoring --jsonl | --notation
           [--kong 3|5|6] [--no-flowers] [--blessings] [--minimum N]

Score winning hands read from standard input, one per line; write one JSON line per
input line to standard output, in order.

  --jsonl     each line is a JSON object: {"id", "concealed", "melds", "win_tile",
              "self_drawn", "fourth_tile", "kong", "last_tile", "seat_wind",
              "prevalent_wind", "flowers", "blessing"}
  --notation  each line is a hand in referee notation, e.g.
              123m78sEE [555p:3] {CCCC} +9s | self kong seat=E wind=S flowers=2
              (the output id is the line number, from 1)

The tournament's rule options (docs/scoring.md, "Rule options"); without them, the seed
reading:

  --kong 3|5|6   one melded and one concealed kong score 3 (Melded Kong + Concealed
                 Kong, the default), 5 (the fan 明暗杠) or 6 (Two Melded Kongs +
                 Concealed Kong)
  --no-flowers   the flowers are not played: a hand with flowers is refused
                 (flowers_not_played)
  --blessings    Heavenly, Earthly and Human Hand count (8 each); without it a hand
                 declaring one is refused (blessings_not_played)
  --minimum N    the fan a hand needs to be valid, flowers not counted (default 8)

The notation, the JSON fields and the error codes are described in docs/scoring.md.
"""


def _error(code: str, message: str) -> dict:
    ERROR_CODES[code]  # an unlisted code is a bug, caught by the tests
    return {"code": code, "message": message}


_FAN_FIELDS = ("name_en", "name_zh", "points", "count")


def _scored(hand, rules: Rules) -> dict:
    scored = score_hand(hand, rules)
    return {
        "fans": [{field: getattr(fan, field) for field in _FAN_FIELDS} for fan in scored.fans],
        "total": scored.total,
        "total_without_flowers": scored.total_without_flowers,
        "valid": scored.valid,
    }


class _NotStandardJSON(ValueError):
    pass


def _refuse_constant(name: str):
    raise _NotStandardJSON(f"{name} is not a standard JSON value")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NotStandardJSON(f"{text} is too large for a number")
    return value


def read_json(line: str) -> object:
    """The JSON value of ``line``; standard JSON only (no NaN, Infinity or overflowing numbers).

    Raises ``HandError("invalid_json")`` for anything that is not, whatever the failure:
    a syntax error, nesting too deep for the parser, a number too long to convert.
    """
    try:
        return json.loads(line, parse_constant=_refuse_constant, parse_float=_finite_float)
    except RecursionError:
        why = "nested too deeply"
    except Exception as exc:  # any failure of the parser is a bad line
        why = str(exc) if isinstance(exc, ValueError) else f"{type(exc).__name__}: {exc}"
    raise HandError("invalid_json", gettext_noop("not a JSON value: %(why)s"), {"why": why})


def answer_json_line(line: str, rules: Rules = SEED_RULES) -> dict:
    """The output object for one --jsonl input line, scored under ``rules``."""
    if not line.strip():
        return {"id": None, "error": _error("empty_line", "blank line: no hand to score")}
    try:
        obj = read_json(line)
    except HandError as exc:
        return {"id": None, "error": _error(exc.code, exc.message)}
    ident = obj.get("id") if isinstance(obj, dict) else None
    return {"id": ident, **_answer(lambda: hand_from_json(obj), rules)}


def answer_notation_line(line: str, number: int, rules: Rules = SEED_RULES) -> dict:
    """The output object for one --notation input line (``number`` counts from 1), scored
    under ``rules``."""
    text = line.rstrip("\r\n")
    if not text.strip():
        return {"id": number, "error": _error("empty_line", "blank line: no hand to score")}
    return {"id": number, **_answer(lambda: parse_hand(text), rules, notation=True)}


def _answer(read, rules: Rules, *, notation: bool = False) -> dict:
    try:
        return _scored(read(), rules)
    except HandError as exc:
        error = {"code": exc.code, "message": exc.message}
        if notation and exc.position is not None:
            error["position"] = exc.position
        return {"error": error}
    except Exception as exc:  # one broken line must not stop the run
        return {"error": _error("internal_error", f"{type(exc).__name__}: {exc}")}


def render(result: dict) -> str:
    """``result`` as one line of standard JSON that UTF-8 can encode; never raises.

    Non-ASCII text stays readable (ensure_ascii=False) unless the line holds a lone
    surrogate, which UTF-8 cannot encode: that line is written with ASCII escapes. If the
    answer cannot be written at all (NaN, nesting too deep), an internal_error line takes
    its place, without the id, so the run and the line count go on.
    """
    try:
        text = json.dumps(result, ensure_ascii=False, allow_nan=False)
        if not text.isascii():
            try:
                text.encode("utf-8")
            except UnicodeEncodeError:
                text = json.dumps(result, allow_nan=False)
        return text
    except Exception as exc:  # one unwritable answer must not stop the run
        message = f"the answer could not be written as JSON: {type(exc).__name__}: {exc}"
        return json.dumps({"id": None, "error": _error("internal_error", message)})


def parse_arguments(args: list[str]) -> tuple[str, Rules] | None:
    """The input mode (``--jsonl`` or ``--notation``) and the rules the arguments ask for,
    or None when they are not a usage the command knows (each option at most once)."""
    modes = [arg for arg in args if arg in ("--jsonl", "--notation")]
    if len(modes) != 1:
        return None
    options: dict = {}
    rest = [arg for arg in args if arg not in modes]
    while rest:
        arg = rest.pop(0)
        if arg in ("--kong", "--minimum") and rest and rest[0].isascii() and rest[0].isdigit():
            field = "melded_and_concealed_kong" if arg == "--kong" else "minimum_fan"
            value = int(rest.pop(0))
        elif arg == "--no-flowers":
            field, value = "flowers", False
        elif arg == "--blessings":
            field, value = "blessings", True
        else:
            return None
        if field in options:
            return None
        options[field] = value
    rules = Rules(**options)
    return None if rules_error(rules) else (modes[0], rules)


def main(
    argv: list[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args in (["-h"], ["--help"]):
        print(USAGE, end="")
        return 0
    read = parse_arguments(args)
    if read is None:
        print(USAGE, end="", file=sys.stderr)
        return 2
    mode, rules = read
    if stdin is None:
        sys.stdin.reconfigure(encoding="utf-8", errors="replace")
        stdin = sys.stdin
    if stdout is None:
        sys.stdout.reconfigure(encoding="utf-8")
        stdout = sys.stdout
    for number, line in enumerate(stdin, 1):
        if mode == "--jsonl":
            result = answer_json_line(line, rules)
        else:
            result = answer_notation_line(line, number, rules)
        stdout.write(render(result) + "\n")
        stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
