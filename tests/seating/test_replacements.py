"""Whom a substitute seated by a draw stands in for, on plain data: the plan's seat first,
then the same player as before, then in turn in the order players withdrew."""

from tests.purity import assert_imports_no_django
from tournament.seating.replacements import substitutes_standing_in

TABLES = [[1, 2, 3, 17], [5, 6, 18, 7]]


def test_the_module_imports_no_django():
    assert_imports_no_django("tournament.seating.replacements")


def test_a_substitute_in_the_seat_the_plan_gave_a_withdrawn_player_stands_in_for_them():
    named = substitutes_standing_in(
        tables=TABLES,
        substitutes=[17, 18],
        withdrawn=[8, 4],
        planned=[[1, 2, 3, 4], [5, 6, 8, 7]],
    )
    assert named == {17: 4, 18: 8}


def test_without_a_plan_the_substitutes_stand_in_in_the_order_players_withdrew():
    named = substitutes_standing_in(tables=TABLES, substitutes=[18, 17], withdrawn=[8, 4])
    assert named == {17: 8, 18: 4}


def test_a_substitute_keeps_the_player_they_stood_in_for_before():
    named = substitutes_standing_in(
        tables=TABLES, substitutes=[17, 18], withdrawn=[8, 4], earlier={18: 8}
    )
    assert named == {18: 8, 17: 4}


def test_the_plans_seat_comes_before_an_earlier_stand_in():
    named = substitutes_standing_in(
        tables=TABLES,
        substitutes=[17, 18],
        withdrawn=[8, 4],
        planned=[[1, 2, 3, 8], [5, 6, 4, 7]],
        earlier={17: 4, 18: 8},
    )
    assert named == {17: 8, 18: 4}


def test_nobody_to_stand_in_for_and_unseated_substitutes_name_nobody():
    # 15 regular players and a substitute to make 16: nobody withdrew.
    assert substitutes_standing_in(tables=TABLES, substitutes=[17, 18], withdrawn=[]) == {}
    # One withdrawal, two substitutes seated: the lower number stands in.
    assert substitutes_standing_in(tables=TABLES, substitutes=[17, 18], withdrawn=[8]) == {17: 8}
    # A substitute not seated in this session stands in for nobody.
    assert substitutes_standing_in(tables=TABLES, substitutes=[19], withdrawn=[8]) == {}


def test_an_earlier_stand_in_for_a_player_back_in_the_tournament_is_dropped():
    named = substitutes_standing_in(
        tables=TABLES, substitutes=[17], withdrawn=[4], earlier={17: 16}
    )
    assert named == {17: 4}
