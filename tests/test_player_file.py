"""The player-list parser: reading CSV and XLSX, and judging each row. No database."""

import io
import tracemalloc

import openpyxl
import pytest
from django.db import connection
from openpyxl import Workbook

from tests import xlsx_files
from tournament.players import player_file
from tournament.players.player_file import (
    ERROR,
    NEW,
    UNCHANGED,
    UPDATE,
    FieldLimits,
    ImportFileError,
    parse_players,
    read_table,
)
from tournament.players.player_import import player_limits, state_fingerprint

MEGABYTE = 1024 * 1024
LIMITS = FieldLimits(max_lengths={"name": 120, "name_zh": 60, "team": 120, "country": 60})
ALICE = {
    "number": 1,
    "name": "Alice",
    "first_name": "",
    "last_name": "Alice",
    "name_zh": "张三",
    "team": "Lyon",
    "country": "FRA",
    "is_substitute": False,
}


def parse(table, existing=None):
    return parse_players(table, existing=existing or {}, limits=LIMITS)


def codes(problems):
    return [problem.code for problem in problems]


def xlsx_bytes(rows) -> bytes:
    workbook = Workbook()
    sheet = workbook.active
    for row in rows:
        sheet.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


# ---------------------------------------------------------------- reading files


def test_csv_with_bom_and_chinese_names_keeps_the_names_intact():
    content = "\ufeffnumber,name,name_zh\n1,Zhang San,张三\n2,Li Si,李四\n".encode()
    assert read_table("players.csv", content) == [
        ["number", "name", "name_zh"],
        ["1", "Zhang San", "张三"],
        ["2", "Li Si", "李四"],
    ]


@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
def test_csv_delimiter_is_sniffed_from_the_header(delimiter):
    text = delimiter.join(["number", "name", "team"]) + "\r\n"
    text += delimiter.join(["7", "Wang, Wu", "Club; A"]).replace("Wang, Wu", '"Wang, Wu"')
    text = text.replace("Club; A", '"Club; A"')
    rows = read_table("list.CSV", text.encode())
    assert rows[0] == ["number", "name", "team"]
    assert rows[1] == ["7", "Wang, Wu", "Club; A"]


def test_single_column_csv_is_read_with_commas():
    assert player_file.sniff_delimiter("name\nAlice\n") == ","


def test_csv_that_is_not_utf8_is_refused():
    content = "number,name\n1,张三\n".encode("gb18030")
    with pytest.raises(ImportFileError) as raised:
        read_table("players.csv", content)
    assert raised.value.code == "not_utf8"
    assert "UTF-8" in raised.value.message


def test_binary_file_named_csv_is_refused():
    with pytest.raises(ImportFileError) as raised:
        read_table("players.csv", b"number\x00name\x00")
    assert raised.value.code == "not_text"


@pytest.mark.parametrize("filename", ["players.xls", "players.txt", "players", "players.csv.pdf"])
def test_files_other_than_csv_or_xlsx_are_refused(filename):
    with pytest.raises(ImportFileError) as raised:
        read_table(filename, b"number,name\n1,A\n")
    assert raised.value.code == "unsupported_file"


def test_xlsx_reads_the_first_worksheet_with_chinese_and_float_numbers():
    workbook = Workbook()
    first = workbook.active
    first.append(["Number", "Name", "Chinese_Name"])
    first.append([7.0, "Zhang San", "张三"])
    first.append([8, "Li Si", "李四"])
    workbook.create_sheet("other").append(["ignored"])
    buffer = io.BytesIO()
    workbook.save(buffer)

    table = read_table("players.xlsx", buffer.getvalue())
    preview = parse(table)

    assert [row.values for row in preview.rows] == [
        {"number": 7, "name": "Zhang San", "name_zh": "张三"},
        {"number": 8, "name": "Li Si", "name_zh": "李四"},
    ]
    assert not preview.has_errors


def test_file_named_xlsx_that_is_not_a_workbook_is_refused():
    with pytest.raises(ImportFileError) as raised:
        read_table("players.xlsx", b"number,name\n1,Alice\n")
    assert raised.value.code == "bad_xlsx"


