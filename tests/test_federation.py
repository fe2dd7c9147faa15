"""First and last names, EMA numbers and country codes (``tournament.players.names``,
``tournament.players.federation``): pure code, no database."""

from pathlib import Path

import pytest

from tests.markdown_tables import table_rows
from tournament.players import federation, names
from tournament.players.federation import FieldValueError, normalise_country, normalise_ema_number
from tournament.players.names import join_names, resolve_names, split_name

# ---------------------------------------------------------------- splitting a name


@pytest.mark.parametrize(
    ("name", "first", "last"),
    [
        # Latin names split at the last space: first name(s), then the last name.
        ("Alice Martin", "Alice", "Martin"),
        ("Anne Marie van Dijk", "Anne Marie van", "Dijk"),
        ("  Alice   Martin ", "Alice", "Martin"),
        # "LAST, First" splits at the comma, whatever the script.
        ("MARTIN, Alice", "Alice", "MARTIN"),
        ("van Dijk, Anne Marie", "Anne Marie", "van Dijk"),
        ("李, 伟", "伟", "李"),
        # One word is a last name.
        ("Madonna", "", "Madonna"),
        ("", "", ""),
        # CJK characters without a space: the surname first, one character...
        ("李伟", "伟", "李"),
        ("王小明", "小明", "王"),
        # (A Japanese two-character surname needs the space: 佐藤 惠, below.)
        ("佐藤惠", "藤惠", "佐"),
        # ... or two for the common two-character surnames.
        ("欧阳娜娜", "娜娜", "欧阳"),
        ("司马光", "光", "司马"),
        ("上官婉儿", "婉儿", "上官"),
        ("诸葛亮", "亮", "诸葛"),
        ("慕容复", "复", "慕容"),
        ("端木蓉", "蓉", "端木"),
        ("歐陽修", "修", "歐陽"),
        # A two-character name that starts like a compound surname is a surname and a name.
        ("东方", "方", "东"),
        # With a space, the surname is what comes before it (Japanese names too).
        ("佐藤 惠", "惠", "佐藤"),
        ("欧阳 娜娜", "娜娜", "欧阳"),
        # Korean in Hangul: surname first.
        ("김민수", "민수", "김"),
        # Without a Chinese name beside it, a name in Latin letters follows the Latin rule.
        ("Li Wei", "Li", "Wei"),
    ],
)
def test_a_name_alone_is_split_by_its_script(name, first, last):
    assert split_name(name) == (first, last)


@pytest.mark.parametrize(
    ("name", "name_zh", "first", "last"),
    [
        # Romanised beside its Chinese name: the family name first, as in Chinese.
        ("Wang Fang", "王芳", "Fang", "Wang"),
        ("Chan Tai Man", "陈大文", "Tai Man", "Chan"),  # not pinyin: the order is kept
        ("Ou Yang Na Na", "欧阳娜娜", "Na Na", "Ou Yang"),
        ("Zeng Li", "曾丽", "Li", "Zeng"),  # 曾 read as a surname
        # Only the last word reads as the family name in pinyin: written given name first.
        ("Fang WANG", "王芳", "Fang", "WANG"),
        ("Nana Ouyang", "欧阳娜娜", "Nana", "Ouyang"),
        ("Bu Lü", "吕布", "Bu", "Lü"),
        # "LAST, First" and one word are as without a Chinese name.
        ("WANG, Fang", "王芳", "Fang", "WANG"),
        ("Wang", "王芳", "", "Wang"),
        # Not a Chinese name: kana (Japanese), or a transliterated foreign name's dot.
        ("Haruka Sato", "さとう はるか", "Haruka", "Sato"),
        ("Alice Martin", "艾丽丝·马丁", "Alice", "Martin"),
    ],
)
def test_a_romanised_name_beside_a_chinese_name_keeps_the_family_name_first(
    name, name_zh, first, last
):
    assert split_name(name, name_zh=name_zh) == (first, last)


def test_first_and_last_names_beside_a_chinese_name_make_it_family_name_first():
    assert join_names("Fang", "Wang", name_zh="王芳") == "Wang Fang"
    assert join_names("Alice", "Martin", name_zh="艾丽丝·马丁") == "Alice Martin"
    assert join_names("芳", "王", name_zh="王芳") == "王芳"


