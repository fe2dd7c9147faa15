"""The organiser's player list as a table: sorted by its headings' links, by pages of 100
(``page=all`` for everyone), and searched by name, number, team or pinyin (the list's other
figures and its personas: test_players.py)."""

from urllib.parse import parse_qs, urlsplit

import pytest
from django.urls import reverse

from tests import html
from tests.web.player_pages import SLUG
from tournament import services, tables

URL = reverse("player_list", args=[SLUG])

# Beside the cast's player 1, Alice of Lyon.
PLAYERS = [
    (2, "张伟", "Shanghai"),
    (3, "Bob Martin", "Paris"),
    (4, "陈静", "上海麻将"),
    (5, "Émile Roux", ""),
]


@pytest.fixture
def listed(cast):
    for number, name, team in PLAYERS:
        services.player_save(tournament=cast.tournament, number=number, name=name, team=team)
    return cast


def shown(response) -> list[int]:
    """The numbers of the players the table shows, in its order (none: the row that says so)."""
    rows = html.table(response.content, "table.players")[1:]
    return [] if rows == [["No player found."]] else [int(row[0]) for row in rows]


def queries(links) -> list[dict[str, list[str]]]:
    return [parse_qs(urlsplit(link.attrs["href"]).query) for link in links]


def table_links(response) -> tuple[list, list]:
    """The table's links: its headings' (sorting) and its pages' (any other link that names
    a page)."""
    page = html.parse(response.content)
    headings = [link for th in page.find("th") for link in th.find("a")]
    pages = [
        link
        for link in page.find("a")
        if "page=" in link.attrs.get("href", "") and all(link is not h for h in headings)
    ]
    return headings, pages


@pytest.mark.parametrize(
    ("sort", "numbers"),
    [
        ("number", [1, 2, 3, 4, 5]),
        ("-number", [5, 4, 3, 2, 1]),
        # As a reader says the names: pinyin for Chinese characters, accents aside.
        ("name", [1, 3, 4, 5, 2]),
        ("-name", [2, 5, 4, 3, 1]),
        # By team, ties by number, no team last (as every table sorts no value).
        ("team", [1, 3, 2, 4, 5]),
    ],
)
def test_the_headings_sort_the_list(listed, sort, numbers):
    assert shown(listed.organiser.get(URL, {"sort": sort})) == numbers


def test_the_headings_are_links_that_sort_and_the_list_starts_by_number(listed):
    response = listed.organiser.get(URL)
    assert shown(response) == [1, 2, 3, 4, 5]
    # A sortable heading is a link.
    headings = {
        heading.text(): heading
        for heading in html.elements(response.content, "th")
        if heading.find("a")
    }
    assert {"No.", "Name", "Team or club", "Country", "Status"} <= set(headings)
    (name_link,) = headings["Name"].find("a")
    assert parse_qs(urlsplit(name_link.attrs["href"]).query) == {"sort": ["name"]}


def test_withdrawn_players_stay_listed_marked_and_sort_last_by_status(listed):
    services.player_withdraw(player=listed.tournament.players.get(number=2))
    response = listed.organiser.get(URL, {"sort": "status"})
    assert shown(response) == [1, 3, 4, 5, 2]
    (withdrawn,) = html.elements(response.content, "tr.withdrawn")
    assert withdrawn.text().startswith("2 张伟")
    assert "Reinstate" in withdrawn.text()


def test_a_long_list_goes_by_pages_keeping_the_sort_and_all_shows_everyone(listed, monkeypatch):
    # Pages of 2 rows for 5 players (100 on the real page); the counts are of everyone.
    monkeypatch.setattr(tables, "PAGE_SIZE", 2)
    second = listed.organiser.get(URL, {"sort": "-number", "page": "2"})
    assert shown(second) == [3, 2]
    assert second.context["summary"].active == 5
    pages = queries(table_links(second)[1])
    assert pages and all(query["sort"] == ["-number"] for query in pages)
    assert {"1", "3"} <= {query["page"][0] for query in pages}
    assert shown(listed.organiser.get(URL, {"page": "all"})) == [1, 2, 3, 4, 5]
    # A page past the last shows the last, as any page that is no number shows the first.
    assert shown(listed.organiser.get(URL, {"page": "9"})) == [5]
    assert shown(listed.organiser.get(URL, {"page": "junk"})) == [1, 2]


@pytest.mark.parametrize(
    ("query", "numbers"),
    [
        ("alice", [1]),  # a name, any case
        ("MARTIN", [3]),  # any part of it
        ("emile", [5]),  # accents aside
        ("3", [3]),  # a number, whole
        ("zhang wei", [2]),  # the pinyin of a Chinese name
        ("cj", [4]),  # its initials
        ("paris", [3]),  # a team
        ("shanghai", [2, 4]),  # a team, or its pinyin
        ("12", []),  # no such number
        ("nobody", []),
    ],
)
def test_the_search_finds_by_name_number_team_and_pinyin(listed, query, numbers):
    response = listed.organiser.get(URL, {"q": query})
    assert shown(response) == numbers
    (box,) = html.elements(response.content, "input[name=q]")
    assert box.attrs["value"] == query
    # The counts stay those of every player.
    assert response.context["summary"].active == 5


def test_a_search_that_finds_nobody_says_so(listed):
    response = listed.organiser.get(URL, {"q": "nobody"})
    assert "No player found." in html.texts(response.content, "td")
    assert html.elements(response.content, "a[href=?]")


def test_the_search_is_kept_in_the_sort_and_page_links_and_the_sort_in_the_search(
    listed, monkeypatch
):
    monkeypatch.setattr(tables, "PAGE_SIZE", 1)
    response = listed.organiser.get(URL, {"q": "shanghai", "sort": "-number"})
    assert shown(response) == [4]
    headings, pages = table_links(response)
    assert headings and pages
    assert all(query["q"] == ["shanghai"] for query in queries(headings + pages))
    (sort,) = html.elements(response.content, "input[name=sort]")
    assert sort.attrs["value"] == "-number"
    (search,) = html.elements(response.content, "form[role=search]")
    assert search.attrs["method"] == "get"
    assert shown(listed.organiser.get(URL, {"q": "shanghai", "sort": "-number", "page": "2"})) == [
        2
    ]


def test_a_tournament_without_players_says_how_to_add_them(cast):
    services.player_withdraw(player=cast.tournament.players.get(number=1))
    cast.tournament.players.all().delete()
    response = cast.organiser.get(URL)
    assert not html.elements(response.content, "table.players")
    assert not html.elements(response.content, "form[role=search]")
    assert any("No players yet" in text for text in html.texts(response.content, "p"))
