"""Confirming a table: the review the players check (hands, scores, places, table points),
their optional initials, then the lock; with every persona."""

import re

import pytest
from django.urls import reverse

from tests.conftest import login
from tests.web.pages import assert_error_beside, hand_data, reviewed
from tournament import services


@pytest.fixture
def table(session_in_play):
    """Table 1 with three hands entered: two self-drawn wins and a draw; 4 to 16 missing.
    Scores 32, 32, −32, −32: P1 and P2 share first place, P3 and P4 third."""
    table = session_in_play.tables.get(number=1)
    services.hand_record(
        table=table, entry=services.HandEntry(number=1, outcome="self_drawn", winner=1, fan=8)
    )
    services.hand_record(
        table=table, entry=services.HandEntry(number=2, outcome="self_drawn", winner=0, fan=8)
    )
    services.hand_record(table=table, entry=services.HandEntry(number=3, outcome="draw"))
    return table


@pytest.fixture
def clients(personas, colleague):
    return {**personas, "colleague": login(colleague)}


def review_url(table):
    return reverse("table_confirm", args=[table.session.tournament.slug, 1, table.number])


def sheet_url(table):
    return reverse("table_sheet", args=[table.session.tournament.slug, 1, table.number])


def flat(response) -> str:
    """The page's HTML on one line, without the spaces between tags or before a closing tag."""
    return re.sub(r" (?=</)", "", " ".join(response.content.decode().split())).replace("> <", "><")


def initials(*values) -> dict:
    return {f"initials_{seat}": value for seat, value in enumerate(values)}


PERSONAS = [
    ("organiser", 200),
    ("referee", 200),
    ("colleague", 403),
    ("other_referee", 403),
    ("anonymous", 302),
]


@pytest.mark.parametrize(("persona", "expected"), PERSONAS)
def test_review_page_by_persona(clients, table, persona, expected):
    response = clients[persona].get(review_url(table))
    assert response.status_code == expected
    if persona == "anonymous":
        assert response["Location"].startswith(reverse("login"))
    table.refresh_from_db()
    assert not table.is_confirmed


@pytest.mark.parametrize(
    ("persona", "expected"),
    [(persona, 302 if expected == 200 else expected) for persona, expected in PERSONAS],
)
def test_confirm_by_persona(clients, table, persona, expected):
    response = clients[persona].post(
        review_url(table),
        reviewed(clients[persona], review_url(table), record_missing_as_not_played="on"),
    )
    assert response.status_code == expected
    if persona == "anonymous":
        assert response["Location"].startswith(reverse("login"))
    table.refresh_from_db()
    assert table.is_confirmed == (persona in ("organiser", "referee"))
    assert table.hands.count() == (16 if table.is_confirmed else 3)


def test_review_shows_each_player_with_score_place_and_table_points(personas, table):
    page = flat(personas["referee"].get(review_url(table)))
    players = [seat.player for seat in table.seats.order_by("seat")]
    expected = [("P1", "+32", 1, "3"), ("P2", "+32", 1, "3")]
    expected += [("P3", "−32", 3, "0.5"), ("P4", "−32", 3, "0.5")]
    for player, (seat, score, place, points) in zip(players, expected, strict=True):
        sign = "plus" if score.startswith("+") else "minus"
        assert (
            f"<tr><td>{seat}</td><td><strong>{player.number}</strong> {player.display_name}</td>"
            f'<td class="num {sign}">{score}</td><td class="num">{place}</td>'
            f'<td class="num">{points}</td></tr>'
        ) in page


def test_review_lists_the_hands_entered_and_the_hands_missing(personas, table):
    page = flat(personas["referee"].get(review_url(table)))
    assert (
        '<tr id="hand-1"><td>1</td><td>P2 self-drawn 8</td>'
        '<td class="num"><span class="minus">−16</span></td>'
        '<td class="num"><span class="plus">+48</span></td>'
    ) in page
    assert 'id="hand-2"><td>2</td><td>P1 self-drawn 8</td>' in page
    assert 'id="hand-3"><td>3</td><td>Draw</td>' in page
    assert 'id="hand-4"' not in page
    assert "Hands not entered: 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16." in page
    assert 'name="record_missing_as_not_played"' in page
    assert "Confirm the scores of this table" in page


