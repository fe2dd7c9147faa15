"""A player withdrawn from the sessions still to be drawn (their place going to the first on
the waiting list, the player told by e-mail) or reinstated."""

from django.db import transaction

from tournament.models import Player, Tournament
from tournament.services.common import fields_saved
from tournament.services.mail import withdrawal_email_queue, withdrawal_emails_drop
from tournament.services.players import player_withdrawn_mark
from tournament.services.results import tournament_touch
from tournament.services.sign_ups import place_freed


def _locked(player: Player) -> Player:
    """``player`` with their withdrawal as stored, read under the tournament's lock: every
    sign-up service locks it first, so a withdrawal and a sign-up's own withdrawal at once wait
    for each other instead of deadlocking; and two taps of *Withdraw* at once are one
    withdrawal, the second seeing the first's."""
    list(Tournament.objects.select_for_update().filter(pk=player.tournament_id).values("pk"))
    player.refresh_from_db(fields=["withdrawn_at"])
    return player


@transaction.atomic
def player_withdraw(*, player: Player) -> Player:
    """Withdraw a player from the sessions still to be drawn; played sessions stand. The
    player is told by e-mail, once: withdrawing them again changes nothing."""
    player = _locked(player)
    if player.withdrawn_at is None:
        player_withdrawn_mark(player)
        withdrawal_email_queue(player=player)
        place_freed(tournament=player.tournament)
    tournament_touch(player.tournament_id)
    return player


@transaction.atomic
def player_reinstate(*, player: Player) -> Player:
    """Reinstate a withdrawn player. Their withdrawal's e-mail, if not sent yet, is not sent:
    withdrawn again later, they are told again."""
    player = _locked(player)
    if player.withdrawn_at is not None:
        fields_saved(player, withdrawn_at=None)
        withdrawal_emails_drop(player=player)
    tournament_touch(player.tournament_id)
    return player
