"""The workbooks as a spreadsheet shows them: LibreOffice opens the standings workbook and the
results for the EMA, writes every sheet as CSV with the cells as shown, and every number is
compared with what the pages show.

The pages are rendered through the test client: the public standings page (standings and
teams), the public player pages (seating), the organiser's score sheets (each table's result
and hands, penalties included) and the organiser's player list (names, countries and EMA
numbers). The tournament is the two-session scenario of tests/test_exports.py with the EMA
numbers of tests/test_ema_export.py.

Needs LibreOffice (``soffice``; Debian: ``apt-get install libreoffice-calc-nogui``): marked
``libreoffice``, run by ``make test`` when ``soffice`` is there or MCR_REQUIRE_LIBREOFFICE is
set (CI sets it and installs LibreOffice).
"""

import csv
import re
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from tests import html
from tests.test_ema_export import make_ema_cup
from tests.web.test_players import row_cells
from tournament import services
from tournament.exports import ema, workbook
from tournament.models import Table

pytestmark = pytest.mark.libreoffice

SLUG = "standings-cup"
# Comma-separated, '"'-quoted, UTF-8, cells as shown (the 9th field), every sheet to a file of
# its own (the 12th, -1): LibreOffice names them "<file>-<sheet>.csv".
CSV_FILTER = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true,false,false,-1"
CONVERT_SECONDS = 180


def soffice() -> str:
    found = shutil.which("soffice")
    assert found, (
        "LibreOffice is needed by these tests: apt-get install libreoffice-calc-nogui "
        "(or leave them out with -m 'not libreoffice')"
    )
    return found


def as_csv(
    content: bytes, name: str, folder: Path, suffix: str = ".xlsx"
) -> dict[str, list[list[str]]]:
    """Every sheet of the workbook ``content`` (or of the file of that ``suffix``), as
    LibreOffice shows it and writes it to CSV: sheet title -> rows of cell texts.
    LibreOffice runs with a profile of its own, so that runs in parallel do not share one."""
    path = folder / f"{name}{suffix}"
    path.write_bytes(content)
    out = folder / "csv"
    profile = folder / "profile"
    done = subprocess.run(
        [
            soffice(),
            f"-env:UserInstallation={profile.as_uri()}",
            "--headless",
            "--norestore",
            "--convert-to",
            CSV_FILTER,
            "--outdir",
            str(out),
            str(path),
        ],
        capture_output=True,
        text=True,
        timeout=CONVERT_SECONDS,
        check=False,
    )
    sheets = {
        csv_path.stem.removeprefix(f"{name}-"): list(
            csv.reader(csv_path.open(encoding="utf-8", newline=""))
        )
        for csv_path in out.glob(f"{name}-*.csv")
    }
    assert sheets, f"LibreOffice wrote no CSV ({done.returncode}): {done.stdout}{done.stderr}"
    return sheets


# ---------------------------------------------------------------- reading cells and pages


def shown_fraction(text: str) -> Fraction:
    """A cell of the fraction format as shown, "5  1/3 " or "4      ", as its value."""
    return sum((Fraction(part) for part in text.split()), Fraction(0))


def page_points(text: str) -> Fraction:
    """Table points as a page writes them: "16/3", "4.5", "7"."""
    return Fraction(text.strip())


def signed(text: str) -> int:
    """A score as the sheet writes it: "+32", "−8" (a minus sign), "0"."""
    return int(text.strip().replace("−", "-"))


def number(text: str) -> int | None:
    return int(text) if text.strip() else None


def by_header(rows: list[list[str]], first: str = "") -> list[dict[str, str]]:
    """The table's rows below the header as dicts, up to the first blank row (notes may
    follow it); ``first``: the header's first heading, for a sheet with rows above its
    header."""
    if first:
        rows = rows[next(i for i, row in enumerate(rows) if row and row[0] == first) :]
    header, *data = rows
    blank = next((i for i, row in enumerate(data) if not any(row)), len(data))
    return [dict(zip(header, row, strict=True)) for row in data[:blank]]


def table(page: str, css_class: str) -> list[list[list[str]]]:
    """The body rows of the page's table of that class, each cell's words (its ``td``)."""
    (found,) = html.elements(page, f"table.{css_class}")
    return [[cell.text().split() for cell in row.find("td")] for row in found.find("tbody tr")]


