"""Registration pages: who may use them, and what adding, editing and withdrawing do (the
import of a player file: test_player_import.py)."""

import pytest
from django.test import Client
from django.urls import reverse

from tests import html
from tests.conftest import SESSION_READS, login
from tests.web.player_pages import (
    SLUG,
    csv_file,
    messages_of,
    players,
    preview_payload,
    row_cells,
    upload,
)
from tournament import services

# ---------------------------------------------------------------- personas

# (url name, method, needs a player number, POST data builder, organiser's status)
ENDPOINTS = [
    ("player_list", "get", False, None, 200),
    ("player_add", "get", False, None, 200),
    ("player_add", "post", False, lambda t: {"number": 50, "name": "Newcomer"}, 302),
    ("player_edit", "get", True, None, 200),
    ("player_edit", "post", True, lambda t: {"number": 1, "name": "Alice B"}, 302),
    ("player_withdraw", "post", True, lambda t: {}, 302),
    ("player_reinstate", "post", True, lambda t: {}, 302),
    ("player_import", "get", False, None, 200),
    ("player_import", "post", False, lambda t: {"file": csv_file()}, 200),
    ("player_import_confirm", "post", False, lambda t: {"payload": preview_payload(t)}, 302),
]
ENDPOINT_IDS = [f"{name}-{method}" for name, method, *_ in ENDPOINTS]
POST_ONLY = ["player_withdraw", "player_reinstate", "player_import_confirm"]


def url_for(name, slug, needs_number, number=1):
    args = [slug, number] if needs_number else [slug]
    return reverse(name, args=args)


def call(client, method, url, data_builder, tournament):
    if method == "get":
        return client.get(url)
    return client.post(url, data_builder(tournament))


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "method", "needs_number", "data", "status"), ENDPOINTS, ids=ENDPOINT_IDS
)
def test_organiser_may_use_every_registration_page(cast, name, method, needs_number, data, status):
    url = url_for(name, SLUG, needs_number)
    response = call(cast.organiser, method, url, data, cast.tournament)
    assert response.status_code == status


@pytest.mark.django_db
@pytest.mark.parametrize("persona", ["referee", "other_organiser", "other_referee"])
@pytest.mark.parametrize(
    ("name", "method", "needs_number", "data", "status"), ENDPOINTS, ids=ENDPOINT_IDS
)
def test_others_are_forbidden_and_change_nothing(
    cast, persona, name, method, needs_number, data, status
):
    before = players(cast.tournament)
    url = url_for(name, SLUG, needs_number)
    response = call(login(cast.users[persona]), method, url, data, cast.tournament)
    assert response.status_code == 403
    assert players(cast.tournament) == before


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "method", "needs_number", "data", "status"), ENDPOINTS, ids=ENDPOINT_IDS
)
def test_anonymous_is_sent_to_login(cast, name, method, needs_number, data, status):
    before = players(cast.tournament)
    url = url_for(name, SLUG, needs_number)
    response = call(Client(), method, url, data, cast.tournament)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert players(cast.tournament) == before


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "method", "needs_number", "data", "status"), ENDPOINTS, ids=ENDPOINT_IDS
)
def test_unknown_tournament_is_not_found(cast, name, method, needs_number, data, status):
    url = url_for(name, "no-such-cup", needs_number)
    response = call(cast.organiser, method, url, data, cast.tournament)
    assert response.status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "method"),
    [
        ("player_edit", "get"),
        ("player_edit", "post"),
        ("player_withdraw", "post"),
        ("player_reinstate", "post"),
    ],
)
def test_unknown_player_is_not_found(cast, name, method):
    response = getattr(cast.organiser, method)(url_for(name, SLUG, True, number=99))
    assert response.status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("name", POST_ONLY)
def test_get_on_post_only_pages_is_refused_and_changes_nothing(cast, name):
    before = players(cast.tournament)
    url = url_for(name, SLUG, name != "player_import_confirm")
    assert cast.organiser.get(url).status_code == 405
    assert players(cast.tournament) == before


# ---------------------------------------------------------------- the list


