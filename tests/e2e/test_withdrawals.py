"""Withdrawals and substitutes through the pages, then every page and workbook sheet checked
against each other (issue 12).

16 players in 4 teams and 2 substitutes, 3 sessions on the planned schedule. Player 16
withdraws before the first draw (substitute 17 fills session 1); after session 1, player 4
withdraws and player 16 is reinstated; after session 2 is drawn, player 9 withdraws: opening
is refused until Change seats gives the seat to substitute 18, who then wins a hand of 88
fan. Session 3 seats both substitutes. Every hand goes through the referee's table sheet.
"""

import io
from fractions import Fraction

import openpyxl
import pytest
from django.urls import reverse
from django.utils import timezone

from tests import html
from tests.conftest import download, login, make_user
from tests.e2e.test_full_tournament import hand_data, hands_for
from tests.test_exports import notes, records
from tests.web.pages import reviewed
from tournament.models import Seat, Session, Tournament
from tournament.server.task_worker import tasks_run_ready

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

SLUG = "harbour-cup"
TEAMS = ["Cranes", "Pines", "Tides", "Lanterns"]


def players_xlsx() -> bytes:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["number", "name", "team", "substitute"])
    for number in range(1, 19):
        substitute = number > 16
        name = f"Sub {number}" if substitute else f"Player {number}"
        # The substitutes belong to a team too: they must still not count for it.
        sheet.append([number, name, TEAMS[number % 4], "yes" if substitute else "no"])
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def standings_page(client) -> dict[int, dict]:
    """Number -> rank, table points, score, badges, as the standings page shows them."""
    page = client.get(reverse("standings", args=[SLUG])).content
    rows = {}
    for rank, number, player, team, points, score, *_rest in html.table(page, "table.standings")[
        1:
    ]:
        rows[int(number)] = {
            "rank": int(rank) if rank else None,
            "points": Fraction(points),
            "score": int(score.replace("−", "-")),
            "player": player,
            "team": team,
        }
    return rows


def workbook(client):
    response = download(client, reverse("standings_xlsx", args=[SLUG]))
    assert response.status_code == 200
    return openpyxl.load_workbook(io.BytesIO(response.content))


def ema(client):
    response = download(client, reverse("ema_xlsx", args=[SLUG]))
    return openpyxl.load_workbook(io.BytesIO(response.content))["Results"]


def seat_of(session: int, number: int) -> Seat:
    return Seat.objects.select_related("table").get(
        session__tournament__slug=SLUG, session__number=session, player__number=number
    )


def draw(org, number, **fields):
    data = {"number": str(number), "method": "planned", **fields}
    response = org.post(reverse("session_draw", args=[SLUG]), data)
    assert response.status_code == 302, response.content.decode()[-2000:]


def play(org, ref, number, big_win_by=None):
    """Open session ``number``, enter 16 hands at each table through the referee's sheet
    (a hand of 88 fan by ``big_win_by`` at theirs), confirm every table, close it."""
    assert org.post(reverse("session_open", args=[SLUG, number])).status_code == 302
    big = seat_of(number, big_win_by) if big_win_by else None
    for table in range(1, 5):
        url = reverse("table_sheet", args=[SLUG, number, table])
        for data in hands_for(table, number):
            if big and big.table.number == table and data["number"] == "1":
                data = hand_data(1, "self_drawn", winner=big.seat, fan=88)
            response = ref.post(url, data)
            assert response.status_code == 302, response.content.decode()[-3000:]
        confirm = reverse("table_confirm", args=[SLUG, number, table])
        assert ref.post(confirm, reviewed(ref, confirm)).status_code == 302
    assert org.post(reverse("session_close", args=[SLUG, number])).status_code == 302


