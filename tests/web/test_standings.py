"""The public standings page and its Excel download.

Uses the two-session scenario of tests/test_exports.py, whose figures are worked out by
hand there.
"""

import io
import itertools
import re
from fractions import Fraction

import openpyxl
import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests import html
from tests.conftest import download, kept_for_the_module
from tests.test_exports import EXPECTED_STANDINGS, SEATS_2, make_scenario_tournament, records
from tournament import services, tables
from tournament.models import Hand, Table, Tournament
from tournament.selectors.standings import tournament_standings

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@pytest.fixture(scope="module")
def built_cup(django_db_setup, django_db_blocker):
    """The scenario built once for the module (two sessions played through the services,
    for some fifty tests that read it)."""
    with kept_for_the_module(django_db_blocker):
        yield make_scenario_tournament().pk


@pytest.fixture
def cup(built_cup, db):
    return Tournament.objects.get(pk=built_cup)


@pytest.fixture
def clients(cup):
    """Anonymous, a logged-in visitor with no role, the organiser and a referee."""
    stranger = User.objects.create_user(username="stranger", password="x")
    referee = User.objects.create_user(username="cup-referee", password="x")
    cup.referees.add(referee)
    result = {"anonymous": Client()}
    for name, user in [
        ("stranger", stranger),
        ("organiser", cup.organisers.get()),
        ("referee", referee),
    ]:
        client = Client()
        client.force_login(user)
        result[name] = client
    return result


def page_url(slug="standings-cup"):
    return reverse("standings", args=[slug])


def xlsx_url(slug="standings-cup"):
    return reverse("standings_xlsx", args=[slug])


def ema_url(slug="standings-cup"):
    return reverse("ema_xlsx", args=[slug])


def table_rows(response, css_class="standings"):
    """The cells' texts of each body row of the page's table of that class."""
    return html.table(response.content, f"table.{css_class}")[1:]


def numbers_in_order(response):
    """Player numbers in the order the standings table lists them."""
    return [int(cells[1]) for cells in table_rows(response)]


def ranks_in_order(response):
    return [int(cells[0]) if cells[0] else None for cells in table_rows(response)]


# ---------------------------------------------------------------- who may see it


@pytest.mark.django_db
@pytest.mark.parametrize("persona", ["anonymous", "stranger", "organiser", "referee"])
@pytest.mark.parametrize("url", [page_url, xlsx_url, ema_url])
def test_standings_are_public(clients, persona, url):
    assert download(clients[persona], url()).status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("url", [page_url, xlsx_url, ema_url])
def test_unknown_tournament_is_404(clients, url):
    assert clients["anonymous"].get(url("no-such-cup")).status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("persona", ["anonymous", "organiser"])
@pytest.mark.parametrize("url", [page_url, xlsx_url, ema_url])
def test_post_is_not_allowed(clients, persona, url):
    assert clients[persona].post(url()).status_code == 405


@pytest.mark.django_db
def test_head_is_allowed(clients):
    assert clients["anonymous"].head(page_url()).status_code == 200


# ---------------------------------------------------------------- the page


@pytest.mark.django_db
def test_page_lists_players_by_rank_with_exact_points(clients):
    response = clients["anonymous"].get(page_url())
    assert numbers_in_order(response) == [number for _, number, *_ in EXPECTED_STANDINGS]
    assert ranks_in_order(response) == [1, 2, 3, 4, 5, 6, 7, None]
    points = [cells[4] for cells in table_rows(response)]
    for text in ("16/3", "4.5", "17/6", "1.5", "10/3"):
        assert text in points
    assert "陈静" in html.texts(response.content, "table.standings span[lang=zh-Hans]")
    assert response.context["tournament"].slug == "standings-cup"


@pytest.mark.django_db
def test_the_page_goes_by_pages_keeping_the_sort_and_shows_all_to_print(clients, monkeypatch):
    # Pages of 3 rows for the 8 players of the scenario (100 on a real page).
    monkeypatch.setattr(tables, "PAGE_SIZE", 3)
    everyone = [number for _, number, *_ in EXPECTED_STANDINGS]
    second = clients["anonymous"].get(page_url(), {"page": "2"})
    assert numbers_in_order(second) == everyone[3:6]
    (pager, _after) = html.elements(second.content, "nav.pager")
    assert pager.find("[aria-current=page]")[0].text() == "Page 2 of 3"
    assert {a.text(): a.attrs["href"] for a in pager.find("a")} == {
        "Previous": "?page=1",
        "Next": "?page=3",
        "All 8": "?page=all",
    }
    by_score = clients["anonymous"].get(page_url(), {"sort": "-score", "page": "3"})
    assert len(numbers_in_order(by_score)) == 2
    assert html.elements(by_score.content, "nav.pager a[rel=prev]")[0].attrs["href"] == (
        "?sort=-score&page=2"
    )
    printed = clients["anonymous"].get(page_url(), {"page": "all"})
    assert numbers_in_order(printed) == everyone
    assert html.texts(printed.content, "nav.pager a") == ["3 a page", "3 a page"]


