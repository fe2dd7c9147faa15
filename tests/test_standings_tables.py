"""The standings tables: exact table points text, and sorting by value, not by text.

Rows are built in memory (unsaved players), so these tests need no database.
"""

import re
from datetime import UTC, datetime
from fractions import Fraction

import pytest
from django.http import QueryDict

from tournament.language.formatting import format_table_points
from tournament.models import Player
from tournament.selectors.standings import StandingRow, TeamRow
from tournament.views.standings_tables import StandingsTable, TeamStandingsTable


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


def query(**params) -> QueryDict:
    """The page's query string, as the view passes ``request.GET``."""
    result = QueryDict(mutable=True)
    for name, value in params.items():
        result[name.replace("_", "-")] = value
    return result


def sorted_numbers(sort, rows=ROWS):
    table = StandingsTable(list(rows), query(sort=sort) if sort else None)
    return [r.player.number for r in table.rows]


def body_rows(html):
    """Each body row's cells, tags stripped."""
    body = html.split("<tbody>", 1)[1]
    return [
        [re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", tr)]
        for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", body, flags=re.S)
    ]


def heading(html, label):
    """The ``<th>`` whose link or text is ``label``."""
    (found,) = re.findall(rf"<th(?: [^>]*)?>(?:<a [^>]*>)?{label}(?:</a>)?</th>", html)
    return found


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
    first = row(1, 1, Fraction(7, 3), 12, best=12, team="Tigers")
    first.player.name_zh = "陈静"
    table = StandingsTable([first, row(9, None, Fraction(7, 4), -3, substitute=True, best=-3)])
    html = table.as_html()
    assert html.startswith('<table class="standings">')
    assert '<td class="num">7/3</td>' in html
    assert '<td class="num">1.75</td>' in html
    assert '<span lang="zh-Hans">陈静</span>' in html
    assert '<tr class="substitute">' in html
    assert '<span class="badge">substitute</span>' in html
    assert body_rows(html) == [
        ["1", "1", "Player 1 陈静", "Tigers", "7/3", "12", "1", "0", "0", "0", "1", "12"],
        # The substitute has no rank.
        ["", "9", "Player 9 substitute", "", "1.75", "-3", "1", "0", "0", "0", "1", "-3"],
    ]


def test_headings_are_the_columns_labels():
    html = StandingsTable(ROWS).as_html()
    labels = re.findall(r"<th(?: [^>]*)?>(?:<a [^>]*>)?([^<]*)", html)
    assert labels == [
        "Rank",
        "No.",
        "Player",
        "Team",
        "Table points",
        "Score",
        "1st",
        "2nd",
        "3rd",
        "4th",
        "Sessions",
        "Best session",
    ]
    assert heading(html, "Score").startswith('<th class="num orderable">')
    assert heading(html, "Player").startswith('<th class="orderable">')


def test_withdrawn_player_is_marked():
    gone = row(1, 1, 1, 0, best=0)
    gone.player.withdrawn_at = datetime(2025, 5, 1, 14, 0, tzinfo=UTC)
    html = StandingsTable([gone]).as_html()
    assert '<span class="badge warn">withdrawn</span>' in html


def test_player_name_is_escaped():
    evil = row(1, 1, 1, 0, best=0, team="<b>Team</b>")
    evil.player.name = "<script>x</script>"
    evil.player.name_zh = "<i>zh</i>"
    html = StandingsTable([evil]).as_html()
    assert "<script>" not in html and "<b>" not in html and "<i>" not in html
    assert "&lt;script&gt;x&lt;/script&gt;" in html
    assert "&lt;b&gt;Team&lt;/b&gt;" in html
    assert "&lt;i&gt;zh&lt;/i&gt;" in html


def test_empty_tables_say_so():
    assert "No players registered yet." in StandingsTable([]).as_html()
    assert "No teams." in TeamStandingsTable([]).as_html()


def test_team_table_sorts_by_exact_points_on_its_own_parameter():
    teams = [
        TeamRow("Tigers", ["A", "B"], Fraction(59, 6), 56, rank=1),
        TeamRow("Dragons", ["C", "D"], Fraction(13, 2), 13, rank=2),
        TeamRow("Cranes", ["E"], Fraction(23, 3), -4, rank=3),
    ]
    page_query = query(team_sort="table_points", sort="-score")
    table = TeamStandingsTable(teams, page_query)
    assert [r.team for r in table.rows] == ["Dragons", "Cranes", "Tigers"]
    html = table.as_html()
    assert html.startswith('<table class="team-standings">')
    assert "59/6" in html and "6.5" in html and "A, B" in html
    # The players' sort is not this table's: sorted by the same name, it keeps its order.
    players = StandingsTable(ROWS, query(team_sort="-rank"))
    assert [r.player.number for r in players.rows] == [1, 2, 3, 4, 5, 9, 10]


def test_team_members_do_not_sort():
    teams = [TeamRow("B", ["Z"], Fraction(1), 0, rank=1), TeamRow("A", ["Y"], Fraction(0), 0, 2)]
    table = TeamStandingsTable(teams, query(team_sort="members"))
    assert [r.team for r in table.rows] == ["B", "A"]
    assert heading(table.as_html(), "Members") == "<th>Members</th>"


def test_first_click_on_a_number_column_sorts_the_largest_first():
    table = StandingsTable(list(ROWS))
    first_click = {column.name: table.next_sort(column) for column in table.columns}
    assert first_click == {
        "rank": "rank",
        "number": "number",
        "player": "player",
        "team": "team",
        "table_points": "-table_points",
        "score": "-score",
        "first": "-first",
        "second": "-second",
        "third": "-third",
        "fourth": "-fourth",
        "sessions_played": "-sessions_played",
        "best_session": "-best_session",
    }


def test_heading_links_sort_and_mark_the_current_sort_keeping_other_parameters():
    html = StandingsTable(ROWS, query(sort="-score", team_sort="rank")).as_html()
    # The sorted column is marked and its link turns the sort round.
    assert heading(html, "Score") == (
        '<th class="desc num orderable" aria-sort="descending">'
        '<a href="?sort=score&amp;team-sort=rank">Score</a></th>'
    )
    # Another column's link sorts by it, the other table's sort kept; no mark.
    assert heading(html, "Table points") == (
        '<th class="num orderable"><a href="?sort=-table_points&amp;team-sort=rank">'
        "Table points</a></th>"
    )
    assert html.count("aria-sort") == 1
    ascending = StandingsTable(ROWS, query(sort="rank")).as_html()
    assert heading(ascending, "Rank") == (
        '<th class="asc num orderable" aria-sort="ascending"><a href="?sort=-rank">Rank</a></th>'
    )
    teams = TeamStandingsTable([], query(sort="player", team_sort="-score")).as_html()
    assert '<a href="?sort=player&amp;team-sort=score">Score</a>' in teams
    assert '<a href="?sort=player&amp;team-sort=team">Team</a>' in teams


def test_an_unknown_sort_marks_no_heading():
    html = StandingsTable(ROWS, query(sort="-nonsense")).as_html()
    assert "aria-sort" not in html
    assert '<a href="?sort=-score">Score</a>' in html


def test_a_thousand_rows_render_every_row_to_print():
    rows = [
        row(n, n if n <= 990 else None, Fraction(n % 17, 3), n % 50 - 25, substitute=n > 990)
        for n in range(1, 1001)
    ]
    table = StandingsTable(rows, query(sort="-table_points", page="all"))
    html = table.as_html()
    assert len(body_rows(html)) == 1000
    assert html.count('<tr class="substitute">') == 10
    # Without page=all, one page of 100.
    assert len(body_rows(StandingsTable(rows, query(sort="-table_points")).as_html())) == 100


# ---------------------------------------------------------------- pages of 100 rows

# 250 players, ranked by number: pages of 100, 100 and 50 rows.
MANY = [row(n, n, Fraction(1000 - n), n % 7, best=0) for n in range(1, 251)]


def shown(**params):
    table = StandingsTable(MANY, query(**params))
    return table, [r.player.number for r in table.rows]


def pager_links(html) -> dict[str, str]:
    """The pager's links before the table, text -> query."""
    pager = html.split("<table", 1)[0]
    return {
        re.sub(r"<[^>]+>", "", text): href.replace("&amp;", "&")
        for href, text in re.findall(r'<a href="([^"]*)"[^>]*>(.*?)</a>', pager)
    }


@pytest.mark.parametrize(
    ("page", "numbers", "links"),
    [
        ("1", range(1, 101), {"Next": "?page=2", "All 250": "?page=all"}),
        ("2", range(101, 201), {"Previous": "?page=1", "Next": "?page=3", "All 250": "?page=all"}),
        ("3", range(201, 251), {"Previous": "?page=2", "All 250": "?page=all"}),
    ],
)
def test_each_page_shows_its_hundred_rows_and_links_to_its_neighbours_and_all(page, numbers, links):
    table, shown_numbers = shown(page=page)
    assert shown_numbers == list(numbers)
    html = table.as_html()
    assert f"Page {page} of 3" in html
    assert pager_links(html) == links


def test_without_a_page_the_first_is_shown():
    assert shown()[1] == list(range(1, 101))


def test_all_shows_every_row_and_a_way_back_to_pages():
    table, numbers = shown(page="all")
    assert numbers == list(range(1, 251))
    assert pager_links(table.as_html()) == {"100 a page": "?page=1"}


@pytest.mark.parametrize(("asked", "first"), [("99", 201), ("0", 1), ("-2", 1), ("two", 1)])
def test_a_page_out_of_range_or_unreadable_shows_the_nearest(asked, first):
    assert shown(page=asked)[1][0] == first


def test_pages_follow_the_sort_and_a_new_sort_starts_at_page_one():
    table, numbers = shown(sort="-number", page="2")
    assert numbers == list(range(150, 50, -1))
    html = table.as_html()
    assert pager_links(html)["Next"] == "?sort=-number&page=3"
    # The heading's link sorts anew, from the first page.
    assert 'href="?sort=score"' not in html
    assert re.search(r'<a href="\?sort=-score">', html)


def test_a_table_that_fits_one_page_has_no_pager():
    html = StandingsTable(ROWS).as_html()
    assert "pager" not in html
    assert html.startswith("<table")


def test_sorting_the_teams_keeps_the_players_page():
    teams = [TeamRow("B", ["Z"], Fraction(1), 0, rank=1), TeamRow("A", ["Y"], Fraction(0), 0, 2)]
    html = TeamStandingsTable(teams, query(page="3")).as_html()
    assert 'href="?page=3&amp;team-sort=team"' in html


def test_a_thousand_teams_go_by_pages_of_their_own():
    """A big event's teams table is read by pages on ``team-page``; the players' page stays."""
    teams = [TeamRow(f"Team {n:04}", ["A"], Fraction(2000 - n), 0, rank=n) for n in range(1, 1201)]
    table = TeamStandingsTable(teams, query(page="3", team_page="12"))
    assert [team.team for team in table.rows] == [f"Team {n:04}" for n in range(1101, 1201)]
    html = table.as_html()
    assert "Page 12 of 12" in html
    assert pager_links(html) == {
        "Previous": "?page=3&team-page=11",
        "All 1200": "?page=3&team-page=all",
    }
    assert [team.team for team in TeamStandingsTable(teams).rows][-1] == "Team 0100"
