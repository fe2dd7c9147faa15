"""The worked example of docs/series.md: its results ranked by the series module under both
rules give the document's tables, row by row."""

from fractions import Fraction
from pathlib import Path

import pytest

from tests.markdown_tables import table_rows
from tournament.rankings.series import Result, Rule, series_ranking

DOC = Path(__file__).resolve().parents[1] / "docs" / "series.md"
TOURNAMENTS = ("Jan", "Feb", "Mar")


def results() -> tuple[list[Result], list[str]]:
    people: list[str] = []
    found = []
    for person, tournament, rank, points, score in table_rows(
        DOC, "| person | tournament | rank | table points | score |"
    ):
        if person not in people:
            people.append(person)
        found.append(
            Result(
                person=people.index(person),
                tournament=TOURNAMENTS.index(tournament),
                rank=int(rank),
                table_points=Fraction(points),
                score=int(score),
            )
        )
    return found, people


def counted(row, wanted: bool) -> str:
    return ", ".join(
        TOURNAMENTS[entry.result.tournament] for entry in row.results if entry.counted == wanted
    )


@pytest.mark.parametrize(
    ("header", "rule"),
    [
        ("| rank | person | table points | counted | not counted |", Rule("best", counted=2)),
        (
            "| rank | person | points | table points | counted |",
            Rule("places", counted=2, place_points=(10, 7, 5, 3)),
        ),
    ],
    ids=["best", "places"],
)
def test_the_documents_rankings_are_the_modules(header, rule):
    found, people = results()
    rows = series_ranking(found, rule)
    if rule.kind == "best":
        computed = [
            [
                str(row.rank),
                people[row.person],
                str(row.total),
                counted(row, True),
                counted(row, False),
            ]
            for row in rows
        ]
    else:
        computed = [
            [
                str(row.rank),
                people[row.person],
                str(row.total),
                str(row.table_points),
                counted(row, True),
            ]
            for row in rows
        ]
    assert computed == table_rows(DOC, header)
