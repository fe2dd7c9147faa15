"""A draw committed before it is made: the commitment, its hash, the draw seed, the check.

Before the first draw the organiser publishes a *commitment document*: the players the draw
will seat, the seating method and its options, the software's version, the time, and
optionally the public value that will be mixed into the seed (a lottery result, a public
randomness beacon round) that nobody knows yet. With it goes the *commitment hash*, the
SHA-256 of the document sealed with the secret seed and a secret salt::

    SHA-256( canonical document bytes + b"\\n" + UTF-8 of "<seed>:<salt>" )

The canonical bytes are the document as JSON with sorted keys, no spaces, UTF-8 (non-ASCII
letters as themselves); a newline is always escaped inside JSON text, so the one that
follows the document is unambiguous. The salt (32 hex digits from ``secrets``) keeps a
short seed from being found by trying every seed against the published hash.

The *draw seed* is the secret seed itself, or, when a public value was promised,
``SEED_MIN + int(SHA-256("<seed>:<public value>"), 16) % (SEED_MAX - SEED_MIN + 1)``: a
nine-digit seed like ``draw.new_seed``'s, which nobody could choose, since the value was
not known when the seed was fixed.

After the draw the seed and salt are revealed and the *fairness record* (the document, the
hash, the seed, the salt, the public value and the seating as drawn) is published;
``verify`` recomputes the hash and re-runs the draw from the record alone. Pure Python, no
Django: plain data in, plain data out.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournament import __version__
from tournament.seating.draw import (
    SEED_MAX,
    SEED_MIN,
    DrawError,
    check_seed,
    is_int,
    lot_tables,
)
from tournament.seating.modes import seat_session
from tournament.seating.published import plan_registered

FORMAT = "mcr-draw-commitment/1"
RECORD_FORMAT = "mcr-fairness-record/1"
SOFTWARE = f"mcr-tournament {__version__}"
SALT_BYTES = 16

# The methods, as the tournament's seating methods name them, and the options each takes.
# "planned" seats the whole tournament at once, so its commitment covers every session
# drawn from that schedule; the others seat the one session drawn first.
SESSION_MODES = ("random", "standings", "serpentine", "top_tables")
METHODS = ("lot", "planned", *SESSION_MODES)
# Methods that keep players of one group (team, country) apart.
GROUP_METHODS = ("planned", *SESSION_MODES)


class RecordError(ValueError):
    """A commitment or a fairness record that is not one: nothing can be checked."""


@dataclass(frozen=True)
class CommittedPlayer:
    """A player the draw seats: registration number, name, the group the draw keeps apart
    ("" for none) and whether they are a substitute (the session modes rank them last)."""

    number: int
    name: str
    group: str = ""
    substitute: bool = False


@dataclass(frozen=True)
class Difference:
    """One way the draw's input now differs from the committed one.

    ``code``: ``method`` (committed → current), ``option`` (``name``: committed → current),
    ``players_added`` / ``players_removed`` / ``players_changed`` (``players``: numbers
    whose group or substitute mark changed).
    """

    code: str
    name: str = ""
    committed: object = None
    current: object = None
    players: tuple[int, ...] = ()


@dataclass(frozen=True)
class Check:
    """One comparison of ``verify``: what was compared, whether it matched, and how."""

    label: str
    ok: bool
    detail: str


@dataclass(frozen=True)
class Verification:
    """What ``verify`` found: the recomputed hash and draw seed, and every comparison."""

    hash: str
    draw_seed: int | None
    checks: tuple[Check, ...]
    committed_software: str

    @property
    def ok(self) -> bool:
        return bool(self.checks) and all(check.ok for check in self.checks)


def utc_text(moment: datetime.datetime) -> str:
    """A time as the document writes it: UTC, to the second, ``2026-12-05T09:30:00Z``."""
    if moment.tzinfo is None:
        raise ValueError("The commitment time must carry its time zone.")
    return moment.astimezone(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def method_options(
    method: str, *, sessions: int, separate_by: str, top: int
) -> dict[str, int | str]:
    """The options ``method`` uses: the number of sessions the plan covers, what keeps
    players apart, the number of top tables. The draw by lot uses none."""
    if method not in METHODS:
        raise ValueError(f"Unknown seating method {method!r}.")
    options: dict[str, int | str] = {}
    if method == "planned":
        options["sessions"] = sessions
    if method in GROUP_METHODS:
        options["separate_by"] = separate_by
    if method == "top_tables":
        options["top"] = top
    return options


def commitment_document(
    *,
    tournament: str,
    players: Sequence[CommittedPlayer],
    method: str,
    options: Mapping[str, int | str],
    committed_at: datetime.datetime,
    public_value_source: str | None = None,
    software: str = SOFTWARE,
) -> dict:
    """The commitment document: plain JSON data, players in number order.

    ``public_value_source`` says which public value will be mixed into the seed ("drand
    round 1234567", "lottery of 2026-12-05"); None when none is promised. Groups count
    only for the methods that keep groups apart (``GROUP_METHODS``).
    """
    if method not in METHODS:
        raise ValueError(f"Unknown seating method {method!r}.")
    uses_groups = method in GROUP_METHODS
    return {
        "format": FORMAT,
        "tournament": tournament,
        "players": [
            {
                "number": player.number,
                "name": player.name,
                "group": player.group if uses_groups else "",
                "substitute": player.substitute,
            }
            for player in sorted(players, key=lambda p: p.number)
        ],
        "method": method,
        "options": dict(options),
        "software": software,
        "committed_at": utc_text(committed_at),
        "public_value_source": public_value_source or None,
    }


def canonical_bytes(document: Mapping) -> bytes:
    """The document as hashed: JSON, sorted keys, no spaces, UTF-8."""
    text = json.dumps(
        document, sort_keys=True, ensure_ascii=False, separators=(",", ":"), allow_nan=False
    )
    return text.encode("utf-8")


def new_salt() -> str:
    """A fresh salt: 32 lowercase hex digits from the ``secrets`` module."""
    return secrets.token_hex(SALT_BYTES)


def commitment_hash(document: Mapping, *, seed: int, salt: str) -> str:
    """The lowercase hex SHA-256 of the canonical document, a newline and ``"seed:salt"``."""
    check_seed(seed)
    sealed = canonical_bytes(document) + b"\n" + f"{int(seed)}:{salt}".encode()
    return hashlib.sha256(sealed).hexdigest()


def draw_seed(seed: int, public_value: str | None = None) -> int:
    """The seed the draw uses: ``seed`` itself, or mixed with the public value (see the
    module's docstring) into a seed of nine digits."""
    check_seed(seed)
    if public_value is None:
        return seed
    digest = hashlib.sha256(f"{int(seed)}:{public_value}".encode()).hexdigest()
    return SEED_MIN + int(digest, 16) % (SEED_MAX - SEED_MIN + 1)


def draw_input(document: Mapping) -> dict:
    """What the draw takes from a document (the players' names and the time are not
    among it): to compare a committed document with the tournament as it is now."""
    return {
        "method": document["method"],
        "options": dict(document["options"]),
        "players": {
            player["number"]: (player["group"], player["substitute"])
            for player in document["players"]
        },
    }


def draw_input_differences(committed: Mapping, current: Mapping) -> list[Difference]:
    """How the draw's input in ``current`` differs from ``committed`` (two documents):
    the method, each option, players added, removed or changed; [] when they agree."""
    before, now = draw_input(committed), draw_input(current)
    found = []
    if before["method"] != now["method"]:
        found.append(Difference("method", committed=before["method"], current=now["method"]))
    # Another method takes other options: its own difference says it all.
    names = set(before["options"]) | set(now["options"]) if not found else set()
    for name in sorted(names):
        if before["options"].get(name) != now["options"].get(name):
            found.append(
                Difference(
                    "option",
                    name=name,
                    committed=before["options"].get(name),
                    current=now["options"].get(name),
                )
            )
    added = tuple(sorted(set(now["players"]) - set(before["players"])))
    removed = tuple(sorted(set(before["players"]) - set(now["players"])))
    changed = tuple(
        sorted(
            number
            for number in set(before["players"]) & set(now["players"])
            if before["players"][number] != now["players"][number]
        )
    )
    for code, numbers in (
        ("players_added", added),
        ("players_removed", removed),
        ("players_changed", changed),
    ):
        if numbers:
            found.append(Difference(code, players=numbers))
    return found


def committed_seating(document: Mapping, seed: int) -> list[list[tuple[int, ...]]]:
    """The sessions the document and the draw seed give, each a list of tables East..North.

    "planned": every session of the whole-tournament schedule; the other methods: the one
    session drawn first (no session before it, so no meetings to avoid and a ranking of the
    regular players by number, then the substitutes by number). Raises ``ValueError``
    (``DrawError`` included) when the document cannot be seated.
    """
    players = [player["number"] for player in document["players"]]
    groups = {p["number"]: p["group"] for p in document["players"] if p["group"].strip()}
    method = document["method"]
    options = document["options"]
    if method == "lot":
        return [lot_tables(players, seed)]
    if method == "planned":
        schedule = plan_registered(sorted(players), options["sessions"], seed=seed, groups=groups)
        return [[tuple(table) for table in tables] for tables in schedule.sessions]
    if method in SESSION_MODES:
        regular = sorted(p["number"] for p in document["players"] if not p["substitute"])
        substitutes = sorted(p["number"] for p in document["players"] if p["substitute"])
        tables = seat_session(
            method,
            players=sorted(players),
            seed=seed,
            ranking=regular + substitutes,
            groups=groups,
            top=options.get("top", 1),
        )
        return [[tuple(table) for table in tables]]
    raise ValueError(f"Unknown seating method {method!r}.")


def fairness_record(
    *,
    document: Mapping,
    hash: str,
    seed: int | None,
    salt: str | None,
    public_value: str | None,
    seating: Mapping[int, Sequence[Sequence[int]]],
) -> dict:
    """The record ``verify`` reads: before the draw without seed, salt and seating."""
    return {
        "format": RECORD_FORMAT,
        "commitment": dict(document),
        "hash": hash,
        "seed": seed,
        "salt": salt,
        "public_value": public_value,
        "seating": {
            str(number): [list(table) for table in tables]
            for number, tables in sorted(seating.items())
        },
    }


def _read_record(record: object) -> tuple[dict, str, int, str, str | None, dict]:
    """The record's parts, or ``RecordError`` saying why it is not a record to check."""
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise RecordError(f'not a fairness record: expected "format": "{RECORD_FORMAT}"')
    document = record.get("commitment")
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise RecordError(f'the record\'s "commitment" is not a "{FORMAT}" document')
    players = document.get("players")
    if not isinstance(players, list) or not all(
        isinstance(p, dict)
        and is_int(p.get("number"))
        and isinstance(p.get("group"), str)
        and isinstance(p.get("substitute"), bool)
        for p in players
    ):
        raise RecordError(
            'the commitment\'s "players" must be a list of {"number", "name", "group", '
            '"substitute"}'
        )
    if not isinstance(document.get("method"), str) or not isinstance(document.get("options"), dict):
        raise RecordError('the commitment needs a "method" and its "options"')
    published = record.get("hash")
    if not isinstance(published, str):
        raise RecordError('the record has no "hash"')
    seed, salt = record.get("seed"), record.get("salt")
    if seed is None:
        raise RecordError("the seed is not revealed yet: the draw has not been made")
    if not is_int(seed) or seed < 0 or not isinstance(salt, str):
        raise RecordError('the record\'s "seed" must be a whole number and its "salt" a text')
    public_value = record.get("public_value")
    if public_value is not None and not isinstance(public_value, str):
        raise RecordError('the record\'s "public_value" must be a text')
    seating = record.get("seating")
    if not isinstance(seating, dict) or not all(
        isinstance(key, str)
        and key.isascii()
        and key.isdigit()
        and isinstance(tables, list)
        and all(isinstance(t, list) and all(is_int(p) for p in t) for t in tables)
        for key, tables in seating.items()
    ):
        raise RecordError(
            'the record\'s "seating" must map session numbers to tables of player numbers'
        )
    return document, published, seed, salt, public_value, seating


def _table_words(table: Sequence[int]) -> str:
    return " ".join(str(player) for player in table)


def _compare_session(label: str, computed, published) -> Check:
    computed = [tuple(table) for table in computed]
    published = [tuple(table) for table in published]
    count = len(published)
    if computed == published:
        return Check(label, True, f"{count} {'table' if count == 1 else 'tables'} as published")
    if len(computed) != len(published):
        return Check(label, False, f"{len(computed)} tables re-drawn, {len(published)} published")
    first = next(
        number
        for number, (mine, theirs) in enumerate(zip(computed, published, strict=True), 1)
        if mine != theirs
    )
    return Check(
        label,
        False,
        f"table {first} is {_table_words(computed[first - 1])} re-drawn, "
        f"{_table_words(published[first - 1])} published",
    )


def verify(record: object, *, expected_hash: str | None = None) -> Verification:
    """Check a fairness record: the hash of its commitment against the published one (and
    ``expected_hash``, the one noted before the draw, when given), the public value against
    the promise, and the draw re-run from the commitment and the seed against the seating
    as published. Raises ``RecordError`` when the record cannot be read as one."""
    document, published, seed, salt, public_value, seating = _read_record(record)
    computed = commitment_hash(document, seed=seed, salt=salt)
    checks = [Check("published hash", computed == published.strip().lower(), published)]
    if expected_hash is not None:
        given = expected_hash.strip().lower()
        checks.append(Check("--hash", computed == given, expected_hash.strip()))
    promised = document.get("public_value_source")
    if promised is None and public_value is not None:
        checks.append(Check("public value", False, "a public value is given but none was promised"))
    elif promised is not None and not public_value:
        checks.append(
            Check("public value", False, f"the promised public value ({promised}) is missing")
        )
    try:
        seed_used = draw_seed(seed, public_value if promised is not None else None)
        sessions = committed_seating(document, seed_used)
    except (ValueError, KeyError, TypeError) as error:
        reason = error.message if isinstance(error, DrawError) else str(error)
        checks.append(Check("seating", False, f"the draw cannot be re-run: {reason}"))
        return Verification(computed, None, tuple(checks), str(document.get("software", "")))
    if not seating:
        checks.append(Check("seating", False, "the record holds no published seating"))
    elif document["method"] != "planned" and len(seating) != 1:
        checks.append(
            Check("seating", False, "the commitment covers one session; the record lists more")
        )
    for key, tables in sorted(seating.items(), key=lambda item: int(item[0])):
        number = int(key)
        label = f"session {number}"
        if document["method"] == "planned":
            if not 1 <= number <= len(sessions):
                checks.append(Check(label, False, "the committed schedule has no such session"))
                continue
            computed_tables = sessions[number - 1]
        else:
            computed_tables = sessions[0]
        checks.append(_compare_session(label, computed_tables, tables))
    return Verification(computed, seed_used, tuple(checks), str(document.get("software", "")))