@pytest.mark.django_db
def test_list_shows_players_counts_and_the_nav(cast):
    services.player_save(tournament=cast.tournament, number=2, name="Bo", name_zh="李四")
    services.player_save(tournament=cast.tournament, number=3, name="Cy", is_substitute=True)
    withdrawn = services.player_save(tournament=cast.tournament, number=4, name="Dee")
    services.player_withdraw(player=withdrawn)

    response = cast.organiser.get(reverse("player_list", args=[SLUG]))

    page = response.content.decode()
    assert response.context["summary"].active == 3
    assert response.context["summary"].substitutes == 1
    assert response.context["is_organiser"] is True
    assert "李四" in html.text(page)
    assert html.texts(page, "strong.active-count") == ["3"]
    assert html.texts(page, "strong.substitute-count") == ["1"]
    assert reverse("player_reinstate", args=[SLUG, 4]) in page
    assert reverse("player_withdraw", args=[SLUG, 1]) in page
    # Two regular players and one substitute cannot fill a table of four.
    assert response.context["summary"].draw_ready is False
    # Counted without the substitute: 2 players, and 1 substitute short even with it seated;
    # withdrawing both players is no way out, so it is not offered.
    (status,) = html.elements(page, "p.draw-status")
    assert status.one("span.badge.warn").text() == "Not ready for the draw"
    assert status.text() == (
        "Not ready for the draw 2 active players, not counting substitutes, cannot fill "
        "tables of four. Register 1 more substitute to fill the last table."
    )


@pytest.mark.django_db
def test_list_says_when_the_active_players_fill_tables_of_four(cast):
    for number in range(2, 9):
        services.player_save(tournament=cast.tournament, number=number, name=f"P{number}")
    response = cast.organiser.get(reverse("player_list", args=[SLUG]))
    assert response.context["summary"].draw_ready is True
    assert response.context["summary"].table_count == 2
    assert "fill 2 tables of four" in response.content.decode()


@pytest.mark.parametrize("count", [2, 30])
def test_list_reads_the_same_number_of_queries_whatever_the_players(
    cast, django_assert_num_queries, count
):
    for number in range(2, count + 1):
        services.player_save(tournament=cast.tournament, number=number, name=f"P{number}")
    # Session (unless kept in Redis) and user, tournament, the role check (an organiser's
    # role, asked once a request), the counts, the draw, the players.
    with django_assert_num_queries(SESSION_READS + 6):
        response = cast.organiser.get(reverse("player_list", args=[SLUG]))
    assert response.content.decode().count(reverse("player_edit", args=[SLUG, 1])) == 1


@pytest.mark.django_db
def test_list_and_preview_show_a_players_fields_in_the_same_columns(cast):
    services.player_save(
        tournament=cast.tournament, number=2, name="Bo", name_zh="李四", is_substitute=True
    )
    listed = cast.organiser.get(reverse("player_list", args=[SLUG])).content.decode()
    # Number, name, first and last names (a one-word name is a last name), Chinese name,
    # team, country, EMA number, substitute.
    assert row_cells(listed, "1")[:9] == ["1", "Alice", "", "Alice", "", "Lyon", "", "", ""]
    assert row_cells(listed, "2")[:9] == ["2", "Bo", "", "Bo", "李四", "", "", "", "yes"]

    previewed = upload(cast, csv_file()).content.decode()
    # After the row's line and what importing does, the cells as the file has them, the
    # first and last names as they will be stored (split from the name beside 张三).
    assert row_cells(previewed, "2")[2:11] == [
        "1", "Zhang San", "San", "Zhang", "张三", "Lyon", "FRA", "", "no",
    ]  # fmt: skip
    assert row_cells(previewed, "3")[2:11] == [
        "2", "Li Si", "Si", "Li", "李四", "", "CHN", "", "yes",
    ]  # fmt: skip


# ---------------------------------------------------------------- one player


@pytest.mark.django_db
def test_add_player_saves_and_redirects_to_the_list(cast):
    response = cast.organiser.post(
        reverse("player_add", args=[SLUG]),
        {
            "number": 2,
            "name": "Li Si",
            "name_zh": "李四",
            "team": "",
            "country": "CHN",
            "is_substitute": "on",
        },
        follow=True,
    )
    assert response.redirect_chain == [(reverse("player_list", args=[SLUG]), 302)]
    player = cast.tournament.players.get(number=2)
    assert (player.name, player.name_zh, player.country, player.is_substitute) == (
        "Li Si",
        "李四",
        "CHN",
        True,
    )
    assert "Player 2 Li Si added." in messages_of(response)


