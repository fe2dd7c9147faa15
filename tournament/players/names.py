"""Players' names: first and last names beside the name shown, and names in the order readers
expect, found by what readers type.

## First and last names

``Player.name`` is the name every page, sheet and export shows. ``first_name`` and
``last_name`` are what a federation's results file asks for. Either side may be given:

- only the name: it is split (``split_name``). "LAST, First" splits at the comma; a name in
  Chinese, Japanese or Korean characters puts the surname first (one character, or two for
  the common two-character surnames such as 欧阳 or 司马; at its first space when it has one);
  a name in Latin letters given with a Chinese name (``name_zh``) is that name romanised, and
  keeps its order, the family name first: "Wang Fang" with 王芳 is family name Wang, given
  name Fang. Only when its last word, and not its first, reads as the Chinese family name in
  pinyin was it written given name first ("Fang Wang" with 王芳). Any other name splits at
  its last space, first name(s) then last name. One word is a last name.
- only first and last names: the name is made of them (``join_names``): "First Last", or
  surname then given name with no space in CJK characters, or "Family Given" in Latin
  letters beside a Chinese name.
- all three: they are kept as given, and so are first and last names given with a name:
  nothing given is split again.

    >>> split_name("Wang Fang", name_zh="王芳")
    ('Fang', 'Wang')
    >>> split_name("Wang Fang")
    ('Wang', 'Fang')
    >>> split_name("Fang WANG", name_zh="王芳")
    ('Fang', 'WANG')
    >>> join_names("Fang", "Wang", name_zh="王芳")
    'Wang Fang'

A Chinese name is one in Chinese characters only: kana or hangul make it Japanese or Korean,
and a middle dot (艾丽丝·马丁) a foreign name transliterated, whose Latin spelling keeps the
Western order. A Japanese name written in kanji alone cannot be told from a Chinese one: its
romanised name is read family name first, unless its first and last names are given.

First and last names split from the name follow it when it changes (``resolve_names``):
renaming "Jon Smith" to "John Smith" splits the new name again, unless the first or last
name was changed too or no longer matched the old name's split. The name itself changes only
when it is given: correcting the first and last names of "Chen Jing" to Jing and CHEN keeps
the name shown as it was (an empty name is made of them again).

## Order and search

A list of names mixes Latin letters and Chinese characters. Chinese readers look a name up by
its pinyin, as in a phone book: 张伟 (zhang wei) comes among the Z names, right beside
"Zhang Wei", not after every Latin name as code-point order puts it. Accents do not move a
name either: "Émile" sorts with the E names.

    >>> sorted(["Zoe Martin", "张伟", "Anna Li", "Émile Roux", "陈静"], key=sort_key)
    ['Anna Li', '陈静', 'Émile Roux', '张伟', 'Zoe Martin']

A search matches a name by any part of it, of its pinyin (with or without spaces), by the
initials of its pinyin, by the registration number, or by the player's team the same ways:

    >>> matches("zhangw", name="张伟", name_zh="", number=12)
    True
    >>> matches("zw", name="张伟", name_zh="", number=12)
    True
    >>> matches("wei", name="Wei Zhang", name_zh="张伟", number=12)
    True
    >>> matches("12", name="Anna Li", name_zh="", number=12)
    True
    >>> matches("shanghai", name="Anna Li", name_zh="", number=12, team="上海麻将俱乐部")
    True

Surnames are read as surnames: 曾 is zeng at the start of a name, whatever it is elsewhere.

    >>> matches("zengli", name="曾丽", name_zh="", number=3)
    True

Pure Python, no Django (pypinyin for the readings of Chinese characters).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from pypinyin import Style, lazy_pinyin

# Two-character Chinese surnames common enough to be told from a one-character surname
# followed by a given name. A name is split after them only when more characters follow.
COMPOUND_SURNAMES = frozenset(
    {
        "欧阳",
        "司马",
        "上官",
        "诸葛",
        "东方",
        "皇甫",
        "尉迟",
        "公孙",
        "慕容",
        "长孙",
        "宇文",
        "司徒",
        "夏侯",
        "轩辕",
        "令狐",
        "钟离",
        "端木",
        # The same surnames in traditional characters, where they differ.
        "歐陽",
        "諸葛",
        "東方",
        "長孫",
        "軒轅",
        "鍾離",
    }
)

_HAN_SCRIPTS = ("CJK UNIFIED IDEOGRAPH", "CJK COMPATIBILITY IDEOGRAPH")
_CJK_SCRIPTS = (*_HAN_SCRIPTS, "HIRAGANA", "KATAKANA")


def _is_cjk_character(char: str) -> bool:
    name = unicodedata.name(char, "")
    return name.startswith(_CJK_SCRIPTS) or name.startswith("HANGUL SYLLABLE")


def is_cjk(text: str) -> bool:
    """Whether ``text`` is written in CJK characters: it has some, and no Latin letter."""
    letters = [char for char in text if char.isalpha()]
    return bool(letters) and all(_is_cjk_character(char) for char in letters)


def _tidy(text: str) -> str:
    return " ".join(text.split())


# The dots that join the parts of a foreign name written in Chinese characters (艾丽丝·马丁).
_NAME_DOTS = frozenset("·・•‧")


def is_chinese(text: str) -> bool:
    """Whether ``text`` is a Chinese name: Chinese characters only (no kana, hangul or Latin
    letter), without the dot of a transliterated foreign name."""
    letters = [char for char in text if char.isalpha()]
    return (
        bool(letters)
        and all(unicodedata.name(char, "").startswith(_HAN_SCRIPTS) for char in letters)
        and not _NAME_DOTS.intersection(text)
    )


def _family_words(words: list[str], family: str) -> tuple[int, int]:
    """How many of ``words`` spell the pinyin ``family`` ("Ouyang" or "Ou Yang" for ouyang)
    at their start, and at their end: 0 where they do not, nor when all of them do."""
    # Pinyin's ü is written u, v or ü (Lü, Lu, Lv for 吕): all are read u.
    spelt = [folded(word).replace("-", "").replace("v", "u") for word in words]
    family = family.replace("v", "u")
    sizes = range(1, len(words))
    leading = next((size for size in sizes if "".join(spelt[:size]) == family), 0)
    trailing = next((size for size in sizes if "".join(spelt[-size:]) == family), 0)
    return leading, trailing


def _romanised_split(words: list[str], name_zh: str) -> tuple[str, str]:
    """(first, last) of a romanised Chinese name: the family name first, unless only its
    last words read as the Chinese name's family name."""
    leading, trailing = _family_words(words, "".join(_syllables(split_name(name_zh)[1])))
    if trailing and not leading:
        return " ".join(words[:-trailing]), " ".join(words[-trailing:])
    leading = leading or 1
    return " ".join(words[leading:]), " ".join(words[:leading])


