"""The worked example of docs/standings.md, built through the services and checked.

The tables are read from the document; the tournament is built with the same hands,
and what the selectors compute must equal what the document says, row by row.
"""

from fractions import Fraction
from pathlib import Path

import pytest

from tests.conftest import make_tournament, make_user
from tests.markdown_tables import table_rows
from tournament import services
from tournament.language.formatting import format_table_points
from tournament.models import Seat
from tournament.selectors.standings import team_standings, tournament_results, tournament_standings
from tournament.services import PenaltyEntry

DOC = Path(__file__).resolve().parents[1] / "docs" / "standings.md"

FORMAT_HEADER = "| table points | shown as |"
PLAYERS_HEADER = "| player | team | substitute | withdrawn |"
HANDS_HEADER = "| session | table | hand | outcome | winner | discarder | fan | penalty |"
RESULTS_HEADER = "| session | table | seat | player | score | place | table points |"
STANDINGS_HEADER = "| rank | player | table points | score | 1st places | best session |"
OTHER_ORDER_HEADER = "| rank | player | table points | best session |"
TEAMS_HEADER = "| rank | team | members | table points | score |"

OTHER_ORDER = "table_points,best_session"
# Changing the ranking order once hands are entered is a change of the rules, with its reason.
REASON = "The worked example's other ranking order"
SEED = 20261130
SEATS = ("P1", "P2", "P3", "P4")


def doc_table(header: str) -> list[list[str]]:
    """Rows (lists of cells) of the markdown table in docs/standings.md under `header`."""
    return table_rows(DOC, header)


FORMAT_ROWS = doc_table(FORMAT_HEADER)
PLAYER_ROWS = doc_table(PLAYERS_HEADER)
HAND_ROWS = doc_table(HANDS_HEADER)
RESULT_ROWS = doc_table(RESULTS_HEADER)
STANDING_ROWS = doc_table(STANDINGS_HEADER)
OTHER_ORDER_ROWS = doc_table(OTHER_ORDER_HEADER)
TEAM_ROWS = doc_table(TEAMS_HEADER)


def yes_no(cell: str) -> bool:
    assert cell in ("yes", "no"), cell
    return cell == "yes"


def optional_int(cell: str) -> int | None:
    """A number, or None for "-" (no rank, no discarder, no fan)."""
    return None if cell == "-" else int(cell)


# --- the document itself ---------------------------------------------------------------


def test_doc_tables_are_found_and_complete():
    assert len(FORMAT_ROWS) == 5
    assert len(PLAYER_ROWS) == 8
    assert len(HAND_ROWS) == 8
    assert len(RESULT_ROWS) == 16  # 2 sessions x 2 tables x 4 seats
    assert len(STANDING_ROWS) == 8
    assert len(OTHER_ORDER_ROWS) == 8
    assert len(TEAM_ROWS) == 3
    for rows, width in [
        (PLAYER_ROWS, 4),
        (HAND_ROWS, 8),
        (RESULT_ROWS, 7),
        (STANDING_ROWS, 6),
        (OTHER_ORDER_ROWS, 4),
        (TEAM_ROWS, 5),
    ]:
        assert all(len(row) == width for row in rows), rows
    assert f"`{OTHER_ORDER}`" in DOC.read_text(encoding="utf-8")


def test_doc_seats_every_player_once_per_session_four_to_a_table():
    players = {int(row[0]) for row in PLAYER_ROWS}
    for session in ("1", "2"):
        rows = [row for row in RESULT_ROWS if row[0] == session]
        assert sorted(int(row[3]) for row in rows) == sorted(players)
        for table in ("1", "2"):
            assert [row[2] for row in rows if row[1] == table] == list(SEATS)


def test_doc_example_has_the_ties_it_promises():
    places = {}
    for session, table, _seat, _player, _score, place, _points in RESULT_ROWS:
        places.setdefault((session, table), []).append(int(place))
    assert [1, 1, 3, 3] in places.values()  # two-way tie for first
    assert [1, 2, 2, 2] in places.values()  # three-way tie
    ranks = [row[0] for row in STANDING_ROWS]
    assert ranks.count("3") == 2  # a rank shared after every tie-break
    assert ranks[-1] == "-"  # the substitute


@pytest.mark.parametrize("row", FORMAT_ROWS, ids=[row[0] for row in FORMAT_ROWS])
def test_table_points_are_shown_as_the_doc_says(row):
    value, shown = row

    assert format_table_points(Fraction(value)) == shown


