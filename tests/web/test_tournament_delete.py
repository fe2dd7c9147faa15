"""Deleting a tournament: a confirmation page saying what goes with it, then the deletion.

Tried first by the four personas of ``tests/conftest.py``; then the way an organiser uses it.
"""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from tests import html as html_reader
from tests.conftest import login, play_some_sessions
from tests.web.pages import assert_error_beside
from tournament.models import Player, Session, Tournament

LOGIN_URL = reverse("login")
URL = reverse("tournament_delete", args=["spring-open"])
CONFIRMED = {"confirm_slug": "spring-open"}


@pytest.fixture
def played(tournament, organiser, referee):
    play_some_sessions(tournament, organiser=organiser, referee=referee)
    return tournament


# ---------------------------------------------------------------- who may do what


@pytest.mark.parametrize(
    ("persona", "expected"),
    [("organiser", 200), ("referee", 403), ("other_referee", 403), ("anonymous", 302)],
)
def test_confirmation_page_by_persona(tournament, personas, persona, expected):
    response = personas[persona].get(URL)
    assert response.status_code == expected
    if persona == "anonymous":
        assert response["Location"].startswith(LOGIN_URL + "?next=")


@pytest.mark.parametrize(
    ("persona", "expected"),
    [("organiser", 302), ("referee", 403), ("other_referee", 403), ("anonymous", 302)],
)
def test_only_the_organiser_deletes(tournament, personas, persona, expected):
    response = personas[persona].post(URL, CONFIRMED)
    assert response.status_code == expected
    if persona == "organiser":
        assert response["Location"] == reverse("home")
    elif persona == "anonymous":
        assert response["Location"].startswith(LOGIN_URL + "?next=")
    assert Tournament.objects.filter(slug="spring-open").exists() == (persona != "organiser")


def test_the_organiser_of_another_tournament_is_refused(tournament, other_tournament):
    client = login(User.objects.get(username="other-organiser"))
    assert client.get(URL).status_code == 403
    assert client.post(URL, CONFIRMED).status_code == 403
    assert Tournament.objects.filter(slug="spring-open").exists()


def test_a_superuser_may_delete_any_tournament(tournament):
    client = login(User.objects.create_superuser("admin", password="pw-admin"))
    assert client.get(URL).status_code == 200
    assert client.post(URL, CONFIRMED).status_code == 302
    assert not Tournament.objects.filter(slug="spring-open").exists()


@pytest.mark.parametrize("method", ["get", "post"])
def test_unknown_tournament_is_404(organiser, method):
    url = reverse("tournament_delete", args=["no-such-cup"])
    response = getattr(login(organiser), method)(url, {"confirm_slug": "no-such-cup"})
    assert response.status_code == 404


@pytest.mark.parametrize("method", ["put", "delete"])
def test_other_methods_are_405(tournament, organiser, method):
    assert getattr(login(organiser), method)(URL).status_code == 405
    assert Tournament.objects.filter(slug="spring-open").exists()


# ---------------------------------------------------------------- the confirmation page


def test_the_page_says_what_goes_with_the_tournament(played, organiser):
    response = login(organiser).get(URL)
    html = response.content.decode()
    for line in [
        "17 registered players",
        "2 sessions drawn",
        "8 tables with their seats",
        "64 hands entered",
        "1 penalty",
        "2 corrections of hands",
        "1 reopening of a confirmed table",
        "The seating plan for the whole tournament",
    ]:
        assert line in html_reader.texts(html, "li")
    assert "Type “spring-open” to confirm" in html


def test_the_page_of_an_empty_tournament_counts_nothing(tournament, organiser):
    page = login(organiser).get(URL).content
    listed = html_reader.texts(page, "li")
    assert "0 registered players" in listed
    assert "0 hands entered" in listed
    assert "seating plan" not in html_reader.text(page)


@pytest.mark.parametrize("typed", ["Spring Open", "spring", "autumn-cup"])
def test_a_wrong_confirmation_is_shown_beside_the_field_and_deletes_nothing(
    played, other_tournament, organiser, typed
):
    players = Player.objects.count()
    response = login(organiser).post(URL, {"confirm_slug": typed})
    assert_error_beside(response, "confirm_slug", "Type “spring-open” exactly")
    # The counts are still there to read.
    assert "64 hands entered" in html_reader.texts(response.content, "li")
    assert Tournament.objects.filter(slug="spring-open").exists()
    assert Player.objects.count() == players


def test_an_empty_confirmation_is_required(tournament, organiser):
    response = login(organiser).post(URL, {})
    assert_error_beside(response, "confirm_slug", "This field is required.")
    assert Tournament.objects.filter(slug="spring-open").exists()


def test_the_organisers_post_deletes_a_played_tournament_and_lands_home(
    played, other_tournament, organiser
):
    response = login(organiser).post(URL, CONFIRMED, follow=True)
    assert response.redirect_chain == [(reverse("home"), 302)]
    html = response.content.decode()
    assert "Tournament “Spring Open” deleted." in html
    assert "Autumn Cup" in html
    assert not Tournament.objects.filter(slug="spring-open").exists()
    assert not Session.objects.filter(tournament__slug="spring-open").exists()
    assert list(Tournament.objects.all()) == [other_tournament]


def test_the_settings_page_links_to_the_deletion_but_the_new_tournament_page_does_not(
    tournament, organiser
):
    client = login(organiser)
    settings = client.get(reverse("tournament_edit", args=["spring-open"])).content.decode()
    assert html_reader.elements(settings, f"a[href='{URL}']")
    assert "Delete this tournament" in settings
    new = client.get(reverse("tournament_create")).content.decode()
    assert "Delete this tournament" not in new
