"""Withdrawals and substitutes through the pages: opening a session while a withdrawn player
is still seated, the seat lists marking them, what a substitute's seat and the player pages
say, and the federation's substitute limit.

Every page or action changed is tried by the four personas of ``tests/conftest.py``.
"""

import re

import pytest
from django.urls import reverse
from django.utils import formats, timezone

from tests.conftest import give_all_tables, login, make_players
from tests.web.pages import assert_error_beside
from tournament import services
from tournament.models import Seat, Session, Tournament

BADGE = '<span class="badge warn withdrawn">withdrawn</span>'
LOGIN_URL = reverse("login")


@pytest.fixture
def drawn(tournament, referee):
    """Players 1..16 drawn by lot into session 1 (not open; the referee has every table);
    substitutes 17 and 18 registered; player 3 withdrew after the draw, still seated."""
    make_players(tournament, 16)
    make_players(tournament, 2, start=17, is_substitute=True)
    session = services.session_draw(tournament=tournament, number=1, seed=5)
    give_all_tables(session, referee)
    services.player_withdraw(player=tournament.players.get(number=3))
    return session


def table_of(session, number) -> int:
    return Seat.objects.get(session=session, player__number=number).table.number


def give_seat(session, number, to):
    seat = Seat.objects.get(session=session, player__number=number)
    services.seat_replace(seat=seat, player=session.tournament.players.get(number=to))


def opened(session) -> bool:
    return Session.objects.get(pk=session.pk).opened_at is not None


def open_url(session):
    return reverse("session_open", args=[session.tournament.slug, session.number])


# ---------------------------------------------------------------- opening a session


@pytest.mark.parametrize(
    ("persona", "expected"),
    [("organiser", 302), ("referee", 403), ("other_referee", 403), ("anonymous", 302)],
)
@pytest.mark.parametrize("after_all", [False, True])
def test_opening_with_a_withdrawn_player_seated_by_persona(
    drawn, personas, persona, expected, after_all
):
    data = {"playing_after_all": "1"} if after_all else {}
    response = personas[persona].post(open_url(drawn), data)
    assert response.status_code == expected
    if persona == "anonymous":
        assert response["Location"].startswith(LOGIN_URL)
    elif persona == "organiser":
        assert response["Location"] == drawn.tournament.get_absolute_url()
    # Only the organiser's explicit confirmation opens it.
    assert opened(drawn) == (persona == "organiser" and after_all)


def test_the_refusal_names_the_players_and_offers_change_seats_and_the_override(drawn, organiser):
    page = login(organiser).post(open_url(drawn), follow=True).content.decode()
    assert not opened(drawn)
    assert (
        f"A withdrawn player still holds a seat in session 1: 3 Player 3 at table "
        f"{table_of(drawn, 3)}. Give the seat to a substitute (Change seats), or open the "
        "session confirming that they are playing after all."
    ) in page
    assert f'href="{reverse("seat_change", args=[drawn.tournament.slug, 1])}">Change seats</a>' in (
        page
    )
    assert "1 withdrawn player still seated" in page
    override = re.search(
        r'<form method="post" action="([^"]+)" class="inline">'
        r'<input type="hidden" name="csrfmiddlewaretoken" value="[^"]+">'
        r'<input type="hidden" name="playing_after_all" value="1">'
        r'<button type="submit" class="danger">Open: they are playing after all</button>',
        page,
    )
    assert override is not None and override.group(1) == open_url(drawn)


def test_the_override_button_shows_only_while_a_withdrawn_player_is_seated(
    drawn, organiser, personas
):
    url = drawn.tournament.get_absolute_url()
    for persona in ("referee", "other_referee", "anonymous"):
        page = personas[persona].get(url).content.decode()
        assert "playing after all" not in page and "still seated" not in page
    give_seat(drawn, 3, 17)
    page = login(organiser).get(url).content.decode()
    assert "playing after all" not in page and "still seated" not in page
    assert "Open for play" in page
    response = login(organiser).post(open_url(drawn), follow=True)
    assert "Session 1 is open for play." in response.content.decode()
    assert opened(drawn)


# ---------------------------------------------------------------- the seat lists


def test_the_seating_pages_mark_the_withdrawn_player_until_the_seat_is_given(drawn, personas):
    slug = drawn.tournament.slug
    by_table = reverse("seating", args=[slug, 1])
    by_name = reverse("seating_by_name", args=[slug, 1])
    for persona in personas.values():
        for url in (by_table, by_name):
            response = persona.get(url)
            assert response.status_code == 200
            assert response.content.decode().count(BADGE) == 1
    row = personas["anonymous"].get(by_table).content.decode()
    row = row.split(f'<tr id="table-{table_of(drawn, 3)}">', 1)[1].split("</tr>", 1)[0]
    assert f"<strong>3</strong> Player 3 {BADGE}" in row

    give_seat(drawn, 3, 17)

    for url in (by_table, by_name):
        assert BADGE not in personas["anonymous"].get(url).content.decode()


