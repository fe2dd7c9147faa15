"""A player list imported: the rows of a confirmed preview applied, all or nothing.

Every row goes through the rules of a player saved alone (``players.player_fields_set``,
``people.person_follow_player``), in memory and in the order of the file: a row sees the
rows before it as stored. The players and people are then written in bulk, with their
history, in one transaction: five thousand rows take seconds, not minutes.
"""

from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournament.models import PLAYER_FIELDS, Player, Tournament
from tournament.players.player_import import state_fingerprint
from tournament.services.bulk import created_with_history, updated_with_history
from tournament.services.people import PeopleInBulk, person_follow_player
from tournament.services.players import NumbersTaken, player_fields_set
from tournament.services.results import tournament_touch

# What an import stores of a player besides the fields a file sets.
STORED_FIELDS = [name for name in PLAYER_FIELDS if name != "number"] + [
    "country_unrecognised",
    "person",
]


@dataclass(frozen=True)
class ImportOutcome:
    created: int
    updated: int
    unchanged: int


class ImportRowRefused(ValidationError):
    """A row the rules refuse, with the number of its player."""

    def __init__(self, error: ValidationError, *, number: int):
        super().__init__(error)
        self.number = number


@dataclass
class _Plan:
    """The rows applied in memory: the players to create and to change, the people with them."""

    people: PeopleInBulk
    created: dict[int, Player] = field(default_factory=dict)
    updated: dict[int, Player] = field(default_factory=dict)
    unchanged: int = 0
    # Players whose EMA number or person the import changes: cleared first (``_written``).
    releasing: set[int] = field(default_factory=set)

    @property
    def outcome(self) -> ImportOutcome:
        return ImportOutcome(
            created=len(self.created), updated=len(self.updated), unchanged=self.unchanged
        )


def _stale() -> ValidationError:
    return ValidationError(
        _("The players changed since this preview; upload the file again."),
        code="preview_stale",
    )


def _planned(
    tournament: Tournament,
    rows: list[dict],
    fingerprint: str,
    *,
    players: list[Player],
) -> _Plan:
    """Apply ``rows`` in memory to ``players`` (the tournament's, as stored), by the rules of
    a player saved alone; raises ``ValidationError`` for a stale preview, ``ImportRowRefused``
    for a row the rules refuse. Reads the people in a few queries, writes nothing."""
    stored = {
        player.number: {name: getattr(player, name) for name in PLAYER_FIELDS} for player in players
    }
    if state_fingerprint(stored, rows) != fingerprint:
        raise _stale()
    by_number = {player.number: player for player in players}
    by_ema = {player.ema_number: player for player in players if player.ema_number}
    before = {player.pk: (player.ema_number, player.person_id) for player in players}
    taken = NumbersTaken(
        number=lambda number, player: _other(by_number.get(number), player),
        ema_number=lambda ema_number, player: _other(by_ema.get(ema_number), player),
    )
    people = PeopleInBulk(tournament_id=tournament.pk)
    touched = [by_number[row["number"]] for row in rows if row["number"] in by_number]
    people.preload(
        person_ids={player.person_id for player in touched},
        ema_numbers={str(row.get("ema_number") or "") for row in rows}
        | {player.ema_number for player in touched},
    )
    plan = _Plan(people=people)
    for row in rows:
        number = row["number"]
        player = by_number.get(number)
        if player is not None and all(getattr(player, key) == value for key, value in row.items()):
            plan.unchanged += 1
        else:
            player = player or Player(tournament=tournament)
            ema_before = player.ema_number
            try:
                player_fields_set(player=player, fields=row, taken=taken, database_checks=False)
            except ValidationError as error:
                raise ImportRowRefused(error, number=number) from error
            if by_ema.get(ema_before) is player:
                del by_ema[ema_before]
            if player.ema_number:
                by_ema[player.ema_number] = player
            by_number[number] = player
            person_follow_player(player, people)
            if player.pk is None:
                plan.created[number] = player
            else:
                plan.updated[number] = player
                person = people.person_of(player)
                # A person made by the import has no key yet: a change all the same.
                person_key = person.pk if person is not None else None
                if (player.ema_number, person_key) != before[player.pk] or (
                    person is not None and person_key is None
                ):
                    plan.releasing.add(player.pk)
    return plan


def _other(holder: Player | None, player: Player) -> Player | None:
    return None if holder is None or holder is player else holder


def _written(tournament: Tournament, plan: _Plan) -> None:
    """Store what ``plan`` applied, with its history: the people, then the players."""
    plan.people.write()
    if plan.releasing:
        # An EMA number or a person may pass from one player to another within the import:
        # they are cleared first, so that no statement ever gives one to two players.
        Player.objects.filter(pk__in=plan.releasing).update(ema_number="", person=None)
    updated_with_history(Player, list(plan.updated.values()), STORED_FIELDS)
    created_with_history(Player, list(plan.created.values()))
    tournament_touch(tournament.pk)


def _locked_players(tournament: Tournament) -> list[Player]:
    # The players' rows only: their model's order joins the tournament's row.
    return list(tournament.players.select_for_update(of=("self",)))


@transaction.atomic
def players_import(*, tournament: Tournament, rows: list[dict], fingerprint: str) -> ImportOutcome:
    """Create or update players by number, as the preview of an import file showed, at once.

    ``fingerprint`` is the preview's digest of the stored players the rows touch
    (``player_import.state_fingerprint``): if any of them changed since the preview, the
    import is refused and writes nothing, so an edit made in between is never overwritten.
    A row equal to the stored player changes nothing; a row the rules refuse
    (``ImportRowRefused``) refuses the whole import.
    """
    plan = _planned(tournament, rows, fingerprint, players=_locked_players(tournament))
    _written(tournament, plan)
    return plan.outcome


def refusal_message(error: ValidationError) -> str:
    """What a refused import says, in one line: a row's refusal names its player."""
    message = " ".join(error.messages)
    if isinstance(error, ImportRowRefused):
        return _("Player %(number)s: %(message)s") % {"number": error.number, "message": message}
    return message