@pytest.mark.django_db
def test_page_sorts_by_score_descending(clients):
    response = clients["anonymous"].get(page_url(), {"sort": "-score"})
    # Scores: 5: 40, 3: 32, 4: 24, 2: 13, 1: 0, 8: -25, 7: -32, 6: -62.
    assert numbers_in_order(response) == [5, 3, 4, 2, 1, 8, 7, 6]


@pytest.mark.django_db
def test_page_sorts_by_table_points_value(clients):
    response = clients["anonymous"].get(page_url(), {"sort": "table_points"})
    # 6: 3/2, 2: 2, 7: 17/6, 8: 10/3, 5: 4, then 4 and 1 (9/2, standings order), 3: 16/3.
    assert numbers_in_order(response) == [6, 2, 7, 8, 5, 4, 1, 3]


@pytest.mark.django_db
def test_sorted_by_rank_the_substitute_stays_last(clients):
    response = clients["anonymous"].get(page_url(), {"sort": "-rank"})
    assert numbers_in_order(response) == [6, 2, 7, 5, 1, 4, 3, 8]


@pytest.mark.django_db
def test_page_shows_team_standings(clients):
    response = clients["anonymous"].get(page_url())
    teams = [(int(t[0]), t[1]) for t in table_rows(response, "team-standings")]
    assert teams == [(1, "Tigers"), (2, "Dragons")]
    assert [t[3] for t in table_rows(response, "team-standings")] == ["59/6", "6.5"]


@pytest.mark.django_db
def test_no_team_standings_without_teams(db):
    tournament = make_scenario_tournament(slug="solo-open", sessions=1)
    for player in tournament.players.all():
        services.player_save(tournament=tournament, player=player, team="")
    response = Client().get(page_url("solo-open"))
    page = response.content.decode()
    assert "Team standings" not in page
    assert not html.elements(page, "table.team-standings")


@pytest.mark.django_db
def test_page_links_to_the_workbook_and_shows_the_nav(clients):
    page = clients["organiser"].get(page_url()).content.decode()
    assert html.elements(page, f"a[href='{xlsx_url()}']")
    assert html.elements(page, f"a[href='{ema_url()}']")
    assert reverse("player_list", args=["standings-cup"]) in page
    anonymous = clients["anonymous"].get(page_url()).content.decode()
    assert reverse("player_list", args=["standings-cup"]) not in anonymous


@pytest.mark.django_db
def test_provisional_note_until_every_table_is_confirmed(clients, cup):
    response = clients["anonymous"].get(page_url())
    assert response.context["unconfirmed_tables"] == 1
    assert "Provisional: 1 table is not confirmed yet" in response.content.decode()
    table = Table.objects.get(session__tournament=cup, session__number=2, number=2)
    services.table_confirm(table=table, user=None, record_missing_as_not_played=True)
    response = clients["anonymous"].get(page_url())
    assert "Provisional" not in response.content.decode()


@pytest.mark.django_db
def test_tied_players_share_a_rank_and_the_next_rank_is_skipped(db):
    # After session 1 only: 5 has 4 points; 4 and 3 are equal on everything (3 points,
    # 32, one 1st place, best session 32) and share rank 2; 2 is 4th; 7 and 1 share 5th.
    make_scenario_tournament(slug="tied-open", sessions=1)
    response = Client().get(page_url("tied-open"))
    got = list(zip(numbers_in_order(response), ranks_in_order(response), strict=True))
    assert got == [(5, 1), (3, 2), (4, 2), (2, 4), (1, 5), (7, 5), (6, 7), (8, None)]


# ---------------------------------------------------------------- sorting links and the cache


@pytest.mark.django_db
def test_headings_link_to_their_sort_and_mark_the_current_one(clients):
    page = clients["anonymous"].get(page_url(), {"sort": "-score"}).content

    def heading_links(selector):
        return {a.text(): a.attrs["href"] for a in html.elements(page, f"{selector} thead th a")}

    # The sorted column is marked; its link sorts the other way.
    (marked,) = html.elements(page, "th[aria-sort]")
    assert (marked.text(), marked.attrs["aria-sort"]) == ("Score", "descending")
    players = heading_links("table.standings")
    assert players["Score"] == "?sort=score"
    assert players["Table points"] == "?sort=-table_points"
    assert players["Rank"] == "?sort=rank"
    # The team table's links keep the players' sort, and its own sort is not marked.
    teams = heading_links("table.team-standings")
    assert teams["Table points"] == "?sort=-score&team-sort=-table_points"