# --- the tournament built through the services -----------------------------------------


def penalty_entries(cell: str, seat_of: dict[int, int]) -> list[PenaltyEntry]:
    """'2 deducted 10' (player number, kind, points[, beneficiary]) -> penalties by seat."""
    if cell == "-":
        return []
    entries = []
    for text in cell.split(";"):
        offender, kind, points, *beneficiary = text.split()
        entries.append(
            PenaltyEntry(
                offender=seat_of[int(offender)],
                kind=kind,
                points=int(points),
                beneficiary=seat_of[int(beneficiary[0])] if beneficiary else None,
                reason="Worked example of docs/standings.md",
            )
        )
    return entries


def seat_as_in_doc(session, players) -> dict[int, int]:
    """Replace the drawn seats of ``session`` by the doc's; returns player number -> seat."""
    tables = {table.number: table for table in session.tables.all()}
    Seat.objects.filter(session=session).delete()
    seat_of = {}
    for row in RESULT_ROWS:
        if int(row[0]) != session.number:
            continue
        table, seat, player = int(row[1]), SEATS.index(row[2]), int(row[3])
        Seat.objects.create(
            session=session,
            table=tables[table],
            player=players[player],
            seat=seat,
            lot=(table - 1) * 4 + seat + 1,
        )
        seat_of[player] = seat
    return seat_of


@pytest.fixture
def doc_tournament(db):
    organiser = make_user("organiser", can_create=True)
    tournament = make_tournament(creator=organiser, slug="standings-example", sessions=2)
    players = {}
    for number, team, substitute, _withdrawn in PLAYER_ROWS:
        players[int(number)] = services.player_save(
            tournament=tournament,
            number=int(number),
            name=f"Player {number}",
            team="" if team == "-" else team,
            is_substitute=yes_no(substitute),
        )
    for number in (1, 2):
        session = services.session_draw(tournament=tournament, number=number, seed=SEED)
        # The draw decides who sits where; the doc's seating is imposed afterwards.
        seat_of = seat_as_in_doc(session, players)
        services.session_open(session=session)
        tables = {table.number: table for table in session.tables.all()}
        for row in HAND_ROWS:
            if int(row[0]) != number:
                continue
            _session, table, hand, outcome, winner, discarder, fan, penalty = row
            services.hand_record(
                table=tables[int(table)],
                entry=services.HandEntry(
                    number=int(hand),
                    outcome=outcome,
                    winner=None if winner == "-" else seat_of[int(winner)],
                    discarder=None if discarder == "-" else seat_of[int(discarder)],
                    fan=optional_int(fan),
                    penalties=penalty_entries(penalty, seat_of),
                ),
                user=organiser,
            )
        for table in tables.values():
            services.table_confirm(table=table, user=organiser, record_missing_as_not_played=True)
        services.session_close(session=session)
    for number, _team, _substitute, withdrawn in PLAYER_ROWS:
        if yes_no(withdrawn):
            services.player_withdraw(player=players[int(number)])
    tournament.refresh_from_db()
    return tournament


def test_the_doc_seating_replaced_the_draw(doc_tournament):
    seated = {
        (s.session.number, s.table.number, SEATS[s.seat]): s.player.number
        for s in Seat.objects.filter(session__tournament=doc_tournament).select_related(
            "session", "table", "player"
        )
    }
    expected = {(int(r[0]), int(r[1]), r[2]): int(r[3]) for r in RESULT_ROWS}

    assert seated == expected


def test_session_results_match_the_doc(doc_tournament):
    results = [
        (
            result.session,
            result.table,
            SEATS[result.seat],
            result.player.number,
            result.score,
            result.place,
            result.table_points,
            format_table_points(result.table_points),
            result.confirmed,
        )
        for result in tournament_results(doc_tournament)
    ]
    expected = [
        (int(s), int(t), seat, int(p), int(score), int(place), Fraction(points), points, True)
        for s, t, seat, p, score, place, points in RESULT_ROWS
    ]

    assert results == expected


