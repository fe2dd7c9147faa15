"""The public standings page and its Excel download.

Uses the two-session scenario of tests/test_exports.py, whose figures are worked out by
hand there.
"""

import io
import re

import openpyxl
import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.test_exports import EXPECTED_STANDINGS, make_scenario_tournament
from tournament import services
from tournament.formatting import format_table_points
from tournament.models import Table

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


def numbers_in_order(response):
    """Player numbers in the order the standings table lists them."""
    return [r.record.player.number for r in response.context["table"].rows]


# ---------------------------------------------------------------- who may see it


@pytest.mark.django_db
@pytest.mark.parametrize("persona", ["anonymous", "stranger", "organiser", "referee"])
@pytest.mark.parametrize("url", [page_url, xlsx_url])
def test_standings_are_public(clients, persona, url):
    assert clients[persona].get(url()).status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("url", [page_url, xlsx_url])
def test_unknown_tournament_is_404(clients, url):
    assert clients["anonymous"].get(url("no-such-cup")).status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("persona", ["anonymous", "organiser"])
@pytest.mark.parametrize("url", [page_url, xlsx_url])
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
    ranks = [r.record.rank for r in response.context["table"].rows]
    assert ranks == [1, 2, 3, 4, 5, 6, 7, None]
    html = response.content.decode()
    for text in ("16/3", "4.5", "17/6", "1.5", "10/3"):
        assert f">{text}<" in html
    assert "陈静" in html
    assert response.context["tournament"].slug == "standings-cup"


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
    teams = [(t.record.rank, t.record.team) for t in response.context["team_table"].rows]
    assert teams == [(1, "Tigers"), (2, "Dragons")]
    assert ">59/6<" in response.content.decode()


@pytest.mark.django_db
def test_no_team_standings_without_teams(db):
    tournament = make_scenario_tournament(slug="solo-open", sessions=1)
    for player in tournament.players.all():
        services.player_save(tournament=tournament, player=player, team="")
    response = Client().get(page_url("solo-open"))
    assert response.context["team_table"] is None
    assert "Team standings" not in response.content.decode()


@pytest.mark.django_db
def test_page_links_to_the_workbook_and_shows_the_nav(clients):
    html = clients["organiser"].get(page_url()).content.decode()
    assert f'href="{xlsx_url()}"' in html
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
    got = [(r.record.player.number, r.record.rank) for r in response.context["table"].rows]
    assert got == [(5, 1), (3, 2), (4, 2), (2, 4), (1, 5), (7, 5), (6, 7), (8, None)]


# ---------------------------------------------------------------- the download


@pytest.mark.django_db
def test_download_is_an_xlsx_attachment_named_after_the_tournament(clients):
    response = clients["anonymous"].get(xlsx_url())
    assert response["Content-Type"] == XLSX
    assert response["Content-Disposition"] == 'attachment; filename="standings-cup-standings.xlsx"'
    workbook = openpyxl.load_workbook(io.BytesIO(response.content))
    assert workbook.sheetnames[0] == "Standings"


@pytest.mark.django_db
def test_standings_sheet_agrees_with_the_page(clients):
    page = clients["anonymous"].get(page_url())
    sheet = openpyxl.load_workbook(io.BytesIO(clients["anonymous"].get(xlsx_url()).content))[
        "Standings"
    ]
    names = [c.value for c in sheet[1]]
    rows = [dict(zip(names, r, strict=True)) for r in sheet.iter_rows(min_row=2, values_only=True)]
    on_page = [r.record for r in page.context["table"].rows]
    assert [r["Number"] for r in rows] == [r.player.number for r in on_page]
    assert [r["Rank"] for r in rows] == [r.rank for r in on_page]
    assert [r["Score"] for r in rows] == [r.score for r in on_page]
    assert [r["Table points (exact)"] for r in rows] == [
        format_table_points(r.table_points) for r in on_page
    ]
    # And the page shows the same text in its table points column.
    html = page.content.decode()
    shown = re.findall(r'<td class="num">([^<]*)</td>', html)
    for text in (r["Table points (exact)"] for r in rows):
        assert text in shown