@pytest.mark.django_db
def test_sorting_the_team_table_leaves_the_players_alone(clients):
    response = clients["anonymous"].get(page_url(), {"team-sort": "-rank"})
    assert numbers_in_order(response) == [number for _, number, *_ in EXPECTED_STANDINGS]
    teams = [t[1] for t in table_rows(response, "team-standings")]
    assert teams == ["Dragons", "Tigers"]


def player_cells(response, number):
    (cells,) = [cells for cells in table_rows(response) if cells[1] == str(number)]
    return cells


def page_body(response) -> bytes:
    """The page without its CSRF token (the header's language switch posts a form), which
    Django masks afresh for every response."""
    return re.sub(rb'name="csrfmiddlewaretoken" value="[^"]*"', b"", response.content)


# A spectator is served the page kept whole until a write; a signed-in reader, a page drawn
# afresh from the standings of the same version.
@pytest.mark.django_db
@pytest.mark.parametrize("reader", ["anonymous", "stranger"])
def test_the_page_shows_the_same_standings_until_a_write(clients, cup, reader):
    client = clients[reader]
    first = client.get(page_url())
    assert page_body(client.get(page_url())) == page_body(first)
    sorted_once = client.get(page_url(), {"sort": "-score"})
    assert page_body(client.get(page_url(), {"sort": "-score"})) == page_body(sorted_once)
    assert page_body(sorted_once) != page_body(first)
    # Fu Hao (6): -54 in session 1, -8 so far in session 2.
    assert player_cells(first, 6)[4:6] == ["1.5", "-62"]

    # A second hand at the unconfirmed table: 6 self-draws 8 fan, +48 -> -54 - 8 + 48 = -14;
    # 6 now leads the table (40 against 1's 16): 0 + 4 table points.
    table = Table.objects.get(session__tournament=cup, session__number=2, number=2)
    services.hand_record(
        table=table,
        entry=services.HandEntry(number=2, outcome="self_drawn", winner=SEATS_2[6][1], fan=8),
        user=None,
    )
    after = client.get(page_url())
    assert player_cells(after, 6)[4:6] == ["4", "-14"]


@pytest.mark.django_db
@pytest.mark.parametrize("reader", ["anonymous", "stranger"])
def test_a_cached_page_costs_no_standings_queries(clients, django_assert_max_num_queries, reader):
    client = clients[reader]
    with django_assert_max_num_queries(20) as cold:
        client.get(page_url())
    with django_assert_max_num_queries(len(cold) - 1) as warm:
        client.get(page_url())
    # Only the tournament with its versions (and a signed-in reader's session, account and
    # roles, and the count of tables not confirmed) are read: not the seats.
    assert not any("tournament_seat" in q["sql"] for q in warm.captured_queries)


# ---------------------------------------------------------------- the download


@pytest.mark.django_db
def test_download_is_an_xlsx_attachment_named_after_the_tournament(clients):
    response = download(clients["anonymous"], xlsx_url())
    assert response["Content-Type"] == XLSX
    assert response["Content-Disposition"] == 'attachment; filename="standings-cup-standings.xlsx"'
    workbook = openpyxl.load_workbook(io.BytesIO(response.content))
    assert workbook.sheetnames[0] == "Standings"


@pytest.mark.django_db
def test_the_emas_results_are_an_xlsx_attachment_in_english_whatever_the_language(clients):
    response = download(clients["anonymous"], ema_url(), HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response["Content-Type"] == XLSX
    assert response["Content-Disposition"] == 'attachment; filename="standings-cup-ema.xlsx"'
    sheet = openpyxl.load_workbook(io.BytesIO(response.content))["Results"]
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0][:2] == ("Tournament", "Standings Cup")
    header = next(row for row in rows if row[0] == "Place")
    assert header[:3] == ("Place", "Last name", "First name")


@pytest.mark.django_db
def test_standings_sheet_agrees_with_the_page(clients):
    page = clients["anonymous"].get(page_url())
    sheet = openpyxl.load_workbook(io.BytesIO(download(clients["anonymous"], xlsx_url()).content))[
        "Standings"
    ]
    rows = records(sheet)
    on_page = table_rows(page)
    assert [r["Number"] for r in rows] == numbers_in_order(page)
    assert [r["Rank"] for r in rows] == ranks_in_order(page)
    assert [r["Score"] for r in rows] == [int(cells[5]) for cells in on_page]
    # The page writes table points exactly ("16/3", "4.5"); the sheet's exact column holds
    # the same value (as text or as a number shown as a fraction).
    exact = [float(Fraction(str(r["Table points (exact)"]))) for r in rows]
    assert exact == [pytest.approx(float(Fraction(cells[4])), rel=1e-14) for cells in on_page]
    points = html.texts(page.content, "table.standings tbody td.num")[2::10]
    assert points == [cells[4] for cells in on_page]