def test_a_file_with_too_many_rows_is_refused(monkeypatch):
    monkeypatch.setattr(player_file, "MAX_ROWS", 3)
    content = "number,name\n" + "".join(f"{n},P{n}\n" for n in range(1, 5))
    with pytest.raises(ImportFileError) as raised:
        read_table("players.csv", content.encode())
    assert raised.value.code == "too_many_rows"


def refused(filename: str, content: bytes) -> ImportFileError:
    with pytest.raises(ImportFileError) as raised:
        read_table(filename, content)
    return raised.value


def openpyxl_must_not_read(monkeypatch):
    def fail(*args, **kwargs):
        raise AssertionError("openpyxl was asked to read the workbook")

    monkeypatch.setattr(openpyxl, "load_workbook", fail)


def test_a_workbook_of_the_helper_reads_as_a_player_list():
    assert read_table("players.xlsx", xlsx_files.workbook()) == [["number", "name"], [1, "Alice"]]


def test_a_shared_string_bomb_is_refused_before_openpyxl_reads_it(monkeypatch):
    openpyxl_must_not_read(monkeypatch)
    # 30 MiB of one letter in one shared string, in a file of about 30 KB.
    content = xlsx_files.workbook(padding=("a", 30 * MEGABYTE))

    error = refused("players.xlsx", content)

    assert error.code == "xlsx_too_large"
    assert "holds 31 MB once unpacked; at most 20 MB are read" in error.message


def test_a_workbook_with_too_many_cells_or_strings_is_refused_before_openpyxl_reads_it(
    monkeypatch,
):
    openpyxl_must_not_read(monkeypatch)
    sheet = xlsx_files.sheet_xml('<row r="1">' + '<c r="A1"/>' * 10_000 + "</row>")
    error = refused("players.xlsx", xlsx_files.workbook(sheet=sheet))
    assert error.code == "xlsx_too_complex"
    assert "Copy the player list alone into a new workbook" in error.message


def test_a_workbook_the_bounds_find_broken_is_refused_as_not_a_workbook(monkeypatch):
    openpyxl_must_not_read(monkeypatch)
    doctype = '<!DOCTYPE worksheet [<!ENTITY a "a">]>' + xlsx_files.sheet_xml("")
    assert refused("players.xlsx", xlsx_files.workbook(sheet=doctype)).code == "bad_xlsx"


def test_blank_rows_count_towards_the_rows_read(monkeypatch):
    monkeypatch.setattr(player_file, "MAX_LINES", 20)
    few_blank = "number,name\n1,Alice\n" + "\n" * 18
    assert len(read_table("players.csv", few_blank.encode())) == 20

    error = refused("players.csv", (few_blank + "\n").encode())
    assert error.code == "too_many_lines"
    assert "more than 20 rows, blank rows included" in error.message


def test_a_csv_of_a_million_blank_lines_is_refused_after_the_rows_read():
    content = ("number,name\n1,Alice\n" + "\n" * 1_000_000).encode()
    # The lines past the bound are never split into rows.
    tracemalloc.start()
    try:
        error = refused("players.csv", content)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert error.code == "too_many_lines"
    # The text decoded (1 MB) and 10,000 short rows; a row per line would be ~60 MB.
    assert peak < 10 * MEGABYTE


def test_a_sheet_declaring_a_million_rows_is_read_no_further_than_the_bound(monkeypatch):
    monkeypatch.setattr(player_file, "MAX_LINES", 100)
    # The one row at 1,000,000: openpyxl fills the rows before it with blank ones.
    last = '<row r="1000000"><c r="A1000000"><v>7</v></c></row>'
    sheet = xlsx_files.sheet_xml(xlsx_files.HEADER_AND_ONE_PLAYER + last, dimension="A1:XFD1000000")
    assert refused("players.xlsx", xlsx_files.workbook(sheet=sheet)).code == "too_many_lines"


def test_a_value_past_the_last_column_read_is_refused_and_empty_columns_there_dropped():
    width = player_file.MAX_COLUMNS
    padded = "number,name" + "," * width + "\n1,Alice" + "," * width + "\n"
    assert read_table("players.csv", padded.encode()) == [
        ["number", "name"] + [""] * (width - 2),
        ["1", "Alice"] + [""] * (width - 2),
    ]
    beyond = "number,name\n1,Alice" + "," * width + "stray\n"
    assert refused("players.csv", beyond.encode()).code == "too_many_columns"