def test_with_every_hand_entered_the_review_has_no_time_called_box(personas, table):
    for number in range(4, 17):
        services.hand_record(table=table, entry=services.HandEntry(number=number, outcome="draw"))
    page = flat(personas["referee"].get(review_url(table)))
    assert "not entered" not in page
    assert 'name="record_missing_as_not_played"' not in page
    assert (
        personas["referee"]
        .post(
            review_url(table),
            reviewed(personas["referee"], review_url(table), **initials("", "", "", "")),
        )
        .status_code
        == 302
    )
    table.refresh_from_db()
    assert table.is_confirmed
    assert table.confirmed_initials == []


def test_the_initials_are_labelled_with_the_players_names(personas, table):
    response = personas["referee"].get(review_url(table))
    page = flat(response)
    for seat, player in enumerate(p.player for p in table.seats.order_by("seat")):
        assert f'<label for="id_initials_{seat}">P{seat + 1} · {player.name}</label>' in page
        assert re.search(f'<input type="text" name="initials_{seat}"[^>]* maxlength="4"', page)


def test_confirming_with_initials_stores_them_and_shows_them_on_the_sheet(personas, table):
    client = personas["referee"]
    data = {"record_missing_as_not_played": "on", **initials(" ab ", "CD", "", "王")}
    response = client.post(
        review_url(table), reviewed(client, review_url(table), **data), follow=True
    )
    assert response.redirect_chain == [(sheet_url(table) + "#confirm", 302)]
    page = flat(response)
    assert "Table 1 confirmed." in page
    assert 'by referee · players\' initials: <span class="initials">ab, CD, —, 王</span>.' in page
    table.refresh_from_db()
    assert table.is_confirmed
    assert table.confirmed_initials == ["ab", "CD", "", "王"]


def test_missing_hands_without_the_box_are_refused_beside_the_checkbox(personas, table):
    response = personas["referee"].post(
        review_url(table),
        reviewed(personas["referee"], review_url(table), **initials("AB", "CD", "EF", "GH")),
    )
    assert_error_beside(response, "record_missing_as_not_played", "Hands 4, 5, 6")
    assert "tick the box if time was called" in response.content.decode()
    assert "Confirm the scores of this table" in response.content.decode()
    # What was typed is kept for the second try.
    assert 'value="GH"' in response.content.decode()
    table.refresh_from_db()
    assert not table.is_confirmed
    assert table.confirmed_initials == []
    assert table.hands.count() == 3


def test_with_the_box_the_missing_hands_are_recorded_as_not_played(personas, table):
    response = personas["referee"].post(
        review_url(table),
        reviewed(personas["referee"], review_url(table), record_missing_as_not_played="on"),
    )
    assert response.status_code == 302
    outcomes = dict(table.hands.values_list("number", "outcome"))
    assert outcomes == {
        1: "self_drawn",
        2: "self_drawn",
        3: "draw",
        **{number: "not_played" for number in range(4, 17)},
    }


def test_initials_longer_than_four_characters_are_refused_beside_the_field(personas, table):
    data = {"record_missing_as_not_played": "on", **initials("AB", "ABCDE", "", "")}
    response = personas["referee"].post(
        review_url(table), reviewed(personas["referee"], review_url(table), **data)
    )
    assert_error_beside(response, "initials_1", "at most 4 characters")
    table.refresh_from_db()
    assert not table.is_confirmed
    assert table.hands.count() == 3


def test_a_confirmed_tables_review_names_who_confirmed_and_has_no_button(personas, table):
    services.table_confirm(
        table=table,
        user=table.referee,
        record_missing_as_not_played=True,
        initials=["AB", "CD", "EF", "GH"],
    )
    response = personas["organiser"].get(review_url(table))
    assert response.status_code == 200
    page = flat(response)
    assert 'by referee · players\' initials: <span class="initials">AB, CD, EF, GH</span>.' in page
    assert "Confirm the scores of this table" not in page
    assert '<form method="post" class="stack"' not in page
    assert 'name="initials_0"' not in page


