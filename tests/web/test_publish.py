"""Draws published, not just made: a tournament that reviews its draws keeps each one from
the players (their links, the seating pages, the overview, the hall's screen, the public
workbook) until an organiser publishes it; a tournament that does not is public at once."""

import io

import openpyxl
import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from tests import html
from tests.conftest import download, login, make_players
from tournament import services
from tournament.models import Seat, Tournament
from tournament.players import player_links


def url(name, *args, slug="spring-open"):
    return reverse(name, args=[slug, *args])


def text(response) -> str:
    """The page's text, as a reader reads it."""
    return html.text(response.content)


def own_page(number: int) -> str:
    player = Tournament.objects.get(slug="spring-open").players.get(number=number)
    return text(Client().get(reverse("player_link", args=[player_links.player_token(player)])))


def seating_sheet_rows(client) -> list[tuple]:
    book = openpyxl.load_workbook(io.BytesIO(download(client, url("standings_xlsx")).content))
    return list(book["Seating"].iter_rows(values_only=True))[1:]


@pytest.fixture
def reviewed(tournament):
    """Session 1 of 16 players drawn in a tournament that reviews its draws."""
    services.tournament_update(tournament=tournament, review_draws=True)
    make_players(tournament, 16)
    return services.session_draw(tournament=tournament, number=1, seed=9)


def test_a_draw_under_review_is_kept_from_the_players(reviewed):
    assert reviewed.published_at is None
    anonymous = Client()
    for page in (url("seating", 1), url("seating_by_name", 1)):
        response = anonymous.get(page)
        assert response.status_code == 404
        assert "The organisers are reviewing this draw." in text(response)
    seat = Seat.objects.select_related("table").get(session=reviewed, player__number=5)
    assert "Your next session has not been drawn yet." in own_page(5)
    assert f"Table {seat.table.number}" not in own_page(5)
    assert "Session 1" not in text(anonymous.get(url("tournament")))
    assert "No session drawn yet." in text(anonymous.get(url("tournament")))
    assert seating_sheet_rows(anonymous) == []
    schedule = text(anonymous.get(url("player_schedule", 5)))
    assert "No session has been drawn for this player yet." in schedule


def test_organisers_and_referees_review_it_with_its_seating(reviewed, organiser, referee):
    page = text(login(organiser).get(url("seating", 1)))
    assert "Under review: the players do not see this draw yet." in page
    assert "Publish the draw of session 1" in page
    page = text(login(referee).get(url("seating", 1)))
    assert "Under review" in page and "Publish the draw" not in page
    overview = text(login(organiser).get(url("tournament")))
    assert "under review" in overview and "Open for play" not in overview


def test_a_draw_under_review_cannot_be_opened_for_play(reviewed, organiser):
    with pytest.raises(ValidationError) as refused:
        services.session_open(session=reviewed)
    assert refused.value.code == "session_not_published"
    response = login(organiser).post(url("session_open", 1), follow=True)
    assert "Publish the draw of session 1 first" in text(response)


def test_publishing_shows_it_everywhere(reviewed, organiser):
    response = login(organiser).post(url("session_publish", 1))
    assert response["Location"] == url("seating", 1)
    reviewed.refresh_from_db()
    assert reviewed.published_at is not None
    anonymous = Client()
    assert anonymous.get(url("seating", 1)).status_code == 200
    seat = Seat.objects.select_related("table").get(session=reviewed, player__number=5)
    assert f"Table {seat.table.number}" in own_page(5)
    assert len(seating_sheet_rows(anonymous)) == 16
    assert "Session 1" in text(anonymous.get(url("tournament")))
    services.session_open(session=reviewed)


def test_without_review_a_draw_is_public_at_once(tournament):
    make_players(tournament, 16)
    session = services.session_draw(tournament=tournament, number=1, seed=9)
    assert session.published_at is not None
    assert Client().get(url("seating", 1)).status_code == 200


def test_the_settings_page_sets_the_review(tournament, organiser):
    page = login(organiser).get(url("tournament_edit")).content.decode()
    assert html.elements(page, "input[name=review_draws]")


@pytest.mark.parametrize(
    ("persona", "status"),
    [("organiser", 302), ("referee", 403), ("other_referee", 403), ("anonymous", 302)],
)
def test_only_an_organiser_publishes(personas, reviewed, persona, status):
    response = personas[persona].post(url("session_publish", 1))
    assert response.status_code == status
    if persona == "anonymous":
        assert response["Location"].startswith(reverse("login"))
    reviewed.refresh_from_db()
    assert (reviewed.published_at is not None) == (persona == "organiser")


def test_the_halls_screen_shows_no_draw_under_review(reviewed, organiser):
    from tournament.selectors.screen import compute_screen_state

    assert compute_screen_state(reviewed.tournament).session is None
    login(organiser).post(url("session_publish", 1))
    assert compute_screen_state(reviewed.tournament).session.number == 1
