"""The data tables (``tournament.tables``): the standings' sorting by value, not by text,
empty values last both ways, pages of 100 rows and *All*, each table on its own parameters,
the project's template (headings, aria-sort, the pager), and a player's sessions (links,
badges, the seat replaced and the plan's seats to be filled, names escaped), read through
the HTML parser.

Rows are built in memory (unsaved players), so these tests need no database.
"""

from collections.abc import Sequence
from fractions import Fraction

import pytest
from django.test import RequestFactory

from tests import html
from tournament import tables as tables_module
from tournament.language.formatting import format_table_points
from tournament.models import Player
from tournament.selectors.seating import ListedPlayer, Numbered, PlannedSeat, PlayerSeat
from tournament.selectors.standings import StandingRow, TeamRow
from tournament.tables import page_value, paginate, sort_value
from tournament.tables.seating import PlannedSessionsTable, PlayerSessionsTable
from tournament.tables.standings import StandingsTable, TeamStandingsTable


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


# As the standings give them: ranked players first, substitutes last without a rank.
ROWS = [
    row(1, 1, Fraction(16, 3), 10, best=10),
    row(2, 2, Fraction(9, 2), 30, best=30),
    row(3, 3, Fraction(4), -5, best=-5),
    row(4, 4, Fraction(17, 6), 40, best=40),
    row(5, 5, Fraction(2), 0, best=0),
    row(9, None, Fraction(10, 3), 7, substitute=True, best=7),
    row(10, None, Fraction(0), 0, substitute=True),
]


def drawn(table_class, rows, query=""):
    """The table sorted and paged as the query asks, and its HTML."""
    request = RequestFactory().get("/standings/" + query)
    table = paginate(request, table_class(rows))
    return table, table.as_html(request)


def numbers(query="", rows=ROWS):
    page = drawn(StandingsTable, rows, query)[1]
    return [int(cells[1]) for cells in html.table(page, "table.standings")[1:]]


def test_unsorted_table_keeps_the_standings_order():
    assert numbers() == [1, 2, 3, 4, 5, 9, 10]


def test_table_points_sort_by_value_not_text():
    # As text, "10/3" < "16/3" < "17/6" < "2" < "4" < "9/2" would be the order.
    assert numbers("?sort=table_points") == [10, 5, 4, 9, 3, 2, 1]
    assert numbers("?sort=-table_points") == [1, 2, 3, 9, 4, 5, 10]


def test_score_sorts_numerically():
    assert numbers("?sort=-score") == [4, 2, 1, 9, 5, 10, 3]


def test_substitutes_without_rank_sort_last_in_both_directions():
    assert numbers("?sort=rank") == [1, 2, 3, 4, 5, 9, 10]
    assert numbers("?sort=-rank") == [5, 4, 3, 2, 1, 9, 10]


def test_no_best_session_yet_sorts_last():
    assert numbers("?sort=-best_session") == [4, 2, 1, 9, 5, 3, 10]
    assert numbers("?sort=best_session")[-1] == 10


def test_shared_ranks_keep_the_standings_order_both_ways():
    rows = [row(7, 1, 4, 10, best=10), row(3, 1, 4, 10, best=10), row(5, 3, 2, 0, best=0)]
    assert numbers("?sort=rank", rows) == [7, 3, 5]
    assert numbers("?sort=-rank", rows) == [5, 7, 3]


def test_an_unknown_sort_is_ignored_and_marks_no_heading():
    page = drawn(StandingsTable, ROWS, "?sort=-nonsense")[1]
    assert numbers("?sort=-nonsense") == [1, 2, 3, 4, 5, 9, 10]
    assert not html.elements(page, "th[aria-sort]")
    assert sort_value(StandingsTable)("-nonsense") is None
    assert sort_value(StandingsTable)("-score") == "-score"
    assert sort_value(TeamStandingsTable)("members") is None


def test_the_given_rows_are_not_reordered():
    rows = list(ROWS)
    drawn(StandingsTable, rows, "?sort=score")
    assert rows == ROWS


