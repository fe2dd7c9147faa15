"""A series of three generated tournaments with people shared between them (linked by EMA
number, by a confirmed match of names, by hand): its ranking equals the one computed here by
hand from the three tournaments' standings, under both rules; it follows a corrected hand
at once; its workbook shows each result counted or not."""

import io
from fractions import Fraction

import openpyxl
import pytest
from django.db import transaction

from tests.conftest import make_user
from tournament import services
from tournament.exports.series_workbook import series_xlsx_bytes
from tournament.models import Hand
from tournament.selectors.people import person_suggestions
from tournament.selectors.series import series_standing
from tournament.selectors.standings import tournament_standings
from tournament.server.rehearsal import build_tournament

PLACE_POINTS = (10, 7, 5, 3, 2, 1)


@pytest.fixture(scope="module")
def built_season(django_db_setup, django_db_blocker):
    """Three tournaments of 8 players, 2 sessions each; people shared as a club's season.

    Built once for the module (each build plays 64 hands through the services; the module on
    one pytest worker, tests/conftest.py's SHARED_SET_UP) in a transaction rolled back after
    the module's last test; each test's own changes are rolled back after it, as always."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield _season()
        transaction.set_rollback(True)


@pytest.fixture
def season(built_season, db):
    return built_season


def _season():
    organiser = make_user("club", can_create=True)
    first, second, third = (
        build_tournament(
            players=8, sessions=2, seed=seed, slug=f"month-{seed}", organiser=organiser
        )
        for seed in (1, 2, 3)
    )
    # Month 1: everybody new.
    services.person_create_for(tournament=first, numbers=list(range(1, 9)))
    people = [p.person for p in first.players.order_by("number")]
    # Month 2: players 1-5 are month 1's 1-5 (linked by hand), 6-8 new.
    services.people_link(tournament=second, links=[(n, people[n - 1].pk) for n in range(1, 6)])
    services.person_create_for(tournament=second, numbers=[6, 7, 8])
    # Month 3: players 1-3 are month 1's 1-3 by hand; 4 shares an EMA number with month 1's
    # player 4; 5 is month 2's player 8 by a match of names the organiser confirms.
    services.people_link(tournament=third, links=[(n, people[n - 1].pk) for n in range(1, 4)])
    four = first.players.get(number=4)
    services.player_save(tournament=first, player=four, ema_number="12345678")
    services.player_save(
        tournament=third, player=third.players.get(number=4), ema_number="12345678"
    )
    eight = second.players.get(number=8)
    services.player_save(tournament=third, player=third.players.get(number=5), name=eight.name)
    suggestions, _others = person_suggestions(third)
    (match,) = [s for s in suggestions if s.player.number == 5]
    assert eight.person in match.people
    services.people_link(tournament=third, links=[(5, eight.person_id)])
    services.person_create_for(tournament=third, numbers=[6, 7, 8])
    return organiser, (first, second, third)


def club_season(season, *, series=None, rule="best", counted=None, place_points=""):
    """The season's series (made, or ``series`` changed) under the rule given."""
    organiser, tournaments = season
    return services.series_save(
        series=series,
        user=organiser,
        tournaments=list(tournaments),
        name="Club season",
        slug="season",
        rule=rule,
        counted_results=counted,
        place_points=place_points,
    )


def by_hand(tournaments, *, rule: str, counted: int | None):
    """The ranking as a reader works it out from the three standings tables: each person's
    results, the best ones kept, added up, then ordered by total, table points, score."""
    results: dict[int, list[tuple]] = {}
    for tournament in tournaments:
        for row in tournament_standings(tournament):
            earned = PLACE_POINTS[row.rank - 1] if row.rank <= len(PLACE_POINTS) else 0
            results.setdefault(row.player.person_id, []).append(
                (earned if rule == "places" else 0, row.table_points, row.score)
            )
    totals = {}
    for person, own in results.items():
        kept = sorted(own, reverse=True)[:counted]
        points = sum(r[1] for r in kept)
        totals[person] = (
            points if rule == "best" else sum(r[0] for r in kept),
            points,
            sum(r[2] for r in kept),
        )
    order = sorted(totals, key=lambda person: totals[person], reverse=True)
    ranks = {}
    for position, person in enumerate(order, start=1):
        previous = order[position - 2] if position > 1 else None
        ranks[person] = (
            ranks[previous] if previous and totals[previous] == totals[person] else position
        )
    return {person: (ranks[person], totals[person][0]) for person in order}


