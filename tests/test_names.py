"""Names in the order readers expect, and found by what they type: no database."""

import doctest

import pytest

from tournament.players import names


def test_the_module_examples_hold():
    assert doctest.testmod(names).failed == 0


def test_chinese_names_sort_among_latin_names_by_their_pinyin():
    listed = ["Zoe Martin", "张伟", "adams", "李娜", "Wang Fang", "王芳", "Émile Roux", "陈静"]
    ordered = sorted(listed, key=names.sort_key)
    # 陈 chen, 李 li, 王 wang, 张 zhang: each among the Latin names of its letter, the
    # case and the accent of "adams" and "Émile" aside.
    assert ordered == [
        "adams",
        "陈静",
        "Émile Roux",
        "李娜",
        "Wang Fang",
        "王芳",
        "张伟",
        "Zoe Martin",
    ]


def test_code_point_order_would_put_every_chinese_name_last():
    # What the pages did before: the reason for the pinyin key.
    listed = ["张伟", "Zoe Martin", "adams"]
    assert sorted(listed, key=str.casefold)[-1] == "张伟"
    assert sorted(listed, key=names.sort_key)[-1] == "Zoe Martin"


@pytest.mark.parametrize(
    ("name", "reading"),
    [
        ("曾丽", "zeng li"),
        ("单田芳", "shan tian fang"),
        ("尉迟敬", "yu chi jing"),
        ("曹操", "cao cao"),
    ],
)
def test_surnames_are_read_as_surnames(name, reading):
    assert names.sort_key(name)[0] == reading


def test_the_order_is_total_even_for_names_that_read_alike():
    # 王芳 and "Wang Fang" read the same: the name itself decides, the same way every time.
    assert sorted(["王芳", "Wang Fang"], key=names.sort_key) == sorted(
        ["Wang Fang", "王芳"], key=names.sort_key
    )


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("", True),
        ("zhang", True),
        ("ZHANG WEI", True),
        ("zhangwei", True),
        ("zw", True),
        ("伟", True),
        ("张伟", True),
        ("wei", True),
        ("7", True),
        ("70", False),
        ("li", False),
        ("zx", False),
    ],
)
def test_a_search_finds_a_chinese_name_by_characters_pinyin_initials_or_number(query, found):
    assert names.matches(query, name="张伟", name_zh="", number=7) is found


@pytest.mark.parametrize(
    ("query", "found"),
    [("emile", True), ("Émile", True), ("roux", True), ("er", True), ("xr", False)],
)
def test_a_search_ignores_case_and_accents(query, found):
    assert names.matches(query, name="Émile Roux", name_zh="", number=3) is found


def test_a_search_finds_a_player_by_the_chinese_name_beside_the_latin_one():
    assert names.matches("王", name="Wang Fang", name_zh="王芳", number=4)
    assert names.matches("wf", name="Wang Fang", name_zh="王芳", number=4)


def test_initials_find_chinese_names_only():
    # "zm" would find every Z… M… player in a big event: Latin names are typed, not spelled
    # out from initials, so initials are for pinyin alone.
    assert not names.matches("zm", name="Zoe Martin", name_zh="", number=1)
    assert names.matches("zm", name="张明", name_zh="", number=1)
