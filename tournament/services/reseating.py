"""Players who sat in each other's seats: the table's record put right after the fact.

Found after some hands were entered (a player in the seat drawn for another), the two seats
exchange their players, and every hand already entered follows its players: the winner, the
discarder and the penalties are people, not seats. Each hand is settled again at its new
seats (the seat winds and the dealer are the seat's), its winning hand scored again with the
winner's new seat wind, a revision kept, and the table's results stored again.
"""

import dataclasses
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournament.history import audit
from tournament.language.formatting import SEAT_LABELS
from tournament.models import Hand, Penalty, Seat, Table
from tournament.scoring.rules import Rules
from tournament.services.common import refused
from tournament.services.hands import (
    figure_disputed,
    penalty_entries,
    revision_kept,
    score_winning_hand,
    settle,
)
from tournament.services.results import table_results_store, tournament_touch
from tournament.services.tables import (
    locked_table,
    seating_unchanged,
    table_open_for_entry,
    table_rules,
)

# What a seat holds that belongs to its player: whom they are, their lot in the draw (so the
# draw, read by lot, stays the published one), the drawn player they replace and the
# withdrawn player a substitute stands in for.
PLAYER_FIELDS = ("player", "lot", "replaces", "stands_in_for")
# A swap asked on a page that no longer shows the table's seats: most often the same swap sent
# twice, already made.
SWAP_SEATING_CHANGED = gettext_lazy(
    "The seats were changed after this page was opened (the swap was made already?): the "
    "table is shown as it is now, and nothing more was changed."
)


@dataclass(frozen=True)
class SeatSwap:
    """What a swap did: the hands that followed their players, and those whose tiles, counted
    again at the new seat winds, no longer give the fan the players declared."""

    hands: int
    disputed: tuple[int, ...]


@transaction.atomic
def table_seats_swap(
    *, table: Table, first: int, second: int, user=None, device: str = "", seating: str = ""
) -> SeatSwap:
    """Record that the players of seats ``first`` and ``second`` (0 for P1 … 3 for P4) sat in
    each other's seat, and move the table's hands with them. Refused at a confirmed table or
    outside play, as an entry is; with ``seating``, the seating key of the page the swap was
    asked on, refused when the seats changed since (a swap sent twice is made once)."""
    table = locked_table(table, with_session=True)
    table_open_for_entry(table)
    seating_unchanged(table, seating, SWAP_SEATING_CHANGED)
    seats = range(len(SEAT_LABELS))
    if first not in seats or second not in seats:
        raise refused("second", _("Choose two seats of the table, P1 to P4."), "unknown_seat")
    if first == second:
        raise refused("second", _("Choose two different seats."), "same_seat")
    exchange = {first: second, second: first}

    def moved(seat: int | None) -> int | None:
        return None if seat is None else exchange.get(seat, seat)

    hands = list(table.hands.prefetch_related("penalties").order_by("number"))
    rules = table_rules(table)
    disputed = []
    with audit.acting(user=user, device=device, reason=audit.SEATS_SWAPPED):
        _exchange_players(table, first, second)
        for hand in hands:
            was_kept = hand.referee_figure_kept
            _follow_players(hand, moved, rules=rules, user=user, device=device)
            if hand.referee_figure_kept and not was_kept:
                disputed.append(hand.number)
    table_results_store(table)
    tournament_touch(table.session.tournament_id)
    return SeatSwap(hands=len(hands), disputed=tuple(disputed))


def _exchange_players(table: Table, first: int, second: int) -> None:
    """Seats ``first`` and ``second`` exchange what belongs to their players.

    The database checks one seat per player and one player per seat after each row, and no
    order of two updates keeps both true: the second row is taken out for the exchange (with
    no history) and put back with its id, then each row's history records its change once.
    """
    one, other = (
        Seat.objects.select_for_update().filter(table=table, seat=seat).get()
        for seat in (first, second)
    )
    attnames = [Seat._meta.get_field(name).attname for name in PLAYER_FIELDS]
    ones = [getattr(one, attname) for attname in attnames]
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {Seat._meta.db_table} WHERE id = %s", [other.pk])
    for attname, value in zip(attnames, ones, strict=True):
        setattr(one, attname, getattr(other, attname))
        setattr(other, attname, value)
    one.save(update_fields=PLAYER_FIELDS)
    other.save_without_historical_record(force_insert=True)
    other.save(update_fields=PLAYER_FIELDS)


def _follow_players(hand: Hand, moved, *, rules: Rules, user, device: str) -> None:
    """``hand`` at the seats its players now hold: settled again, its winning hand scored
    again (the winner's seat wind may have changed), the entry before kept as a revision."""
    penalties = [
        dataclasses.replace(
            entry, offender=moved(entry.offender), beneficiary=moved(entry.beneficiary)
        )
        for entry in penalty_entries(hand)
    ]
    winner, discarder = moved(hand.winner), moved(hand.discarder)
    settlement = settle(
        rules=rules,
        outcome=hand.outcome,
        winner=winner,
        discarder=discarder,
        fan=hand.fan,
        flowers=hand.flowers,
        penalties=penalties,
    )
    computed, kept = hand.computed_fan, hand.referee_figure_kept
    if hand.winning_hand:
        try:
            scored = score_winning_hand(
                text=hand.winning_hand,
                number=hand.number,
                winner=winner,
                outcome=hand.outcome,
                flowers=hand.flowers,
                rules=rules,
            )
        except ValidationError:
            # A seat wind written into the hand now contradicts the sheet: the tiles have no
            # count at the new seats; the referee's figure stands as it was kept.
            scored = computed = None
        if scored is not None:
            # The fan paid at the table stays; the tiles now say whether it is disputed.
            computed = scored.total_without_flowers
            kept = figure_disputed(
                fan=hand.fan, fan_names=hand.fan_names, scored=scored, rules=rules
            )
    revision_kept(hand, user=user)
    hand.winner, hand.discarder = winner, discarder
    hand.computed_fan, hand.referee_figure_kept = computed, kept
    (hand.points_p1, hand.points_p2, hand.points_p3, hand.points_p4) = settlement.points
    hand.deducted = settlement.deducted
    hand.entered_by = user
    hand.entered_by_device = device
    hand.save()
    hand.penalties.all().delete()
    for penalty in penalties:
        Penalty.objects.create(hand=hand, **dataclasses.asdict(penalty))
