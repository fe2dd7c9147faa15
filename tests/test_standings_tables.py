"""The standings tables: exact table points text, and sorting by value, not by text.

Rows are built in memory (unsaved players), so these tests need no database.
"""

from fractions import Fraction

import pytest
from django.test import RequestFactory
from django_tables2 import RequestConfig

from tournament.formatting import format_table_points
from tournament.models import Player
from tournament.selectors import StandingRow, TeamRow
from tournament.standings_tables import StandingsTable, TeamStandingsTable


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Fraction(7), "7"),
        (Fraction(0), "0"),
        (Fraction(7, 4), "1.75"),
        (Fraction(1, 2), "0.5"),
        (Fraction(13, 2), "6.5"),
        (Fraction(1, 4), "0.25"),
        (Fraction(7, 3), "7/3"),
        (Fraction(17, 6), "17/6"),
        (Fraction(29, 12), "29/12"),
        (Fraction(-3, 2), "-1.5"),
        (Fraction(-7, 3), "-7/3"),
        (3, "3"),
    ],
)
def test_table_points_are_written_exactly(value, text):
    assert format_table_points(value) == text


def row(number, rank, table_points, score, *, substitute=False, best=None, team=""):
    player = Player(number=number, name=f"Player {number}", team=team, is_substitute=substitute)
    return StandingRow(
        player=player,
        table_points=Fraction(table_points),
        score=score,
        places=[1, 0, 0, 0],
        sessions_played=1 if best is not None else 0,
        best_session=best,
        rank=rank,
    )


# As standings() returns them: ranked players first, substitutes last without a rank.
ROWS = [
    row(1, 1, Fraction(16, 3), 10, best=10),
    row(2, 2, Fraction(9, 2), 30, best=30),
    row(3, 3, Fraction(4), -5, best=-5),
    row(4, 4, Fraction(17, 6), 40, best=40),
    row(5, 5, Fraction(2), 0, best=0),
    row(9, None, Fraction(10, 3), 7, substitute=True, best=7),
    row(10, None, Fraction(0), 0, substitute=True),
]


def sorted_numbers(sort, rows=ROWS):
    request = RequestFactory().get("/", {"sort": sort} if sort else {})
    table = StandingsTable(list(rows))
    RequestConfig(request, paginate=False).configure(table)
    return [r.record.player.number for r in table.rows]


def test_unsorted_table_keeps_the_standings_order():
    assert sorted_numbers(None) == [1, 2, 3, 4, 5, 9, 10]


def test_table_points_sort_by_value_not_text():
    # As text, "10/3" < "16/3" < "17/6" < "2" < "4" < "9/2" would be the order.
    assert sorted_numbers("table_points") == [10, 5, 4, 9, 3, 2, 1]
    assert sorted_numbers("-table_points") == [1, 2, 3, 9, 4, 5, 10]


def test_score_sorts_numerically():
    assert sorted_numbers("-score") == [4, 2, 1, 9, 5, 10, 3]


def test_substitutes_without_rank_sort_last_in_both_directions():
    assert sorted_numbers("rank") == [1, 2, 3, 4, 5, 9, 10]
    assert sorted_numbers("-rank") == [5, 4, 3, 2, 1, 9, 10]


def test_no_best_session_yet_sorts_last():
    assert sorted_numbers("-best_session") == [4, 2, 1, 9, 5, 3, 10]
    assert sorted_numbers("best_session")[-1] == 10


def test_shared_ranks_keep_the_standings_order_when_sorted_by_rank():
    rows = [row(7, 1, 4, 10, best=10), row(3, 1, 4, 10, best=10), row(5, 3, 2, 0, best=0)]
    assert sorted_numbers("rank", rows) == [7, 3, 5]


def test_unknown_sort_column_is_ignored():
    assert sorted_numbers("nonsense") == [1, 2, 3, 4, 5, 9, 10]


def test_cells_show_exact_points_names_and_substitute_mark():
    request = RequestFactory().get("/")
    first = row(1, 1, Fraction(7, 3), 12, best=12)
    first.player.name_zh = "陈静"
    table = StandingsTable([first, row(9, None, Fraction(7, 4), -3, substitute=True, best=-3)])
    RequestConfig(request, paginate=False).configure(table)
    html = table.as_html(request)
    assert "7/3" in html
    assert "1.75" in html
    assert '<span lang="zh-Hans">陈静</span>' in html
    assert "substitute" in html
    cells = [[cell for cell in r] for r in table.rows]
    assert cells[1][0] == ""  # the substitute has no rank


def test_player_name_is_escaped():
    request = RequestFactory().get("/")
    evil = row(1, 1, 1, 0, best=0)
    evil.player.name = "<script>x</script>"
    html = StandingsTable([evil]).as_html(request)
    assert "<script>x</script>" not in html
    assert "&lt;script&gt;" in html


def test_team_table_sorts_by_exact_points_on_its_own_parameter():
    teams = [
        TeamRow("Tigers", ["A", "B"], Fraction(59, 6), 56, rank=1),
        TeamRow("Dragons", ["C", "D"], Fraction(13, 2), 13, rank=2),
        TeamRow("Cranes", ["E"], Fraction(23, 3), -4, rank=3),
    ]
    request = RequestFactory().get("/", {"team-sort": "table_points", "sort": "-score"})
    table = TeamStandingsTable(teams)
    RequestConfig(request, paginate=False).configure(table)
    assert [r.record.team for r in table.rows] == ["Dragons", "Cranes", "Tigers"]
    html = table.as_html(request)
    assert "59/6" in html and "6.5" in html and "A, B" in html


def test_first_click_on_a_number_column_sorts_the_largest_first():
    request = RequestFactory().get("/")
    table = StandingsTable(list(ROWS))
    RequestConfig(request, paginate=False).configure(table)
    assert table.columns["table_points"].order_by_alias.next == "-table_points"
    assert table.columns["score"].order_by_alias.next == "-score"
    assert table.columns["rank"].order_by_alias.next == "rank"
