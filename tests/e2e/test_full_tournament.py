"""A whole tournament through the web pages, as an organiser and a referee would run it.

Create it, import 16 players from an XLSX file, draw two sessions, enter all 16 hands at
every table (both kinds of win, draws, a hand not played, a false-win penalty and a
deducted penalty), confirm the tables, then check the downloaded workbook against the
standings page.
"""

import io
from fractions import Fraction

import openpyxl
import pytest
from django.urls import reverse

from tests import html
from tests.conftest import download, login, make_user
from tests.test_exports import data_rows as exported_rows
from tests.test_exports import header as exported_header
from tests.web.pages import reviewed
from tournament.models import Hand, Player, Table, Tournament
from tournament.server.task_worker import tasks_run_ready

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

NAMES = [
    ("张伟", "Zhang Wei"),
    ("", "Anna Berg"),
    ("李娜", "Li Na"),
    ("", "Marc Roux"),
    ("王芳", "Wang Fang"),
    ("", "Jonas Falk"),
    ("刘洋", "Liu Yang"),
    ("", "Claire Dupont"),
    ("陈静", "Chen Jing"),
    ("", "Lena Voss"),
    ("杨磊", "Yang Lei"),
    ("", "Hugo Blanc"),
    ("赵敏", "Zhao Min"),
    ("", "Tim Kraus"),
    ("黄勇", "Huang Yong"),
    ("", "Julie Petit"),
]


def players_xlsx() -> bytes:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["number", "name", "name_zh", "team", "country", "substitute"])
    for number, (name_zh, name) in enumerate(NAMES, start=1):
        sheet.append([number, name, name_zh, f"Club {number % 4}", "", "no"])
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def hand_data(number, outcome, winner="", discarder="", fan="", flowers="0", penalties=()):
    data = {
        "number": str(number),
        "outcome": outcome,
        "winner": str(winner),
        "discarder": str(discarder),
        "fan": str(fan),
        "flowers": str(flowers),
        "fan_names": "",
        "penalty-TOTAL_FORMS": str(max(1, len(penalties))),
        "penalty-INITIAL_FORMS": "0",
        "penalty-MIN_NUM_FORMS": "0",
        "penalty-MAX_NUM_FORMS": "8",
    }
    for i, (offender, kind, points, reason) in enumerate(penalties):
        data.update(
            {
                f"penalty-{i}-offender": str(offender),
                f"penalty-{i}-kind": kind,
                f"penalty-{i}-points": str(points),
                f"penalty-{i}-reason": reason,
            }
        )
    return data


def hands_for(table_number: int, session: int):
    """16 hands for one table; varied by table so the players end up with different scores."""
    shift = table_number + session
    for number in range(1, 17):
        kind = (number + shift) % 5
        winner, other = (number + shift) % 4, (number + shift + 1) % 4
        if number == 16 and table_number == 1:
            yield hand_data(number, "not_played")
        elif number == 3 and table_number == 2:
            yield hand_data(number, "draw", penalties=[(1, "to_each_other", 10, "False win")])
        elif number == 5 and table_number == 3:
            yield hand_data(
                number, "self_drawn", winner=0, fan=8, penalties=[(2, "deducted", 20, "Lateness")]
            )
        elif kind == 0:
            yield hand_data(number, "draw")
        elif kind in (1, 2):
            yield hand_data(
                number, "self_drawn", winner=winner, fan=8 + number % 5, flowers=number % 3
            )
        else:
            yield hand_data(
                number,
                "discard",
                winner=winner,
                discarder=other,
                fan=8 + (number * table_number) % 9,
                flowers=number % 2,
            )


def standings_page_numbers(page: str) -> dict[str, tuple[str, int]]:
    """name -> (table points text, score) read from the rendered standings table."""
    rows = {}
    for row in html.elements(page, "table.standings tbody tr"):
        cells = [cell.text().split() for cell in row.find("td")]
        rows[" ".join(cells[2][:2])] = (cells[4][0], int(cells[5][0].replace("−", "-")))
    return rows


