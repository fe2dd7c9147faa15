"""The draw through the organiser's pages: the seed stored and shown, a fresh seed, the
sessions offered, players short of tables of four, substitutes and withdrawn players, the
same seating for the same seed."""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from tests import html
from tests.conftest import login, make_players, make_tournament
from tests.web.pages import assert_error_beside, seating_of
from tournament import services


def test_a_draw_through_the_form_stores_the_seed_and_shows_it(tournament, organiser):
    make_players(tournament, 8)
    response = login(organiser).post(
        reverse("session_draw", args=[tournament.slug]),
        {"number": "1", "seed": "123456789"},
        follow=True,
    )
    assert response.redirect_chain == [(reverse("seating", args=[tournament.slug, 1]), 302)]
    session = tournament.sessions.get(number=1)
    assert session.seed == 123456789
    assert session.seats.count() == 8
    page = response.content
    assert "Session 1 drawn with seed 123456789." in html.text(page)
    assert html.texts(page, "span.seed") == ["123456789"]


def test_a_draw_without_a_seed_gets_a_fresh_nine_digit_seed(tournament, organiser):
    make_players(tournament, 4)
    login(organiser).post(reverse("session_draw", args=[tournament.slug]), {"number": "2"})
    assert 100_000_000 <= tournament.sessions.get(number=2).seed <= 999_999_999


def test_once_planned_the_draw_form_says_the_plan_keeps_its_seed(tournament, organiser):
    services.tournament_update(tournament=tournament, seating_method="planned")
    make_players(tournament, 8)
    page = reverse("session_draw", args=[tournament.slug])
    assert (
        "Leave empty for a fresh random seed. The same seed"
        in login(organiser).get(page).content.decode()
    )
    session = services.session_draw(tournament=tournament, number=1)
    html = login(organiser).get(page).content.decode()
    assert f"seats every session from its plan&#x27;s seed, {session.seed}: leave it empty" in html


def test_drawing_the_same_session_twice_is_refused(drawn, tournament, organiser):
    seats_before = seating_of(drawn)
    response = login(organiser).post(
        reverse("session_draw", args=[tournament.slug]), {"number": "1", "seed": "42"}
    )
    assert_error_beside(response, "number", "Select a valid choice")
    assert tournament.sessions.count() == 1
    drawn.refresh_from_db()
    assert drawn.seed == 123456789
    assert seating_of(drawn) == seats_before


def test_the_draw_form_offers_only_sessions_not_yet_drawn(drawn, tournament, organiser):
    response = login(organiser).get(reverse("session_draw", args=[tournament.slug]))
    assert [n for n, _label in response.context["form"].fields["number"].choices] == [2, 3, 4]


@pytest.mark.parametrize("number", ["0", "5", "-1"])
def test_a_session_number_outside_the_tournament_is_refused(tournament, organiser, number):
    make_players(tournament, 4)
    response = login(organiser).post(
        reverse("session_draw", args=[tournament.slug]), {"number": number, "seed": "1"}
    )
    assert_error_beside(response, "number", "Select a valid choice")
    assert not tournament.sessions.exists()


def test_fifteen_players_are_told_one_substitute_is_missing(tournament, organiser):
    make_players(tournament, 15)
    response = login(organiser).post(
        reverse("session_draw", args=[tournament.slug]), {"number": "1", "seed": "7"}
    )
    assert response.status_code == 200
    told = (
        "15 active players, not counting substitutes, cannot fill tables of four. Register 1 "
        "more substitute to fill the last table. Otherwise, withdraw 3 players so that the "
        "others fill whole tables."
    )
    assert response.context["form"].non_field_errors() == [told]
    assert told in response.content.decode()
    assert not tournament.sessions.exists()


