"""Seating from the command line: plan a whole tournament, or re-run one session's draw.

    python -m tournament.seating --players N --sessions R [--seed S] [--groups FILE.json]

prints one JSON object::

    {"seed": S, "players": N, "sessions": [[[e, s, w, n], ...], ...],
     "stats": {"extra_meetings": ..., "max_meetings": ..., "group_conflicts": ...,
               "seat_spread": ..., "lower_bound": ..., "consecutive_repeats": ...}}

Players are numbered 1..N; each table lists its players East, South, West, North. Without
``--seed`` a fresh seed is drawn and printed in the output, so the draw can be re-run.
``--groups`` is a JSON object mapping player numbers (as strings) to group names. Bad
arguments give a message on stderr and exit status 2. Same arguments and seed give
byte-identical output.

    python -m tournament.seating session --input FILE.json

re-runs one session-by-session draw (``modes.seat_session``) from the input the seating
page shows, ``{"mode", "seed", "players", "history", "ranking", "groups", "top"}``, and
prints ``{"mode": ..., "seed": ..., "tables": [[e, s, w, n], ...]}``; an input it cannot
seat gives a message on stderr and exit status 2.

    python -m tournament.seating verify FILE.json [--hash HEX]

checks a committed draw from its fairness record (``fairness.json``, offered by the
tournament's fairness page; see ``commitment``): it prints the commitment's hash computed
from the record, whether it equals the published hash (and ``--hash``, the hash noted
before the draw, when given), the draw seed, and whether the draw re-run from the
commitment equals the published seating, session by session. Exit status 0 when every
check matches, 1 when one does not, 2 when the file is not a record it can check.

    python -m tournament.seating replan --input FILE.json

re-runs one re-plan of a published whole-tournament schedule (``published.replan_from_input``)
from the input the seating page shows, ``{"seed", "played", "players", "groups",
"schedule"}`` (registration numbers: the sessions drawn, then the sessions still to come as
published before the re-plan), and prints ``{"seed": ..., "played": ..., "moved_seats": ...,
"sessions": [[[e, s, w, n], ...], ...]}``, every session by registration number; an input it
cannot re-plan gives a message on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from tournament.seating.draw import new_seed


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tournament.seating",
        description="Plan every session of an MCR tournament at once and print it as JSON.",
    )
    parser.add_argument(
        "--players",
        type=int,
        required=True,
        metavar="N",
        help="number of players, a multiple of 4 (players 1..N)",
    )
    parser.add_argument(
        "--sessions", type=int, required=True, metavar="R", help="number of sessions, 1 or more"
    )
    parser.add_argument(
        "--seed",
        type=int,
        metavar="S",
        help="the seed, a whole number of 0 or more (default: a fresh one)",
    )
    parser.add_argument(
        "--groups", metavar="FILE.json", help='JSON object {"player number": "group name", ...}'
    )
    return parser


def _read_groups(data: object, path: str, players: int) -> dict[int, str]:
    """The groups of the file at ``path``, which holds ``data``; ``ValueError`` says why not."""
    if not isinstance(data, dict):
        raise ValueError(
            f"the groups file {path!r} must hold a JSON object mapping player numbers "
            'to group names, like {"1": "Club A", "2": "Club B"}'
        )
    groups: dict[int, str] = {}
    for key, name in data.items():
        text = key.strip()
        if not (text.isascii() and text.isdigit()):
            raise ValueError(f"the groups file names {key!r}, which is not a player number")
        player = int(text)
        if not 1 <= player <= players:
            raise ValueError(
                f"the groups file names player {player}, but the players are 1..{players}"
            )
        if player in groups:
            raise ValueError(f"the groups file names player {player} twice")
        if not isinstance(name, str) or not name.strip():
            raise ValueError(
                f"the groups file gives player {player} the group {name!r}; "
                "group names must be non-empty strings"
            )
        groups[player] = name
    return groups


def _read_input(parser: argparse.ArgumentParser, argv: Sequence[str], fields: str):
    """The JSON object of ``--input FILE.json``; a file that cannot be read stops the parser."""
    help_text = f"{fields}, as shown on the seating page"
    parser.add_argument("--input", required=True, metavar="FILE.json", help=help_text)
    return _read_json(parser, parser.parse_args(argv).input)


def _read_json(parser: argparse.ArgumentParser, path: str, name: str = ""):
    """The JSON held by the file at ``path`` (``name`` in messages, by default its path in
    quotes); a file that cannot be read stops the parser."""
    name = name or repr(path)
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except OSError as error:
        parser.error(f"cannot read {name}: {error.strerror}")
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        parser.error(f"{name} is not valid JSON: {error}")


def _session_main(argv: Sequence[str]) -> int:
    """`session --input FILE.json`: re-run one session-by-session draw from its input."""
    parser = argparse.ArgumentParser(
        prog="python -m tournament.seating session",
        description="Seat one session by a session-by-session method and print it as JSON.",
    )
    data = _read_input(
        parser, argv, '{"mode", "seed", "players", "history", "ranking", "groups", "top"}'
    )
    if not isinstance(data, dict) or not isinstance(data.get("mode"), str):
        parser.error('the input must be a JSON object with at least "mode" and "seed"')
    from tournament.seating.modes import seat_session

    try:
        groups = {int(k): v for k, v in (data.get("groups") or {}).items()}
        tables = seat_session(
            data["mode"],
            players=data.get("players") or [],
            seed=data["seed"],
            history=data.get("history") or (),
            ranking=data.get("ranking") or (),
            groups=groups or None,
            top=data.get("top", 1),
        )
    except (KeyError, TypeError, ValueError) as error:
        parser.error(f"cannot seat this input: {error}")
    output = {"mode": data["mode"], "seed": data["seed"], "tables": [list(t) for t in tables]}
    sys.stdout.write(json.dumps(output) + "\n")
    return 0


def _verify_main(argv: Sequence[str]) -> int:
    """`verify FILE.json [--hash HEX]`: check a committed draw from its fairness record."""
    parser = argparse.ArgumentParser(
        prog="python -m tournament.seating verify",
        description="Check a committed draw: its hash, its public value and its seating.",
    )
    parser.add_argument(
        "record", metavar="FILE.json", help="the fairness record of the tournament's fairness page"
    )
    parser.add_argument(
        "--hash", metavar="HEX", help="the commitment hash published before the draw"
    )
    args = parser.parse_args(argv)
    record = _read_json(parser, args.record)
    from tournament.seating.commitment import SOFTWARE, RecordError, verify

    try:
        found = verify(record, expected_hash=args.hash)
    except RecordError as error:
        parser.error(f"{args.record!r}: {error}")
    public_value = record.get("public_value")
    lines = [f"commitment hash  {found.hash}"]
    if found.draw_seed is not None:
        if record["commitment"].get("public_value_source") is None:
            lines.append(f"draw seed        {found.draw_seed} (the committed seed)")
        else:
            lines.append(
                f"draw seed        {found.draw_seed} "
                f"(seed {record['seed']} mixed with the public value {json.dumps(public_value)})"
            )
    for check in found.checks:
        lines.append(f"{'match' if check.ok else 'MISMATCH':<9}{check.label}: {check.detail}")
    lines.append(
        f"software         committed with {found.committed_software}, checked with {SOFTWARE}"
    )
    failed = sum(1 for check in found.checks if not check.ok)
    if found.ok:
        lines.append("verified: every check matches")
    else:
        lines.append(f"NOT verified: {failed} of {len(found.checks)} checks do not match")
    sys.stdout.write("\n".join(lines) + "\n")
    return 0 if found.ok else 1


def _replan_main(argv: Sequence[str]) -> int:
    """`replan --input FILE.json`: re-run one re-plan of a published schedule from its input."""
    parser = argparse.ArgumentParser(
        prog="python -m tournament.seating replan",
        description="Re-plan the sessions still to come of a published schedule; print JSON.",
    )
    data = _read_input(parser, argv, '{"seed", "played", "players", "groups", "schedule"}')
    keys = ("seed", "played", "players", "schedule")
    if not isinstance(data, dict) or any(key not in data for key in keys):
        parser.error(
            'the input must be a JSON object with "seed", "played", "players" and "schedule"'
        )
    from tournament.seating.errors import SeatingError
    from tournament.seating.published import replan_from_input

    try:
        schedule = replan_from_input(data)
    except SeatingError as error:
        parser.error(f"cannot re-plan this input: {error.message}")
    except (AttributeError, KeyError, TypeError, ValueError) as error:
        parser.error(f"cannot re-plan this input: {error}")
    output = {
        "seed": data["seed"],
        "played": data["played"],
        "moved_seats": schedule.moved_seats,
        "sessions": schedule.sessions,
    }
    sys.stdout.write(json.dumps(output) + "\n")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    subcommands = {"session": _session_main, "verify": _verify_main, "replan": _replan_main}
    if argv and argv[0] in subcommands:
        return subcommands[argv[0]](argv[1:])
    parser = _parser()
    args = parser.parse_args(argv)
    if args.players < 4 or args.players % 4:
        parser.error(f"--players must be a multiple of 4, at least 4 (not {args.players})")
    if args.sessions < 1:
        parser.error(f"--sessions must be at least 1 (not {args.sessions})")
    if args.seed is not None and args.seed < 0:
        parser.error(f"--seed must be zero or more (not {args.seed})")
    groups = None
    if args.groups is not None:
        data = _read_json(parser, args.groups, f"the groups file {args.groups!r}")
        try:
            groups = _read_groups(data, args.groups, args.players)
        except ValueError as error:
            parser.error(str(error))
    seed = new_seed() if args.seed is None else args.seed

    from tournament.seating.schedule import plan_schedule

    schedule = plan_schedule(args.players, args.sessions, seed=seed, groups=groups)
    output = {
        "seed": schedule.seed,
        "players": args.players,
        "sessions": [[list(table) for table in tables] for tables in schedule.sessions],
        "stats": schedule.stats.as_dict(),
    }
    sys.stdout.write(json.dumps(output) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
