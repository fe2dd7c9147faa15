"""The record of fouls as its selector reads it, on every database (its page's tests run on
the embedded one): a sheet's penalty and a ruling's, in the order they happened, numbered,
filtered by player with their numbers kept, in four queries."""

from tournament import services
from tournament.models import Seat
from tournament.selectors.fouls import FoulFilter, record_of_fouls
from tournament.services import HandEntry, PenaltyEntry


def test_a_sheets_penalty_then_a_rulings_in_four_queries(
    session_in_play, referee, django_assert_num_queries
):
    table = session_in_play.tables.get(number=1)
    tournament = session_in_play.tournament
    late = PenaltyEntry(offender=0, kind="deducted", points=10, reason="Lateness")
    services.hand_record(table=table, entry=HandEntry(number=1, outcome="draw", penalties=[late]))
    offender = Seat.objects.get(table=table, seat=2).player
    services.ruling_give(
        table=table,
        referee=referee,
        hand=1,
        decision="Exposed P1's tiles.",
        offence="exposed_tiles",
        penalty_kind="to_one",
        penalty_points=5,
        offender=offender,
        beneficiary=Seat.objects.get(table=table, seat=0).player,
    )
    with django_assert_num_queries(4):
        fouls = record_of_fouls(tournament)
    assert [(f.number, f.hand, f.penalty_kind, f.penalty_points) for f in fouls] == [
        (1, 1, "deducted", 10),
        (2, 1, "to_one", 5),
    ]
    assert fouls[1].players[0].number == offender.number
    assert fouls[1].referee == "referee"
    (only,) = record_of_fouls(tournament, FoulFilter(player=offender.number))
    assert only.number == 2
