"""What one-line and several-line text may hold (``tournament.models.validators``): no line
break in a name, no control character and no bidi override anywhere, every script's letters
and the joiners some of them need kept."""

import pytest
from django.core.exceptions import ValidationError

from tournament.models.validators import (
    unsafe_character,
    validate_multi_line,
    validate_one_line,
)

NEVER = {
    "carriage return": "\r",
    "line feed": "\n",
    "next line (C1)": "\x85",
    "line separator": "\u2028",
    "paragraph separator": "\u2029",
    "NUL": "\x00",
    "escape": "\x1b",
    "delete": "\x7f",
    "vertical tab": "\x0b",
    "tab": "\t",
    "right-to-left override": "\u202e",
    "left-to-right embedding": "\u202a",
    "first strong isolate": "\u2068",
    "pop directional isolate": "\u2069",
}
NOT_ON_ONE_LINE_ONLY = {"tab": "\t", "carriage return": "\r", "line feed": "\n"}
KEPT = [
    "Zhang San",
    "张三",
    "Ærøskøbing O'Brien-Łukasz",
    "Дмитрий",
    "محمد",
    "می\u200cخواهم",  # zero-width non-joiner, part of Persian spelling
    "👩\u200d👩\u200d👧",  # zero-width joiner in an emoji sequence
    "Mahjong\u00a0Club",  # no-break space
]


@pytest.mark.parametrize("character", NEVER.values(), ids=NEVER.keys())
def test_a_control_character_is_refused_on_one_line(character):
    value = f"x{character}Bcc: evil@example.org"
    assert unsafe_character(value) == character
    with pytest.raises(ValidationError) as refused:
        validate_one_line(value)
    assert refused.value.code == "not_one_line"
    assert refused.value.messages == [
        f"Use one line, without line breaks or control characters (U+{ord(character):04X})."
    ]


@pytest.mark.parametrize(
    "character",
    [c for name, c in NEVER.items() if c not in NOT_ON_ONE_LINE_ONLY.values()],
    ids=[name for name, c in NEVER.items() if c not in NOT_ON_ONE_LINE_ONLY.values()],
)
def test_several_lines_refuse_the_other_control_characters(character):
    with pytest.raises(ValidationError) as refused:
        validate_multi_line(f"Seat swap.{character}")
    assert refused.value.code == "control_character"


def test_several_lines_keep_their_line_breaks_and_tabs():
    validate_multi_line("Wrong seat in hand 3.\r\nCorrected after the appeal:\tP2 won.")


@pytest.mark.parametrize("value", KEPT)
def test_the_letters_of_every_script_are_kept(value):
    assert unsafe_character(value) is None
    validate_one_line(value)
    validate_multi_line(value)
