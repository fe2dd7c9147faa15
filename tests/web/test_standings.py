"""The public standings page and its Excel download.

Uses the two-session scenario of tests/test_exports.py, whose figures are worked out by
hand there.
"""

import io
import re
from fractions import Fraction

import openpyxl
import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.conftest import download
from tests.test_exports import EXPECTED_STANDINGS, SEATS_2, make_scenario_tournament, records
from tournament import services
from tournament.models import Table
from tournament.views import standings as standings_views

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@pytest.fixture
def cup(db):
    return make_scenario_tournament()


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
    """The cells of each body row of the page's table of that class, tags stripped."""
    html = response.content.decode()
    body = html.split(f'<table class="{css_class}">', 1)[1].split("</table>", 1)[0]
    body = body.split("<tbody>", 1)[1]
    return [
        [re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", tr)]
        for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", body, flags=re.S)
    ]


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
    html = response.content.decode()
    for text in ("16/3", "4.5", "17/6", "1.5", "10/3"):
        assert f">{text}<" in html
    assert "陈静" in html
    assert response.context["tournament"].slug == "standings-cup"


@pytest.mark.django_db
def test_the_page_goes_by_pages_keeping_the_sort_and_shows_all_to_print(clients, monkeypatch):
    # Pages of 3 rows for the 8 players of the scenario (100 on a real page).
    monkeypatch.setattr(standings_views.StandingsTable, "page_size", 3)
    everyone = [number for _, number, *_ in EXPECTED_STANDINGS]
    second = clients["anonymous"].get(page_url(), {"page": "2"})
    assert numbers_in_order(second) == everyone[3:6]
    html = second.content.decode()
    assert "Page 2 of 3" in html
    assert 'href="?page=3" rel="next"' in html
    assert 'href="?page=all"' in html
    by_score = clients["anonymous"].get(page_url(), {"sort": "-score", "page": "3"})
    assert len(numbers_in_order(by_score)) == 2
    assert 'href="?sort=-score&amp;page=2" rel="prev"' in by_score.content.decode()
    printed = clients["anonymous"].get(page_url(), {"page": "all"})
    assert numbers_in_order(printed) == everyone


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
    assert ">59/6<" in response.content.decode()


@pytest.mark.django_db
def test_no_team_standings_without_teams(db):
    tournament = make_scenario_tournament(slug="solo-open", sessions=1)
    for player in tournament.players.all():
        services.player_save(tournament=tournament, player=player, team="")
    response = Client().get(page_url("solo-open"))
    html = response.content.decode()
    assert "Team standings" not in html
    assert "team-standings" not in html


@pytest.mark.django_db
def test_page_links_to_the_workbook_and_shows_the_nav(clients):
    html = clients["organiser"].get(page_url()).content.decode()
    assert f'href="{xlsx_url()}"' in html
    assert f'href="{ema_url()}"' in html
    assert reverse("player_list", args=["standings-cup"]) in html
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
    html = clients["anonymous"].get(page_url(), {"sort": "-score"}).content.decode()
    # The sorted column is marked; its link sorts the other way.
    assert (
        '<th class="desc num orderable" aria-sort="descending"><a href="?sort=score">Score</a></th>'
        in html
    )
    assert '<th class="num orderable"><a href="?sort=-table_points">Table points</a></th>' in html
    assert '<th class="num orderable"><a href="?sort=rank">Rank</a></th>' in html
    # The team table's links keep the players' sort, and its own sort is not marked.
    teams = html.split('<table class="team-standings">', 1)[1]
    assert '<a href="?sort=-score&amp;team-sort=-table_points">Table points</a>' in teams
    assert "aria-sort" not in teams
    assert html.count("aria-sort") == 1


@pytest.mark.django_db
def test_sorting_the_team_table_leaves_the_players_alone(clients):
    response = clients["anonymous"].get(page_url(), {"team-sort": "-rank"})
    assert numbers_in_order(response) == [number for _, number, *_ in EXPECTED_STANDINGS]
    teams = [t[1] for t in table_rows(response, "team-standings")]
    assert teams == ["Dragons", "Tigers"]


@pytest.fixture
def table_builds(monkeypatch):
    """How many times the view built the tables' HTML, rather than reading it from the cache."""
    calls = []
    build = standings_views.standings_tables_html

    def counted(tournament, query):
        calls.append(query.urlencode())
        return build(tournament, query)

    monkeypatch.setattr(standings_views, "standings_tables_html", counted)
    return calls


def player_cells(response, number):
    (cells,) = [cells for cells in table_rows(response) if cells[1] == str(number)]
    return cells


def page_body(response) -> bytes:
    """The page without its CSRF token (the header's language switch posts a form), which
    Django masks afresh for every response."""
    return re.sub(rb'name="csrfmiddlewaretoken" value="[^"]*"', b"", response.content)


# A spectator is served the page kept whole, a signed-in reader a page drawn from the tables
# kept: both until a write.
@pytest.mark.django_db
@pytest.mark.parametrize("reader", ["anonymous", "stranger"])
def test_tables_are_served_from_the_cache_until_a_write(clients, cup, table_builds, reader):
    client = clients[reader]
    first = client.get(page_url())
    assert page_body(client.get(page_url())) == page_body(first)
    assert table_builds == [""]
    # Each sort, and each language, is cached on its own.
    sorted_once = client.get(page_url(), {"sort": "-score"})
    assert page_body(client.get(page_url(), {"sort": "-score"})) == page_body(sorted_once)
    client.get(page_url(), HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert table_builds == ["", "sort=-score", ""]
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
    assert len(table_builds) == 4
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
    # roles) are read: the count of tables not confirmed is kept with the tables.
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
    html = page.content.decode()
    for cells in on_page:
        assert f'<td class="num">{cells[4]}</td>' in html
