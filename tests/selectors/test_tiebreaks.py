"""The ranking by each tie-break of a tournament's chain, on plain tallies (no database):
more 1st, 2nd and 3rd places rank higher, fewer 4th places, more hands won; the player
number, the lower first, leaves nobody sharing a rank."""

import pytest

from tournament.models import TIEBREAK_CHOICES
from tournament.scoring.profiles import TIEBREAKS
from tournament.selectors.standings import _PLAYER_ATTNAMES, _SORT_VALUES, _ranked, _Tally


def tally(number: int, *, places=(0, 0, 0, 0), won=0, score=0, twelfths=24) -> _Tally:
    fields = dict.fromkeys(_PLAYER_ATTNAMES)
    fields.update(id=number, number=number, name=f"P{number}", is_substitute=False)
    made = _Tally(tuple(fields[name] for name in _PLAYER_ATTNAMES))
    made.places = list(places)
    made.played = sum(places)
    made.won, made.score, made.twelfths = won, score, twelfths
    made.best = score
    return made


def ranks(tallies, chain: str) -> list[tuple[int, int]]:
    """(player number, rank) in the ranking order."""
    number = _PLAYER_ATTNAMES.index("number")
    return [(t.values[number], t.rank) for t in _ranked(tallies, chain.split(","))]


def test_every_criterion_a_tournament_may_choose_ranks():
    assert set(_SORT_VALUES) == set(TIEBREAKS) == {key for key, _label in TIEBREAK_CHOICES}


@pytest.mark.parametrize(
    ("criterion", "index"), [("first_places", 0), ("second_places", 1), ("third_places", 2)]
)
def test_more_of_the_first_three_places_rank_higher(criterion, index):
    fewer, more = (1, 0, 0, 0), [0, 0, 0, 0]
    more[index] = 2
    tallies = [tally(1, places=fewer), tally(2, places=tuple(more))]
    assert ranks(tallies, f"table_points,{criterion}") == [(2, 1), (1, 2)]


def test_fewer_fourth_places_rank_higher():
    # As many table points each: player 1 lost a session players 2 and 3 did not play.
    tallies = [tally(1, places=(1, 0, 0, 1)), tally(2, places=(1, 0, 0, 0)), tally(3)]
    assert ranks(tallies, "table_points,fourth_places") == [(2, 1), (3, 1), (1, 3)]


def test_more_hands_won_rank_higher_and_equal_counts_share():
    tallies = [tally(1, won=3), tally(2, won=5), tally(3, won=3)]
    assert ranks(tallies, "table_points,hands_won") == [(2, 1), (1, 2), (3, 2)]
    # Left out of the chain, the hands won separate nobody.
    assert ranks(tallies, "table_points,score") == [(1, 1), (2, 1), (3, 1)]


def test_the_player_number_ranks_the_lower_first_and_nobody_shares():
    tallies = [tally(7), tally(3), tally(5, twelfths=12)]
    assert ranks(tallies, "table_points,score,player_number") == [(3, 1), (7, 2), (5, 3)]
    # Before it, an earlier criterion decides.
    assert ranks(tallies, "score,player_number") == [(3, 1), (5, 2), (7, 3)]