def test_cells_show_exact_points_names_badges_and_the_substitute_row():
    first = row(1, 1, Fraction(7, 3), 12, best=12, team="Tigers")
    first.player.name_zh = "陈静"
    page = drawn(
        StandingsTable, [first, row(9, None, Fraction(7, 4), -3, substitute=True, best=-3)]
    )[1]
    assert html.table(page, "table.standings")[1:] == [
        ["1", "1", "Player 1 陈静", "Tigers", "7/3", "12", "1", "0", "0", "0", "1", "12"],
        # The substitute has no rank.
        ["", "9", "Player 9 substitute", "", "1.75", "-3", "1", "0", "0", "0", "1", "-3"],
    ]
    assert html.texts(page, "td span[lang=zh-Hans]") == ["陈静"]
    assert html.texts(page, "tr.substitute td.num")[:2] == ["", "9"]
    assert html.texts(page, "span.badge") == ["substitute"]


def test_headings_are_the_columns_labels_with_their_scope():
    page = drawn(StandingsTable, ROWS)[1]
    assert html.texts(page, "thead th[scope=col]") == [
        "Rank", "No.", "Player", "Team", "Table points", "Score",
        "1st", "2nd", "3rd", "4th", "Sessions", "Best session",
    ]  # fmt: skip
    assert html.texts(page, "caption") == ["Standings"]
    (score,) = [th for th in html.elements(page, "th") if th.text() == "Score"]
    assert {"num", "orderable"} <= score.classes


def test_a_withdrawn_player_is_marked_and_names_are_escaped():
    gone = row(1, 1, 1, 0, best=0, team="<b>Team</b>")
    gone.player.name = "<script>x</script>"
    gone.player.withdrawn_at = "2025-05-01"
    page = drawn(StandingsTable, [gone])[1]
    assert html.texts(page, "span.badge.warn") == ["withdrawn"]
    assert not html.elements(page, "script") and not html.elements(page, "b")
    assert html.table(page, "table.standings")[1][2:4] == [
        "<script>x</script> withdrawn",
        "<b>Team</b>",
    ]


def test_empty_tables_say_so():
    assert html.texts(drawn(StandingsTable, [])[1], "tbody td") == ["No players registered yet."]
    assert html.texts(drawn(TeamStandingsTable, [])[1], "tbody td") == ["No teams."]


TEAMS = [
    TeamRow("Tigers", ["A", "B"], Fraction(59, 6), 56, rank=1),
    TeamRow("Dragons", ["C", "D"], Fraction(13, 2), 13, rank=2),
    TeamRow("Cranes", ["E"], Fraction(23, 3), -4, rank=3),
]


def test_the_team_table_sorts_by_exact_points_on_its_own_parameter():
    page = drawn(TeamStandingsTable, TEAMS, "?team-sort=table_points&sort=-score")[1]
    assert html.table(page, "table.team-standings")[1:] == [
        ["2", "Dragons", "C, D", "6.5", "13"],
        ["3", "Cranes", "E", "23/3", "-4"],
        ["1", "Tigers", "A, B", "59/6", "56"],
    ]
    # The players' table is not sorted by the teams' parameter.
    assert numbers("?team-sort=-rank") == [1, 2, 3, 4, 5, 9, 10]


def test_team_members_do_not_sort():
    page = drawn(TeamStandingsTable, TEAMS, "?team-sort=members")[1]
    assert [cells[1] for cells in html.table(page, "table")[1:]] == ["Tigers", "Dragons", "Cranes"]
    (members,) = [th for th in html.elements(page, "th") if th.text() == "Members"]
    assert not members.find("a")


def links(page, selector="thead th a") -> dict[str, str]:
    return {a.text(): a.attrs["href"] for a in html.elements(page, selector)}


