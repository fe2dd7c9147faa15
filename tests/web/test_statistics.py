"""The statistics pages: the tournament's (``/t/<slug>/statistics/``) and the figures and rank
chart on a player's page, on the example tournament of ``tests/statistics_example.py``."""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from tests import html as reader
from tests.conftest import kept_for_the_module, login, make_user
from tests.statistics_example import (
    EXPECTED_BIGGEST,
    EXPECTED_PLAYERS,
    EXPECTED_RANKS,
    EXPECTED_WINDS,
    SUBSTITUTE,
    build_example,
)
from tournament.models import Tournament


@pytest.fixture(scope="module")
def built_example(django_db_setup, django_db_blocker):
    """The example tournament, its organiser and its referee built once for the module (three
    sessions drawn, seated and played through the services, for tests that read them)."""
    with kept_for_the_module(django_db_blocker):
        organiser = make_user("organiser", can_create=True)
        referee = make_user("referee")
        tournament = build_example(organiser=organiser)
        tournament.referees.add(referee)
        yield {"tournament": tournament.pk, "organiser": organiser.pk, "referee": referee.pk}


@pytest.fixture
def organiser(built_example, db):
    return User.objects.get(pk=built_example["organiser"])


@pytest.fixture
def referee(built_example, db):
    return User.objects.get(pk=built_example["referee"])


@pytest.fixture
def example(built_example, db):
    return Tournament.objects.get(pk=built_example["tournament"])


def statistics_url(tournament) -> str:
    return reverse("statistics", args=[tournament.slug])


def player_url(tournament, number) -> str:
    return reverse("player_schedule", args=[tournament.slug, number])


def rows_of(html: str, css_class: str) -> list[list[str]]:
    """Each body row of the table with ``css_class``: its data cells' texts."""
    table = reader.one(html, f"table.{css_class}")
    return [[cell.text() for cell in row.find("td")] for row in table.find("tbody tr")]


@pytest.mark.parametrize("persona", ["organiser", "referee", "other_referee", "anonymous"])
def test_everyone_reads_the_statistics_page(example, personas, persona):
    response = personas[persona].get(statistics_url(example))
    assert response.status_code == 200
    assert "Biggest hands" in reader.text(response.content)


def test_the_statistics_page_only_answers_reads(example, personas):
    assert personas["anonymous"].post(statistics_url(example)).status_code == 405
    assert login(None).get(reverse("statistics", args=["no-such-cup"])).status_code == 404


def test_the_tournament_page_and_the_standings_link_to_the_statistics(example):
    client = login(None)
    for page in ("tournament", "standings"):
        html = client.get(reverse(page, args=[example.slug])).content.decode()
        assert reader.elements(html, f"a[href='{statistics_url(example)}']")


def test_the_page_shows_the_figures_of_the_hands(example):
    html = login(None).get(statistics_url(example)).content.decode()
    biggest = rows_of(html, "biggest-hands")
    shown = [
        (int(fan.split()[0]), int(player.split()[0]), int(session), int(table), int(number))
        for fan, player, session, table, number, _result, _fans in biggest
    ]
    assert shown == EXPECTED_BIGGEST
    # The typed hand's fans as the calculator counts them; the claimed hand's as claimed.
    assert biggest[4][6] == "Mixed Straight, Seat Wind, Concealed Hand, Single Wait"
    assert biggest[5][6] == "All Pungs, Half Flush"
    assert biggest[0][6] == "–"
    # 24 fan and a flower.
    assert biggest[1][0] == "25 (24 + 1 flower)"
    winds = {row[0]: (int(row[1]), int(row[2])) for row in rows_of(html, "wind-wins")}
    assert winds == {
        "East": EXPECTED_WINDS["E"],
        "South": EXPECTED_WINDS["S"],
        "West": EXPECTED_WINDS["W"],
        "North": EXPECTED_WINDS["N"],
    }
    fans = rows_of(html, "frequent-fans")
    assert fans[0] == ["Mixed Straight", "8", "2", "66.7%"]  # 2 of the 3 hands with fans
    sources = reader.texts(html, "#fan-sources li")
    # 2 hands typed, 1 claimed, the other 9 of the 12 wins with a total only.
    assert [item.split(":")[-1].strip() for item in sources] == [
        "2",
        "1",
        "9",
    ]
    assert rows_of(html, "session-figures")[0] == [
        "1",
        "2",
        "8",
        "4.0",
        "6",
        "2",
        "26.0",
        "33.3%",
    ]


