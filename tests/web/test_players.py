"""Registration pages: who may use them, and what adding, editing and importing do."""

import io
import re
from types import SimpleNamespace

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from openpyxl import Workbook

from tests import xlsx_files
from tests.conftest import login, make_tournament, make_user
from tests.web.pages import assert_error_beside
from tournament import services
from tournament.forms.players import sign_preview
from tournament.players.player_import import import_preview

SLUG = "spring-open"
CSV_TWO_PLAYERS = (
    "number,name,name_zh,team,country,substitute\n"
    "1,Zhang San,张三,Lyon,FRA,no\n"
    "2,Li Si,李四,,CHN,yes\n"
)


def csv_file(text: str = CSV_TWO_PLAYERS, name: str = "players.csv") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode(), content_type="text/csv")


def xlsx_file(rows, name: str = "players.xlsx") -> SimpleUploadedFile:
    workbook = Workbook()
    for row in rows:
        workbook.active.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return SimpleUploadedFile(name, buffer.getvalue())


@pytest.fixture
def cast(db):
    """The tournament with its organiser and referee, and another tournament with its own."""
    users = {
        "organiser": make_user("organiser"),
        "referee": make_user("referee"),
        "other_organiser": make_user("other-organiser"),
        "other_referee": make_user("other-referee"),
        "anonymous": None,
    }
    tournament = make_tournament(creator=users["organiser"], slug=SLUG)
    tournament.referees.add(users["referee"])
    other = make_tournament(creator=users["other_organiser"], slug="autumn-cup")
    other.referees.add(users["other_referee"])
    services.player_save(tournament=tournament, number=1, name="Alice", team="Lyon")
    return SimpleNamespace(
        tournament=tournament, other=other, users=users, organiser=login(users["organiser"])
    )


def players(tournament):
    return list(
        tournament.players.order_by("number").values_list(
            "number", "name", "name_zh", "team", "country", "is_substitute", "withdrawn_at"
        )
    )


def preview_payload(tournament, text: str = CSV_TWO_PLAYERS) -> str:
    preview = import_preview(tournament, filename="players.csv", content=text.encode())
    return sign_preview(tournament, preview)


