"""The sign-ups as the organiser and the signing-up player see them."""

from dataclasses import dataclass

from tournament.models import SignUp
from tournament.selectors.lookups import ACTIVE_PLAYERS


@dataclass(frozen=True)
class SignUpBoard:
    cap: int | None
    taken: int  # active regular players, and sign-ups holding a place until accepted
    pending: list[SignUp]  # holding a place, waiting for the organiser
    waiting: list[SignUp]  # the waiting list, first in line first, each with its ``place``
    decided: list[SignUp]  # accepted, refused or withdrawn, latest first


def sign_up_board(tournament) -> SignUpBoard:
    """Every sign-up of the tournament by where it stands: three queries."""
    sign_ups = list(tournament.sign_ups.select_related("player").order_by("position"))
    players = tournament.players.filter(ACTIVE_PLAYERS, is_substitute=False).count()
    pending = [s for s in sign_ups if s.status == "pending"]
    waiting = [s for s in sign_ups if s.status == "waiting"]
    for place, sign_up in enumerate(waiting, start=1):
        sign_up.place = place  # 1: first in line
    return SignUpBoard(
        cap=tournament.player_cap,
        taken=players + len(pending),
        pending=pending,
        waiting=waiting,
        decided=sorted(
            (s for s in sign_ups if s.status in ("accepted", "refused", "withdrawn")),
            key=lambda s: (s.decided_at is None, s.decided_at),
            reverse=True,
        ),
    )


def waiting_place(sign_up: SignUp) -> int | None:
    """The sign-up's place on the waiting list (1: first in line); None off the list."""
    if sign_up.status != "waiting":
        return None
    ahead = SignUp.objects.filter(
        tournament_id=sign_up.tournament_id, status="waiting", position__lt=sign_up.position
    ).count()
    return ahead + 1


def sign_up_by_id(tournament, pk: int) -> SignUp | None:
    return tournament.sign_ups.filter(pk=pk).select_related("tournament").first()
