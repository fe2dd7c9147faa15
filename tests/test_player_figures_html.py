"""A player's figures and rank chart as their page shows them (``player_figures``), written in
Python: each figure in its cell, plurals, the name escaped, the chart's coordinates as the SVG
reads them and the same ranks as a table."""

import re
from types import SimpleNamespace

from django.utils import translation

from tournament.hall import statistics
from tournament.templatetags.player_figures import player_figures

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


def cell(html: str, name: str) -> str:
    return re.search(rf'id="stat-{name}">(.*?)</td>', html, re.S).group(1)


def test_each_figure_is_in_its_cell():
    html = player_figures(record(figures()), PLAYER)
    assert cell(html, "hands-played") == "30"
    assert cell(html, "wins") == "5"
    assert cell(html, "deal-ins") == "4"
    assert cell(html, "win-rate") == f"{figures().win_rate}%"
    assert cell(html, "average-fan") == figures().average_fan
    biggest = " ".join(cell(html, "biggest").split())
    assert (
        biggest
        == "<strong>25 fan</strong> (24 + 1 flower), session 2, table 7, hand 11 (Win by self-draw)"
    )
    # The rank after the last session; a session the player was not ranked after says so.
    assert cell(html, "rank") == "2"
    assert "Rank after session 3" in html
    assert "<tr><td>2</td><td>not ranked</td></tr>" in html
    assert cell(html, "penalties") == "1 penalty, 30 points paid"


def test_plurals_and_a_player_without_hands():
    html = player_figures(record(figures(penalties=2, biggest=None), ((1, 4),)), PLAYER)
    assert cell(html, "penalties") == "2 penalties, 30 points paid"
    assert cell(html, "biggest") == "–"
    empty = player_figures(
        SimpleNamespace(statistics=figures(hands_played=0), ranks=((1, None),), chart=None),
        PLAYER,
    )
    assert "No hand played yet." in empty
    assert "stat-" not in empty and "<svg" not in empty


def test_the_chart_names_the_player_escaped_and_places_each_rank():
    html = player_figures(record(figures()), PLAYER)
    assert "Rank of Ann &lt;the Bold&gt; after each session" in html
    points = re.findall(r'data-session="(\d+)" data-rank="(\d+)"', html)
    assert points == [("1", "5"), ("3", "2")]
    # Coordinates as the SVG reads them, with a point, also where numbers are written with a
    # decimal comma (French formats).
    coordinates = re.findall(r'cy="([^"]+)"', html)
    assert any("." in each for each in coordinates)
    with translation.override("fr"):
        french = player_figures(record(figures()), PLAYER)
    assert re.findall(r'cy="([^"]+)"', french) == coordinates
    assert "out of 12 ranked players" in html