def text(cell: list[str]) -> str:
    return " ".join(cell)


# The pages and both workbooks' CSV, as plain text: made by the first test that asks, then
# shared by the module's tests (LibreOffice takes seconds to start), all on one pytest worker
# (tests/conftest.py, SHARED_SET_UP).
_CONVERTED: dict = {}


@pytest.fixture
def converted(db, tmp_path_factory):
    """The pages as the test client renders them and both workbooks as LibreOffice shows
    them."""
    if not _CONVERTED:
        pages, workbooks = _render(make_ema_cup(slug=SLUG))
        folder = tmp_path_factory.mktemp("workbooks")
        _CONVERTED.update(
            pages=pages,
            main=as_csv(workbooks["main"], "standings", folder),
            ema=as_csv(workbooks["ema"], "ema", folder),
        )
    return _CONVERTED


def _warned(tournament) -> None:
    """A warning ruled at session 2's table 1 (confirmed: a ruling without a penalty may
    come after), its decision on two lines: the record of fouls has the two penalties and
    it."""
    table = Table.objects.get(session__tournament=tournament, session__number=2, number=1)
    services.ruling_give(
        table=table,
        referee=tournament.organisers.get(),
        hand=1,
        decision="Late back from the break.\nWarned: the next time is 10 points.",
        offence="lateness",
        players=[table.seats.get(seat=0).player],
    )


# A change of the rules after play, whose reason a spreadsheet would take for a formula.
RULES_REASON = "=7 fan, as the hall's rules say"


def _render(tournament) -> tuple[dict, dict[str, bytes]]:
    _warned(tournament)
    services.rules_change(
        tournament=tournament,
        user=tournament.organisers.get(),
        reason=RULES_REASON,
        minimum_fan=7,
    )
    tournament.refresh_from_db()
    organiser = Client()
    organiser.force_login(tournament.organisers.get())
    anonymous = Client()
    tables = Table.objects.filter(session__tournament=tournament).select_related("session")
    pages = {
        "standings": anonymous.get(reverse("standings", args=[SLUG])).content.decode(),
        "players": organiser.get(reverse("player_list", args=[SLUG])).content.decode(),
        "fouls": organiser.get(reverse("record_of_fouls", args=[SLUG])).content.decode(),
        "rules": anonymous.get(reverse("rules", args=[SLUG])).content.decode(),
        "schedules": {
            player.number: anonymous.get(
                reverse("player_schedule", args=[SLUG, player.number])
            ).content.decode()
            for player in tournament.players.all()
        },
        "sheets": {
            (t.session.number, t.number): organiser.get(
                reverse("table_sheet", args=[SLUG, t.session.number, t.number])
            ).content.decode()
            for t in tables
        },
    }
    workbooks = {
        "main": workbook.standings_xlsx_bytes(tournament),
        "ema": ema.ema_xlsx_bytes(tournament),
    }
    return pages, workbooks


# ---------------------------------------------------------------- the standings workbook


def test_libreoffice_reads_every_sheet(converted):
    assert sorted(converted["main"]) == sorted(
        [
            "Standings",
            "Session 1",
            "Session 2",
            "Hands",
            "Penalties",
            "Record of fouls",
            "Seating",
            "Teams",
            "Rules",
        ]
    )
    assert list(converted["ema"]) == ["Results"]


def test_the_standings_sheet_shows_the_numbers_of_the_standings_page(converted):
    page = table(converted["pages"]["standings"], "standings")
    sheet = by_header(converted["main"]["Standings"], "Rank")
    assert len(sheet) == len(page) == 10  # eight players, a spare substitute, a withdrawal
    for row, cells in zip(sheet, page, strict=True):
        rank, no, _player, _team, points, score, *places, sessions, best = cells
        assert number(row["Rank"]) == number(text(rank))
        assert int(row["Number"]) == int(text(no))
        exact = page_points(text(points))
        assert shown_fraction(row["Table points (exact)"]) == exact
        assert Fraction(row["Table points"]) == round(exact, workbook.TABLE_POINTS_DECIMALS)
        assert int(row["Score"]) == int(text(score))
        assert [int(row[p]) for p in ("1st", "2nd", "3rd", "4th")] == [int(text(p)) for p in places]
        assert int(row["Sessions played"]) == int(text(sessions))
        assert number(row["Best session"]) == number(text(best))