@pytest.mark.django_db
def test_save_and_add_another_returns_to_the_add_form(cast):
    response = cast.organiser.post(
        reverse("player_add", args=[SLUG]), {"number": 2, "name": "Bo", "add_another": "1"}
    )
    assert response["Location"] == reverse("player_add", args=[SLUG])
    assert cast.tournament.players.filter(number=2).exists()


@pytest.mark.django_db
def test_duplicate_number_is_shown_beside_the_number_and_nothing_saved(cast):
    before = players(cast.tournament)
    response = cast.organiser.post(
        reverse("player_add", args=[SLUG]), {"number": 1, "name": "Impostor"}
    )
    assert response.status_code == 200
    assert response.context["form"].errors["number"] == ["Number 1 is already used by Alice."]
    assert "Number 1 is already used by Alice." in response.content.decode()
    assert players(cast.tournament) == before


@pytest.mark.django_db
def test_same_number_in_another_tournament_is_allowed(cast):
    services.player_save(tournament=cast.other, number=2, name="Elsewhere")
    response = cast.organiser.post(reverse("player_add", args=[SLUG]), {"number": 2, "name": "Bo"})
    assert response.status_code == 302
    assert cast.tournament.players.get(number=2).name == "Bo"


@pytest.mark.django_db
def test_missing_name_is_an_error_and_nothing_saved(cast):
    response = cast.organiser.post(reverse("player_add", args=[SLUG]), {"number": 2, "name": ""})
    assert response.status_code == 200
    assert "name" in response.context["form"].errors
    assert not cast.tournament.players.filter(number=2).exists()


@pytest.mark.django_db
def test_edit_player_changes_fields_and_may_renumber(cast):
    response = cast.organiser.post(
        reverse("player_edit", args=[SLUG, 1]),
        {
            "number": 11,
            "name": "Alice Martin",
            "name_zh": "张三",
            "team": "Paris",
            "country": "FRA",
        },
    )
    assert response.status_code == 302
    assert players(cast.tournament) == [(11, "Alice Martin", "张三", "Paris", "FRA", False, None)]


@pytest.mark.django_db
def test_edit_keeping_its_own_number_is_not_a_duplicate(cast):
    response = cast.organiser.post(
        reverse("player_edit", args=[SLUG, 1]), {"number": 1, "name": "Alice", "team": "Nice"}
    )
    assert response.status_code == 302
    assert cast.tournament.players.get(number=1).team == "Nice"


@pytest.mark.django_db
def test_edit_to_a_number_already_used_is_refused(cast):
    services.player_save(tournament=cast.tournament, number=2, name="Bo")
    response = cast.organiser.post(
        reverse("player_edit", args=[SLUG, 2]), {"number": 1, "name": "Bo"}
    )
    assert response.status_code == 200
    assert "Number 1 is already used by Alice." in response.content.decode()
    # The heading still names the stored player, not the refused input.
    assert "Edit player 2 Bo" in response.content.decode()
    assert cast.tournament.players.get(name="Bo").number == 2


@pytest.mark.django_db
def test_edit_form_shows_the_stored_values(cast):
    response = cast.organiser.get(reverse("player_edit", args=[SLUG, 1]))
    assert response.context["form"].initial["team"] == "Lyon"
    assert html.one(response.content, "input[name=team]").attrs["value"] == "Lyon"


@pytest.mark.django_db
def test_withdraw_then_reinstate(cast):
    response = cast.organiser.post(reverse("player_withdraw", args=[SLUG, 1]), follow=True)
    assert cast.tournament.players.get(number=1).withdrawn_at is not None
    assert any("withdrawn" in message for message in messages_of(response))

    response = cast.organiser.post(reverse("player_reinstate", args=[SLUG, 1]), follow=True)
    assert cast.tournament.players.get(number=1).withdrawn_at is None
    assert any("reinstated" in message for message in messages_of(response))
