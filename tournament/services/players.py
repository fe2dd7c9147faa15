"""Registration: a player added or edited (a list imported: ``player_imports``, by the rules
of ``player_fields_set``; withdrawn or reinstated: ``withdrawals``)."""

from collections.abc import Callable
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.models import PLAYER_FIELDS, Player, Seat, Tournament
from tournament.players import federation, names
from tournament.services.common import fields_saved, refused
from tournament.services.people import person_follow_player
from tournament.services.results import tournament_touch


def codes_normalised(fields: dict) -> dict:
    """``fields`` with the country and the EMA number in their stored form; raises a
    ValidationError naming each field that cannot be stored."""
    errors = {}
    for name, normalise in (
        ("country", federation.normalise_country),
        ("ema_number", federation.normalise_ema_number),
    ):
        if name in fields:
            try:
                fields[name] = normalise(fields[name])
            except federation.FieldValueError as error:
                errors[name] = ValidationError(error.message, code=error.code)
    if errors:
        raise ValidationError(errors)
    return fields


def _names_resolved(player: Player, fields: dict) -> dict:
    """``fields`` with the name, first name and last name kept in step
    (``tournament.players.names``): a name alone is split (in the order of a Chinese name
    given beside it), first and last names alone make the name."""
    stored = {key: getattr(player, key) for key in names.NAME_KEYS}
    name, first, last = names.resolve_fields(stored, fields)
    if not name:
        raise refused(
            "name", _("Give the player's name, or their first and last names."), "name_missing"
        )
    return {**fields, "name": name, "first_name": first, "last_name": last}


@dataclass(frozen=True)
class NumbersTaken:
    """Who holds a player number and an EMA number in the tournament, for the checks of
    ``player_fields_set``: each read by a query (a player saved alone, ``by_query``) or
    from the players held in memory (an import)."""

    # (number, the player being saved) -> the other player holding it, or None.
    number: Callable[[int, Player], Player | None]
    ema_number: Callable[[str, Player], Player | None]

    @classmethod
    def by_query(cls, tournament: Tournament) -> "NumbersTaken":
        return cls(
            number=lambda number, player: (
                tournament.players.filter(number=number).exclude(pk=player.pk).first()
            ),
            ema_number=lambda ema_number, player: (
                tournament.players.filter(ema_number=ema_number).exclude(pk=player.pk).first()
            ),
        )


def player_fields_set(
    *, player: Player, fields: dict, taken: NumbersTaken, database_checks: bool = True
) -> None:
    """Check ``fields`` against every rule of a player and set them on ``player`` (not saved).

    The country and the EMA number are stored as codes (``tournament.players.federation``: "fr" and
    "France" as FRA, 4010005 as 04010005); the name, first name and last name are kept in
    step (``tournament.players.names``). Giving a country clears what the player's country held
    before countries were codes.

    ``database_checks=False`` leaves to the database what it checks itself, for an import
    that stores its players in bulk: its constraints, and that the tournament and the person
    exist (each costs a query in ``full_clean``: seven a player). The rules above check the
    two constraints a player's fields can break (the numbers taken), the codes are
    normalised, and the import holds the tournament and finds the people itself.
    """
    new_number = fields.get("number", player.number)
    renumbered = player.pk is not None and new_number != player.number
    # A seat given to a substitute still names the drawn player (``Seat.replaces``).
    if renumbered and Seat.objects.filter(Q(player=player) | Q(replaces=player)).exists():
        # The published draw is sha256("seed:number"): renumbering would make it uncheckable.
        raise refused(
            "number",
            _("%(name)s is already seated by a draw: the number can no longer change.")
            % {"name": player.name},
            "number_fixed_after_draw",
        )
    unknown = set(fields) - set(PLAYER_FIELDS)
    if unknown:
        raise TypeError(f"unknown player fields {sorted(unknown)}")
    holder = taken.number(new_number, player)
    if holder is not None:
        raise refused(
            "number",
            _("Number %(number)s is already used by %(player)s.")
            % {"number": new_number, "player": holder.display_name},
            "number_taken",
        )
    fields = _names_resolved(player, codes_normalised(dict(fields)))
    ema_number = fields.get("ema_number", player.ema_number)
    holder = taken.ema_number(ema_number, player) if ema_number else None
    if holder is not None:
        raise refused(
            "ema_number",
            _("EMA number %(ema)s is already given to player %(player)s.")
            % {"ema": ema_number, "player": holder},
            "ema_number_taken",
        )
    if "country" in fields:
        player.country_unrecognised = ""
    for key, value in fields.items():
        setattr(player, key, value)
    if database_checks:
        player.full_clean()
    else:
        player.full_clean(exclude=["tournament", "person"], validate_constraints=False)


@transaction.atomic
def player_save(*, tournament: Tournament, player: Player | None = None, **fields) -> Player:
    """Create a player, or update ``player`` with ``fields``, as ``player_fields_set``
    checks and writes them."""
    player = player or Player(tournament=tournament)
    player_fields_set(player=player, fields=fields, taken=NumbersTaken.by_query(tournament))
    player.save()
    person_follow_player(player)
    tournament_touch(tournament.pk)
    return player


def player_withdrawn_mark(player: Player) -> None:
    """What a withdrawal writes of the player: withdrawn now, unless already (the caller,
    in its transaction, frees the place and raises the version: ``withdrawals``)."""
    if player.withdrawn_at is None:
        fields_saved(player, withdrawn_at=timezone.now())


@transaction.atomic
def player_link_revoke(*, player: Player) -> Player:
    """Revoke the player's own link (a lost badge): it stops at its next request, and the
    player's new link is the one printed from now on."""
    fields_saved(player, link_version=player.link_version + 1)
    tournament_touch(player.tournament_id, seating=False)
    return player