@pytest.mark.parametrize(
    ("persona", "expected"),
    [("organiser", 200), ("referee", 200), ("other_referee", 403), ("anonymous", 302)],
)
def test_the_table_cards_mark_the_withdrawn_player(drawn, personas, persona, expected):
    response = personas[persona].get(reverse("table_cards", args=[drawn.tournament.slug, 1]))
    assert response.status_code == expected
    if expected == 200:
        page = response.content.decode()
        assert page.count(BADGE) == 1
        assert f"Player 3 {BADGE}</td>" in page


@pytest.mark.parametrize(
    ("persona", "expected"),
    [("organiser", 200), ("referee", 200), ("other_referee", 403), ("anonymous", 302)],
)
def test_the_referee_home_and_the_table_sheet_mark_the_withdrawn_player(
    drawn, personas, persona, expected
):
    services.session_open(session=drawn, playing_after_all=True)
    slug, table = drawn.tournament.slug, table_of(drawn, 3)
    home = personas[persona].get(reverse("referee_home", args=[slug]))
    sheet = personas[persona].get(reverse("table_sheet", args=[slug, 1, table]))
    assert (home.status_code, sheet.status_code) == (expected, expected)
    if expected == 200:
        assert f"Player 3 {BADGE}" in home.content.decode()
        assert home.content.decode().count(BADGE) == 1
        assert sheet.content.decode().count(BADGE) == 1


# ---------------------------------------------------------------- a substitute's seat


@pytest.mark.parametrize(
    ("method", "note"),
    [
        ("lot", "replaces 3 Player 3, drawn by lot"),
        ("planned", "replaces 3 Player 3 in their planned seat"),
        ("random", "replaces 3 Player 3 in the seat drawn for them"),
        ("serpentine", "replaces 3 Player 3 in the seat drawn for them"),
    ],
)
def test_a_substitutes_seat_says_how_the_replaced_player_was_seated(
    tournament, organiser, method, note
):
    make_players(tournament, 16)
    make_players(tournament, 1, start=17, is_substitute=True)
    session = services.session_draw(tournament=tournament, number=1, seed=5, method=method)
    services.player_withdraw(player=tournament.players.get(number=3))
    seat = Seat.objects.get(session=session, player__number=3)
    response = login(organiser).post(
        reverse("seat_change", args=[tournament.slug, 1]),
        {"seat": seat.pk, "player": tournament.players.get(number=17).pk},
    )
    assert response.status_code == 302
    page = login(None).get(reverse("seating", args=[tournament.slug, 1])).content.decode()
    cell = page.split('<strong>17</strong> Player 17 <span class="badge">substitute</span>')[1]
    cell = cell.split("</td>", 1)[0]
    lot = f"lot {seat.lot} · " if method == "lot" else ""
    assert cell == f'<br><small class="muted">{lot}{note}</small>'
    assert page.count("replaces 3 Player 3") == 1


# ---------------------------------------------------------------- the player pages


@pytest.fixture
def planned(tournament):
    """Players 1..16 and substitute 17 on the whole-tournament plan, session 1 drawn."""
    services.tournament_update(tournament=tournament, seating_method="planned")
    make_players(tournament, 16)
    make_players(tournament, 1, start=17, is_substitute=True)
    services.session_draw(tournament=tournament, number=1, seed=777)
    return tournament


@pytest.mark.parametrize("persona", ["organiser", "referee", "other_referee", "anonymous"])
def test_a_withdrawn_players_page_says_so_with_the_date(planned, personas, persona):
    url = reverse("player_schedule", args=[planned.slug, 5])
    assert "Planned sessions" in personas[persona].get(url).content.decode()
    withdrawn = services.player_withdraw(player=planned.players.get(number=5))

    response = personas[persona].get(url)

    assert response.status_code == 200
    page = response.content.decode()
    date = formats.date_format(timezone.localtime(withdrawn.withdrawn_at), "DATE_FORMAT")
    assert (
        f"Withdrawn on {date}: not drawn for the sessions still to come. The sessions already "
        "played stand."
    ) in page
    assert f"5 Player 5: schedule {BADGE}</h1>" in page
    assert "Planned sessions" not in page and 'id="planned-' not in page
    assert 'id="session-1"' in page  # session 1 is drawn: it stays listed


def test_other_players_pages_leave_a_withdrawn_opponents_planned_seat_to_be_filled(
    planned, personas
):
    page = personas["anonymous"].get(reverse("player_schedule", args=[planned.slug, 1]))
    row = page.content.decode().split('id="planned-2"', 1)[1].split("</tr>", 1)[0]
    (opponent,) = re.findall(r'players/(\d+)/">\1 Player \1</a>', row)[:1]
    services.player_withdraw(player=planned.players.get(number=int(opponent)))

    page = personas["anonymous"].get(reverse("player_schedule", args=[planned.slug, 1]))

    row = page.content.decode().split('id="planned-2"', 1)[1].split("</tr>", 1)[0]
    assert f"Player {opponent}<" not in row
    assert '<span class="muted to-be-filled">seat to be filled</span>' in row
    assert row.count("</a>") == 2  # the two other opponents are still named


