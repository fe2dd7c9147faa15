"""*Results for the EMA*: the EMA's checks and the ranking weight on a clean tournament of 44
players from 6 countries over 2 days (every check passes, weight 3), the faults named on the
page, the downloads (the CSV holds the workbook's rows; a file sent unchecked says so), with
every persona."""

import csv
import datetime
import io

import openpyxl
import pytest
from django.urls import reverse
from django.utils import timezone

from tests import html
from tests.conftest import download, login, make_tournament, play_every_table
from tournament import services
from tournament.models import Session
from tournament.rankings.ema_checks import CHECKS

COUNTRIES = ("FRA", "GER", "NED", "CHN", "DEN", "AUT")


def url(name, slug="ema-cup"):
    return reverse(name, args=[slug])


def text(response) -> str:
    """The page's text, as a reader reads it."""
    return html.text(response.content)


@pytest.fixture
def clean(organiser, referee):
    """44 EMA members from 6 countries, 2 sessions played whole on two days, confirmed."""
    tournament = make_tournament(creator=organiser, slug="ema-cup", sessions=2)
    tournament.referees.add(referee)
    for n in range(1, 45):
        services.player_save(
            tournament=tournament,
            number=n,
            name=f"Player {n}",
            country=COUNTRIES[n % 6],
            ema_number=f"{n:08d}",
        )
    first_day = timezone.make_aware(datetime.datetime(2026, 5, 16, 9, 30))
    for number in (1, 2):
        session = services.session_open(
            session=services.session_draw(tournament=tournament, number=number, seed=number)
        )
        Session.objects.filter(pk=session.pk).update(
            opened_at=first_day + datetime.timedelta(days=number - 1)
        )
        play_every_table(session, referee=referee)
        services.session_close(session=session)
    return tournament


def test_a_clean_tournament_passes_every_check_and_weighs_three(clean, organiser):
    page = login(organiser).get(url("ema_results"))
    report = page.context["report"]
    assert [code for code, _label, failures in report.checks if not failures] == list(CHECKS)
    assert report.weight.total == 3
    shown = text(page)
    assert "2 days played +2" in shown
    assert "44 players counted (up to 3 substitutes count) +0.5" in shown
    assert "6 countries +0.5" in shown
    assert "Weight 3" in shown
    assert "Download anyway" not in shown
    book = openpyxl.load_workbook(io.BytesIO(download(login(None), url("ema_xlsx")).content))
    cells = {row[0]: row[1] for row in book["Results"].iter_rows(values_only=True) if row}
    assert (cells["Checked"], cells["Weight"]) == ("yes", 3)


def test_the_csv_holds_the_workbooks_rows(clean):
    rows = list(csv.reader(io.StringIO(download(login(None), url("ema_csv")).content.decode())))
    book = openpyxl.load_workbook(io.BytesIO(download(login(None), url("ema_xlsx")).content))
    sheet = list(book["Results"].iter_rows(values_only=True))
    header_at = next(i for i, row in enumerate(sheet) if row and row[0] == "Place")
    assert rows[0] == list(sheet[header_at])
    assert len(rows) == len(sheet) - header_at == 45
    assert [row[0] for row in rows[1:]] == [str(row[0]) for row in sheet[header_at + 1 :]]


def test_each_fault_is_named_on_the_page_and_the_file_says_not_checked(clean, organiser):
    player = clean.players.get(number=7)
    services.player_save(tournament=clean, player=player, ema_number="")
    page = login(organiser).get(url("ema_results"))
    failed = {
        code: failures for code, _label, failures in page.context["report"].checks if failures
    }
    assert failed == {"guests_marked": ["7 Player 7"]}
    shown = text(page)
    assert "A player without an EMA number is marked an EMA guest" in shown
    assert "Download anyway, not checked (.xlsx)" in shown
    book = openpyxl.load_workbook(io.BytesIO(download(login(None), url("ema_xlsx")).content))
    cells = {row[0]: row[1] for row in book["Results"].iter_rows(values_only=True) if row}
    assert cells["Checked"] == "no: guests_marked"
    # Marked a guest, the player passes.
    services.player_save(tournament=clean, player=clean.players.get(number=7), ema_guest=True)
    assert not [
        f for _c, _l, f in login(organiser).get(url("ema_results")).context["report"].checks if f
    ]


@pytest.mark.parametrize(
    ("persona", "status"),
    [("organiser", 200), ("referee", 403), ("other_referee", 403), ("anonymous", 302)],
)
def test_the_page_is_the_organisers_and_the_files_are_public(personas, persona, status, organiser):
    make_tournament(creator=organiser, slug="ema-cup", sessions=2)
    client = personas[persona]
    assert client.get(url("ema_results")).status_code == status
    assert download(client, url("ema_csv")).status_code == 200
