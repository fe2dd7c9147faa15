"""``manage.py import_players``: the same checks as the web import, all or nothing."""

import io

import pytest
from django.core.management import CommandError, call_command
from openpyxl import Workbook

from tests.conftest import make_tournament, make_user
from tournament import services

SLUG = "spring-open"


@pytest.fixture
def tournament(db):
    tournament = make_tournament(creator=make_user("organiser"), slug=SLUG)
    services.player_save(tournament=tournament, number=1, name="Alice", team="Lyon")
    return tournament


def stored(tournament):
    return list(
        tournament.players.order_by("number").values_list(
            "number", "name", "name_zh", "team", "is_substitute", "withdrawn_at"
        )
    )


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    call_command("import_players", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_csv_import_prints_what_it_did(tournament, tmp_path):
    path = tmp_path / "players.csv"
    path.write_text(
        "\ufeffnumber;name;name_zh;team\n1;Alice;;Paris\n2;Zhang San;张三;\n3;Li Si;李四;\n",
        encoding="utf-8",
    )
    out, err = run(SLUG, str(path))
    assert out.strip() == "created 2, updated 1, unchanged 0"
    assert err == ""
    assert stored(tournament) == [
        (1, "Alice", "", "Paris", False, None),
        (2, "Zhang San", "张三", "", False, None),
        (3, "Li Si", "李四", "", False, None),
    ]

    out, _ = run(SLUG, str(path))
    assert out.strip() == "created 0, updated 0, unchanged 3"


def test_xlsx_import(tournament, tmp_path):
    workbook = Workbook()
    workbook.active.append(["number", "name", "substitute"])
    workbook.active.append([5.0, "Eve", "是"])
    path = tmp_path / "players.xlsx"
    workbook.save(path)
    out, _ = run(SLUG, str(path))
    assert out.strip() == "created 1, updated 0, unchanged 0"
    assert stored(tournament)[-1] == (5, "Eve", "", "", True, None)


def test_any_row_error_prints_the_errors_and_saves_nothing(tournament, tmp_path):
    path = tmp_path / "players.csv"
    path.write_text("number,name,club\n1,Alice,Nice\n2,,\nx,Bob,\n", encoding="utf-8")
    before = stored(tournament)
    with pytest.raises(CommandError, match="nothing was imported"):
        run(SLUG, str(path))
    assert stored(tournament) == before


def test_row_errors_are_written_to_stderr(tournament, tmp_path):
    path = tmp_path / "players.csv"
    path.write_text("number,name,rating\n2,,\n", encoding="utf-8")
    err = io.StringIO()
    with pytest.raises(CommandError):
        call_command("import_players", SLUG, str(path), stdout=io.StringIO(), stderr=err)
    lines = err.getvalue().splitlines()
    assert lines[0].startswith("row 1: Unknown column “rating”")
    assert lines[1] == "row 2: The name is missing."


def test_unreadable_file_is_a_command_error(tournament, tmp_path):
    path = tmp_path / "players.xls"
    path.write_bytes(b"\xd0\xcf\x11\xe0")
    with pytest.raises(CommandError, match=r"Upload a \.csv or \.xlsx file"):
        run(SLUG, str(path))
    with pytest.raises(CommandError, match="Cannot read"):
        run(SLUG, str(tmp_path / "missing.csv"))
    assert stored(tournament) == [(1, "Alice", "", "Lyon", False, None)]


def test_unknown_tournament_is_a_command_error(tournament, tmp_path):
    path = tmp_path / "players.csv"
    path.write_text("number,name\n1,A\n", encoding="utf-8")
    with pytest.raises(CommandError, match="No tournament"):
        run("no-such-cup", str(path))


def test_a_player_edited_while_the_file_is_read_is_not_overwritten(
    tournament, tmp_path, monkeypatch
):
    from tournament.management.commands import import_players

    def preview_then_edit(*args, **kwargs):
        preview = read_preview(*args, **kwargs)
        services.player_save(
            tournament=tournament, player=tournament.players.get(number=1), team="Nice"
        )
        return preview

    read_preview = import_players.import_preview
    monkeypatch.setattr(import_players, "import_preview", preview_then_edit)
    path = tmp_path / "players.csv"
    path.write_text("number,name,team\n1,Alice,Paris\n2,Bo,\n", encoding="utf-8")
    with pytest.raises(CommandError, match="The players changed since this preview"):
        run(SLUG, str(path))
    assert stored(tournament) == [(1, "Alice", "", "Nice", False, None)]


def test_an_import_sets_e_mails_and_ema_guests(tournament, tmp_path):
    path = tmp_path / "players.csv"
    path.write_text(
        "number,name,email,guest\n1,Alice,alice@example.org,no\n2,Bo,,yes\n", encoding="utf-8"
    )
    out, err = run(SLUG, str(path))
    assert (out.strip(), err) == ("created 1, updated 1, unchanged 0", "")  # 1 was there
    assert list(
        tournament.players.order_by("number").values_list("number", "email", "ema_guest")
    ) == [(1, "alice@example.org", False), (2, "", True)]