def messages_of(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


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

    html = response.content.decode()
    assert response.context["summary"].active == 3
    assert response.context["summary"].substitutes == 1
    assert response.context["is_organiser"] is True
    assert "李四" in html
    assert '<strong class="active-count">3</strong>' in html
    assert '<strong class="substitute-count">1</strong>' in html
    assert reverse("player_reinstate", args=[SLUG, 4]) in html
    assert reverse("player_withdraw", args=[SLUG, 1]) in html
    # Two regular players and one substitute cannot fill a table of four.
    assert response.context["summary"].draw_ready is False
    # Counted without the substitute: 2 players, and 1 substitute short even with it seated;
    # withdrawing both players is no way out, so it is not offered.
    assert (
        '<span class="badge warn">Not ready for the draw</span> 2 active players, not '
        "counting substitutes, cannot fill tables of four. Register 1 more substitute to fill "
        "the last table.</p>"
    ) in html


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
    # Session and user, tournament, the role check (an organiser's role, asked once a
    # request), the counts, the draw, the players.
    with django_assert_num_queries(7):
        response = cast.organiser.get(reverse("player_list", args=[SLUG]))
    assert response.content.decode().count(reverse("player_edit", args=[SLUG, 1])) == 1


def row_cells(html: str, first_cell: str) -> list[str]:
    """The text of each cell of the table row whose cells start with ``first_cell``."""
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", html, re.S):
        cells = [c.strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        if cells and cells[0] == first_cell:
            return cells
    raise AssertionError(f"no row starting with {first_cell!r}")


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
    # After the row's line and action, the cells as the file has them (no first and last
    # name columns in this file).
    assert row_cells(previewed, "2")[2:11] == [
        "1", "Zhang San", "", "", "张三", "Lyon", "FRA", "", "no",
    ]  # fmt: skip
    assert row_cells(previewed, "3")[2:11] == ["2", "Li Si", "", "", "李四", "", "CHN", "", "yes"]


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
    assert 'value="Lyon"' in response.content.decode()


@pytest.mark.django_db
def test_withdraw_then_reinstate(cast):
    response = cast.organiser.post(reverse("player_withdraw", args=[SLUG, 1]), follow=True)
    assert cast.tournament.players.get(number=1).withdrawn_at is not None
    assert any("withdrawn" in message for message in messages_of(response))

    response = cast.organiser.post(reverse("player_reinstate", args=[SLUG, 1]), follow=True)
    assert cast.tournament.players.get(number=1).withdrawn_at is None
    assert any("reinstated" in message for message in messages_of(response))


# ---------------------------------------------------------------- import


def upload(cast, file):
    return cast.organiser.post(reverse("player_import", args=[SLUG]), {"file": file})


def confirm(cast, payload):
    return cast.organiser.post(
        reverse("player_import_confirm", args=[SLUG]), {"payload": payload}, follow=True
    )


@pytest.mark.django_db
def test_csv_import_preview_saves_nothing_then_confirm_creates_players(cast):
    before = players(cast.tournament)
    response = upload(cast, csv_file())

    assert response.status_code == 200
    preview = response.context["preview"]
    assert [row.action for row in preview.rows] == ["update", "new"]
    html = response.content.decode()
    assert "张三" in html and "李四" in html
    assert "Lyon" in html  # the change to player 1 is shown
    assert players(cast.tournament) == before

    response = confirm(cast, response.context["confirm_form"].initial["payload"])

    assert response.redirect_chain == [(reverse("player_list", args=[SLUG]), 302)]
    assert "Import done: created 1, updated 1, unchanged 0." in messages_of(response)
    assert players(cast.tournament) == [
        (1, "Zhang San", "张三", "Lyon", "FRA", False, None),
        (2, "Li Si", "李四", "", "CHN", True, None),
    ]


@pytest.mark.django_db
def test_reimporting_the_same_file_is_all_unchanged_and_changes_nothing(cast):
    first = upload(cast, csv_file())
    confirm(cast, first.context["confirm_form"].initial["payload"])
    after_first = players(cast.tournament)

    again = upload(cast, csv_file())

    assert [row.action for row in again.context["preview"].rows] == ["unchanged", "unchanged"]
    assert "Nothing to change" in again.content.decode()
    response = confirm(cast, again.context["confirm_form"].initial["payload"])
    assert "Import done: created 0, updated 0, unchanged 2." in messages_of(response)
    assert players(cast.tournament) == after_first
    assert cast.tournament.players.count() == 2


@pytest.mark.django_db
def test_update_rows_show_the_changes_and_apply_them(cast):
    response = upload(cast, csv_file("number,name,team\n1,Alice,Marseille\n"))
    row = response.context["preview"].rows[0]
    assert row.action == "update"
    assert [(c.field, c.old, c.new) for c in row.changes] == [("team", "Lyon", "Marseille")]
    assert "Lyon → Marseille" in response.content.decode()

    confirm(cast, response.context["confirm_form"].initial["payload"])
    assert cast.tournament.players.get(number=1).team == "Marseille"


@pytest.mark.django_db
def test_import_never_withdraws_or_deletes_players_missing_from_the_file(cast):
    response = upload(cast, csv_file("number,name\n2,Bo\n"))
    confirm(cast, response.context["confirm_form"].initial["payload"])
    assert players(cast.tournament) == [
        (1, "Alice", "", "Lyon", "", False, None),
        (2, "Bo", "", "", "", False, None),
    ]


@pytest.mark.django_db
def test_xlsx_import_keeps_chinese_names_and_float_numbers(cast):
    response = upload(
        cast,
        xlsx_file(
            [
                ["Number", "Name", "Chinese_Name", "Club", "Substitute"],
                [7.0, "Zhang San", "张三", "北京", "是"],
                [8, "Li Si", "李四", None, "否"],
            ]
        ),
    )
    assert [row.action for row in response.context["preview"].rows] == ["new", "new"]
    confirm(cast, response.context["confirm_form"].initial["payload"])
    assert players(cast.tournament)[1:] == [
        (7, "Zhang San", "张三", "北京", "", True, None),
        (8, "Li Si", "李四", "", "", False, None),
    ]


@pytest.mark.django_db
def test_row_errors_are_displayed_and_no_confirm_button(cast):
    response = upload(cast, csv_file("number,name,substitute\nx,Bo,no\n3,,maybe\n4,Cy,\n4,Di,\n"))
    html = response.content.decode()
    assert [row.action for row in response.context["preview"].rows] == ["error"] * 4
    assert "The number “x” is not a whole number." in html
    assert "The name is missing." in html
    assert "Substitute “maybe” is not understood" in html
    assert "Number 4 is on more than one row of the file: rows 4, 5." in html
    assert reverse("player_import_confirm", args=[SLUG]) not in html
    assert "Nothing can be imported" in html


@pytest.mark.django_db
def test_confirm_of_a_preview_with_errors_is_refused(cast):
    before = players(cast.tournament)
    payload = preview_payload(cast.tournament, "number,name\n5,Eve\nx,Bo\n")
    response = confirm(cast, payload)
    assert response.redirect_chain == [(reverse("player_import", args=[SLUG]), 302)]
    assert any("The preview has errors" in message for message in messages_of(response))
    assert players(cast.tournament) == before


@pytest.mark.django_db
def test_unknown_column_is_shown_on_the_header_and_confirm_is_refused(cast):
    before = players(cast.tournament)
    response = upload(cast, csv_file("number,name,rating\n5,Eve,1500\n"))
    html = response.content.decode()
    assert "Unknown column “rating”" in html
    assert "chinese_name" in html  # the allowed columns are listed
    assert reverse("player_import_confirm", args=[SLUG]) not in html

    response = confirm(cast, response.context["confirm_form"].initial["payload"])
    assert any("The preview has errors" in message for message in messages_of(response))
    assert players(cast.tournament) == before


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("file", "message"),
    [
        (SimpleUploadedFile("players.pdf", b"%PDF-1.4"), "Upload a .csv or .xlsx file"),
        (SimpleUploadedFile("players.xlsx", b"not a zip"), "cannot be opened as an Excel workbook"),
        (SimpleUploadedFile("players.csv", "number,name\n1,张三\n".encode("gbk")), "not UTF-8"),
    ],
    ids=["pdf", "broken-xlsx", "gbk-csv"],
)
def test_unreadable_files_are_refused_beside_the_field(cast, file, message):
    before = players(cast.tournament)
    response = upload(cast, file)
    assert response.status_code == 200
    assert response.context["preview"] is None
    assert message in " ".join(response.context["form"].errors["file"])
    assert message in response.content.decode()
    assert players(cast.tournament) == before


@pytest.mark.django_db
def test_a_shared_string_bomb_is_refused_beside_the_field_without_reading_it(cast, monkeypatch):
    def fail(*args, **kwargs):
        raise AssertionError("openpyxl was asked to read the workbook")

    monkeypatch.setattr(openpyxl, "load_workbook", fail)
    bomb = xlsx_files.workbook(padding=("a", 30 * 1024 * 1024))  # 30 MiB in 30 KB
    before = players(cast.tournament)

    response = upload(cast, SimpleUploadedFile("players.xlsx", bomb))

    assert response.status_code == 200
    assert response.context["preview"] is None
    assert_error_beside(response, "file", "at most 20 MB are read")
    assert players(cast.tournament) == before


@pytest.mark.django_db
def test_a_number_of_5000_digits_is_a_row_error_not_a_server_error(cast):
    # int() refuses text of more than 4,300 digits; the fuzz of the forms found it.
    before = players(cast.tournament)
    response = upload(cast, csv_file("number,name\n" + "9" * 5000 + ",Alice\n"))
    assert response.status_code == 200
    assert [row.action for row in response.context["preview"].rows] == ["error"]
    assert "The number is too large." in response.content.decode()
    assert players(cast.tournament) == before


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["players.csv", "players.xlsx"])
def test_a_file_over_5_mb_is_refused_beside_the_field(cast, name):
    big = SimpleUploadedFile(name, b"number,name\n" + b"1,Alice\n" * (5 * 1024 * 1024 // 8))
    before = players(cast.tournament)

    response = upload(cast, big)

    assert response.context["preview"] is None
    assert_error_beside(response, "file", "The file is larger than 5 MB.")
    assert players(cast.tournament) == before


@pytest.mark.django_db
def test_tampered_payload_is_refused(cast):
    before = players(cast.tournament)
    payload = preview_payload(cast.tournament)
    tampered = payload.replace(payload[5], "A" if payload[5] != "A" else "B", 1)
    response = confirm(cast, tampered)
    assert any("could not be verified" in message for message in messages_of(response))
    assert players(cast.tournament) == before


@pytest.mark.django_db
def test_preview_of_another_tournament_cannot_be_applied_here(cast):
    before = players(cast.tournament)
    payload = preview_payload(cast.other)
    response = confirm(cast, payload)
    assert any("could not be verified" in message for message in messages_of(response))
    assert players(cast.tournament) == before
    assert cast.other.players.count() == 0


@pytest.mark.django_db
def test_confirm_without_payload_is_refused(cast):
    before = players(cast.tournament)
    response = cast.organiser.post(reverse("player_import_confirm", args=[SLUG]), {}, follow=True)
    assert response.redirect_chain == [(reverse("player_import", args=[SLUG]), 302)]
    assert messages_of(response)
    assert players(cast.tournament) == before


# ---------------------------------------------------------------- stale previews

STALE = "The players changed since this preview; upload the file again."


def edit(cast, number, **fields):
    """Save player ``number`` through the edit page, as the organiser would by hand."""
    player = cast.tournament.players.get(number=number)
    data = {
        "number": player.number,
        "name": player.name,
        "name_zh": player.name_zh,
        "team": player.team,
        "country": player.country,
    }
    if player.is_substitute:
        data["is_substitute"] = "on"
    data.update(fields)
    response = cast.organiser.post(reverse("player_edit", args=[SLUG, number]), data)
    assert response.status_code == 302


@pytest.mark.django_db
def test_a_hand_edit_after_an_unchanged_preview_row_refuses_the_confirm(cast):
    response = upload(cast, csv_file("number,name,team\n1,Alice,Lyon\n2,Bo,\n"))
    assert [row.action for row in response.context["preview"].rows] == ["unchanged", "new"]
    edit(cast, 1, team="Paris")
    after_edit = players(cast.tournament)

    response = confirm(cast, response.context["confirm_form"].initial["payload"])

    assert response.redirect_chain == [(reverse("player_import", args=[SLUG]), 302)]
    assert messages_of(response)[-1] == STALE  # after the edit page's "saved"
    assert players(cast.tournament) == after_edit  # the edit stands, player 2 was not added
    assert after_edit[0][3] == "Paris"


@pytest.mark.django_db
def test_a_hand_edit_after_an_update_preview_row_refuses_the_confirm(cast):
    response = upload(cast, csv_file("number,name,team\n1,Alice,Marseille\n"))
    assert [c.old for c in response.context["preview"].rows[0].changes] == ["Lyon"]
    services.player_save(
        tournament=cast.tournament, player=cast.tournament.players.get(number=1), name="Alicia"
    )
    after_edit = players(cast.tournament)

    response = confirm(cast, response.context["confirm_form"].initial["payload"])

    assert messages_of(response) == [STALE]
    assert players(cast.tournament) == after_edit


@pytest.mark.django_db
def test_a_number_registered_after_the_preview_refuses_the_confirm(cast):
    response = upload(cast, csv_file("number,name\n2,Bo\n"))
    assert [row.action for row in response.context["preview"].rows] == ["new"]
    services.player_save(tournament=cast.tournament, number=2, name="Bob by hand")
    after_edit = players(cast.tournament)

    response = confirm(cast, response.context["confirm_form"].initial["payload"])

    assert messages_of(response) == [STALE]
    assert players(cast.tournament) == after_edit


@pytest.mark.django_db
def test_confirm_applies_when_the_previewed_players_are_unchanged(cast):
    response = upload(cast, csv_file("number,name,team\n1,Alice,Marseille\n2,Bo,\n"))
    payload = response.context["confirm_form"].initial["payload"]
    # Changes the import does not look at: a field not in the file, a player not in
    # the file, a withdrawal.
    edit(cast, 1, country="FRA")
    services.player_save(tournament=cast.tournament, number=9, name="Zoe")
    services.player_withdraw(player=cast.tournament.players.get(number=1))

    response = confirm(cast, payload)

    assert response.redirect_chain == [(reverse("player_list", args=[SLUG]), 302)]
    assert "Import done: created 1, updated 1, unchanged 0." in messages_of(response)
    stored = players(cast.tournament)
    assert [row[:6] for row in stored] == [
        (1, "Alice", "", "Marseille", "FRA", False),
        (2, "Bo", "", "", "", False),
        (9, "Zoe", "", "", "", False),
    ]
    assert stored[0][6] is not None  # still withdrawn


# ---------------------------------------------------------------- names, EMA number, country


def federation_fields(player_number=1, **fields) -> dict:
    data = {"number": player_number, "name": "", "first_name": "Alice", "last_name": "MARTIN"}
    data.update(country="fra", ema_number="4010005", team="Lyon")
    data.update(fields)
    return data


def stored_federation_fields(tournament, number=1) -> tuple:
    return tuple(
        tournament.players.filter(number=number).values_list(
            "name", "first_name", "last_name", "country", "ema_number"
        )[0]
    )


@pytest.mark.django_db
def test_the_organiser_edits_first_and_last_name_ema_number_and_country(cast):
    response = cast.organiser.post(
        reverse("player_edit", args=[SLUG, 1]), federation_fields(), follow=True
    )
    assert response.redirect_chain == [(reverse("player_list", args=[SLUG]), 302)]
    # The name was left empty: made of the first and last names. Codes as stored.
    assert stored_federation_fields(cast.tournament) == (
        "Alice MARTIN",
        "Alice",
        "MARTIN",
        "FRA",
        "04010005",
    )
    html = response.content.decode()
    assert row_cells(html, "1")[1:8] == [
        "Alice MARTIN", "Alice", "MARTIN", "", "Lyon", "FRA", "04010005",
    ]  # fmt: skip
    form = cast.organiser.get(reverse("player_edit", args=[SLUG, 1])).content.decode()
    assert 'name="ema_number" value="04010005"' in form
    assert 'name="last_name" value="MARTIN"' in form


@pytest.mark.django_db
def test_adding_a_player_by_name_alone_splits_it(cast):
    response = cast.organiser.post(
        reverse("player_add", args=[SLUG]), {"number": 2, "name": "欧阳娜娜", "country": "中国"}
    )
    assert response.status_code == 302
    assert stored_federation_fields(cast.tournament, 2) == ("欧阳娜娜", "娜娜", "欧阳", "CHN", "")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("fields", "field", "text"),
    [
        ({"ema_number": "0401-0005"}, "ema_number", "must be digits only"),
        ({"ema_number": "0"}, "ema_number", "cannot be zero"),
        ({"country": "Atlantis"}, "country", "is not a country code"),
        ({"name": "", "first_name": "", "last_name": ""}, "name", "Give the player"),
    ],
)
def test_bad_values_are_shown_beside_their_field_and_nothing_is_saved(cast, fields, field, text):
    before = stored_federation_fields(cast.tournament)
    response = cast.organiser.post(
        reverse("player_edit", args=[SLUG, 1]), federation_fields(**fields)
    )
    assert_error_beside(response, field, text)
    assert stored_federation_fields(cast.tournament) == before


@pytest.mark.django_db
def test_an_ema_number_already_given_is_shown_beside_the_field(cast):
    services.player_save(tournament=cast.tournament, number=2, name="Bo", ema_number="04010005")
    response = cast.organiser.post(
        reverse("player_edit", args=[SLUG, 1]), federation_fields(ema_number="04010005")
    )
    assert_error_beside(response, "ema_number", "already given to player 2 Bo")
    assert stored_federation_fields(cast.tournament)[4] == ""


@pytest.mark.django_db
@pytest.mark.parametrize("persona", ["referee", "other_organiser", "other_referee", "anonymous"])
def test_only_the_organiser_may_set_the_federation_fields(cast, persona):
    before = stored_federation_fields(cast.tournament)
    client = login(cast.users[persona])
    response = client.post(reverse("player_edit", args=[SLUG, 1]), federation_fields())
    assert response.status_code == (302 if persona == "anonymous" else 403)
    assert stored_federation_fields(cast.tournament) == before


@pytest.mark.django_db
def test_a_country_written_before_codes_is_flagged_until_the_organiser_gives_it(cast):
    from tournament.models import Player

    Player.objects.filter(tournament=cast.tournament, number=1).update(
        country_unrecognised="Atlantis"
    )
    listed = cast.organiser.get(reverse("player_list", args=[SLUG])).content.decode()
    assert "1 player has a country written before countries were codes" in listed
    assert "“Atlantis” is not a country code" in row_cells(listed, "1")[6]
    form = cast.organiser.get(reverse("player_edit", args=[SLUG, 1])).content.decode()
    assert "country was “Atlantis”, which has no" in form

    response = cast.organiser.post(
        reverse("player_edit", args=[SLUG, 1]), {"number": 1, "name": "Alice", "country": "ATL"}
    )
    assert response.status_code == 302
    listed = cast.organiser.get(reverse("player_list", args=[SLUG])).content.decode()
    assert "Atlantis" not in listed
    assert row_cells(listed, "1")[6] == "ATL"


@pytest.mark.django_db
def test_an_import_with_federation_columns_is_previewed_and_applied(cast):
    text = (
        "number,first name,last name,country,ema_number\n"
        "1,Alice,MARTIN,France,4010005\n"
        "2,Bo,LI,CHN,\n"
        "3,Cy,,Atlantis,12\n"
    )
    response = upload(cast, csv_file(text))
    html = response.content.decode()
    assert [row.action for row in response.context["preview"].rows] == ["update", "new", "error"]
    assert "“Atlantis” is not a country code" in html
    response = upload(cast, csv_file(text.replace("Atlantis", "ATL")))
    assert not response.context["preview"].has_errors
    confirm(cast, response.context["confirm_form"].initial["payload"])
    # Player 1's name, not in the file, stays as it was.
    assert stored_federation_fields(cast.tournament, 1) == (
        "Alice", "Alice", "MARTIN", "FRA", "04010005",
    )  # fmt: skip
    assert stored_federation_fields(cast.tournament, 3) == ("Cy", "Cy", "", "ATL", "00000012")
