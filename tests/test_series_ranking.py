"""A series' ranking on plain data: the best results by table points, points by place, the
results counted and not, ties broken by table points then score, shared ranks."""

from fractions import Fraction

import pytest

from tests.purity import assert_imports_no_django
from tournament.rankings.series import Result, Rule, series_ranking


def result(person, tournament, rank, points, score):
    return Result(
        person=person, tournament=tournament, rank=rank, table_points=Fraction(points), score=score
    )


def test_the_ranking_module_imports_no_django():
    assert_imports_no_django("tournament.rankings.series")


def test_best_two_results_by_table_points_count_and_the_third_does_not():
    results = [
        result(1, 0, 1, 12, 90),
        result(1, 1, 5, 4, -20),
        result(1, 2, 2, 9, 40),
        result(2, 0, 2, 10, 50),
        result(2, 1, 1, Fraction(35, 3), 60),
    ]
    rows = series_ranking(results, Rule(kind="best", counted=2))
    first, second = rows
    # 10 + 11 2/3 beats 12 + 9 (person 1's 4 in the second tournament not counted).
    assert (first.person, first.rank, first.total) == (2, 1, Fraction(65, 3))
    assert (second.person, second.rank, second.total) == (1, 2, Fraction(21))
    counted = {(r.result.tournament, r.counted) for r in second.results}
    assert counted == {(0, True), (1, False), (2, True)}
    # Results listed in the tournaments' order, whatever counted.
    assert [r.result.tournament for r in second.results] == [0, 1, 2]
    assert second.score == 130


def test_every_result_counts_without_a_limit():
    rows = series_ranking(
        [result(1, 0, 1, 4, 10), result(1, 1, 4, 0, -10), result(2, 0, 2, 2, 5)],
        Rule(kind="best"),
    )
    assert [(row.person, row.total, row.score) for row in rows] == [
        (1, Fraction(4), 0),
        (2, Fraction(2), 5),
    ]
    assert all(r.counted for row in rows for r in row.results)


def test_points_by_place_with_a_shared_rank_and_ranks_beyond_the_table():
    rule = Rule(kind="places", counted=2, place_points=(10, 6, 4))
    results = [
        result(1, 0, 1, 12, 80),  # 10
        result(1, 1, 4, 3, -5),  # beyond the table: 0
        result(2, 0, 2, 9, 30),  # shared 2nd: 6 each
        result(3, 0, 2, 9, 30),
        result(2, 1, 1, 11, 70),  # 10
        result(3, 1, 3, 7, 10),  # 4
    ]
    rows = series_ranking(results, rule)
    # 1 and 3 both have 10 points: the counted table points break the tie, 16 against 15.
    assert [(row.person, row.rank, row.total) for row in rows] == [
        (2, 1, 16),
        (3, 2, 10),
        (1, 3, 10),
    ]
    assert (rows[1].table_points, rows[2].table_points) == (16, 15)
    assert [r.place_points for r in rows[0].results] == [6, 10]


def test_a_tie_on_points_goes_to_the_table_points_then_the_score():
    rule = Rule(kind="places", place_points=(5, 3))
    rows = series_ranking(
        [result(1, 0, 1, 10, 40), result(2, 1, 1, 12, 10), result(3, 2, 1, 12, 20)], rule
    )
    assert [row.person for row in rows] == [3, 2, 1]
    assert [row.rank for row in rows] == [1, 2, 3]


def test_people_equal_in_everything_share_a_rank():
    rows = series_ranking(
        [result(7, 0, 1, 4, 10), result(3, 1, 1, 4, 10), result(5, 0, 2, 2, 0)],
        Rule(kind="best"),
    )
    assert [(row.person, row.rank) for row in rows] == [(3, 1), (7, 1), (5, 3)]


def test_among_equal_results_the_better_score_counts():
    rows = series_ranking(
        [result(1, 0, 2, 2, -10), result(1, 1, 2, 2, 25)], Rule(kind="best", counted=1)
    )
    (row,) = rows
    assert row.score == 25
    assert [(r.result.tournament, r.counted) for r in row.results] == [(0, False), (1, True)]


@pytest.mark.parametrize(
    "kwargs", [{"kind": "average"}, {"kind": "best", "counted": 0}], ids=["unknown", "zero"]
)
def test_a_rule_that_cannot_rank_is_refused(kwargs):
    with pytest.raises(ValueError):
        Rule(**kwargs)


def test_no_result_no_row():
    assert series_ranking([], Rule(kind="best", counted=3)) == []