def test_the_teams_sheet_shows_the_numbers_of_the_team_standings(converted):
    page = table(converted["pages"]["standings"], "team-standings")
    sheet = by_header(converted["main"]["Teams"])
    assert len(sheet) == len(page) == 2
    for row, (rank, team, _members, points, score) in zip(sheet, page, strict=True):
        assert (int(row["Rank"]), row["Team"]) == (int(text(rank)), text(team))
        assert shown_fraction(row["Table points (exact)"]) == page_points(text(points))
        assert int(row["Score"]) == int(text(score))


def test_the_session_sheets_show_each_tables_result_as_its_score_sheet(converted):
    sheets = converted["pages"]["sheets"]
    compared = 0
    for session in (1, 2):
        rows = by_header(converted["main"][f"Session {session}"])
        for row in rows:
            summary = table(sheets[(session, int(row["Table"]))], "summary")
            (cells,) = [c for c in summary if text(c[0]) == row["Seat"]]
            _seat, player, score, place, points = cells
            assert int(row["Number"]) == int(player[0])
            assert int(row["Score"]) == signed(text(score))
            assert int(row["Place"]) == int(text(place))
            assert shown_fraction(row["Table points (exact)"]) == page_points(text(points))
            compared += 1
    assert compared == 16


def sheet_hands(page: str) -> dict[int, tuple[str, list[int]]]:
    """Hand number -> (the result cell's text, the four points) of a score sheet page."""
    hands = {}
    for row in html.elements(page, "tr[id]"):
        if not re.fullmatch(r"hand-\d+", row.attrs["id"]):
            continue
        cells = row.find("td")
        # The points of each player: the span of their plus or minus (the seat's wind and
        # place above it are in a <small>).
        points = [
            [span.text() for span in cell.find("span[class]") if span.classes <= {"plus", "minus"}]
            for cell in cells[3:]
        ]
        if all(points):
            number = int(row.attrs["id"].removeprefix("hand-"))
            hands[number] = (cells[2].text(), [signed(p[0]) for p in points])
    return hands


def test_the_hands_sheet_shows_each_hand_as_its_score_sheet(converted):
    sheets = {key: sheet_hands(html) for key, html in converted["pages"]["sheets"].items()}
    rows = by_header(converted["main"]["Hands"])
    assert len(rows) == sum(len(hands) for hands in sheets.values()) == 49
    for row in rows:
        result, points = sheets[(int(row["Session"]), int(row["Table"]))][int(row["Hand"])]
        assert [int(row[f"Points P{seat}"]) for seat in range(1, 5)] == points
        if row["Fan"]:
            winner = f"{row['Winner']} " + (
                "self-drawn" if row["Discarder"] == "" else f"on discard of {row['Discarder']}"
            )
            assert result.startswith(f"{winner} {int(row['Fan'])}")
            flowers = int(row["Flowers"])
            assert (f"+ {flowers} flower" in result) == (flowers > 0)


def test_the_penalties_sheet_shows_the_penalties_of_the_score_sheets(converted):
    shown = {
        (session, table_, hand, seat, int(points))
        for (session, table_), html in converted["pages"]["sheets"].items()
        for hand, (result, _points) in sheet_hands(html).items()
        for seat, points in re.findall(r"Penalty (P\d) (\d+) \(", result)
    }
    rows = by_header(converted["main"]["Penalties"])
    assert {
        (
            int(row["Session"]),
            int(row["Table"]),
            int(row["Hand"]),
            row["Offender seat"],
            int(row["Points"]),
        )
        for row in rows
    } == shown
    assert len(rows) == len(shown) == 2


def test_the_record_of_fouls_sheet_shows_the_record_of_fouls_page(converted):
    page = [[text(cell) for cell in row] for row in table(converted["pages"]["fouls"], "fouls")]
    rows = by_header(converted["main"]["Record of fouls"])
    assert len(rows) == len(page) == 3
    for row, shown in zip(rows, page, strict=True):
        number, session, table_, hand, time, player, offence, penalty, decision, *rest = shown
        referee, appeal = rest
        assert [row["No."], row["Session"], row["Table"], row["Hand"]] == [
            number,
            session,
            table_,
            hand,
        ]
        assert row["Time"] == time
        chinese = f" ({row['Chinese name']})" if row["Chinese name"] else ""
        assert player == f"{row['Player number']} {row['Player']}{chinese}"
        assert (row["Offence"] or "—") == offence
        assert row["Referee"] == referee
        assert row["Appeal"] == appeal
        if row["Points"]:
            assert penalty.startswith(row["Points"])
        else:
            assert (row["Penalty"], penalty) == ("warning", "warning")
        # The decision's lines, as the page writes them side by side.
        assert " ".join(row["Decision"].split()) in decision
    assert [row["Penalty"] for row in rows] == [
        "Paid to each other player",
        "Deducted (leaves the table)",
        "warning",
    ]


