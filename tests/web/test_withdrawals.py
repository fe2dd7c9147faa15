"""Withdrawals and substitutes through the pages: opening a session while a withdrawn player
is still seated, the seat lists marking them, what a substitute's seat and the player pages
say, and the federation's substitute limit.

Every page or action changed is tried by the four personas of ``tests/conftest.py``.
"""

import itertools

import pytest
from django.urls import reverse
from django.utils import formats, timezone

from tests import html
from tests.conftest import give_all_tables, login, make_players
from tests.web.pages import assert_error_beside
from tournament import services
from tournament.models import Seat, Session, Tournament

# The badge a withdrawn player's name carries.
BADGE = "span.badge.warn.withdrawn"


def badges(page) -> list[str]:
    """The withdrawn badges on the page, as read."""
    return html.texts(page, BADGE)


def holders(page) -> list[str]:
    """The text of each element that holds a withdrawn badge, as read: who it marks."""
    return [
        parent.text()
        for parent in html.parse(page).find("*")
        if any(isinstance(child, html.Element) and child in parent.find(BADGE)
               for child in parent.children)
    ]  # fmt: skip


def badge_after(page, name: str) -> list[str]:
    """The texts of the badges right after each link whose text is ``name``."""
    found = []
    for parent in html.parse(page).find("*"):
        elements = [child for child in parent.children if isinstance(child, html.Element)]
        for link, following in itertools.pairwise(elements):
            if link.tag == "a" and link.text() == name and "badge" in following.classes:
                found.append(following.text())
    return found


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
    change = f"a[href='{reverse('seat_change', args=[drawn.tournament.slug, 1])}']"
    assert "Change seats" in html.texts(page, change)
    assert "1 withdrawn player still seated" in html.text(page)
    (override,) = [
        form
        for form in html.elements(page, "form[method=post].inline")
        if form.find("input[type=hidden][name=playing_after_all][value='1']")
    ]
    assert override.attrs["action"] == open_url(drawn)
    assert override.find("input[type=hidden][name=csrfmiddlewaretoken]")
    (button,) = override.find("button[type=submit].danger")
    assert button.text() == "Open: they are playing after all"


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
            assert badges(response.content) == ["withdrawn"]
    page = personas["anonymous"].get(by_table).content
    (row,) = html.elements(page, f"tr#table-{table_of(drawn, 3)}")
    (cell,) = [cell for cell in row.find("td") if cell.find(BADGE)]
    assert cell.one("strong").text() == "3" and cell.text().startswith("3 Player 3 withdrawn")

    give_seat(drawn, 3, 17)

    for url in (by_table, by_name):
        assert not badges(personas["anonymous"].get(url).content)


@pytest.mark.parametrize(
    ("persona", "expected"),
    [("organiser", 200), ("referee", 200), ("other_referee", 403), ("anonymous", 302)],
)
def test_the_table_cards_mark_the_withdrawn_player(drawn, personas, persona, expected):
    response = personas[persona].get(reverse("table_cards", args=[drawn.tournament.slug, 1]))
    assert response.status_code == expected
    if expected == 200:
        assert badges(response.content) == ["withdrawn"]
        (cell,) = [c for c in html.elements(response.content, "td") if c.find(BADGE)]
        assert cell.text().endswith("Player 3 withdrawn")


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
        assert [text for text in holders(home.content) if "Player 3 withdrawn" in text]
        assert badges(home.content) == ["withdrawn"]
        assert badges(sheet.content) == ["withdrawn"]


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
    page = login(None).get(reverse("seating", args=[tournament.slug, 1])).content
    (cell,) = [c for c in html.elements(page, "table.seating td") if c.one("strong").text() == "17"]
    lot = f"lot {seat.lot} · " if method == "lot" else ""
    assert cell.lines() == ["17 Player 17 substitute", f"{lot}{note}"]
    assert [e.text() for e in cell.find(".badge")] == ["substitute"]
    assert cell.one("small.muted").text() == f"{lot}{note}"
    assert html.text(page).count("replaces 3 Player 3") == 1


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
    page = html.parse(response.content)
    date = formats.date_format(timezone.localtime(withdrawn.withdrawn_at), "DATE_FORMAT")
    assert (
        f"Withdrawn on {date}: not drawn for the sessions still to come. The sessions already "
        "played stand."
    ) in page.text()
    heading = page.one("h1")
    assert heading.text() == "5 Player 5: schedule withdrawn"
    assert heading.one(BADGE).text() == "withdrawn"
    assert "Planned sessions" not in page.text()
    assert not [e for e in page.find("[id]") if e.attrs["id"].startswith("planned-")]
    assert page.find("#session-1")  # session 1 is drawn: it stays listed


