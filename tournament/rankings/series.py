"""A series' ranking from the standings of its tournaments: plain data in, plain data out.

Each tournament gives each ranked person a result: their rank there, their table points and
their score. A series ranks its people by one of two rules:

- ``best``: each person's best results by table points (the most table points first; equal
  table points, the higher score), at most ``counted`` of them (all when ``counted`` is
  None), and the series' total is their table points;
- ``places``: each result earns the points of its rank in the series' table
  (``place_points[0]`` for 1st, ``[1]`` for 2nd…; a rank beyond the table earns 0; players
  sharing a rank share its points), the person's best ``counted`` results by those points
  count, and the total is their sum.

Ties are broken as a tournament breaks them by default: the counted results' table points,
then their scores. People still equal share a rank.
"""

from dataclasses import dataclass, replace
from fractions import Fraction

RULES = ("best", "places")


@dataclass(frozen=True)
class Result:
    """``person``'s result in ``tournament`` (a key the caller chooses, ordered as played)."""

    person: int
    tournament: int
    rank: int
    table_points: Fraction
    score: int


@dataclass(frozen=True)
class Rule:
    kind: str
    counted: int | None = None
    place_points: tuple[int, ...] = ()

    def __post_init__(self):
        if self.kind not in RULES:
            raise ValueError(f"unknown series rule {self.kind!r}")
        if self.counted is not None and self.counted < 1:
            raise ValueError("a series counts at least one result per person")

    def points_of(self, rank: int) -> int | None:
        """What rank ``rank`` earns under the ``places`` rule (None under ``best``)."""
        if self.kind != "places":
            return None
        return self.place_points[rank - 1] if rank <= len(self.place_points) else 0


@dataclass(frozen=True)
class RankedResult:
    result: Result
    place_points: int | None
    counted: bool


@dataclass(frozen=True)
class Row:
    rank: int
    person: int
    total: Fraction | int
    table_points: Fraction
    score: int
    results: tuple[RankedResult, ...]  # every result, in the tournaments' order


def _preference(rule: Rule, result: Result) -> tuple:
    """Best result first: what the rule counts, then the tournaments' tie-breaks."""
    points = rule.points_of(result.rank)
    return (
        -(points or 0),
        -result.table_points,
        -result.score,
        result.rank,
        result.tournament,
    )


def series_ranking(results: list[Result], rule: Rule) -> list[Row]:
    """The series' rows, best first; people with equal totals and tie-breaks share a rank
    (listed by their key)."""
    by_person: dict[int, list[Result]] = {}
    for result in results:
        by_person.setdefault(result.person, []).append(result)
    rows = []
    for person, own in by_person.items():
        preferred = sorted(own, key=lambda result: _preference(rule, result))
        counted = preferred if rule.counted is None else preferred[: rule.counted]
        counted_ids = {id(result) for result in counted}
        table_points = sum((result.table_points for result in counted), Fraction(0))
        score = sum(result.score for result in counted)
        total = (
            table_points
            if rule.kind == "best"
            else sum(rule.points_of(result.rank) for result in counted)
        )
        rows.append(
            Row(
                rank=0,
                person=person,
                total=total,
                table_points=table_points,
                score=score,
                results=tuple(
                    RankedResult(
                        result=result,
                        place_points=rule.points_of(result.rank),
                        counted=id(result) in counted_ids,
                    )
                    for result in sorted(own, key=lambda result: result.tournament)
                ),
            )
        )
    rows.sort(key=lambda row: (_row_key(row), row.person))
    ranked: list[Row] = []
    for position, row in enumerate(rows, start=1):
        shared = ranked and _row_key(ranked[-1]) == _row_key(row)
        ranked.append(replace(row, rank=ranked[-1].rank if shared else position))
    return ranked


def _row_key(row: Row) -> tuple:
    return (-row.total, -row.table_points, -row.score)