def test_fan_names_are_chinese_on_a_chinese_page(example):
    client = login(None)
    html = client.get(statistics_url(example), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert rows_of(html, "biggest-hands")[4][6] == "花龙、门风刻、门前清、单钓将"
    assert "Mixed Straight" not in reader.text(html)
    assert [row[0] for row in rows_of(html, "frequent-fans")][:2] == ["花龙", "门前清"]
    player = client.get(player_url(example, 2), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "花龙、门风刻、门前清、单钓将" in reader.text(player)
    # The same page in English afterwards: the cached figures hold keys, not names.
    english = client.get(player_url(example, 2)).content
    assert "Mixed Straight, Seat Wind" in reader.text(english)


def chart_points(html: str) -> list[tuple[int, int, float]]:
    """(session, rank, cy) of each point of the rank chart."""
    return [
        (int(point.attrs["data-session"]), int(point.attrs["data-rank"]), float(point.attrs["cy"]))
        for point in reader.elements(html, "svg circle.rank-point")
    ]


@pytest.mark.parametrize("number", [1, 4, 8])
def test_the_player_page_charts_the_rank_after_each_session(example, number):
    html = login(None).get(player_url(example, number)).content.decode()
    points = chart_points(html)
    assert [(session, rank) for session, rank, _cy in points] == list(
        zip((1, 2, 3), EXPECTED_RANKS[number], strict=True)
    )
    # Rank 1 on top: a better rank is drawn higher (a smaller y), an equal one as high.
    for _s, rank, cy in points:
        for _t, other, other_cy in points:
            assert (rank < other) == (cy < other_cy)
    chart = reader.one(html, "svg")
    assert chart.attrs["viewbox"] == "0 0 640 220" and chart.attrs["role"] == "img"
    title = chart.one("title#rank-chart-title").text()
    assert title.startswith(f"Rank of Player {number} after each session")
    hidden = rows_of(html, "visually-hidden")
    assert hidden == [[str(s), str(r)] for s, r in enumerate(EXPECTED_RANKS[number], start=1)]


def test_the_player_page_shows_the_players_figures(example):
    html = login(None).get(player_url(example, 5)).content.decode()
    played, self_drawn, discard, deal_ins, rate, deal_in_rate, average, _big, _n, _p = (
        EXPECTED_PLAYERS[5]
    )

    def cell(name):
        return reader.one(html, f"td#stat-{name}").text()

    assert cell("hands-played") == str(played)
    assert cell("wins") == str(self_drawn + discard)
    assert (cell("self-drawn"), cell("discard-wins")) == (str(self_drawn), str(discard))
    assert cell("deal-ins") == str(deal_ins)
    assert (cell("win-rate"), cell("deal-in-rate")) == (f"{rate}%", f"{deal_in_rate}%")
    assert cell("average-fan") == average
    assert (
        cell("biggest") == "19 fan (16 + 3 flowers), session 2, table 1, hand 2 (Win on a discard)"
    )
    assert cell("penalties") == "0"
    assert cell("rank") == str(EXPECTED_RANKS[5][-1])
    html = login(None).get(player_url(example, 3)).content.decode()
    assert cell("penalties") == "1 penalty, 30 points paid"


def test_a_substitute_who_never_played_has_no_chart(example):
    html = login(None).get(player_url(example, SUBSTITUTE)).content.decode()
    assert "No hand played yet." in reader.text(html)
    assert not reader.elements(html, "svg")
