"""Confirming a table: the review the players check (hands, scores, places, table points),
their optional initials, then the lock; with every persona."""

import pytest
from django.urls import reverse

from tests import html
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


def text(response) -> str:
    """The page's text, as a reader reads it."""
    return html.text(response.content)


def hand_row(response, number: int) -> list[str]:
    """The cells of hand ``number``'s row of the sheet the page shows."""
    return [cell.text() for cell in html.one(response.content, f"tr#hand-{number}").find("td")]


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
    page = personas["referee"].get(review_url(table)).content
    players = [seat.player for seat in table.seats.order_by("seat")]
    expected = [("P1", "+32", 1, "3"), ("P2", "+32", 1, "3")]
    expected += [("P3", "−32", 3, "0.5"), ("P4", "−32", 3, "0.5")]
    summary = html.one(page, "table.summary")
    assert html.rows_of(summary)[1:] == [
        [seat, f"{player.number} {player.display_name}", score, str(place), points]
        for player, (seat, score, place, points) in zip(players, expected, strict=True)
    ]
    # The player's number stands out, and the score is marked by its sign.
    rows = summary.find("tbody tr")
    assert [row.one("td strong").text() for row in rows] == [str(p.number) for p in players]
    signs = [row.find("td")[2].classes - {"num"} for row in rows]
    assert signs == [{"plus"}, {"plus"}, {"minus"}, {"minus"}]


def test_review_lists_the_hands_entered_and_the_hands_missing(personas, table):
    response = personas["referee"].get(review_url(table))
    page = response.content
    assert hand_row(response, 1)[:4] == ["1", "P2 self-drawn 8", "−16", "+48"]
    first = html.one(page, "tr#hand-1").find("td")
    assert [cell.one("span").classes for cell in first[2:4]] == [{"minus"}, {"plus"}]
    assert hand_row(response, 2)[:2] == ["2", "P1 self-drawn 8"]
    assert hand_row(response, 3)[:2] == ["3", "Draw"]
    assert not html.elements(page, "#hand-4")
    missing = html.one(page, "p#missing").text()
    assert missing == "Hands not entered: 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16."
    assert html.elements(page, "input[name=record_missing_as_not_played]")
    assert "Confirm the scores of this table" in text(response)


def test_with_every_hand_entered_the_review_has_no_time_called_box(personas, table):
    for number in range(4, 17):
        services.hand_record(table=table, entry=services.HandEntry(number=number, outcome="draw"))
    page = personas["referee"].get(review_url(table)).content
    assert "not entered" not in html.text(page)
    assert not html.elements(page, "[name=record_missing_as_not_played]")
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
    page = html.parse(response.content)
    for seat, player in enumerate(p.player for p in table.seats.order_by("seat")):
        assert page.one(f"label[for=id_initials_{seat}]").text() == f"P{seat + 1} · {player.name}"
        field = page.one(f"input#id_initials_{seat}")
        assert field.attrs["name"] == f"initials_{seat}"
        assert field.attrs["type"] == "text" and field.attrs["maxlength"] == "4"


def test_confirming_with_initials_stores_them_and_shows_them_on_the_sheet(personas, table):
    client = personas["referee"]
    data = {"record_missing_as_not_played": "on", **initials(" ab ", "CD", "", "王")}
    response = client.post(
        review_url(table), reviewed(client, review_url(table), **data), follow=True
    )
    assert response.redirect_chain == [(sheet_url(table) + "#confirm", 302)]
    assert "Table 1 confirmed." in text(response)
    confirmed = html.one(response.content, "p.confirmed")
    assert confirmed.text().endswith("by referee · players' initials: ab, CD, —, 王.")
    assert confirmed.one("span.initials").text() == "ab, CD, —, 王"
    table.refresh_from_db()
    assert table.is_confirmed
    assert table.confirmed_initials == ["ab", "CD", "", "王"]