def test_a_sheet_declaring_16384_columns_is_read_to_the_last_column_read():
    sheet = xlsx_files.sheet_xml(xlsx_files.HEADER_AND_ONE_PLAYER, dimension="A1:XFD2")
    table = read_table("players.xlsx", xlsx_files.workbook(sheet=sheet))
    assert [len(row) for row in table] == [player_file.MAX_COLUMNS] * 2
    assert table[1][:2] == [1, "Alice"]


@pytest.mark.parametrize("filename", ["players.csv", "players.xlsx"])
def test_a_file_over_the_upload_size_is_refused_before_it_is_read(filename):
    content = b"number,name\n" + b"1,Alice\n" * (player_file.MAX_FILE_BYTES // 8)
    error = refused(filename, content)
    assert (error.code, error.message) == ("file_too_large", "The file is larger than 5 MB.")


# ---------------------------------------------------------------- header


def test_header_is_case_insensitive_with_spaces_and_aliases():
    preview = parse(
        [
            [" NUMBER ", "Name", "chinese_name", "Club", "country", "Is_Substitute"],
            ["3", "Chen", "陈", "Paris MJ", "FRA", "yes"],
        ]
    )
    assert preview.columns == ["number", "name", "name_zh", "team", "country", "is_substitute"]
    assert preview.rows[0].values == {
        "number": 3,
        "name": "Chen",
        "name_zh": "陈",
        "team": "Paris MJ",
        "country": "FRA",
        "is_substitute": True,
    }


def test_unknown_column_is_reported_on_the_header_naming_it_and_the_allowed_ones():
    preview = parse([["number", "name", "rating"], ["1", "Alice", "1500"]])
    assert codes(preview.header_problems) == ["unknown_column"]
    message = preview.header_problems[0].message
    assert "rating" in message
    for allowed in ("number", "name", "name_zh", "chinese_name", "team", "club", "substitute"):
        assert allowed in message
    assert preview.has_errors
    # The known columns are still checked, so every mistake shows at once.
    assert preview.rows[0].values == {"number": 1, "name": "Alice"}


@pytest.mark.parametrize(
    ("header", "missing"), [(["name"], "number"), (["number", "team"], "name")]
)
def test_missing_required_column_is_a_header_error(header, missing):
    preview = parse([header, ["x"] * len(header)])
    assert codes(preview.header_problems) == ["missing_column"]
    assert missing in preview.header_problems[0].message
    assert preview.rows == []
    assert preview.has_errors


def test_a_column_given_twice_is_a_header_error():
    preview = parse([["number", "name", "team", "club"], ["1", "A", "x", "y"]])
    assert codes(preview.header_problems) == ["duplicate_column"]


def test_blank_header_over_empty_column_is_ignored_but_over_data_is_an_error():
    assert not parse([["number", "name", ""], ["1", "A", ""]]).has_errors
    preview = parse([["number", "name", None], ["1", "A", "stray"]])
    assert codes(preview.header_problems) == ["unnamed_column"]
    # A value beyond the last header cell has no name either.
    preview = parse([["number", "name"], ["1", "A"], ["2", "B", "", "stray"]])
    assert codes(preview.header_problems) == ["unnamed_column"]
    assert "Column 4" in preview.header_problems[0].message


def test_empty_file_and_header_only_file_are_errors():
    assert codes(parse([]).header_problems) == ["empty_file"]
    assert codes(parse([["", ""], []]).header_problems) == ["empty_file"]
    assert codes(parse([["number", "name"]]).header_problems) == ["no_rows"]


# ---------------------------------------------------------------- rows


def test_blank_rows_are_skipped_and_lines_count_as_in_the_spreadsheet():
    preview = parse([[], ["number", "name"], ["1", "A"], ["", " "], [None, None], ["2", "B"]])
    assert preview.header_line == 2
    assert [row.line for row in preview.rows] == [3, 6]


@pytest.mark.parametrize(
    ("cell", "code"),
    [
        ("", "number_missing"),
        (None, "number_missing"),
        ("seven", "number_not_integer"),
        ("7.5", "number_not_integer"),
        (7.5, "number_not_integer"),
        ("0", "number_not_positive"),
        ("-3", "number_not_positive"),
        (0, "number_not_positive"),
        ("99999999999", "number_too_large"),
    ],
)
def test_bad_numbers_are_row_errors(cell, code):
    preview = parse([["number", "name"], [cell, "Alice"]])
    row = preview.rows[0]
    assert codes(row.problems) == [code]
    assert row.problems[0].field == "number"
    assert row.action == ERROR


@pytest.mark.parametrize(
    ("cell", "code"),
    [("9" * 5_000, "number_too_large"), ("-" + "9" * 5_000, "number_not_positive")],
    ids=["5000-digits", "minus-5000-digits"],
)
def test_numbers_of_thousands_of_digits_are_row_errors(cell, code):
    # Past the 4,300 digits int() reads from text: once a server error on the import page.
    row = parse([["number", "name"], [cell, "Alice"]]).rows[0]
    assert codes(row.problems) == [code]


@pytest.mark.parametrize(
    ("cell", "number"),
    [("7", 7), (" 7 ", 7), (7, 7), (7.0, 7), ("7.0", 7), ("0" * 5_000 + "7", 7)],
)
def test_whole_numbers_are_accepted_in_any_form(cell, number):
    assert parse([["number", "name"], [cell, "A"]]).rows[0].values["number"] == number


def test_missing_name_is_a_row_error():
    row = parse([["number", "name"], ["4", "   "]]).rows[0]
    assert codes(row.problems) == ["name_missing"]
    assert row.problems[0].field == "name"


def test_duplicate_number_flags_both_rows():
    preview = parse([["number", "name"], ["5", "A"], ["6", "B"], ["5.0", "C"]])
    flagged = [row.line for row in preview.rows if "number_repeated" in codes(row.problems)]
    assert flagged == [2, 4]
    assert "2, 4" in preview.rows[0].problems[0].message
    assert preview.rows[1].action == NEW


@pytest.mark.parametrize(
    ("cell", "value"),
    [
        ("yes", True),
        ("Y", True),
        ("TRUE", True),
        ("1", True),
        (1, True),
        (1.0, True),
        (True, True),
        ("是", True),
        ("no", False),
        ("n", False),
        ("False", False),
        ("0", False),
        ("", False),
        (None, False),
        (False, False),
        ("否", False),
    ],
)
def test_substitute_values(cell, value):
    row = parse([["number", "name", "substitute"], ["1", "A", cell]]).rows[0]
    assert row.values["is_substitute"] is value


def test_bad_substitute_value_is_a_row_error():
    row = parse([["number", "name", "substitute"], ["1", "A", "maybe"]]).rows[0]
    assert codes(row.problems) == ["bad_substitute"]
    assert "maybe" in row.problems[0].message


def test_values_longer_than_the_model_allows_are_row_errors():
    row = parse([["number", "name", "name_zh"], ["1", "x" * 121, "张" * 61]]).rows[0]
    assert codes(row.problems) == ["too_long", "too_long"]
    assert [problem.field for problem in row.problems] == ["name", "name_zh"]
    assert "120" in row.problems[0].message


def test_one_row_can_carry_several_errors():
    row = parse([["number", "name", "substitute"], ["x", "", "perhaps"]]).rows[0]
    assert codes(row.problems) == ["number_not_integer", "name_missing", "bad_substitute"]


def test_player_limits_match_the_model():
    limits = player_limits()
    assert limits.max_lengths == {
        "name": 120,
        "first_name": 60,
        "last_name": 60,
        "name_zh": 60,
        "team": 120,
        "email": 254,
    }
    # The database's range for a positive integer: 2**63 - 1 on SQLite, 2**31 - 1 elsewhere.
    assert limits.max_number == connection.ops.integer_field_range("PositiveIntegerField")[1]


# ---------------------------------------------------------------- against stored players


def test_rows_are_new_unchanged_or_update_by_number():
    existing = {1: ALICE, 2: {**ALICE, "number": 2, "name": "Bob", "team": "Old"}}
    preview = parse(
        [
            ["number", "name", "name_zh", "team", "country", "substitute"],
            ["1", "Alice", "张三", "Lyon", "FRA", "no"],
            ["2", "Bob", "李四", "New", "FRA", "yes"],
            ["3", "Carol", "", "", "", ""],
        ],
        existing,
    )
    assert [row.action for row in preview.rows] == [UNCHANGED, UPDATE, NEW]
    assert [(c.field, c.old, c.new) for c in preview.rows[1].changes] == [
        ("name_zh", "张三", "李四"),
        ("team", "Old", "New"),
        ("is_substitute", False, True),
    ]
    assert preview.rows[1].changes[0].label == "Chinese name"
    assert preview.counts == {NEW: 1, UPDATE: 1, UNCHANGED: 1, ERROR: 0}
    assert preview.has_changes


def test_a_column_absent_from_the_file_leaves_stored_values_alone():
    preview = parse([["number", "name"], ["1", "Alice"]], {1: ALICE})
    assert preview.rows[0].action == UNCHANGED
    assert preview.rows_to_import == [{"number": 1, "name": "Alice"}]
    assert not preview.has_changes


def test_error_rows_are_left_out_of_the_rows_to_import():
    preview = parse([["number", "name"], ["1", "Alice"], ["x", "Bob"]])
    assert preview.rows_to_import == [{"number": 1, "name": "Alice"}]
    assert preview.has_errors
    assert [row.line for row in preview.error_rows] == [3]


# ---------------------------------------------------------------- fingerprint of stored players


def test_fingerprint_covers_the_row_fields_of_each_number_in_the_file():
    stored = {1: ALICE, 2: {**ALICE, "number": 2, "name": "Bob"}}
    rows = [{"number": 1, "name": "Alice", "team": "Lyon"}, {"number": 3, "name": "Carol"}]
    digest = state_fingerprint(stored, rows)
    assert len(digest) == 64
    # Stable, whatever the order of rows and fields.
    assert state_fingerprint(dict(reversed(stored.items())), rows[::-1]) == digest
    # Player 2 is not in the file; country is not a column of the file.
    assert state_fingerprint({1: {**ALICE, "country": "CHN"}}, rows) == digest
    # A compared value changed, or a number of the file got registered.
    assert state_fingerprint({**stored, 1: {**ALICE, "team": "Paris"}}, rows) != digest
    assert state_fingerprint({**stored, 3: {**ALICE, "number": 3}}, rows) != digest
    assert state_fingerprint({2: stored[2]}, rows) != digest


# ---------------------------------------------------------------- names, EMA number, country


def test_first_and_last_name_ema_number_and_country_code_columns_are_read():
    preview = parse(
        [
            ["Number", "First name", "Last_Name", "EMA ID", "Country code"],
            # A workbook's number of eight digits lost nothing: it is read as its digits.
            [1, "Alice", "MARTIN", 14010005, "fra"],
            [2, "Bo", "LI", "05000012", "China"],
            [3, "Cy", "Guest", None, None],
        ]
    )
    assert not preview.has_errors
    assert preview.columns == ["number", "first_name", "last_name", "country", "ema_number"]
    # No name column: the names are made of the first and last names when saved.
    assert [row.values for row in preview.rows] == [
        {"number": 1, "first_name": "Alice", "last_name": "MARTIN", "ema_number": "14010005",
         "country": "FRA"},
        {"number": 2, "first_name": "Bo", "last_name": "LI", "ema_number": "05000012",
         "country": "CHN"},
        {"number": 3, "first_name": "Cy", "last_name": "Guest", "ema_number": "", "country": ""},
    ]  # fmt: skip


def test_chinese_headings_are_read():
    preview = parse(
        [
            ["编号", "姓名", "姓", "名", "中文名", "队伍", "国家/地区", "EMA编号", "替补"],
            ["8", "Ouyang Nana", "欧阳", "娜娜", "欧阳娜娜", "北京", "中国", "", "否"],
        ]
    )
    assert not preview.has_errors
    assert preview.rows[0].values == {
        "number": 8,
        "name": "Ouyang Nana",
        "first_name": "娜娜",
        "last_name": "欧阳",
        "name_zh": "欧阳娜娜",
        "team": "北京",
        "country": "CHN",
        "ema_number": "",
        "is_substitute": False,
    }


def test_a_name_may_be_left_empty_when_first_or_last_name_is_given():
    preview = parse([["number", "name", "last_name"], ["1", "", "MARTIN"], ["2", "", ""]])
    first, second = preview.rows
    assert first.values == {"number": 1, "last_name": "MARTIN"}
    assert not first.problems
    assert codes(second.problems) == ["name_missing"]


def test_a_list_without_any_name_column_is_a_header_error():
    preview = parse([["number", "team"], ["1", "Lyon"]])
    assert codes(preview.header_problems) == ["missing_column"]
    assert "first_name" in preview.header_problems[0].message
    assert not parse([["number", "last_name"], ["1", "Martin"]]).header_problems


@pytest.mark.parametrize(
    ("column", "cell", "code"),
    [
        ("ema_number", "0401-0005", "ema_number_not_digits"),
        ("ema_number", "123456789", "ema_number_too_long"),
        # Never padded: a short number, as text or as a workbook's number, is refused.
        ("ema_number", "1234", "ema_number_too_short"),
        ("ema_number", 4010005, "ema_number_short_cell"),
        ("ema_number", 0, "ema_number_zero"),
        ("country", "Atlantis", "country_not_a_code"),
        ("country", "F", "country_not_a_code"),
    ],
)
def test_bad_codes_are_row_errors_beside_their_column(column, cell, code):
    preview = parse([["number", "name", column], ["1", "Alice", cell], ["2", "Bo", ""]])
    bad, good = preview.rows
    assert codes(bad.problems) == [code]
    assert bad.problems[0].field == column
    assert bad.action == ERROR
    assert str(cell) in bad.problems[0].message or code == "ema_number_zero"
    assert not good.problems


def test_an_ema_number_on_two_rows_or_kept_by_another_player_is_a_row_error():
    existing = {
        1: {"number": 1, "name": "Ann", "ema_number": "04010005"},
        2: {"number": 2, "name": "Bo", "ema_number": "05000012"},
    }
    preview = parse(
        [
            ["number", "name", "ema_number"],
            ["3", "Cy", "04010005"],  # player 1 keeps it (not in the file)
            ["4", "Di", "00000007"],
            ["5", "Ed", " 00000007 "],  # the same as row 3 once the spaces are trimmed
            ["2", "Bo", "05000012"],  # unchanged
        ],
        existing=existing,
    )
    by_line = {row.line: codes(row.problems) for row in preview.rows}
    assert by_line == {
        2: ["ema_number_repeated"],
        3: ["ema_number_repeated"],
        4: ["ema_number_repeated"],
        5: [],
    }
    assert "player 1" in preview.rows[0].problems[0].message
    assert "player 5" in preview.rows[1].problems[0].message


def test_an_ema_number_moved_by_the_file_is_no_clash():
    existing = {1: {"number": 1, "name": "Ann", "ema_number": "04010005"}}
    preview = parse(
        [["number", "name", "ema_number"], ["1", "Ann", ""], ["2", "Bo", "04010005"]],
        existing=existing,
    )
    assert not preview.has_errors


def test_codes_are_compared_as_stored():
    existing = {1: {**ALICE, "country": "FRA", "ema_number": "04010005"}}
    preview = parse(
        [["number", "name", "country", "ema_number"], ["1", "Alice", "France", " 04010005"]],
        existing=existing,
    )
    assert preview.rows[0].action == UNCHANGED


def test_e_mail_addresses_are_read_and_a_wrong_one_is_said_beside_its_field():
    rows = parse(
        [["number", "name", "E-mail"], ["1", "Ann", " ann@example.org "], ["2", "Bo", "bo@"]]
    ).rows
    assert rows[0].values["email"] == "ann@example.org"
    assert codes(rows[1].problems) == ["email_invalid"]
    assert rows[1].problems[0].field == "email"
    assert "bo@" in rows[1].problems[0].message


def test_the_ema_guest_column_reads_yes_and_no_in_both_languages():
    rows = parse(
        [["number", "name", "guest"], ["1", "Ann", "yes"], ["2", "Bo", "否"], ["3", "Cai", "?"]]
    ).rows
    assert rows[0].values["ema_guest"] is True
    assert rows[1].values["ema_guest"] is False
    assert codes(rows[2].problems) == ["bad_guest"]
    assert rows[2].problems[0].field == "ema_guest"
