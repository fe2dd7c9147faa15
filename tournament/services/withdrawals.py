"""A player withdrawn from the sessions still to be drawn (their place going to the first on
the waiting list) or reinstated."""

from django.db import transaction

from tournament.models import Player, Tournament
from tournament.services.common import fields_saved
from tournament.services.players import player_withdrawn_mark
from tournament.services.results import tournament_touch
from tournament.services.sign_ups import place_freed


@transaction.atomic
def player_withdraw(*, player: Player) -> Player:
    """Withdraw a player from the sessions still to be drawn; played sessions stand."""
    # The tournament first, as every sign-up service locks it: a withdrawal and a sign-up's
    # own withdrawal at once wait for each other instead of deadlocking.
    list(Tournament.objects.select_for_update().filter(pk=player.tournament_id).values("pk"))
    if player.withdrawn_at is None:
        player_withdrawn_mark(player)
        place_freed(tournament=player.tournament)
    tournament_touch(player.tournament_id)
    return player


@transaction.atomic
def player_reinstate(*, player: Player) -> Player:
    if player.withdrawn_at is not None:
        fields_saved(player, withdrawn_at=None)
    tournament_touch(player.tournament_id)
    return player
