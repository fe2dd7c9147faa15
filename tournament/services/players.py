"""Registration: a player added or edited, withdrawn or reinstated, a player list imported."""

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.exports import federation
from tournament.models import PLAYER_FIELDS, Player, Seat, Tournament
from tournament.players import names
from tournament.players.player_import import state_fingerprint, stored_players
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
    (``tournament.players.names``): a name alone is split, first and last names alone make
    the name."""
    stored = (player.name or "", player.first_name, player.last_name)
    given = tuple(
        fields.get(key, stored[index]) or ""
        for index, key in enumerate(("name", "first_name", "last_name"))
    )
    name, first, last = names.resolve_names(stored, given)
    if not name:
        raise ValidationError(
            {
                "name": ValidationError(
                    _("Give the player's name, or their first and last names."),
                    code="name_missing",
                )
            }
        )
    return {**fields, "name": name, "first_name": first, "last_name": last}


@transaction.atomic
def player_save(*, tournament: Tournament, player: Player | None = None, **fields) -> Player:
    """Create a player, or update ``player`` with ``fields``.

    The country and the EMA number are stored as codes (``tournament.exports.federation``: "fr" and
    "France" as FRA, 4010005 as 04010005); the name, first name and last name are kept in
    step (``tournament.players.names``). Giving a country clears what the player's country held
    before countries were codes.
    """
    player = player or Player(tournament=tournament)
    new_number = fields.get("number", player.number)
    renumbered = player.pk is not None and new_number != player.number
    # A seat given to a substitute still names the drawn player (``Seat.replaces``).
    if renumbered and Seat.objects.filter(Q(player=player) | Q(replaces=player)).exists():
        # The published draw is sha256("seed:number"): renumbering would make it uncheckable.
        raise ValidationError(
            {
                "number": ValidationError(
                    _("%(name)s is already seated by a draw: the number can no longer change.")
                    % {"name": player.name},
                    code="number_fixed_after_draw",
                )
            }
        )
    unknown = set(fields) - set(PLAYER_FIELDS)
    if unknown:
        raise TypeError(f"unknown player fields {sorted(unknown)}")
    taken = tournament.players.filter(number=new_number).exclude(pk=player.pk).first()
    if taken is not None:
        raise ValidationError(
            {
                "number": ValidationError(
                    _("Number %(number)s is already used by %(player)s.")
                    % {"number": new_number, "player": taken.display_name},
                    code="number_taken",
                )
            }
        )
    fields = _names_resolved(player, codes_normalised(dict(fields)))
    ema_number = fields.get("ema_number", player.ema_number)
    holder = (
        tournament.players.filter(ema_number=ema_number).exclude(pk=player.pk).first()
        if ema_number
        else None
    )
    if holder is not None:
        raise ValidationError(
            {
                "ema_number": ValidationError(
                    _("EMA number %(ema)s is already given to player %(player)s.")
                    % {"ema": ema_number, "player": holder},
                    code="ema_number_taken",
                )
            }
        )
    if "country" in fields:
        player.country_unrecognised = ""
    for key, value in fields.items():
        setattr(player, key, value)
    player.full_clean()
    player.save()
    person_follow_player(player)
    tournament_touch(tournament.pk)
    return player


@transaction.atomic
def player_withdraw(*, player: Player) -> Player:
    """Withdraw a player from the sessions still to be drawn; played sessions stand."""
    # The tournament first, as every sign-up service locks it: a withdrawal and a sign-up's
    # own withdrawal at once wait for each other instead of deadlocking.
    list(Tournament.objects.select_for_update().filter(pk=player.tournament_id).values("pk"))
    if player.withdrawn_at is None:
        player.withdrawn_at = timezone.now()
        player.save(update_fields=["withdrawn_at"])
        # Imported here: a sign-up accepted is a player saved by this module.
        from tournament.services.sign_ups import place_freed

        place_freed(tournament=player.tournament)
    tournament_touch(player.tournament_id)
    return player


@transaction.atomic
def player_reinstate(*, player: Player) -> Player:
    if player.withdrawn_at is not None:
        player.withdrawn_at = None
        player.save(update_fields=["withdrawn_at"])
    tournament_touch(player.tournament_id)
    return player


@transaction.atomic
def player_link_revoke(*, player: Player) -> Player:
    """Revoke the player's own link (a lost badge): it stops at its next request, and the
    player's new link is the one printed from now on."""
    player.link_version += 1
    player.save(update_fields=["link_version"])
    tournament_touch(player.tournament_id, seating=False)
    return player


@dataclass(frozen=True)
class ImportOutcome:
    created: int
    updated: int
    unchanged: int


@transaction.atomic
def players_import(*, tournament: Tournament, rows: list[dict], fingerprint: str) -> ImportOutcome:
    """Create or update players by number, as the preview of an import file showed.

    ``fingerprint`` is the preview's digest of the stored players the rows touch
    (``player_import.state_fingerprint``): if any of them changed since the preview, the
    import is refused and writes nothing, so an edit made in between is never overwritten.
    A row equal to the stored player changes nothing.
    """
    stored = stored_players(tournament, for_update=True)
    if state_fingerprint(stored, rows) != fingerprint:
        raise ValidationError(
            _("The players changed since this preview; upload the file again."),
            code="preview_stale",
        )
    existing = {p.number: p for p in tournament.players.all()}
    created = updated = unchanged = 0
    for row in rows:
        player = existing.get(row["number"])
        if player is None:
            player_save(tournament=tournament, **row)
            created += 1
        elif any(getattr(player, key) != value for key, value in row.items()):
            player_save(tournament=tournament, player=player, **row)
            updated += 1
        else:
            unchanged += 1
    tournament_touch(tournament.pk)
    return ImportOutcome(created=created, updated=updated, unchanged=unchanged)