def test_the_seating_sheet_shows_every_players_schedule(converted):
    seats = by_header(converted["main"]["Seating"])
    for player, page in converted["pages"]["schedules"].items():
        schedule = [
            (int(text(session)), int(text(table_)), seat[0])
            for session, table_, seat, *_opponents in (
                table(page, "player-schedule") if "player-schedule" in page else []
            )
        ]
        assert schedule == [
            (int(row["Session"]), int(row["Table"]), row["Seat"])
            for row in seats
            if int(row["Number"]) == player
        ]
    assert len(seats) == 16


# ---------------------------------------------------------------- the results for the EMA


def test_the_rules_sheet_says_the_rules_page_s_options_and_its_change(converted):
    page = converted["pages"]["rules"]
    said = dict(
        zip(
            html.texts(page, "dl.rules-options dt"),
            html.texts(page, "dl.rules-options dd"),
            strict=True,
        )
    )
    rows = by_header(converted["main"]["Rules"], "Rule")
    sheet = {row["Rule"]: row["As played"] for row in rows if row["Rule"]}
    for label, text_ in said.items():
        assert text_.startswith(sheet[label]), label
    assert sheet["Minimum"] == "7 fan, flowers not counted"
    [change] = [row for row in rows if row["Rule"].startswith("Changed on")]
    # The reason a text as typed, never a formula's result.
    assert change["As played"] == RULES_REASON
    assert change["Note"] == "Minimum: 8 fan, flowers not counted → 7 fan, flowers not counted"


def ema_sheet(converted) -> tuple[dict[str, str], list[dict[str, str]]]:
    rows = converted["ema"]["Results"]
    start = next(index for index, row in enumerate(rows) if row[0] == "Place")
    block = {row[0]: row[1] for row in rows[:start] if row[0]}
    return block, by_header(rows[start:])


def test_the_emas_results_show_the_places_and_figures_of_the_standings_page(converted):
    page = table(converted["pages"]["standings"], "standings")
    # The standings' players the EMA lists: the ranked, then the substitutes who played.
    listed = [
        cells
        for cells in page
        if text(cells[0]) or ("substitute" in cells[2] and text(cells[10]) != "0")
    ]
    block, rows = ema_sheet(converted)
    assert len(rows) == len(listed) == 8
    for row, cells in zip(rows, listed, strict=True):
        rank, _no, _player, _team, points, score, *_rest = cells
        assert number(row["Place"]) == number(text(rank))
        assert shown_fraction(row["Table points"]) == page_points(text(points))
        assert int(row["Score"]) == int(text(score))
        assert row["Note"] == ("" if text(rank) else "substitute")
    assert int(block["Players"]) == sum(1 for cells in listed if text(cells[0]))
    assert int(block["Substitutes"]) == sum(1 for cells in listed if not text(cells[0]))
    assert block["Rules"] == "MCR"


def test_the_emas_results_name_the_players_as_the_player_list_does(converted):
    page = table(converted["pages"]["standings"], "standings")
    listed = [
        int(text(cells[1]))
        for cells in page
        if text(cells[0]) or ("substitute" in cells[2] and text(cells[10]) != "0")
    ]
    players = converted["pages"]["players"]
    _block, rows = ema_sheet(converted)
    for row, player in zip(rows, listed, strict=True):
        _no, _name, first, last, _zh, _team, country, ema_number, *_rest = row_cells(
            players, str(player)
        )
        assert (row["Last name"], row["First name"]) == (last, first)
        assert row["Country"] == country
        # The number as registered, leading zero kept; a guest's is empty.
        assert row["EMA number"] == ema_number
        assert row["EMA member"] == ("yes" if ema_number else "no")
    assert [row["EMA number"] for row in rows if row["EMA number"]] == [
        "22000031",
        "04010005",
        "05000012",
    ]
