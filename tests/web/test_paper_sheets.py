"""The paper fallback pages: blank score sheets per table and the session's penalty record,
for the same people as the table cards (the tournament's referees and organisers)."""

import pytest
from django.urls import reverse

from tests import html
from tests.conftest import login
from tests.selectors.test_paper_sheets import SEATS, digest_hands
from tournament import services
from tournament.models import Seat

SLUG = "spring-open"


def url(name, number=1, query=""):
    return reverse(name, args=[SLUG, number]) + query


def sheets_of(response) -> list[html.Element]:
    return html.elements(response.content, "section.score-sheet")


def cells(row: html.Element) -> list[html.Element]:
    return [c for c in row.children if isinstance(c, html.Element) and c.tag in ("td", "th")]


def seats_by_table(session):
    """table number -> [player of P1..P4], read from the stored seats."""
    tables: dict[int, list] = {}
    for seat in Seat.objects.filter(session=session).select_related("table", "player"):
        tables.setdefault(seat.table.number, [None] * 4)[seat.seat] = seat.player
    return tables


@pytest.fixture
def play(session_in_play, colleague):
    """Session 1 in play: table 2 is the colleague's, the other tables the referee's; two
    players have a Chinese name and a team."""
    services.tables_assign(session=session_in_play, referee=colleague, tables=[2])
    tournament = session_in_play.tournament
    for number, name_zh, team in ((1, "李伟", "Beijing Bamboo"), (2, "", "Berlin Dragons")):
        player = tournament.players.get(number=number)
        services.player_save(tournament=tournament, player=player, name_zh=name_zh, team=team)
    return session_in_play


# ---------------------------------------------------------------- who may print them


@pytest.mark.parametrize("page", ["score_sheets", "penalty_sheet"])
@pytest.mark.parametrize(
    ("persona", "expected"),
    [("organiser", 200), ("referee", 200), ("other_referee", 403), ("anonymous", 302)],
)
def test_the_paper_pages_by_persona(personas, play, page, persona, expected):
    response = personas[persona].get(url(page))
    assert response.status_code == expected
    if persona == "anonymous":
        assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("page", ["score_sheets", "penalty_sheet"])
def test_a_referee_of_the_tournament_prints_every_table_as_for_the_cards(play, colleague, page):
    # The colleague referees table 2 only; the cards are open to them for every table.
    assert login(colleague).get(url("table_cards")).status_code == 200
    response = login(colleague).get(url(page))
    assert response.status_code == 200
    if page == "score_sheets":
        assert [s.attrs["id"] for s in sheets_of(response)] == [f"table-{n}" for n in (1, 2, 3, 4)]


@pytest.mark.parametrize("page", ["score_sheets", "penalty_sheet"])
def test_a_session_not_drawn_is_404(personas, play, page):
    assert personas["organiser"].get(url(page, number=2)).status_code == 404
    assert personas["organiser"].get(url(page).replace(SLUG, "nope")).status_code == 404


@pytest.mark.parametrize("page", ["score_sheets", "penalty_sheet"])
def test_the_paper_pages_only_read(personas, play, page):
    assert personas["organiser"].post(url(page)).status_code == 405


# ---------------------------------------------------------------- the score sheets


def test_one_sheet_per_table_with_its_players_by_starting_seat(personas, play):
    response = personas["referee"].get(url("score_sheets"))
    sheets = sheets_of(response)
    stored = seats_by_table(play)
    assert [s.attrs["id"] for s in sheets] == [f"table-{n}" for n in sorted(stored)]
    for sheet, (number, players) in zip(sheets, sorted(stored.items()), strict=True):
        assert f"Session 1 · Table {number}" in sheet.find("h1")[0].text()
        (players_table,) = sheet.find("table.paper-players")
        rows = [[c.text() for c in cells(r)] for r in players_table.find("tr")][1:]
        assert rows == [
            [seat, str(p.number), f"{p.name} ({p.name_zh})" if p.name_zh else p.name, p.team]
            for seat, p in zip(SEATS, players, strict=True)
        ]
        heads = [h.text() for h in sheet.find("th.player-head")]
        assert heads == [
            f"{seat} · {p.number} {p.name}" for seat, p in zip(SEATS, players, strict=True)
        ]