# ---------------------------------------------------------------- the search


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("chen", [3]),  # a name, or part of it
        ("4", [4]),  # a number
        ("tigers", [3, 4]),  # a team
        ("gaoming", [7]),  # the pinyin of a Chinese name (高明)
        ("zh", [8]),  # the initials of 张慧's pinyin
        ("  Martin ", [1]),  # spaces and case aside
    ],
)
def test_the_search_finds_players_by_name_number_team_or_pinyin(clients, query, found):
    response = clients["anonymous"].get(page_url(), {"q": query})
    assert numbers_in_order(response) == found
    (field,) = html.elements(response.content, "form[role=search] input[name=q]")
    assert field.attrs["value"] == query.strip()


@pytest.mark.django_db
def test_a_found_player_keeps_their_rank_in_the_whole_standings(clients):
    response = clients["anonymous"].get(page_url(), {"q": "dragons"})
    # Alice Martin (1) is 3rd, Bo Li (2) 6th of the whole standings.
    assert [(cells[0], cells[1]) for cells in table_rows(response)] == [("3", "1"), ("6", "2")]


@pytest.mark.django_db
def test_a_search_that_finds_no_one_says_so(clients):
    response = clients["anonymous"].get(page_url(), {"q": "nobody"})
    assert table_rows(response) == [["No player matches “nobody”."]]
    # The teams are not searched.
    assert len(table_rows(response, "team-standings")) == 2


@pytest.mark.django_db
def test_the_search_is_kept_in_the_sort_and_page_links(clients, monkeypatch):
    monkeypatch.setattr(tables, "PAGE_SIZE", 1)
    response = clients["anonymous"].get(page_url(), {"q": "tigers", "sort": "-score", "x": "1"})
    assert numbers_in_order(response) == [3]
    page = response.content
    heading = {a.text(): a.attrs["href"] for a in html.elements(page, "table.standings th a")}
    assert heading["Table points"] == "?q=tigers&sort=-table_points"
    assert heading["Score"] == "?q=tigers&sort=score"
    pager = {a.text(): a.attrs["href"] for a in html.elements(page, "nav.pager")[0].find("a")}
    assert pager == {
        "Next": "?q=tigers&sort=-score&page=2",
        "All 2": "?q=tigers&sort=-score&page=all",
    }
    # The form sends the sort with the next search; "Show everyone" drops the search only.
    (form,) = html.elements(page, "form[role=search]")
    assert [(i.attrs["name"], i.attrs["value"]) for i in form.find("input[type=hidden]")] == [
        ("sort", "-score")
    ]
    assert [a.attrs["href"] for a in form.find("a")] == [page_url() + "?sort=-score"]


@pytest.mark.django_db
def test_a_long_search_is_cut_and_keys_the_kept_page_by_what_is_read(clients):
    long = "tigers" + " " * 10 + "x" * 100
    first = clients["anonymous"].get(page_url(), {"q": long})
    (field,) = html.elements(first.content, "input[name=q]")
    assert field.attrs["value"] == long.strip()[:60]
    # The same search, cut the same, is the same page kept for the spectators.
    again = clients["anonymous"].get(page_url(), {"q": long + "yy"})
    assert page_body(again) == page_body(first)


# ---------------------------------------------------------------- hands won


@pytest.mark.django_db
def test_hands_won_are_shown_where_the_ranking_order_counts_them(clients, cup):
    def headings(response) -> list[str]:
        return html.table(response.content, "table.standings")[0]

    anonymous = clients["anonymous"]
    assert "Hands won" not in headings(anonymous.get(page_url()))
    wins = Hand.objects.filter(table__session__tournament=cup, winner__isnull=False).count()
    assert wins > 0
    services.tournament_update(
        tournament=cup, tiebreak_order="table_points,hands_won", rules_reason="Mahjong Time's"
    )
    cup.refresh_from_db()
    response = anonymous.get(page_url())
    assert headings(response)[-1] == "Hands won"
    rows = tournament_standings(cup)
    shown = {int(cells[1]): int(cells[-1]) for cells in table_rows(response)}
    assert shown == {row.player.number: row.hands_won for row in rows}
    assert sum(shown.values()) == wins
    # Ranked by them after the table points.
    ranked = [row for row in rows if row.rank is not None]
    for above, below in itertools.pairwise(ranked):
        assert (above.table_points, above.hands_won) >= (below.table_points, below.hands_won)
    sheet = openpyxl.load_workbook(io.BytesIO(download(anonymous, xlsx_url()).content))
    assert {r["Number"]: r["Hands won"] for r in records(sheet["Standings"])} == shown
    api = anonymous.get(f"/api/v1/tournaments/{cup.slug}/standings").json()["items"]
    assert {item["player"]: item["hands_won"] for item in api} == shown
