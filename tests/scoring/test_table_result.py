"""A table's result kept for the standings: scores, places and table points in twelfths."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournament import scoring


def test_no_hand_entered_gives_no_place_and_nothing():
    assert scoring.table_result([]) == [(0, None, 0)] * 4


def test_the_scores_are_the_hands_added_up_and_the_places_follow():
    hands = [(24, -8, -8, -8), (-8, 40, -16, -16), (0, 0, 0, 0)]
    assert scoring.table_result(hands) == [(16, 2, 24), (32, 1, 48), (-24, 3, 6), (-24, 3, 6)]


def test_four_players_tied_share_seven_quarters_each():
    assert scoring.table_result([(0, 0, 0, 0)]) == [(0, 1, 21)] * 4
    assert scoring.from_twelfths(21) == Fraction(7, 4)


@pytest.mark.parametrize(
    ("points", "twelfths"),
    [(Fraction(4), 48), (Fraction(7, 3), 28), (Fraction(7, 4), 21), (Fraction(1, 2), 6), (0, 0)],
)
def test_table_points_and_twelfths_convert_both_ways(points, twelfths):
    assert scoring.to_twelfths(points) == twelfths
    assert scoring.from_twelfths(twelfths) == points


def test_a_share_that_is_no_whole_number_of_twelfths_is_refused():
    with pytest.raises(ValueError, match="not a whole number of twelfths"):
        scoring.to_twelfths(Fraction(1, 5))


@given(st.lists(st.tuples(*[st.integers(-300, 300)] * 4), max_size=16))
def test_a_played_table_always_shares_seven_table_points(hands):
    result = scoring.table_result(hands)
    if not hands:
        assert result == [(0, None, 0)] * 4
        return
    scores = [score for score, _place, _twelfths in result]
    assert scores == [sum(h[seat] for h in hands) for seat in range(4)]
    assert sum(twelfths for *_rest, twelfths in result) == 7 * scoring.TWELFTHS
    assert [scoring.from_twelfths(t) for *_rest, t in result] == list(scoring.table_points(scores))
    assert [place for _score, place, _t in result] == list(scoring.places(scores))