def test_withdrawals_substitutes_and_a_reinstatement_agree_on_every_page_and_sheet():
    organiser = make_user("organiser", can_create=True)
    referee = make_user("referee")
    org, ref, anyone = login(organiser), login(referee), login(None)
    response = org.post(
        reverse("tournament_create"),
        {
            "name": "Harbour Cup",
            "slug": SLUG,
            "session_count": "3",
            "session_minutes": "150",
            "criterion_1": "table_points",
            "criterion_2": "score",
            "criterion_3": "first_places",
            "criterion_4": "best_session",
            "seating_method": "planned",
            "substitute_limit": "3",
            "referees": [referee.pk],
        },
    )
    assert response.status_code == 302
    tournament = Tournament.objects.get(slug=SLUG)
    upload = io.BytesIO(players_xlsx())
    upload.name = "players.xlsx"
    preview = org.post(reverse("player_import", args=[SLUG]), {"file": upload})
    payload = html.one(preview.content, "input[name=payload]").attrs["value"]
    org.post(reverse("player_import_confirm", args=[SLUG]), {"payload": payload})
    tasks_run_ready()  # the import, as the task worker runs it
    assert tournament.players.count() == 18

    # Player 16 withdraws before the first draw: substitute 17 fills session 1.
    assert org.post(reverse("player_withdraw", args=[SLUG, 16])).status_code == 302
    draw(org, 1, seed="777")
    org.post(reverse("table_referees", args=[SLUG, 1]), {"referee": referee.pk, "tables": "1-4"})
    assert not Seat.objects.filter(session__number=1, player__number__in=[16, 18]).exists()
    play(org, ref, 1)

    # After session 1: 16, who has not played, is unranked, and the workbook says why.
    standings = {r["Number"]: r for r in records(workbook(anyone)["Standings"])}
    assert standings[16]["Rank"] is None
    assert standings[16]["Status"] == "withdrawn before playing (unranked)"
    assert standings_page(anyone)[16]["rank"] is None

    # Player 4 withdraws, player 16 is reinstated; session 2 is drawn.
    assert org.post(reverse("player_withdraw", args=[SLUG, 4])).status_code == 302
    assert org.post(reverse("player_reinstate", args=[SLUG, 16])).status_code == 302
    draw(org, 2)
    assert {s.player.number for s in Seat.objects.filter(session__number=2)} == (
        set(range(1, 18)) - {4}
    )
    # Drawn, not played: no sheet for it, nobody shares a first place at 1.75.
    assert "Session 2" not in workbook(anyone).sheetnames

    # Player 9 withdraws after the draw: opening is refused while 9 holds the seat.
    assert org.post(reverse("player_withdraw", args=[SLUG, 9])).status_code == 302
    refused = org.post(reverse("session_open", args=[SLUG, 2]), follow=True).content.decode()
    assert "A withdrawn player still holds a seat in session 2: 9 Player 9" in refused
    assert Session.objects.get(tournament=tournament, number=2).opened_at is None
    nine = seat_of(2, 9)
    response = org.post(
        reverse("seat_change", args=[SLUG, 2]),
        {"seat": nine.pk, "player": tournament.players.get(number=18).pk},
    )
    assert response.status_code == 302
    play(org, ref, 2, big_win_by=18)
    draw(org, 3)
    assert {s.player.number for s in Seat.objects.filter(session__number=3)} == (
        set(range(1, 19)) - {4, 9}
    )
    play(org, ref, 3)

    # ------------------------------------------------ the pages and the sheets, together
    page = standings_page(anyone)
    book = workbook(anyone)
    assert book.sheetnames == [
        "Standings",
        "Session 1",
        "Session 2",
        "Session 3",
        "Hands",
        "Penalties",
        "Record of fouls",
        "Seating",
        "Teams",
        "Rules",
    ]
    standings = {r["Number"]: r for r in records(book["Standings"])}
    assert list(standings) == list(page)
    for number, row in standings.items():
        assert row["Rank"] == page[number]["rank"], number
        assert Fraction(row["Table points (exact)"]).limit_denominator(12) == page[number]["points"]
        assert row["Score"] == page[number]["score"], number

    # Each player's total is what their own session rows add up to: nobody is credited with
    # another's points (9's session 2 belongs to 18, who sat in 9's seat).
    sessions = {n: records(book[f"Session {n}"]) for n in (1, 2, 3)}
    for number, row in standings.items():
        own = [r for n in (1, 2, 3) for r in sessions[n] if r["Number"] == number]
        assert sum(r["Score"] for r in own) == row["Score"], number
        assert len(own) == row["Sessions played"], number
        exact = sum(Fraction(r["Table points (exact)"]).limit_denominator(12) for r in own)
        assert exact == page[number]["points"], number
    for n in (1, 2, 3):
        # Every table played: 4 tables of 4, table points shared out 7 a table.
        assert len(sessions[n]) == 16
    assert [r["Number"] for r in sessions[2] if r["Number"] in (4, 9)] == []
    assert [standings[n]["Sessions played"] for n in (4, 9, 16, 17, 18)] == [1, 1, 2, 3, 2]

    # The big win: 88 fan self-drawn by 18, 3 × (8 + 88) = 288 points to their seat; their
    # session 2 score is their seat's points over that table's hands.
    hands = records(book["Hands"])
    (big,) = [r for r in hands if r["Fan"] == 88]
    assert (big["Session"], big["Winner name"], big["Result"]) == (2, "Sub 18", "Win by self-draw")
    (eighteen,) = [r for r in sessions[2] if r["Number"] == 18]
    column = f"Points {eighteen['Seat']}"
    assert big[column] == 288
    table = [r for r in hands if r["Session"] == 2 and r["Table"] == eighteen["Table"]]
    assert eighteen["Score"] == sum(r[column] for r in table)

    # Substitutes unranked, withdrawn players ranked with their earlier results.
    assert standings[17]["Rank"] is None and standings[18]["Rank"] is None
    assert {standings[n]["Status"] for n in (17, 18)} == {"substitute (unranked)"}
    for number in (4, 9):
        assert standings[number]["Rank"] is not None
        assert standings[number]["Status"] == "withdrawn after session 1"
        assert "withdrawn" in page[number]["player"]
    assert standings[16]["Rank"] is not None and standings[16]["Status"] is None
    assert len([r for r in standings.values() if r["Rank"] is not None]) == 16

    # Teams: the sum of their ranked members' table points, substitutes left out.
    members = {}
    for number, row in standings.items():
        if row["Rank"] is not None:
            members.setdefault(row["Team"], []).append(page[number]["points"])
    for team in records(book["Teams"]):
        assert Fraction(team["Table points (exact)"]).limit_denominator(12) == sum(
            members[team["Team"]]
        )
        assert "Sub" not in team["Members"]

    # Seating: 18 replaces 9 from session 2 (given the seat by hand), 17 stands in for 4, who
    # played session 1 and withdrew (the draws of sessions 2 and 3 seated 17 for them); 17's
    # session 1 replaces nobody (16 withdrew before the first draw, so held no place);
    # withdrawn players dated; 9 absent from session 2.
    today = timezone.localdate().isoformat()
    seating = records(book["Seating"])
    (sub,) = [r for r in seating if r["Session"] == 2 and r["Number"] == 18]
    assert sub["Replaces"] == "9 Player 9" and sub["Withdrawn"] is None
    replaced = {(r["Session"], r["Number"]): r["Replaces"] for r in seating if r["Replaces"]}
    assert replaced == {
        (2, 17): "4 Player 4",
        (2, 18): "9 Player 9",
        (3, 17): "4 Player 4",
        (3, 18): "9 Player 9",
    }
    assert {(r["Session"], r["Number"]) for r in seating if r["Withdrawn"] == today} == {
        (1, 4),
        (1, 9),
    }
    assert not [r for r in seating if r["Withdrawn"] not in (None, today)]

    # The seating page says the same.
    seating_page = html.parse(anyone.get(reverse("seating", args=[SLUG, 2])).content)
    assert "replaces 9 Player 9 in their planned seat" in seating_page.text()
    seat_notes = seating_page.find("small.muted")
    assert [n.text() for n in seat_notes if n.text().endswith("replaces 4 Player 4")]
    own = anyone.get(reverse("player_schedule", args=[SLUG, 17])).content
    assert html.text(own).count("replaces 4 Player 4") == 2  # sessions 2 and 3, not 1

    # The players' pages: withdrawn players keep their session 1; 18 played session 2.
    for number in (4, 9):
        own = anyone.get(reverse("player_schedule", args=[SLUG, number])).content
        assert "Withdrawn on" in html.text(own)
        assert html.elements(own, "#session-1") and not html.elements(own, "#session-2")
    own = anyone.get(reverse("player_schedule", args=[SLUG, 18])).content
    assert html.elements(own, "#session-2") and not html.elements(own, "#session-1")

    # The substitutes counted: the standings sheet's note, the EMA's block and its rows.
    assert notes(book["Standings"]) == [
        "2 substitutes have sat at a table; the federation counts at most 3."
    ]
    results = ema(anyone)
    rows = list(results.iter_rows(values_only=True))
    block = {row[0]: row[1] for row in rows if row and row[0] and len(row) > 1}
    assert (block["Substitutes"], block["Substitute limit"], block["Players"]) == (2, 3, 16)
    start = next(i for i, row in enumerate(rows) if row[0] == "Place")
    listed = rows[start + 1 :]
    # The EMA's note names whom each substitute replaced.
    assert sorted(row[-1] for row in listed if row[-1]) == [
        "substitute; replaces 4 Player 4",
        "substitute; replaces 9 Player 9",
    ]
    ranked = sorted(r["Rank"] for r in standings.values() if r["Rank"])
    assert [row[0] for row in listed[:16]] == ranked
