"""Importing a player list into a tournament: the side of the import that knows the database.

``tournament.players.player_file`` parses a file without touching the database; this
module reads the tournament's stored players and builds the preview against
them. ``services.players_import`` applies a confirmed preview.

A preview is shown and confirmed later. It carries a fingerprint of the
stored players it was compared with, and is applied only if they still have
the same values: a hand edit made in between is never silently overwritten.
"""

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from django.core.validators import MaxValueValidator

from tournament.models import PLAYER_FIELDS, Player, Tournament
from tournament.players import player_file

# What a player number not registered yet stands for in the fingerprint.
ABSENT = "absent"


@dataclass
class PlayerImportPreview(player_file.ImportPreview):
    """A preview, with the fingerprint of the stored players it was compared with."""

    fingerprint: str = ""


def player_limits() -> player_file.FieldLimits:
    """The lengths and the largest number the Player model accepts, for the import checks."""
    max_lengths = {
        name: Player._meta.get_field(name).max_length
        for name in (*player_file.TEXT_FIELDS, "email")
    }
    maxima = [
        validator.limit_value
        for validator in Player._meta.get_field("number").validators
        if isinstance(validator, MaxValueValidator)
    ]
    if maxima:
        return player_file.FieldLimits(max_lengths=max_lengths, max_number=min(maxima))
    return player_file.FieldLimits(max_lengths=max_lengths)


def stored_players(tournament: Tournament, *, for_update: bool = False) -> dict[int, dict]:
    """The tournament's players as plain data: number → the fields an import can set."""
    players = tournament.players.all()
    if for_update:
        # The players' rows only: their model's order joins the tournament's row.
        players = players.select_for_update(of=("self",))
    return {values["number"]: values for values in players.values(*PLAYER_FIELDS)}


def state_fingerprint(
    stored: Mapping[int, Mapping[str, object]], rows: Iterable[Mapping[str, object]]
) -> str:
    """A digest of what is stored for the players ``rows`` would import.

    For each row's number: the stored value of every field the row sets (the
    fields the import compares), or ``ABSENT`` when no player has that number.
    Any change to one of these values changes the digest.
    """
    state = {}
    for row in rows:
        number = row["number"]
        player = stored.get(number)
        state[str(number)] = (
            ABSENT if player is None else {name: player.get(name) for name in sorted(row)}
        )
    canonical = json.dumps(state, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def import_preview(tournament: Tournament, *, filename: str, content: bytes) -> PlayerImportPreview:
    """Read a player file and compare it with the tournament's players; raises ImportFileError."""
    table = player_file.read_table(filename, content)
    stored = stored_players(tournament)
    parsed = player_file.parse_players(table, existing=stored, limits=player_limits())
    return PlayerImportPreview(
        **vars(parsed),
        # From the same read as the comparison, so the preview shown is what is fingerprinted.
        fingerprint=state_fingerprint(stored, parsed.rows_to_import),
    )