def test_each_hand_row_gives_the_dealer_and_every_players_seat_wind(personas, play):
    sheet = sheets_of(personas["referee"].get(url("score_sheets")))[0]
    players = seats_by_table(play)[1]
    number_of = dict(zip(SEATS, (p.number for p in players), strict=True))
    wind_names = {"E": "East", "S": "South", "W": "West", "N": "North"}
    (grid,) = sheet.find("table.paper-grid")
    rows = [r for r in grid.find("tr") if "data-hand" in r.attrs]
    assert len(rows) == 16
    for row, (hand, prevalent, dealer, winds) in zip(rows, digest_hands(), strict=True):
        row_cells = cells(row)
        assert row_cells[0].text() == str(hand)
        assert row_cells[1].text() == wind_names[prevalent]
        assert row_cells[2].text() == f"{dealer} {number_of[dealer]}"
        # Winner, discarder, fan and flowers are left to write in.
        assert [c.text() for c in row_cells[3:7]] == ["", "", "", ""]
        # Then points and running total for P1..P4, the seat wind in the points cell.
        pairs = row_cells[7:]
        assert len(pairs) == 8
        assert [c.text() for c in pairs[0::2]] == [wind_names[winds[seat]] for seat in SEATS]
        assert [c.text() for c in pairs[1::2]] == [""] * 4
        (dealer_mark,) = row.find("span.is-dealer")
        assert any(child is dealer_mark for child in pairs[2 * SEATS.index(dealer)].children)


def test_each_sheet_has_the_boxes_to_write_in(personas, play):
    sheet = sheets_of(personas["referee"].get(url("score_sheets")))[0]
    page = sheet.text()
    for words in ("Date", "Start time", "End time", "Session score", "Place", "Table points"):
        assert words in page
    (penalties,) = sheet.find("table.paper-penalties")
    assert [c.text() for c in cells(penalties.find("tr")[0])] == [
        "Hand",
        "Player",
        "Points",
        "Paid how (circle one)",
        "Reason",
    ]
    assert len(penalties.find("tr")) == 1 + 4
    signatures = [s.text() for s in sheet.find("span.signature")]
    assert signatures[0] == "Referee"
    assert len(signatures) == 5


def test_the_page_says_to_print_and_hides_its_controls_on_paper(personas, play):
    tree = html.parse(personas["referee"].get(url("score_sheets")).content)
    (controls,) = tree.find("div.paper-controls")
    assert "no-print" in controls.attrs["class"].split()
    assert "Print this page" in controls.text()
    (button,) = controls.find("button.primary")
    # page.js prints on a tap of a button marked data-print (no inline script: the CSP).
    assert "data-print" in button.attrs


def test_blank_sheets_leave_the_players_out(personas, play):
    response = personas["referee"].get(url("score_sheets", query="?blank=1"))
    sheets = sheets_of(response)
    assert len(sheets) == 4
    names = [p.name for players in seats_by_table(play).values() for p in players]
    page = " ".join(sheet.text() for sheet in sheets)
    assert not any(name in page for name in names)
    for sheet in sheets:
        (players_table,) = sheet.find("table.paper-players")
        rows = [[c.text() for c in cells(r)] for r in players_table.find("tr")][1:]
        assert rows == [[seat, "", "", ""] for seat in SEATS]
        assert [h.text() for h in sheet.find("th.player-head")] == SEATS
        (grid,) = sheet.find("table.paper-grid")
        dealers = [cells(r)[2].text() for r in grid.find("tr") if "data-hand" in r.attrs]
        assert dealers == [dealer for _n, _w, dealer, _s in digest_hands()]