@pytest.mark.parametrize(("rule", "counted"), [("best", 2), ("places", 2), ("best", None)])
def test_the_series_ranking_is_the_one_worked_out_by_hand(season, rule, counted):
    _organiser, tournaments = season
    points = ", ".join(map(str, PLACE_POINTS)) if rule == "places" else ""
    series = club_season(season, rule=rule, counted=counted, place_points=points)
    standing = series_standing(series)
    # 8 + 3 + 3 people: month 2 brought 3 new ones, month 3 three more (its 5 is month 2's 8).
    assert len(standing.rows) == 14
    expected = by_hand(tournaments, rule=rule, counted=counted)
    assert {row.person_id: (row.rank, row.total) for row in standing.rows} == expected
    ranks = [row.rank for row in standing.rows]
    assert ranks == sorted(ranks)
    # People who played all three months have three results, at most two of them counted.
    three = [row for row in standing.rows if sum(c is not None for c in row.cells) == 3]
    assert len(three) == 4  # month 1's players 1-4
    for row in three:
        assert row.counted == (counted or 3)


def test_a_corrected_hand_changes_the_ranking_at_once_and_a_rule_change_too(season):
    organiser, tournaments = season
    series = club_season(season)
    before = {row.person_id: row.total for row in series_standing(series).rows}
    # A hand of month 2 corrected: session 2, table 1, its first hand given to the next seat.
    table = tournaments[1].sessions.get(number=2).tables.get(number=1)
    services.table_reopen(table=table, user=organiser, reason="correction")
    hand = Hand.objects.filter(table=table).order_by("number").first()
    winner = (hand.winner + 1) % 4 if hand.winner is not None else 0
    services.hand_record(
        table=table,
        entry=services.HandEntry(
            number=hand.number,
            outcome="self_drawn",
            winner=winner,
            discarder=None,
            fan=80,
            version=hand.version,
        ),
    )
    after = {row.person_id: row.total for row in series_standing(series).rows}
    assert after != before
    assert sum(after.values()) == sum(before.values())  # 7 table points a table still
    series = club_season(season, series=series, rule="places", counted=1, place_points="10, 7, 5")
    assert {row.total for row in series_standing(series).rows} <= {10, 7, 5, 0}


def test_the_workbook_shows_the_ranking_and_each_result_counted_or_not(season):
    series = club_season(season, counted=2)
    standing = series_standing(series)
    book = openpyxl.load_workbook(io.BytesIO(series_xlsx_bytes(series)))
    sheets = {
        sheet.title: [list(row) for row in sheet.iter_rows(values_only=True)]
        for sheet in book.worksheets
    }
    ranking = sheets["Ranking"]
    header_at = next(i for i, row in enumerate(ranking) if row and row[0] == "Rank")
    assert ranking[0][0] == "Club season"
    rows = ranking[header_at + 1 :]
    assert [(r[0], r[1]) for r in rows] == [(row.rank, row.name) for row in standing.rows]
    assert [Fraction(r[4]).limit_denominator(12) for r in rows] == [
        row.total for row in standing.rows
    ]
    results = sheets["Results"]
    assert results[0][-1] == "Counted"
    counted = [r for r in results[1:] if r[-1] == "yes"]
    assert len(counted) == sum(row.counted for row in standing.rows)
    assert len(results) - 1 == sum(c is not None for row in standing.rows for c in row.cells)