@pytest.mark.parametrize(
    ("first", "last", "name"),
    [
        ("Alice", "Martin", "Alice Martin"),
        ("", "Martin", "Martin"),
        ("Alice", "", "Alice"),
        ("娜娜", "欧阳", "欧阳娜娜"),
        ("伟", "李", "李伟"),
        # Mixed scripts are joined as Latin names are.
        ("Wei", "李", "Wei 李"),
        ("", "", ""),
    ],
)
def test_first_and_last_names_make_the_name(first, last, name):
    assert join_names(first, last) == name


@pytest.mark.parametrize("name", ["Alice Martin", "欧阳娜娜", "李伟", "Madonna", "王小明"])
def test_a_split_name_joins_back_to_itself(name):
    assert join_names(*split_name(name)) == name


def test_cjk_is_told_from_latin_and_mixed_text():
    assert names.is_cjk("欧阳娜娜")
    assert names.is_cjk("さくら")
    assert not names.is_cjk("Li Wei")
    assert not names.is_cjk("Wei 李")
    assert not names.is_cjk("")


# ---------------------------------------------------------------- keeping them in step

NEW = ("", "", "")


@pytest.mark.parametrize(
    ("stored", "given", "kept"),
    [
        # A new player: a name alone is split, first and last names alone make the name.
        (NEW, ("Alice Martin", "", ""), ("Alice Martin", "Alice", "Martin")),
        (NEW, ("", "Alice", "Martin"), ("Alice Martin", "Alice", "Martin")),
        (NEW, ("", "娜娜", "欧阳"), ("欧阳娜娜", "娜娜", "欧阳")),
        # All three given: kept as they are, even when they do not match.
        (NEW, ("Li Wei", "Wei", "Li"), ("Li Wei", "Wei", "Li")),
        # Renamed, first and last names as they were (the old name's split): they follow.
        (
            ("Jon Smith", "Jon", "Smith"),
            ("John Smith", "Jon", "Smith"),
            ("John Smith", "John", "Smith"),
        ),
        # Renamed, but the first and last names had been set apart from it: they stay.
        (("Li Wei", "Wei", "Li"), ("Li Wei Jr", "Wei", "Li"), ("Li Wei Jr", "Wei", "Li")),
        # Renamed and first name changed too: all kept as given.
        (
            ("Jon Smith", "Jon", "Smith"),
            ("John Smith", "Johnny", "Smith"),
            ("John Smith", "Johnny", "Smith"),
        ),
        # First name changed: the name stays as it was given, even when it was "First Last".
        (
            ("Jon Smith", "Jon", "Smith"),
            ("Jon Smith", "John", "Smith"),
            ("Jon Smith", "John", "Smith"),
        ),
        (
            ("Chen Jing", "Chen", "Jing"),
            ("Chen Jing", "Jing", "CHEN"),
            ("Chen Jing", "Jing", "CHEN"),
        ),
        # The name emptied: made of the first and last names.
        (("Jon Smith", "Jon", "Smith"), ("", "John", "Smith"), ("John Smith", "John", "Smith")),
        # First and last names emptied: split from the name again.
        (("Jon Smith", "X", "Y"), ("Jon Smith", "", ""), ("Jon Smith", "Jon", "Smith")),
        # Nothing at all: nothing (the service refuses a player without a name).
        (NEW, NEW, NEW),
    ],
)
def test_names_kept_in_step(stored, given, kept):
    assert resolve_names(stored, given) == kept


@pytest.mark.parametrize(
    ("stored", "given", "kept"),
    [
        # A new player's romanised name beside a Chinese name: the family name first.
        ({}, {"name": "Wang Fang", "name_zh": "王芳"}, ("Wang Fang", "Fang", "Wang")),
        # Given first and last names win: nothing is split again.
        (
            {},
            {"name": "Wang Fang", "first_name": "Wang", "last_name": "Fang", "name_zh": "王芳"},
            ("Wang Fang", "Wang", "Fang"),
        ),
        (
            {},
            {"first_name": "Fang", "last_name": "Wang", "name_zh": "王芳"},
            ("Wang Fang", "Fang", "Wang"),
        ),
        # A Chinese name added later turns names that were the split of the name...
        (
            {"name": "Wang Fang", "first_name": "Wang", "last_name": "Fang"},
            {"name_zh": "王芳"},
            ("Wang Fang", "Fang", "Wang"),
        ),
        # ... but not names set apart from it.
        (
            {"name": "Wang Fang", "first_name": "F.", "last_name": "Wang"},
            {"name_zh": "王芳"},
            ("Wang Fang", "F.", "Wang"),
        ),
    ],
)
def test_names_follow_the_chinese_name_beside_them(stored, given, kept):
    assert names.resolve_fields(stored, given) == kept


