"""Series pages: created and changed by their organisers (errors beside the fields), the
ranking and its workbook public, with every persona."""

import io

import openpyxl
import pytest
from django.urls import reverse

from tests import html
from tests.conftest import download, login, make_players, make_user
from tournament import services
from tournament.models import Series


def text(response) -> str:
    """The page's text as a reader sees it."""
    (body,) = html.texts(response.content, "body")
    return body


def form(chosen, **fields):
    data = {
        "name": "Club season",
        "slug": "season",
        "rule": "best",
        "counted_results": "2",
        "place_points": "",
        "tournaments": [str(t.pk) for t in chosen],
    }
    data.update(fields)
    return data


@pytest.fixture
def series(tournament, other_tournament, organiser):
    make_players(tournament, 4)
    make_players(other_tournament, 4)
    services.person_create_for(tournament=tournament, numbers=[1, 2, 3, 4])
    return services.series_save(
        user=organiser,
        tournaments=[tournament, other_tournament],
        name="Club season",
        slug="season",
        rule="best",
        counted_results=2,
        place_points="",
    )


def test_an_organiser_creates_a_series_and_sees_its_ranking(tournament, organiser):
    make_players(tournament, 4)
    services.person_create_for(tournament=tournament, numbers=[1, 2, 3, 4])
    client = login(organiser)
    assert client.get(reverse("series_create")).status_code == 200
    response = client.post(reverse("series_create"), form([tournament]))
    assert response.status_code == 302
    series = Series.objects.get()
    assert list(series.organisers.all()) == [organiser]
    page = client.get(response["Location"])
    shown = text(page)
    assert "each person's best 2 results count" in shown
    assert len(page.context["standing"].rows) == 4
    assert "Player 1" in shown
    home = text(login(None).get(reverse("home")))
    assert "Club season" in home


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"rule": "places", "place_points": ""}, "place_points", "Give the points of places"),
        ({"rule": "places", "place_points": "10, x"}, "place_points", "as whole numbers"),
        ({"rule": "places", "place_points": "5, 10"}, "place_points", "more points than"),
        ({"rule": "places", "place_points": "1234567, 1"}, "place_points", "at most 999999"),
        ({"rule": "places", "place_points": "١٠, 5"}, "place_points", "as whole numbers"),
        ({"counted_results": "0"}, "counted_results", "greater than or equal to 1"),
        ({"rule": "average"}, "rule", "Select a valid choice"),
        ({"tournaments": ["99999999999999"]}, "tournaments", "Select a valid choice"),
        ({"slug": "not a slug"}, "slug", "letters, numbers"),
    ],
)
def test_a_refused_series_says_why_beside_the_field(tournament, organiser, fields, field, message):
    response = login(organiser).post(reverse("series_create"), form([tournament], **fields))
    assert response.status_code == 200
    assert message in " ".join(response.context["form"].errors[field])
    assert not Series.objects.exists()


@pytest.mark.parametrize(
    ("persona", "status"),
    [("organiser", 200), ("referee", 403), ("other_referee", 403), ("anonymous", 302)],
)
def test_only_accounts_that_create_tournaments_create_series(db, personas, persona, status):
    assert personas[persona].get(reverse("series_create")).status_code == status


@pytest.mark.parametrize("persona", ["organiser", "referee", "other_referee", "anonymous"])
def test_the_ranking_and_its_workbook_are_public(series, personas, persona):
    client = personas[persona]
    page = client.get(reverse("series", args=["season"]))
    assert page.status_code == 200
    assert ("Series settings" in text(page)) == (persona == "organiser")
    # The other tournament's 4 players are not linked: said, and not ranked.
    assert "4 ranked players not linked to a person are not in this ranking" in text(page)
    book = openpyxl.load_workbook(
        io.BytesIO(download(client, reverse("series_xlsx", args=["season"])).content)
    )
    assert [sheet.title for sheet in book.worksheets] == ["Ranking", "Results"]
    rows = list(book["Results"].iter_rows(values_only=True))
    assert len(rows) == 1 + 4


@pytest.mark.parametrize(
    ("persona", "status"),
    [("organiser", 200), ("referee", 403), ("other_referee", 403), ("anonymous", 302)],
)
def test_only_the_series_organisers_change_or_delete_it(series, personas, persona, status):
    client = personas[persona]
    assert client.get(reverse("series_edit", args=["season"])).status_code == status
    response = client.post(
        reverse("series_edit", args=["season"]), form([], name="Renamed", rule="places")
    )
    if persona == "organiser":
        # Points by place without a table: refused, nothing saved.
        assert response.status_code == 200
    else:
        assert response.status_code == status if status != 200 else 302
    assert Series.objects.get().name == "Club season"
    response = client.post(reverse("series_delete", args=["season"]))
    assert Series.objects.exists() == (persona != "organiser")


def test_a_change_raises_the_version_and_another_organiser_cannot_touch_it(series, organiser):
    client = login(organiser)
    response = client.post(
        reverse("series_edit", args=["season"]),
        form([], name="Renamed", rule="places", place_points="10, 7, 5", counted_results=""),
    )
    assert response.status_code == 302
    series.refresh_from_db()
    assert (series.name, series.rule, series.counted_results, series.version) == (
        "Renamed",
        "places",
        None,
        2,
    )
    assert list(series.tournaments.all()) == []
    stranger = login(make_user("stranger", can_create=True))
    assert stranger.get(reverse("series_edit", args=["season"])).status_code == 403


def test_an_unknown_series_is_not_found(db):
    assert login(None).get(reverse("series", args=["nothing"])).status_code == 404
    assert login(None).get(reverse("series_xlsx", args=["nothing"])).status_code == 404


def test_the_series_page_in_chinese(series):
    client = login(None)
    client.cookies["django_language"] = "zh-hans"
    shown = text(client.get(reverse("series", args=["season"])))
    assert "Ranked by table points" not in shown


def test_the_ranking_is_a_table_with_a_column_a_tournament_sorted_by_its_headings(
    series, tournament, other_tournament, organiser
):
    # The other tournament's players are the same people: two results each, one counted.
    people = dict(tournament.players.values_list("number", "person_id"))
    services.people_link(tournament=other_tournament, links=sorted(people.items()))
    services.series_save(
        series=series, tournaments=[tournament, other_tournament], counted_results=1
    )
    page = login(None).get(reverse("series", args=["season"]))
    ranking = html.table(page.content, "table.series-ranking")
    assert ranking[0] == [
        "Rank", "Name", "Country", "Table points", "Score",
        f"1. {tournament.name}", f"2. {other_tournament.name}",
    ]  # fmt: skip
    assert ranking[1][:2] == ["1", "Player 1"]
    # Nobody has played: every result is rank 1 with no table points; one of each person's
    # two is not counted, in brackets and greyed.
    (row,) = html.elements(page.content, f"tr#person-{people[1]}")
    results = list(row.find("td"))[-2:]
    assert sorted(cell.text() for cell in results) == ["#1 · 0", "(#1 · 0)"]
    assert sum("not-counted" in cell.classes for cell in results) == 1
    by_name = login(None).get(reverse("series", args=["season"]), {"sort": "-name"})
    assert [row[1] for row in html.table(by_name.content, "table.series-ranking")[1:]] == [
        "Player 4", "Player 3", "Player 2", "Player 1",
    ]  # fmt: skip