def test_other_players_pages_leave_a_withdrawn_opponents_planned_seat_to_be_filled(
    planned, personas
):
    page = personas["anonymous"].get(reverse("player_schedule", args=[planned.slug, 1]))
    (row,) = html.elements(page.content, "tr#planned-2")
    first = row.find("a")[0]
    opponent = first.text().split()[0]
    assert first.text() == f"{opponent} Player {opponent}"
    assert first.attrs["href"].endswith(f"players/{opponent}/")
    services.player_withdraw(player=planned.players.get(number=int(opponent)))

    page = personas["anonymous"].get(reverse("player_schedule", args=[planned.slug, 1]))

    (row,) = html.elements(page.content, "tr#planned-2")
    assert f"{opponent} Player {opponent}" not in [a.text() for a in row.find("a")]
    assert not [e for e in row.find("*") if e.text().endswith(f"Player {opponent}")]
    assert [e.text() for e in row.find("span.muted.to-be-filled")] == ["seat to be filled"]
    assert len(row.find("a")) == 2  # the two other opponents are still named


def test_an_opponent_in_a_drawn_session_is_marked_until_the_seat_is_given(planned, organiser):
    session = planned.sessions.get(number=1)
    seat = Seat.objects.get(session=session, player__number=3)
    mate = Seat.objects.filter(table=seat.table).exclude(pk=seat.pk).first().player.number
    services.player_withdraw(player=planned.players.get(number=3))
    url = reverse("player_schedule", args=[planned.slug, mate])
    assert badge_after(login(None).get(url).content, "3 Player 3") == ["withdrawn"]
    give_seat(session, 3, 17)
    page = login(None).get(url).content
    assert not badges(page)
    assert badge_after(page, "17 Player 17") == ["substitute"]


# ---------------------------------------------------------------- the substitute limit


def test_the_overview_shows_the_organiser_the_substitutes_who_have_sat(drawn, personas):
    give_seat(drawn, 3, 17)
    url = drawn.tournament.get_absolute_url()
    page = personas["organiser"].get(url).content
    assert html.texts(page, "p.substitute-count") == [
        "1 substitute has sat at a table; the federation counts at most 3."
    ]
    for persona in ("referee", "other_referee", "anonymous"):
        assert not html.elements(personas[persona].get(url).content, ".substitute-count")


def test_beyond_the_limit_the_overview_says_the_federation_counts_only_that_many(drawn, organiser):
    services.tournament_update(tournament=drawn.tournament, substitute_limit=1)
    give_seat(drawn, 3, 17)
    give_seat(drawn, 4, 18)
    page = login(organiser).get(drawn.tournament.get_absolute_url()).content
    (count,) = html.elements(page, "p.substitute-count")
    assert count.text() == (
        "2 substitutes have sat at a table; the federation counts at most 1. "
        "The federation will count only 1 substitute."
    )
    assert count.one("span.badge.warn").text() == "The federation will count only 1 substitute."


def test_the_seat_change_page_warns_before_and_after_a_seat_beyond_the_limit(drawn, organiser):
    tournament = drawn.tournament
    services.tournament_update(tournament=tournament, substitute_limit=1)
    client = login(organiser)
    url = reverse("seat_change", args=[tournament.slug, 1])
    page = client.get(url).content.decode()
    assert "A seat given to a substitute who has not sat" not in page
    still = f"Withdrawn players still seated: 3 Player 3 at table {table_of(drawn, 3)}"
    assert [text for text in html.texts(page, "p") if text.endswith(still)]
    assert [
        text for text in html.texts(page, "option") if text.endswith(": 3 Player 3 (withdrawn)")
    ]
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
    field = html.one(client.get(url).content, "input[name=substitute_limit]")
    assert field.attrs["value"] == "3"
    assert client.post(url, {**data, "substitute_limit": "5"}).status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).substitute_limit == 5
    response = client.post(url, {**data, "substitute_limit": "-1"})
    assert_error_beside(response, "substitute_limit", "greater than or equal to 0")
    assert Tournament.objects.get(pk=tournament.pk).substitute_limit == 5