def split_name(name: str, *, name_zh: str = "") -> tuple[str, str]:
    """(first name, last name) of ``name`` (``name_zh``: the Chinese name beside it), by the
    rules of the module's docstring."""
    name = _tidy(name)
    if not name:
        return "", ""
    if "," in name:
        last, first = name.split(",", 1)
        return _tidy(first), _tidy(last)
    if is_cjk(name):
        if " " in name:
            last, first = name.split(" ", 1)
            return first, last
        # Several characters after a known two-character surname: that surname; else the
        # first character is the surname.
        size = 2 if len(name) > 2 and name[:2] in COMPOUND_SURNAMES else 1
        return name[size:], name[:size]
    if " " in name and is_chinese(name_zh):
        return _romanised_split(name.split(" "), _tidy(name_zh))
    if " " in name:
        first, last = name.rsplit(" ", 1)
        return first, last
    return "", name


def join_names(first: str, last: str, *, name_zh: str = "") -> str:
    """The name shown for ``first`` and ``last``: "First Last", 欧阳娜娜 in CJK characters, or
    "Last First" beside a Chinese name ``name_zh``."""
    first, last = _tidy(first), _tidy(last)
    if first and last and is_cjk(first) and is_cjk(last):
        return last + first
    if first and last and is_chinese(name_zh):
        return f"{last} {first}"
    return " ".join(part for part in (first, last) if part)


