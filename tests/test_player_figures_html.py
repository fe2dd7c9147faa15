"""A player's figures and rank chart as their page shows them (``statistics/_player.html``,
``statistics/_rank_chart.html``): each figure in its cell, plurals, the name shown as written,
the chart's coordinates as the SVG reads them and the same ranks as a table."""

from types import SimpleNamespace

from django.template.loader import render_to_string
from django.utils import translation

from tests.html import parse
from tournament.hall import statistics

PLAYER = SimpleNamespace(name="Ann <the Bold>")


def figures(**changes):
    values = {
        "hands_played": 30,
        "self_drawn": 3,
        "discard_wins": 2,
        "deal_ins": 4,
        "fan_sum": 61,
        "biggest": statistics.WinningHand(
            session=2,
            table=7,
            number=11,
            outcome="self_drawn",
            fan=24,
            flowers=1,
            player=1,
            fans=None,
        ),
        "penalties": 1,
        "penalty_points": 30,
    }
    return statistics.PlayerStatistics(**{**values, **changes})


def record(stats, ranks=((1, 5), (2, None), (3, 2))):
    ranked = [(session, rank) for session, rank in ranks]
    return SimpleNamespace(
        statistics=stats, ranks=tuple(ranks), chart=statistics.rank_chart(ranked, 12)
    )


def player_figures(record, player):
    """The figures' part of the player's page, parsed."""
    return parse(render_to_string("statistics/_player.html", {"record": record, "player": player}))


def cell(page, name: str) -> str:
    return page.one(f"td#stat-{name}").text()


def test_each_figure_is_in_its_cell():
    page = player_figures(record(figures()), PLAYER)
    assert page.one("h2#statistics")
    assert cell(page, "hands-played") == "30"
    assert cell(page, "wins") == "5"
    assert cell(page, "deal-ins") == "4"
    assert cell(page, "win-rate") == f"{figures().win_rate}%"
    assert cell(page, "average-fan") == str(figures().average_fan)
    biggest = page.one("td#stat-biggest")
    assert biggest.one("strong").text() == "25 fan"
    assert biggest.text() == (
        "25 fan (24 + 1 flower), session 2, table 7, hand 11 (Win by self-draw)"
    )
    # The rank after the last session; a session the player was not ranked after says so.
    assert cell(page, "rank") == "2"
    assert "Rank after session 3" in [th.text() for th in page.find("th[scope=row]")]
    ranks = page.one("table.visually-hidden")
    assert [[td.text() for td in tr.find("td")] for tr in ranks.find("tbody tr")] == [
        ["1", "5"],
        ["2", "not ranked"],
        ["3", "2"],
    ]
    assert cell(page, "penalties") == "1 penalty, 30 points paid"


def test_plurals_and_a_player_without_hands():
    page = player_figures(record(figures(penalties=2, biggest=None), ((1, 4),)), PLAYER)
    assert cell(page, "penalties") == "2 penalties, 30 points paid"
    assert cell(page, "biggest") == "–"
    empty = player_figures(
        SimpleNamespace(statistics=figures(hands_played=0), ranks=((1, None),), chart=None),
        PLAYER,
    )
    assert empty.one("p.muted").text() == "No hand played yet."
    assert not [e for e in empty.find("[id]") if e.attrs["id"].startswith("stat-")]
    assert not empty.find("svg")


def test_the_chart_names_the_player_as_written_and_places_each_rank():
    page = player_figures(record(figures()), PLAYER)
    chart = page.one("svg")
    assert chart.one("title#rank-chart-title").text() == (
        "Rank of Ann <the Bold> after each session, rank 1 at the top"
    )
    points = chart.find("circle.rank-point")
    assert [(p.attrs["data-session"], p.attrs["data-rank"]) for p in points] == [
        ("1", "5"),
        ("3", "2"),
    ]
    # Coordinates as the SVG reads them, with a point, also where numbers are written with a
    # decimal comma (French formats).
    coordinates = [p.attrs["cy"] for p in points]
    assert any("." in each for each in coordinates)
    with translation.override("fr"):
        french = player_figures(record(figures()), PLAYER)
    assert [p.attrs["cy"] for p in french.find("circle.rank-point")] == coordinates
    assert "out of 12 ranked players" in page.one("figcaption").text()
