"""The import of a player file through the pages: the preview saves nothing, the
confirmation applies it, errors are shown where they are."""

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests import html as html_reader
from tests import xlsx_files
from tests.conftest import login
from tests.web.pages import assert_error_beside
from tests.web.player_pages import (
    SLUG,
    confirm,
    csv_file,
    import_result,
    messages_of,
    players,
    preview_payload,
    row_cells,
    upload,
    xlsx_file,
)
from tournament import services
from tournament.exports import ema
from tournament.players import player_columns

# ---------------------------------------------------------------- import


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

    assert response.redirect_chain == [(reverse("player_import", args=[SLUG]), 302)]
    assert "Import done: created 1, updated 1, unchanged 0." in import_result(response)
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
    assert "Import done: created 0, updated 0, unchanged 2." in import_result(response)
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
    assert response.context["job"].error == STALE
    assert "The import failed, and nothing was imported: " + STALE in import_result(response)
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

    assert response.context["job"].error == STALE
    assert players(cast.tournament) == after_edit


@pytest.mark.django_db
def test_a_number_registered_after_the_preview_refuses_the_confirm(cast):
    response = upload(cast, csv_file("number,name\n2,Bo\n"))
    assert [row.action for row in response.context["preview"].rows] == ["new"]
    services.player_save(tournament=cast.tournament, number=2, name="Bob by hand")
    after_edit = players(cast.tournament)

    response = confirm(cast, response.context["confirm_form"].initial["payload"])

    assert response.context["job"].error == STALE
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

    assert response.redirect_chain == [(reverse("player_import", args=[SLUG]), 302)]
    assert "Import done: created 1, updated 1, unchanged 0." in import_result(response)
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
    data.update(country="fra", ema_number="04010005", team="Lyon")
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
    form = cast.organiser.get(reverse("player_edit", args=[SLUG, 1])).content
    assert html_reader.one(form, "input[name=ema_number]").attrs["value"] == "04010005"
    assert html_reader.one(form, "input[name=last_name]").attrs["value"] == "MARTIN"


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
        ({"ema_number": "1234"}, "ema_number", "format the column as text"),
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
        "number,name,name_zh,first name,last name,country,ema_number,email\n"
        "1,,,Alice,MARTIN,France,04010005,\n"
        "2,Wang Fang,王芳,,,CHN,,wang.fang.plays.mahjong@example.org\n"
        "3,Cy,,,,Atlantis,1234,\n"
    )
    response = upload(cast, csv_file(text))
    assert [row.action for row in response.context["preview"].rows] == ["update", "new", "error"]
    # A row's problems come first, before its fields; the EMA number is never padded.
    page = html_reader.parse(response.content)
    cells = [cell.text() for cell in page.one("table.import-rows tr.import-error").find("td")]
    assert cells[0] == "4"  # the file's row, below the header
    assert "“Atlantis” is not a country code" in cells[1]
    assert "The EMA number “1234” is too short" in cells[1]
    assert "format the column as text" in cells[1]
    assert cells[2:4] == ["3", "Cy"] and "1234" in cells[4:]
    # The romanised name beside 王芳 is shown as it will be stored: family name Wang.
    new = page.one("table.import-rows tr.import-new")
    assert [cell.text() for cell in new.find("td")][3:7] == ["Wang Fang", "Fang", "Wang", "王芳"]
    assert new.one("td.email").text() == "wang.fang.plays.mahjong@example.org"

    response = upload(cast, csv_file(text.replace("Atlantis", "ATL").replace("1234", "00001234")))
    assert not response.context["preview"].has_errors
    confirm(cast, response.context["confirm_form"].initial["payload"])
    # Player 1's name, not in the file, stays as it was.
    assert stored_federation_fields(cast.tournament, 1) == (
        "Alice", "Alice", "MARTIN", "FRA", "04010005",
    )  # fmt: skip
    assert stored_federation_fields(cast.tournament, 2) == ("Wang Fang", "Fang", "Wang", "CHN", "")
    assert stored_federation_fields(cast.tournament, 3) == ("Cy", "", "Cy", "ATL", "00001234")
    # The EMA's file lists her family name first: "Wang, Fang".
    assert ",Wang,Fang,," in ema.ema_csv_text(cast.tournament)


@pytest.mark.django_db
def test_the_import_page_lists_every_column_the_reader_reads(cast):
    page = html_reader.parse(cast.organiser.get(reverse("player_import", args=[SLUG])).content)
    assert {code.text() for code in page.find("table.columns-read code")} == set(
        player_columns.COLUMNS
    )
    rows = page.find("table.columns-read tr[id]")
    assert {row.attrs["id"] for row in rows} == {
        f"column-{field}" for field in player_columns.COLUMNS.values()
    }