def resolve_names(
    stored: tuple[str, str, str],
    given: tuple[str, str, str],
    *,
    stored_zh: str = "",
    given_zh: str = "",
) -> tuple[str, str, str]:
    """(name, first name, last name) to store, from those stored and those given.

    ``stored`` is ("", "", "") for a new player; ``given`` holds the values after the
    change (the stored ones where the change sets nothing); ``stored_zh`` and ``given_zh``
    the Chinese name before and after it, which decides the order of a romanised name.
    """
    old_name, old_first, old_last = (_tidy(part) for part in stored)
    name, first, last = (_tidy(part) for part in given)
    names_kept = (first, last) == (old_first, old_last)
    old_split = split_name(old_name, name_zh=stored_zh)
    changed = (name, _tidy(given_zh)) != (old_name, _tidy(stored_zh))
    if changed and names_kept and (old_first, old_last) == old_split:
        # The first and last names were the old name's split: they follow the new name (and
        # the new Chinese name, which may turn its order).
        first, last = split_name(name, name_zh=given_zh)
    if not name:
        name = join_names(first, last, name_zh=given_zh)
    elif not first and not last:
        first, last = split_name(name, name_zh=given_zh)
    return name, first, last


NAME_KEYS = ("name", "first_name", "last_name", "name_zh")


def resolve_fields(stored: dict, given: dict) -> tuple[str, str, str]:
    """``resolve_names`` for a player's fields: ``stored`` as they are (empty for a new
    player), ``given`` those a change sets (the rest left as stored)."""
    before = {key: stored.get(key) or "" for key in NAME_KEYS}
    after = {key: (given[key] if key in given else before[key]) or "" for key in NAME_KEYS}
    return resolve_names(
        (before["name"], before["first_name"], before["last_name"]),
        (after["name"], after["first_name"], after["last_name"]),
        stored_zh=before["name_zh"],
        given_zh=after["name_zh"],
    )


# ---------------------------------------------------------------- order and search


def folded(text: str) -> str:
    """Case and accents folded: what a reader means whichever way they typed it."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


# Surnames read otherwise than the character's everyday reading, which is all the pinyin
# dictionary knows: 曾 is ceng in 曾经 but zeng as a surname. Only a name's first characters
# are looked up here.
SURNAME_READINGS = {
    "万俟": "mo qi",
    "尉迟": "yu chi",
    "单于": "chan yu",
    "长孙": "zhang sun",
    "曾": "zeng",
    "单": "shan",
    "解": "xie",
    "朴": "piao",
    "查": "zha",
    "仇": "qiu",
    "区": "ou",
    "乐": "yue",
    "覃": "qin",
    "翟": "zhai",
    "缪": "miao",
    "瞿": "qu",
    "盖": "ge",
    "华": "hua",
    "种": "chong",
    "秘": "bi",
    "召": "shao",
    "柏": "bai",
    "薄": "bo",
    "尉": "wei",
    "繁": "po",
    "员": "yun",
}


def _surname(text: str) -> tuple[list[str], str]:
    for length in (2, 1):
        reading = SURNAME_READINGS.get(text[:length])
        if reading:
            return reading.split(), text[length:]
    return [], text


@lru_cache(maxsize=8192)
def _syllables(text: str) -> tuple[str, ...]:
    """The text's words, each Chinese character as its pinyin syllable (without tone)."""
    words, rest = _surname(text.strip())
    for part in lazy_pinyin(rest, style=Style.NORMAL, errors=lambda chars: [chars]):
        words += folded(part).split()
    return tuple(words)


def sort_key(name: str) -> tuple:
    """Order names by their letters as a reader says them: pinyin for Chinese characters,
    case and accents aside; the name itself breaks ties so the order is always the same."""
    return (" ".join(_syllables(name)), name)


def _forms(name: str) -> set[str]:
    syllables = _syllables(name)
    forms = {folded(name).replace(" ", ""), "".join(syllables)}
    if any(ord(c) > 0x2E7F for c in name):
        forms.add("".join(s[0] for s in syllables if s))
    return forms


def matches(query: str, *, name: str, name_zh: str, number: int, team: str = "") -> bool:
    """Whether a player is what the reader searched for (an empty query matches everyone); a
    query of digits only is a number, matched whole."""
    wanted = folded(query).replace(" ", "")
    if not wanted:
        return True
    if wanted.isdigit():
        return int(wanted) == number
    texts = (name, name_zh, team)
    return any(wanted in form for text in texts if text for form in _forms(text))


def identity_key(name: str) -> str:
    """What two spellings of one person's name share, to suggest that two players are the
    same person: case, accents, spaces and the order of the words aside ("Li Wang", "WANG
    li" and "Wáng Li" agree; "李 王" and "李王" too). Empty for an empty name."""
    words = folded(_tidy(name)).split()
    if is_cjk(name):
        return "".join(words)
    return " ".join(sorted(words))