def test_confirming_a_confirmed_table_again_is_refused_on_the_page(personas, table):
    services.table_confirm(table=table, user=None, record_missing_as_not_played=True)
    response = personas["referee"].post(
        review_url(table),
        reviewed(personas["referee"], review_url(table), **initials("AB", "CD", "EF", "GH")),
    )
    assert response.status_code == 200
    assert "only an organiser can reopen it" in response.content.decode()
    table.refresh_from_db()
    assert table.confirmed_by is None
    assert table.confirmed_initials == []


def test_the_sheet_links_to_the_review_instead_of_confirming_in_one_tap(personas, table):
    page = flat(personas["referee"].get(sheet_url(table)))
    assert f'<a class="button primary" href="{review_url(table)}">Review and confirm</a>' in page
    assert f'action="{review_url(table)}"' not in page
    assert '<section id="confirm">' in page


def test_the_sheet_of_a_confirmed_table_shows_who_confirmed_without_initials(personas, table):
    services.table_confirm(table=table, user=table.referee, record_missing_as_not_played=True)
    page = flat(personas["referee"].get(sheet_url(table)))
    assert "by referee." in page
    assert "players' initials" not in page
    assert "Review and confirm" not in page


# ---------------------------------------------------------------- the review the players checked

JSON = {"HTTP_ACCEPT": "application/json"}


def version_on(response) -> str:
    found = re.search(r'<input type="hidden" name="version" value="([0-9a-f]+)"', flat(response))
    assert found, "the review carries no version"
    return found.group(1)


def test_a_hand_saved_by_another_client_after_the_review_refuses_the_confirmation(personas, table):
    # The audit's case: the players check the review on the referee's tablet while another
    # client (the organiser's) saves a self-drawn 88 at this table; then they confirm.
    referee = personas["referee"]
    shown = referee.get(review_url(table))
    assert "self-drawn 88" not in flat(shown)
    data = {"record_missing_as_not_played": "on", **initials("AB", "CD", "EF", "GH")}
    fields = hand_data(4, outcome="self_drawn", winner="2", fan="88")
    saved = personas["organiser"].post(sheet_url(table), fields, **JSON)
    assert saved.json()["saved"] is True
    response = referee.post(review_url(table), {**data, "version": version_on(shown)})
    assert response.status_code == 200
    page = flat(response)
    table.refresh_from_db()
    assert not table.is_confirmed
    assert table.confirmed_initials == []
    assert table.hands.count() == 4
    # The review again, with the new hand and why, for the players to check it again.
    assert "The sheet changed after this review was shown" in page
    assert "the four players, then confirm again" in page
    assert 'id="hand-4"><td>4</td><td>P3 self-drawn 88</td>' in page
    assert "Confirm the scores of this table" in page
    # Their initials were for the sheet they saw: written again once checked.
    assert 'value="GH"' not in page
    # Confirmed from the review shown again, the sheet as it is now.
    response = referee.post(review_url(table), {**data, "version": version_on(response)})
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.is_confirmed
    assert table.hands.get(number=4).fan == 88
    assert table.confirmed_initials == ["AB", "CD", "EF", "GH"]


def test_a_seat_swap_after_the_review_refuses_the_confirmation(personas, table):
    referee = personas["referee"]
    shown = referee.get(review_url(table))
    swap_url = reverse("table_seats_swap", args=[table.session.tournament.slug, 1, table.number])
    # The organiser puts right two players who sat in each other's seats, meanwhile.
    seating = personas["organiser"].get(swap_url).context["form"]["seating"].value()
    swapped = personas["organiser"].post(
        swap_url, {"first": "0", "second": "1", "seating": seating}
    )
    assert swapped.status_code == 302
    data = {"record_missing_as_not_played": "on", "version": version_on(shown)}
    response = referee.post(review_url(table), data)
    assert response.status_code == 200
    assert "The sheet changed after this review was shown" in flat(response)
    table.refresh_from_db()
    assert not table.is_confirmed
    assert table.hands.count() == 3


def test_a_confirmation_posted_without_the_reviews_version_shows_the_review_again(personas, table):
    response = personas["referee"].post(review_url(table), {"record_missing_as_not_played": "on"})
    assert response.status_code == 200
    assert "The sheet changed after this review was shown" in flat(response)
    table.refresh_from_db()
    assert not table.is_confirmed
    data = {"record_missing_as_not_played": "on", "version": version_on(response)}
    assert personas["referee"].post(review_url(table), data).status_code == 302
