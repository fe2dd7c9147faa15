"""The undo buttons of the tournament page (a reviewed draw published, a session opened for
play, closed): beside the step's own button with their rule, or why they are not offered;
posted by the tournament's organisers only, never by a GET."""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from tests import html
from tests.conftest import login, make_players, play_every_table
from tournament import services
from tournament.models import Session


def url(name, *args):
    return reverse(name, args=["spring-open", *args])


def undo_cell(client) -> str:
    """The text of session 1's undo on the tournament page ("" when none is shown)."""
    found = html.texts(client.get(url("tournament")).content, ".session-undo")
    return found[0] if found else ""


def times(session) -> tuple:
    session = Session.objects.get(pk=session.pk)
    return (session.published_at, session.opened_at, session.closed_at)


@pytest.fixture
def drawn(tournament):
    services.tournament_update(tournament=tournament, review_draws=True)
    make_players(tournament, 16)
    return services.session_draw(tournament=tournament, number=1, seed=3)


@pytest.fixture
def everyone(personas):
    """The personas, and another tournament's organiser."""
    return {**personas, "other_organiser": login(User.objects.get(username="other-organiser"))}


def refused_to_all_but_the_organiser(everyone, session, name):
    """``name`` posted (and got) by each persona but the organiser, then by the organiser:
    only the organiser's post changes the session."""
    before = times(session)
    for persona, status in [
        ("referee", 403),
        ("other_referee", 403),
        ("other_organiser", 403),
        ("anonymous", 302),
    ]:
        response = everyone[persona].post(url(name, 1))
        assert response.status_code == status, persona
        if persona == "anonymous":
            assert response["Location"].startswith(reverse("login"))
        assert times(session) == before
    assert everyone["organiser"].get(url(name, 1)).status_code == 405
    assert times(session) == before
    response = everyone["organiser"].post(url(name, 1), follow=True)
    assert times(session) != before
    return html.text(response.content)


def test_publishing_undone_by_the_organiser_only(everyone, drawn):
    organiser = everyone["organiser"]
    assert undo_cell(organiser) == ""  # under review: nothing to undo
    organiser.post(url("session_publish", 1))
    assert undo_cell(organiser).startswith("Undo publish Back under review")
    assert undo_cell(everyone["referee"]) == ""
    page = refused_to_all_but_the_organiser(everyone, drawn, "session_publish_undo")
    assert "Publishing undone: the draw of session 1 is back under review." in page
    assert times(drawn)[0] is None
    assert "Publish" in html.texts(organiser.get(url("tournament")).content, "td button")


def test_opening_undone_by_the_organiser_only(everyone, drawn):
    organiser = everyone["organiser"]
    services.session_publish(session=drawn)
    services.session_open(session=Session.objects.get(pk=drawn.pk))
    assert undo_cell(organiser) == (
        "Undo open for play Back to drawn, the clock stopped: allowed while no hand is "
        "entered at any table and no referee was called to one."
    )
    page = refused_to_all_but_the_organiser(everyone, drawn, "session_open_undo")
    assert "Opening undone: session 1 is drawn, not in play." in page
    assert times(drawn)[1] is None
    # Opened again with a hand entered, the page says why there is no undo, and a post that
    # comes anyway is refused with the same words.
    services.session_open(session=Session.objects.get(pk=drawn.pk))
    services.hand_record(
        table=drawn.tables.get(number=1), entry=services.HandEntry(number=1, outcome="draw")
    )
    assert undo_cell(organiser) == "Undo open for play: No longer: hands are entered."
    response = organiser.post(url("session_open_undo", 1), follow=True)
    assert "No longer: hands are entered." in html.text(response.content)
    assert times(drawn)[1] is not None


def test_closing_undone_by_the_organiser_only(everyone, drawn, referee):
    services.session_publish(session=drawn)
    services.session_open(session=Session.objects.get(pk=drawn.pk))
    play_every_table(drawn, referee=referee)
    services.session_close(session=drawn)
    assert undo_cell(everyone["organiser"]).startswith("Undo close In play again")
    page = refused_to_all_but_the_organiser(everyone, drawn, "session_close_undo")
    assert "Closing undone: session 1 is in play again." in page
    assert times(drawn)[2] is None