def test_a_headings_first_click_sorts_numbers_the_largest_first_but_rank_and_number():
    assert links(drawn(StandingsTable, ROWS)[1]) == {
        "Rank": "?sort=rank",
        "No.": "?sort=number",
        "Player": "?sort=player",
        "Team": "?sort=team",
        "Table points": "?sort=-table_points",
        "Score": "?sort=-score",
        "1st": "?sort=-first",
        "2nd": "?sort=-second",
        "3rd": "?sort=-third",
        "4th": "?sort=-fourth",
        "Sessions": "?sort=-sessions_played",
        "Best session": "?sort=-best_session",
    }


def test_the_sorted_heading_says_its_order_and_turns_it_round_keeping_other_parameters():
    page = drawn(StandingsTable, ROWS, "?sort=-score&team-sort=rank")[1]
    (sorted_by,) = html.elements(page, "th[aria-sort]")
    assert sorted_by.text() == "Score" and sorted_by.attrs["aria-sort"] == "descending"
    assert "desc" in sorted_by.classes
    found = links(page)
    assert found["Score"] == "?sort=score&team-sort=rank"
    assert found["Table points"] == "?sort=-table_points&team-sort=rank"
    ascending = drawn(StandingsTable, ROWS, "?sort=rank")[1]
    assert html.elements(ascending, "th[aria-sort=ascending]")[0].text() == "Rank"
    assert links(ascending)["Rank"] == "?sort=-rank"


# ---------------------------------------------------------------- pages of 100 rows

# 250 players, ranked by number: pages of 100, 100 and 50 rows.
MANY = [row(n, n, Fraction(1000 - n), n % 7, best=0) for n in range(1, 251)]


def pager_links(page) -> dict[str, str]:
    """The first pager's links, text -> address (the pager after the table says the same)."""
    pagers = html.elements(page, "nav.pager")
    assert len(pagers) == 2 and pagers[0].text() == pagers[1].text()
    assert "no-print" in pagers[0].classes
    return {a.text(): a.attrs["href"] for a in pagers[0].find("a")}


@pytest.mark.parametrize(
    ("page", "shown", "found"),
    [
        ("1", range(1, 101), {"Next": "?page=2", "All 250": "?page=all"}),
        ("2", range(101, 201), {"Previous": "?page=1", "Next": "?page=3", "All 250": "?page=all"}),
        ("3", range(201, 251), {"Previous": "?page=2", "All 250": "?page=all"}),
    ],
)
def test_each_page_shows_its_hundred_rows_and_links_to_its_neighbours_and_all(page, shown, found):
    drawn_page = drawn(StandingsTable, MANY, f"?page={page}")[1]
    assert numbers(f"?page={page}", MANY) == list(shown)
    assert html.texts(drawn_page, "nav.pager [aria-current=page]")[0] == f"Page {page} of 3"
    assert pager_links(drawn_page) == found


def test_without_a_page_the_first_is_shown():
    assert numbers("", MANY) == list(range(1, 101))


def test_all_shows_every_row_and_a_way_back_to_pages():
    page = drawn(StandingsTable, MANY, "?page=all")[1]
    assert numbers("?page=all", MANY) == list(range(1, 251))
    assert pager_links(page) == {"100 a page": "?page=1"}


class CountedRows(Sequence):
    """Rows built when read, as the cached standings build them: counts those built."""

    def __init__(self, rows):
        self.rows = rows
        self.built = 0

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, index):
        found = self.rows[index]
        self.built += len(found) if isinstance(index, slice) else 1
        return found


def test_a_page_builds_only_its_rows_unless_the_table_is_sorted():
    rows = CountedRows(MANY)
    assert numbers("?page=2", rows) == list(range(101, 201))
    assert rows.built == 100
    # Sorted, every row is read (and the rows given stay in their order).
    rows = CountedRows(MANY)
    assert numbers("?sort=-number", rows)[:2] == [250, 249]
    assert rows.built == 250 and rows.rows == MANY