def test_a_tournament_from_registration_to_the_excel_workbook():
    organiser = make_user("organiser", can_create=True)
    referee = make_user("referee")
    org, ref = login(organiser), login(referee)

    # 1. The organiser creates the tournament and names its referee.
    response = org.post(
        reverse("tournament_create"),
        {
            "name": "Harbour Open",
            "slug": "harbour-open",
            "session_count": "2",
            "session_minutes": "150",
            "criterion_1": "table_points",
            "criterion_2": "score",
            "criterion_3": "first_places",
            "criterion_4": "best_session",
            # Each session by lot with its own published seed (planned schedules have one seed).
            "seating_method": "lot",
            "referees": [referee.pk],
        },
    )
    assert response.status_code == 302
    tournament = Tournament.objects.get(slug="harbour-open")
    slug = tournament.slug

    # 2. Import 16 players from XLSX: preview first, nothing saved, then confirm.
    upload = io.BytesIO(players_xlsx())
    upload.name = "players.xlsx"
    preview = org.post(reverse("player_import", args=[slug]), {"file": upload})
    assert preview.status_code == 200
    assert Player.objects.count() == 0
    payload = html.one(preview.content, "input[name=payload]").attrs["value"]
    assert (
        org.post(reverse("player_import_confirm", args=[slug]), {"payload": payload}).status_code
        == 302
    )
    # The import is the task worker's.
    assert tournament.players.count() == 0
    tasks_run_ready()
    assert tournament.players.count() == 16
    assert tournament.players.get(number=3).name_zh == "李娜"

    # 3. Draw two sessions with published seeds; play each one.
    for session_number, seed in ((1, 111111111), (2, 222222222)):
        response = org.post(
            reverse("session_draw", args=[slug]), {"number": str(session_number), "seed": str(seed)}
        )
        assert response.status_code == 302
        seating = org.get(reverse("seating", args=[slug, session_number])).content.decode()
        assert str(seed) in seating
        if session_number == 1:
            # The organiser gives the referee the four tables; session 2 keeps them at its draw.
            response = org.post(
                reverse("table_referees", args=[slug, 1]),
                {"referee": str(referee.pk), "tables": "1-4"},
            )
            assert response.status_code == 302
        assert org.post(reverse("session_open", args=[slug, session_number])).status_code == 302
        for table_number in range(1, 5):
            sheet_url = reverse("table_sheet", args=[slug, session_number, table_number])
            for data in hands_for(table_number, session_number):
                response = ref.post(sheet_url, data)
                assert response.status_code == 302, response.content.decode()[-3000:]
            confirm = reverse("table_confirm", args=[slug, session_number, table_number])
            assert ref.post(confirm, reviewed(ref, confirm)).status_code == 302
        assert org.post(reverse("session_close", args=[slug, session_number])).status_code == 302

    assert Hand.objects.count() == 2 * 4 * 16
    assert not Table.objects.filter(session__tournament=tournament, confirmed_at=None).exists()
    assert {h.outcome for h in Hand.objects.all()} == {
        "self_drawn",
        "discard",
        "draw",
        "not_played",
    }
    assert all(s.closed_at for s in tournament.sessions.all())
    hand = Hand.objects.get(table__session__number=1, table__number=2, number=3)
    assert hand.points[1] == -30 and sum(hand.points) == 0
    hand = Hand.objects.get(table__session__number=1, table__number=3, number=5)
    assert hand.deducted == 20 and sum(hand.points) == -20

    # 4. The workbook agrees with the standings page, number for number.
    page = standings_page_numbers(org.get(reverse("standings", args=[slug])).content.decode())
    assert len(page) == 16
    response = download(ref, reverse("standings_xlsx", args=[slug]))
    assert response.status_code == 200
    book = openpyxl.load_workbook(
        io.BytesIO(b"".join(response.streaming_content) if response.streaming else response.content)
    )
    assert book.sheetnames[:4] == ["Standings", "Session 1", "Session 2", "Hands"]
    header = exported_header(book["Standings"])
    name_col, score_col = header.index("Name"), header.index("Score")
    exact_col = next(i for i, h in enumerate(header) if "exact" in str(h).lower())
    workbook = {
        row[name_col]: (str(row[exact_col]), row[score_col])
        for row in exported_rows(book["Standings"])
    }
    assert workbook == page
    # The numeric column is the exact value rounded for Excel, stored as a number.
    points_col = header.index("Table points")
    for row in exported_rows(book["Standings"]):
        exact = Fraction(row[exact_col])
        assert isinstance(row[points_col], int | float)
        assert abs(Fraction(row[points_col]) - exact) < Fraction(1, 10**4)
    # Table points are shared out exactly: 7 per table per session, 56 in all.
    assert sum(Fraction(points) for points, _ in page.values()) == 2 * 4 * 7
    # Scores are zero-sum but for the 20 points deducted at each session's table 3.
    assert sum(score for _, score in page.values()) == -40
    assert book["Hands"].max_row == 1 + 2 * 4 * 16