def test_a_registered_substitute_completes_the_last_table(tournament, organiser):
    make_players(tournament, 15)
    services.player_save(tournament=tournament, number=99, name="Sub", is_substitute=True)
    response = login(organiser).post(
        reverse("session_draw", args=[tournament.slug]), {"number": "1", "seed": "7"}
    )
    assert response.status_code == 302
    seats = seating_of(tournament.sessions.get(number=1))
    assert sorted(seats) == [*range(1, 16), 99]
    assert {table for table, _seat in seats.values()} == {1, 2, 3, 4}


def test_withdrawn_players_are_not_drawn(tournament, organiser):
    players = make_players(tournament, 17)
    services.player_withdraw(player=players[4])
    response = login(organiser).post(
        reverse("session_draw", args=[tournament.slug]), {"number": "1", "seed": "7"}
    )
    assert response.status_code == 302
    seats = seating_of(tournament.sessions.get(number=1))
    assert len(seats) == 16
    assert 5 not in seats


def test_the_same_seed_gives_the_same_seating_in_two_tournaments(
    tournament, other_tournament, organiser
):
    make_players(tournament, 16)
    make_players(other_tournament, 16)
    other_owner = User.objects.get(username="other-organiser")
    for owner, cup in [(organiser, tournament), (other_owner, other_tournament)]:
        response = login(owner).post(
            reverse("session_draw", args=[cup.slug]), {"number": "1", "seed": "20261130"}
        )
        assert response.status_code == 302
    first = seating_of(tournament.sessions.get(number=1))
    second = seating_of(other_tournament.sessions.get(number=1))
    assert len(first) == 16
    assert first == second


def test_a_different_seed_gives_another_seating(tournament, other_tournament):
    make_players(tournament, 16)
    make_players(other_tournament, 16)
    one = services.session_draw(tournament=tournament, number=1, seed=1)
    two = services.session_draw(tournament=other_tournament, number=1, seed=2)
    assert seating_of(one) != seating_of(two)


def test_every_session_drawn_leaves_no_form(tournament, organiser):
    cup = make_tournament(creator=organiser, slug="one-day", sessions=1)
    make_players(cup, 4)
    services.session_draw(tournament=cup, number=1, seed=1)
    response = login(organiser).get(reverse("session_draw", args=[cup.slug]))
    assert response.status_code == 200
    assert "Every session is drawn." in response.content.decode()


def test_before_the_first_draw_the_page_says_what_each_method_gives(tournament, organiser):
    make_players(tournament, 8)
    page = login(organiser).get(reverse("session_draw", args=[tournament.slug])).content
    section = html.one(page, "section#method-previews")
    assert "8 players over 4 sessions: no seating can have fewer than 20 repeated meetings" in (
        section.text()
    )
    method, meetings = section.one("tr#preview-planned").find("td")
    assert (
        method.text() == "Planned for the whole tournament (the fewest repeated meetings possible)"
    )
    assert meetings.text() == "20 the fewest possible"
    assert meetings.one("span.badge").text() == "the fewest possible"
    assert section.find("#preview-random") and section.find("#preview-lot")
    # Once a session is drawn the figures of the draw itself take over: no preview.
    services.session_draw(tournament=tournament, number=1, seed=1)
    page = login(organiser).get(reverse("session_draw", args=[tournament.slug])).content
    assert not html.elements(page, "#method-previews")


def test_no_preview_while_the_players_cannot_fill_tables(tournament, organiser):
    make_players(tournament, 7)
    page = login(organiser).get(reverse("session_draw", args=[tournament.slug])).content
    assert not html.elements(page, "#method-previews")


def test_the_settings_page_says_it_too_before_the_first_draw(tournament, organiser):
    make_players(tournament, 8)
    client = login(organiser)
    page = client.get(reverse("tournament_edit", args=[tournament.slug])).content.decode()
    assert "no seating can have fewer than 20 repeated meetings" in page
    # The new-tournament form knows no players yet: its methods only say what they aim at.
    page = client.get(reverse("tournament_create")).content
    assert not html.elements(page, "#method-previews")
    assert "the fewest repeated meetings possible" in html.text(page)