# ---------------------------------------------------------------- EMA number


@pytest.mark.parametrize(
    ("value", "stored"),
    [
        ("04010005", "04010005"),
        (" 12345678 ", "12345678"),
        # A workbook's number of eight digits lost nothing.
        (12345678, "12345678"),
        (12345678.0, "12345678"),
        ("", ""),
        ("   ", ""),
        (None, ""),
    ],
)
def test_ema_numbers_are_taken_with_their_eight_digits(value, stored):
    assert normalise_ema_number(value) == stored


@pytest.mark.parametrize(
    ("value", "code"),
    [
        ("0401-0005", "ema_number_not_digits"),
        ("04 010 005", "ema_number_not_digits"),
        ("A4010005", "ema_number_not_digits"),
        (4010005.5, "ema_number_not_digits"),
        ("-4010005", "ema_number_not_digits"),
        ("123456789", "ema_number_too_long"),
        # Never padded: a spreadsheet that dropped the leading zero, or a number too short.
        ("4010005", "ema_number_too_short"),
        ("1234", "ema_number_too_short"),
        (4010005, "ema_number_short_cell"),
        (4010005.0, "ema_number_short_cell"),
        ("0", "ema_number_zero"),
        ("00000000", "ema_number_zero"),
    ],
)
def test_bad_ema_numbers_are_refused_with_a_reason(value, code):
    with pytest.raises(FieldValueError) as raised:
        normalise_ema_number(value)
    assert raised.value.code == code
    assert raised.value.message
    if code.startswith("ema_number_short"):
        # The message says how to keep the leading zeros.
        assert "format the column as text" in raised.value.message


# ---------------------------------------------------------------- country


@pytest.mark.parametrize(
    ("value", "code"),
    [
        ("FRA", "FRA"),
        ("fra", "FRA"),
        (" Fra ", "FRA"),
        ("France", "FRA"),
        ("FRANCE", "FRA"),
        ("法国", "FRA"),
        ("fr", "FRA"),
        # The EMA writes sports codes: ISO's own codes and names are read as them.
        ("DEU", "GER"),
        ("Deutschland", "GER"),
        ("Germany", "GER"),
        ("NLD", "NED"),
        ("the netherlands", "NED"),
        ("Schweiz", "SUI"),
        ("Österreich", "AUT"),
        ("osterreich", "AUT"),
        ("China", "CHN"),
        ("中国", "CHN"),
        ("Hong Kong", "HKG"),
        ("日本", "JPN"),
        # Any three letters stand for themselves: a country the table does not list.
        ("ARG", "ARG"),
        ("mex", "MEX"),
        ("", ""),
        (None, ""),
    ],
)
def test_countries_are_stored_as_three_letter_codes(value, code):
    assert normalise_country(value) == code


@pytest.mark.parametrize("value", ["Atlantis", "F", "FRAN", "F1A", "ÉTA", "中华人民共和国"])
def test_a_country_that_is_not_a_code_is_refused(value):
    with pytest.raises(FieldValueError) as raised:
        normalise_country(value)
    assert raised.value.code == "country_not_a_code"
    assert value in raised.value.message


def test_the_country_table_gives_each_name_one_code_and_codes_of_three_capitals():
    seen = {}
    for code, aliases in federation.COUNTRIES:
        assert len(code) == 3 and code.isascii() and code.isupper()
        for alias in (code, *aliases):
            key = federation._key(alias)
            assert seen.setdefault(key, code) == code, (alias, seen[key], code)
    # The EMA's countries as the scrapers of its site list them.
    ema = "RUS DEN NED FRA POL GER GBR AUT SVK FIN UKR SWE CZE ITA BLR SUI BEL HUN ESP POR"
    assert set(ema.split()) <= {code for code, _aliases in federation.COUNTRIES}


def test_the_names_table_of_docs_federation():
    doc = Path(__file__).resolve().parents[1] / "docs" / "federation.md"
    rows = table_rows(doc, "| name | Chinese name | first name | last name |")
    assert len(rows) == 13
    for name, name_zh, first, last in rows:
        assert split_name(name, name_zh=name_zh) == (first, last)