def test_one_tables_sheet_alone(personas, play):
    response = personas["referee"].get(url("score_sheets", query="?table=3&blank=1"))
    assert [s.attrs["id"] for s in sheets_of(response)] == ["table-3"]


@pytest.mark.parametrize("value", ["9", "0", "abc", "99999999999"])
def test_a_table_not_in_the_session_is_said_beside_the_field(personas, play, value):
    response = personas["referee"].get(url("score_sheets", query=f"?table={value}"))
    assert response.status_code == 404
    assert sheets_of(response) == []
    assert f"Session 1 has no table {value}." in response.content.decode()


def test_the_sheets_show_who_is_seated_now(personas, play):
    tournament = play.tournament
    substitute = services.player_save(
        tournament=tournament, number=30, name="Stand-in", is_substitute=True
    )
    seat = play.seats.select_related("table").get(player__number=5)
    services.player_withdraw(player=seat.player)
    services.seat_replace(seat=seat, player=substitute)
    response = personas["referee"].get(url("score_sheets", query=f"?table={seat.table.number}"))
    (sheet,) = sheets_of(response)
    heads = [h.text() for h in sheet.find("th.player-head")]
    assert heads[seat.seat] == f"{SEATS[seat.seat]} · 30 Stand-in"


# ---------------------------------------------------------------- the penalty record


def record_rows(response):
    tree = html.parse(response.content)
    (sheet,) = tree.find("section.penalty-record")
    (table,) = sheet.find("table.paper-penalty-record")
    body = table.find("tbody")[0]
    return [r for r in body.children if isinstance(r, html.Element) and r.tag == "tr"]


def test_the_penalty_record_lists_the_penalties_entered_then_blank_rows(play, colleague):
    table = play.tables.get(number=2)
    services.hand_record(
        table=table,
        entry=services.HandEntry(
            number=1,
            outcome="draw",
            penalties=[
                services.PenaltyEntry(
                    offender=2, kind="to_each_other", points=10, reason="False win"
                )
            ],
        ),
    )
    offender = seats_by_table(play)[2][2]
    rows = record_rows(login(colleague).get(url("penalty_sheet")))
    first = [c.text() for c in cells(rows[0])]
    assert first[:6] == [
        "",
        "2",
        "1",
        f"P3 · {offender.number} {offender.display_name}",
        "False win",
        "10",
    ]
    assert first[6] == "Paid to each other player"
    assert len(rows) == 24
    assert all("write-row" in r.attrs.get("class", "") for r in rows[1:])


def test_a_blank_penalty_record(personas, play):
    services.hand_record(
        table=play.tables.get(number=1),
        entry=services.HandEntry(
            number=1,
            outcome="draw",
            penalties=[
                services.PenaltyEntry(offender=0, kind="deducted", points=10, reason="Late")
            ],
        ),
    )
    rows = record_rows(personas["referee"].get(url("penalty_sheet", query="?blank=1")))
    assert len(rows) == 24
    assert all("write-row" in r.attrs.get("class", "") for r in rows)
    page = personas["referee"].get(url("penalty_sheet", query="?blank=1")).content.decode()
    assert "Print this page" in page


# ---------------------------------------------------------------- the links


def test_the_session_controls_link_the_paper_pages_for_referees(personas, play):
    sheets, record = url("score_sheets"), url("penalty_sheet")
    detail = reverse("tournament", args=[SLUG])
    for persona in ("organiser", "referee"):
        page = personas[persona].get(detail).content.decode()
        assert sheets in page and record in page
    page = personas["anonymous"].get(detail).content.decode()
    assert sheets not in page and record not in page
    seating = personas["organiser"].get(reverse("seating", args=[SLUG, 1])).content.decode()
    assert sheets in seating and record in seating
    home = personas["referee"].get(reverse("referee_home", args=[SLUG])).content.decode()
    assert sheets in home