def test_standings_match_the_doc(doc_tournament):
    rows = tournament_standings(doc_tournament)
    actual = [
        (
            row.rank,
            row.player.number,
            row.table_points,
            format_table_points(row.table_points),
            row.score,
            row.first_places,
            row.best_session,
        )
        for row in rows
    ]
    expected = [
        (optional_int(r), int(p), Fraction(points), points, int(score), int(firsts), int(best))
        for r, p, points, score, firsts, best in STANDING_ROWS
    ]

    assert actual == expected
    assert all(row.sessions_played == 2 for row in rows)


def test_withdrawn_player_keeps_the_results_and_the_rank(doc_tournament):
    withdrawn = {int(row[0]) for row in PLAYER_ROWS if yes_no(row[3])}
    assert withdrawn  # the example has one
    rows = {row.player.number: row for row in tournament_standings(doc_tournament)}

    for number in withdrawn:
        assert rows[number].player.withdrawn_at is not None
        assert rows[number].rank is not None


def test_another_ranking_order_matches_the_doc(doc_tournament):
    services.tournament_update(
        tournament=doc_tournament, tiebreak_order=OTHER_ORDER, rules_reason=REASON
    )

    actual = [
        (row.rank, row.player.number, format_table_points(row.table_points), row.best_session)
        for row in tournament_standings(doc_tournament)
    ]
    expected = [
        (optional_int(r), int(p), points, int(best)) for r, p, points, best in OTHER_ORDER_ROWS
    ]

    assert actual == expected


def test_team_standings_match_the_doc(doc_tournament):
    teams = team_standings(tournament_standings(doc_tournament))
    actual = [
        (
            team.rank,
            team.team,
            sorted(team.members),
            team.table_points,
            format_table_points(team.table_points),
            team.score,
        )
        for team in teams
    ]
    expected = [
        (
            int(r),
            name,
            sorted(f"Player {n.strip()}" for n in members.split(",")),
            Fraction(points),
            points,
            int(score),
        )
        for r, name, members, points, score in TEAM_ROWS
    ]

    assert actual == expected


# --- the other criteria ------------------------------------------------------------------

OTHER_TOTALS_HEADER = "| player | 2nd places | 3rd places | 4th places | hands won |"
CHINESE_CHAIN = (
    "table_points,score,first_places,second_places,third_places,fourth_places,best_session,"
    "player_number"
)
# Each worked example of a criterion: its table's header, the ranking order above it, and
# what its last column reads of a row (the Chinese chain's reads the 1st places).
CRITERIA = {
    "| rank | player | table points | 2nd places |": (
        "table_points,second_places",
        lambda row: row.second_places,
    ),
    "| rank | player | table points | 3rd places |": (
        "table_points,third_places",
        lambda row: row.third_places,
    ),
    "| rank | player | table points | 4th places |": (
        "table_points,fourth_places",
        lambda row: row.fourth_places,
    ),
    "| rank | player | table points | hands won |": (
        "table_points,hands_won",
        lambda row: row.hands_won,
    ),
    "| rank | player | table points | score | 1st places |": (CHINESE_CHAIN, None),
}


def test_each_criterions_example_is_complete_and_names_its_order():
    text = DOC.read_text(encoding="utf-8")
    assert len(doc_table(OTHER_TOTALS_HEADER)) == 8
    for header, (order, _value) in CRITERIA.items():
        assert len(doc_table(header)) == 8, header
        assert f"`{order}`" in text
        # Its table comes after its order, before the next example's.
        assert text.index(f"`{order}`") < text.index(header + "\n")


def test_the_other_places_and_hands_won_match_the_doc(doc_tournament):
    rows = {row.player.number: row for row in tournament_standings(doc_tournament)}
    actual = [
        [str(number), *(str(value) for value in (*rows[number].places[1:], rows[number].hands_won))]
        for number in sorted(rows)
    ]
    assert actual == doc_table(OTHER_TOTALS_HEADER)


@pytest.mark.parametrize("header", list(CRITERIA), ids=[order for order, _ in CRITERIA.values()])
def test_each_criterions_ranking_matches_the_doc(doc_tournament, header):
    order, value = CRITERIA[header]
    services.tournament_update(tournament=doc_tournament, tiebreak_order=order, rules_reason=REASON)

    def cells(row) -> list[str]:
        rank = "-" if row.rank is None else str(row.rank)
        points = format_table_points(row.table_points)
        figures = [row.score, row.first_places] if value is None else [value(row)]
        return [rank, str(row.player.number), points, *map(str, figures)]

    assert [cells(row) for row in tournament_standings(doc_tournament)] == doc_table(header)