def test_missing_hands_without_the_box_are_refused_beside_the_checkbox(personas, table):
    response = personas["referee"].post(
        review_url(table),
        reviewed(personas["referee"], review_url(table), **initials("AB", "CD", "EF", "GH")),
    )
    assert_error_beside(response, "record_missing_as_not_played", "Hands 4, 5, 6")
    assert "tick the box if time was called" in text(response)
    assert "Confirm the scores of this table" in text(response)
    # What was typed is kept for the second try.
    assert html.one(response.content, "input[name=initials_3]").attrs["value"] == "GH"
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
    page = response.content
    confirmed = html.one(page, "p.confirmed")
    assert confirmed.text().endswith("by referee · players' initials: AB, CD, EF, GH.")
    assert confirmed.one("span.initials").text() == "AB, CD, EF, GH"
    assert "Confirm the scores of this table" not in html.text(page)
    assert not html.elements(page, "#confirm form")
    assert not html.elements(page, "[name=initials_0]")


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
    page = personas["referee"].get(sheet_url(table)).content
    (link,) = html.elements(page, f"section#confirm a[href='{review_url(table)}']")
    assert link.text() == "Review and confirm" and {"button", "primary"} <= link.classes
    assert not html.elements(page, f"form[action='{review_url(table)}']")


def test_the_sheet_of_a_confirmed_table_shows_who_confirmed_without_initials(personas, table):
    services.table_confirm(table=table, user=table.referee, record_missing_as_not_played=True)
    page = html.text(personas["referee"].get(sheet_url(table)).content)
    assert "by referee." in page
    assert "players' initials" not in page
    assert "Review and confirm" not in page


# ---------------------------------------------------------------- the review the players checked

JSON = {"HTTP_ACCEPT": "application/json"}


def version_on(response) -> str:
    found = html.elements(response.content, "input[type=hidden][name=version]")
    assert found, "the review carries no version"
    return found[0].attrs["value"]


def test_a_hand_saved_by_another_client_after_the_review_refuses_the_confirmation(personas, table):
    # The audit's case: the players check the review on the referee's tablet while another
    # client (the organiser's) saves a self-drawn 88 at this table; then they confirm.
    referee = personas["referee"]
    shown = referee.get(review_url(table))
    assert "self-drawn 88" not in text(shown)
    data = {"record_missing_as_not_played": "on", **initials("AB", "CD", "EF", "GH")}
    fields = hand_data(4, outcome="self_drawn", winner="2", fan="88")
    saved = personas["organiser"].post(sheet_url(table), fields, **JSON)
    assert saved.json()["saved"] is True
    response = referee.post(review_url(table), {**data, "version": version_on(shown)})
    assert response.status_code == 200
    page = text(response)
    table.refresh_from_db()
    assert not table.is_confirmed
    assert table.confirmed_initials == []
    assert table.hands.count() == 4
    # The review again, with the new hand and why, for the players to check it again.
    assert "The sheet changed after this review was shown" in page
    assert "the four players, then confirm again" in page
    assert hand_row(response, 4)[:2] == ["4", "P3 self-drawn 88"]
    assert "Confirm the scores of this table" in page
    # Their initials were for the sheet they saw: written again once checked.
    assert "value" not in html.one(response.content, "input[name=initials_3]").attrs
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
    assert "The sheet changed after this review was shown" in text(response)
    table.refresh_from_db()
    assert not table.is_confirmed
    assert table.hands.count() == 3


def test_a_confirmation_posted_without_the_reviews_version_shows_the_review_again(personas, table):
    response = personas["referee"].post(review_url(table), {"record_missing_as_not_played": "on"})
    assert response.status_code == 200
    assert "The sheet changed after this review was shown" in text(response)
    table.refresh_from_db()
    assert not table.is_confirmed
    data = {"record_missing_as_not_played": "on", "version": version_on(response)}
    assert personas["referee"].post(review_url(table), data).status_code == 302