@pytest.mark.parametrize(("asked", "first"), [("99", 201), ("0", 1), ("-2", 1), ("two", 1)])
def test_a_page_out_of_range_or_unreadable_shows_the_nearest(asked, first):
    assert numbers(f"?page={asked}", MANY)[0] == first


@pytest.mark.parametrize(("asked", "kept"), [("all", "all"), ("7", "7"), ("007", "7"),
                                             ("999", "200"), ("junk", None)])  # fmt: skip
def test_the_page_parameter_is_kept_as_it_reads(asked, kept):
    assert page_value(asked) == kept


def test_pages_follow_the_sort_and_a_new_sort_starts_at_page_one():
    page = drawn(StandingsTable, MANY, "?sort=-number&page=2")[1]
    assert numbers("?sort=-number&page=2", MANY) == list(range(150, 50, -1))
    assert pager_links(page)["Next"] == "?sort=-number&page=3"
    assert links(page)["Score"] == "?sort=-score"


def test_a_table_that_fits_one_page_has_no_pager():
    assert not html.elements(drawn(StandingsTable, ROWS)[1], "nav.pager")


def test_the_page_size_is_the_modules():
    assert tables_module.PAGE_SIZE == 100


def test_a_thousand_teams_go_by_pages_of_their_own():
    teams = [TeamRow(f"Team {n:04}", ["A"], Fraction(2000 - n), 0, rank=n) for n in range(1, 1201)]
    page = drawn(TeamStandingsTable, teams, "?page=3&team-page=12")[1]
    assert [cells[1] for cells in html.table(page, "table")[1:]] == [
        f"Team {n:04}" for n in range(1101, 1201)
    ]
    assert pager_links(page) == {
        "Previous": "?page=3&team-page=11",
        "All 1200": "?page=3&team-page=all",
    }


def test_sorting_the_teams_keeps_the_players_page():
    page = drawn(TeamStandingsTable, TEAMS, "?page=3")[1]
    assert links(page)["Team"] == "?page=3&team-sort=team"


# ---------------------------------------------------------------- a player's sessions

BO = ListedPlayer(14, "Bo <Li>", is_substitute=True)
ANN = ListedPlayer(3, "Ann", withdrawn=True)


def sessions_page(table) -> str:
    return table.as_html(RequestFactory().get("/"))


def test_a_drawn_session_links_its_seating_and_the_opponents_with_their_badges():
    seat = PlayerSeat(
        Numbered(2), Numbered(7), 1, [("P1", BO), ("P3", ANN)], replaces=ListedPlayer(9, "Cy & Co")
    )
    page = sessions_page(PlayerSessionsTable([seat], slug="open"))
    (row,) = html.elements(page, "tbody tr#session-2")
    assert [cell.text() for cell in row.find("td")] == [
        "2",
        "7",
        "P2 (South) replaces 9 Cy & Co",
        "P1: 14 Bo <Li> substitute · P3: 3 Ann withdrawn",
    ]
    assert [a.attrs["href"] for a in row.find("a")] == [
        "/t/open/seating/2/",
        "/t/open/players/14/",
        "/t/open/players/3/",
    ]
    assert html.texts(page, "small.replaces") == ["replaces 9 Cy & Co"]
    assert html.texts(page, "span.badge.warn.withdrawn") == ["withdrawn"]
    assert not html.elements(page, "li")


def test_a_planned_session_shows_a_withdrawn_opponents_seat_as_to_be_filled():
    planned = PlannedSeat(session=5, table=12, seat=3, opponents=[("P1", BO), ("P2", None)])
    page = sessions_page(PlannedSessionsTable([planned], slug="open"))
    (row,) = html.elements(page, "tbody tr#planned-5")
    assert [cell.text() for cell in row.find("td")] == [
        "5",
        "12",
        "P4",
        "P1: 14 Bo <Li> · P2: seat to be filled",
    ]
    # The plan's opponents carry no badges; a seat left by a withdrawal is to be filled.
    assert html.texts(page, "span.to-be-filled") == ["seat to be filled"]
    assert not html.elements(page, ".badge")
