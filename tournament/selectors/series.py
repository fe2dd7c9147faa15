"""A series' ranking (``rankings.series``) from its tournaments' standings, cached under the
series' version and its tournaments' versions: a hand entered in any of them, a person
linked, a rule changed, and the next reader sees the new ranking."""

from dataclasses import dataclass
from fractions import Fraction

from django.db.models import F

from tournament.models import Person, Series, parse_place_points
from tournament.players import names
from tournament.rankings import series as ranking
from tournament.selectors.lookups import cached
from tournament.selectors.standings import tournament_standings


@dataclass(frozen=True)
class SeriesTournament:
    pk: int
    slug: str
    name: str
    # Ranked players not linked to a person: not in the series' ranking until they are.
    unlinked: int


@dataclass(frozen=True)
class SeriesCell:
    """A person's result in one of the series' tournaments."""

    player_number: int
    rank: int
    table_points: Fraction
    score: int
    place_points: int | None
    counted: bool


@dataclass(frozen=True)
class SeriesRow:
    rank: int
    person_id: int
    name: str
    name_zh: str
    country: str
    total: Fraction | int
    table_points: Fraction
    score: int
    cells: tuple[SeriesCell | None, ...]  # one per tournament, in the series' order

    @property
    def display_name(self) -> str:
        return f"{self.name} ({self.name_zh})" if self.name_zh else self.name

    @property
    def counted(self) -> int:
        return sum(1 for cell in self.cells if cell is not None and cell.counted)


@dataclass(frozen=True)
class SeriesStanding:
    tournaments: tuple[SeriesTournament, ...]
    rows: tuple[SeriesRow, ...]


def series_by_slug(slug: str) -> Series | None:
    return Series.objects.filter(slug=slug).first()


def series_list():
    return Series.objects.all()


def series_tournaments(series: Series):
    """The series' tournaments in the order they were created, each with its data version."""
    return series.tournaments.annotate(data_number=F("version__number")).order_by(
        "created_at", "pk"
    )


def series_rule(series: Series) -> ranking.Rule:
    points = tuple(parse_place_points(series.place_points)) if series.rule == "places" else ()
    return ranking.Rule(kind=series.rule, counted=series.counted_results, place_points=points)


def series_versions(series: Series) -> tuple[str, list]:
    """What the series' ranking is cached under (its version and each tournament's), and
    its tournaments: one query."""
    tournaments = list(series_tournaments(series))
    versions = ",".join(f"{t.pk}.{t.data_number or 0}" for t in tournaments)
    return f"{series.pk}:{series.version}:{versions}", tournaments


def series_standing(series: Series) -> SeriesStanding:
    """The series' ranking, every person's result in each tournament marked counted or not."""
    versions, tournaments = series_versions(series)
    return cached(f"mcr:series:{versions}", lambda: _computed(series, tournaments))


def _computed(series: Series, tournaments) -> SeriesStanding:
    results: list[ranking.Result] = []
    numbers: dict[tuple[int, int], int] = {}
    summaries = []
    for index, tournament in enumerate(tournaments):
        unlinked = 0
        for row in tournament_standings(tournament):
            if row.rank is None:
                continue
            person = row.player.person_id
            if person is None:
                unlinked += 1
                continue
            numbers[(person, index)] = row.player.number
            results.append(
                ranking.Result(
                    person=person,
                    tournament=index,
                    rank=row.rank,
                    table_points=row.table_points,
                    score=row.score,
                )
            )
        summaries.append(
            SeriesTournament(
                pk=tournament.pk, slug=tournament.slug, name=tournament.name, unlinked=unlinked
            )
        )
    ranked = ranking.series_ranking(results, series_rule(series))
    people = Person.objects.in_bulk([row.person for row in ranked])
    # People sharing a rank by their names.
    ranked.sort(key=lambda row: (row.rank, names.sort_key(people[row.person].name)))
    rows = []
    for row in ranked:
        person = people[row.person]
        cells: list[SeriesCell | None] = [None] * len(tournaments)
        for entry in row.results:
            result = entry.result
            cells[result.tournament] = SeriesCell(
                player_number=numbers[(row.person, result.tournament)],
                rank=result.rank,
                table_points=result.table_points,
                score=result.score,
                place_points=entry.place_points,
                counted=entry.counted,
            )
        rows.append(
            SeriesRow(
                rank=row.rank,
                person_id=person.pk,
                name=person.name,
                name_zh=person.name_zh,
                country=person.country,
                total=row.total,
                table_points=row.table_points,
                score=row.score,
                cells=tuple(cells),
            )
        )
    return SeriesStanding(tournaments=tuple(summaries), rows=tuple(rows))


def person_series(person: Person) -> list[tuple[Series, SeriesRow | None]]:
    """The series with a tournament the person played, each with the person's row."""
    found = Series.objects.filter(tournaments__players__person=person).distinct()
    return [
        (series, next((r for r in series_standing(series).rows if r.person_id == person.pk), None))
        for series in found.order_by("-created_at", "pk")
    ]
