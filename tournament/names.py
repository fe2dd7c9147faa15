"""Players' names in the order readers expect, and found by what readers type.

A list of names mixes Latin letters and Chinese characters. Chinese readers look a name up by
its pinyin, as in a phone book: 张伟 (zhang wei) comes among the Z names, right beside
"Zhang Wei", not after every Latin name as code-point order puts it. Accents do not move a
name either: "Émile" sorts with the E names.

    >>> sorted(["Zoe Martin", "张伟", "Anna Li", "Émile Roux", "陈静"], key=sort_key)
    ['Anna Li', '陈静', 'Émile Roux', '张伟', 'Zoe Martin']

A search matches a name by any part of it, of its pinyin (with or without spaces), by the
initials of its pinyin, or by the registration number:

    >>> matches("zhangw", name="张伟", name_zh="", number=12)
    True
    >>> matches("zw", name="张伟", name_zh="", number=12)
    True
    >>> matches("wei", name="Wei Zhang", name_zh="张伟", number=12)
    True
    >>> matches("12", name="Anna Li", name_zh="", number=12)
    True

Surnames are read as surnames: 曾 is zeng at the start of a name, whatever it is elsewhere.

    >>> matches("zengli", name="曾丽", name_zh="", number=3)
    True
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from pypinyin import Style, lazy_pinyin


def _plain(text: str) -> str:
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
        words += _plain(part).split()
    return tuple(words)


def sort_key(name: str) -> tuple:
    """Order names by their letters as a reader says them: pinyin for Chinese characters,
    case and accents aside; the name itself breaks ties so the order is always the same."""
    return (" ".join(_syllables(name)), name)


def _forms(name: str) -> set[str]:
    syllables = _syllables(name)
    forms = {_plain(name).replace(" ", ""), "".join(syllables)}
    if any(ord(c) > 0x2E7F for c in name):
        forms.add("".join(s[0] for s in syllables if s))
    return forms


def matches(query: str, *, name: str, name_zh: str, number: int) -> bool:
    """Whether a player is what the reader searched for (an empty query matches everyone)."""
    wanted = _plain(query).replace(" ", "")
    if not wanted:
        return True
    if wanted.isdigit():
        return int(wanted) == number
    return any(wanted in form for text in (name, name_zh) if text for form in _forms(text))