def test_an_opponent_in_a_drawn_session_is_marked_until_the_seat_is_given(planned, organiser):
    session = planned.sessions.get(number=1)
    seat = Seat.objects.get(session=session, player__number=3)
    mate = Seat.objects.filter(table=seat.table).exclude(pk=seat.pk).first().player.number
    services.player_withdraw(player=planned.players.get(number=3))
    url = reverse("player_schedule", args=[planned.slug, mate])
    assert f"3 Player 3</a> {BADGE}" in login(None).get(url).content.decode()
    give_seat(session, 3, 17)
    page = login(None).get(url).content.decode()
    assert BADGE not in page
    assert '17 Player 17</a> <span class="badge">substitute</span>' in page


# ---------------------------------------------------------------- the substitute limit


def test_the_overview_shows_the_organiser_the_substitutes_who_have_sat(drawn, personas):
    give_seat(drawn, 3, 17)
    url = drawn.tournament.get_absolute_url()
    page = personas["organiser"].get(url).content.decode()
    assert (
        '<p class="substitute-count">1 substitute has sat at a table; the federation counts '
        "at most 3.</p>"
    ) in page
    for persona in ("referee", "other_referee", "anonymous"):
        assert "substitute-count" not in personas[persona].get(url).content.decode()


def test_beyond_the_limit_the_overview_says_the_federation_counts_only_that_many(drawn, organiser):
    services.tournament_update(tournament=drawn.tournament, substitute_limit=1)
    give_seat(drawn, 3, 17)
    give_seat(drawn, 4, 18)
    page = login(organiser).get(drawn.tournament.get_absolute_url()).content.decode()
    assert (
        "2 substitutes have sat at a table; the federation counts at most 1. "
        '<span class="badge warn">The federation will count only 1 substitute.</span>'
    ) in page


def test_the_seat_change_page_warns_before_and_after_a_seat_beyond_the_limit(drawn, organiser):
    tournament = drawn.tournament
    services.tournament_update(tournament=tournament, substitute_limit=1)
    client = login(organiser)
    url = reverse("seat_change", args=[tournament.slug, 1])
    page = client.get(url).content.decode()
    assert "A seat given to a substitute who has not sat" not in page
    assert f"Withdrawn players still seated: 3 Player 3 at table {table_of(drawn, 3)}</p>" in page
    assert "3 Player 3 (withdrawn)</option>" in page
    give_seat(drawn, 3, 17)

    page = client.get(url).content.decode()
    assert (
        "1 substitute has sat at a table; the federation counts at most 1. A seat given to a "
        "substitute who has not sat at a table yet is still given, but the federation will "
        "count only 1 substitute."
    ) in page
    assert "Withdrawn players still seated" not in page

    seat = Seat.objects.get(session=drawn, player__number=4)
    response = client.post(
        url, {"seat": seat.pk, "player": tournament.players.get(number=18).pk}, follow=True
    )
    page = response.content.decode()
    assert "Seat changed." in page
    assert (
        "Seating 18 Player 18 brings the substitutes who have sat at a table to 2: the "
        "federation counts only 1 substitute."
    ) in page
    assert Seat.objects.get(session=drawn, player__number=18).replaces.number == 4


def test_a_seat_within_the_limit_brings_no_warning(drawn, organiser):
    seat = Seat.objects.get(session=drawn, player__number=3)
    response = login(organiser).post(
        reverse("seat_change", args=[drawn.tournament.slug, 1]),
        {"seat": seat.pk, "player": drawn.tournament.players.get(number=17).pk},
        follow=True,
    )
    assert "Seat changed." in response.content.decode()
    assert "the federation counts only" not in response.content.decode()


def test_a_draw_beyond_the_limit_is_made_and_warned_of_before_and_after(tournament, organiser):
    make_players(tournament, 15)
    make_players(tournament, 1, start=16, is_substitute=True)
    services.tournament_update(tournament=tournament, substitute_limit=0)
    client = login(organiser)
    warning = (
        "Seating 16 Player 16 brings the substitutes who have sat at a table to 1: the "
        "federation counts only 0 substitutes."
    )
    page = client.get(reverse("session_draw", args=[tournament.slug])).content.decode()
    assert warning in page

    response = client.post(
        reverse("session_draw", args=[tournament.slug]), {"number": "1", "seed": "5"}, follow=True
    )

    assert warning in response.content.decode()
    assert Seat.objects.filter(session__number=1, player__number=16).exists()


def test_the_limit_is_edited_in_the_settings_and_refused_below_zero(tournament, organiser):
    client = login(organiser)
    url = reverse("tournament_edit", args=[tournament.slug])
    data = {
        "name": tournament.name,
        "slug": tournament.slug,
        "session_count": "4",
        "session_minutes": "150",
        "criterion_1": "table_points",
        "organisers": [organiser.pk],
    }
    assert 'name="substitute_limit" value="3"' in client.get(url).content.decode()
    assert client.post(url, {**data, "substitute_limit": "5"}).status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).substitute_limit == 5
    response = client.post(url, {**data, "substitute_limit": "-1"})
    assert_error_beside(response, "substitute_limit", "greater than or equal to 0")
    assert Tournament.objects.get(pk=tournament.pk).substitute_limit == 5
