"""What a text typed into the site may hold: one line for a name and every other one-line
field, several lines for a reason or a note; control characters in neither.

A name is copied into e-mails, sheets, workbooks, the hall's screen and the logs: a line
break in it (``x\\r\\nBcc: …``) wrote lines of its own into an e-mail's body, and a bidi
override (U+202E) can show a name backwards or disguise it as another. Refused, with the
character named, beside the field: each model field carries the validator (a service's
``full_clean`` applies it), each form field that is no model's too, and the player import
checks each row with ``unsafe_character``.

Refused everywhere: the C0 and C1 control characters (Unicode category Cc: NUL, ESC, the
line breaks \\r \\n \\x85, the tab…), the line and paragraph separators (U+2028, U+2029)
and the bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069),
which reorder what follows them. Other format characters stay: the zero-width joiner and
non-joiner are part of how some scripts and emoji are written. Several lines (a reason):
\\n, \\r and the tab are allowed.
"""

import unicodedata
import zoneinfo
from functools import cache

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# What several lines may hold that one line may not.
LINE_BREAKS_AND_TAB = frozenset("\r\n\t")


def unsafe_character(value: str, *, multi_line: bool = False) -> str | None:
    """The first character ``value`` may not hold (None when it holds none): a control
    character, a line or paragraph separator, a bidi control; a line break or a tab too
    unless ``multi_line``."""
    for character in value:
        if multi_line and character in LINE_BREAKS_AND_TAB:
            continue
        if unicodedata.category(character) in ("Cc", "Zl", "Zp") or character in BIDI_CONTROLS:
            return character
    return None


def character_code(character: str) -> str:
    """How a message names an invisible character: U+000A."""
    return f"U+{ord(character):04X}"


ONE_LINE_MESSAGE = _("Use one line, without line breaks or control characters (%(character)s).")
MULTI_LINE_MESSAGE = _("Remove the control character %(character)s.")


def validate_one_line(value) -> None:
    """A name or any other one-line text: no line break, no control character."""
    if isinstance(value, str) and (found := unsafe_character(value)) is not None:
        raise ValidationError(
            ONE_LINE_MESSAGE, code="not_one_line", params={"character": character_code(found)}
        )


def validate_multi_line(value) -> None:
    """A reason or a note: lines and tabs, no other control character."""
    if isinstance(value, str) and (found := unsafe_character(value, multi_line=True)):
        raise ValidationError(
            MULTI_LINE_MESSAGE,
            code="control_character",
            params={"character": character_code(found)},
        )


def one_line_field(verbose_name, **options) -> models.CharField:
    """A model's one-line text (a name, a code): a ``CharField`` with ``validate_one_line``."""
    return models.CharField(verbose_name, validators=[validate_one_line], **options)


@cache
def known_time_zones() -> frozenset[str]:
    """The IANA names of the time zones this machine knows (read from disk once: the list
    changes only with a new release of the time zone database, installed with a restart)."""
    return frozenset(zoneinfo.available_timezones())


def validate_time_zone(value: str) -> None:
    """A time zone by its IANA name ("Asia/Shanghai", "Europe/Copenhagen", "UTC")."""
    if value not in known_time_zones():
        raise ValidationError(
            _(
                "“%(value)s” is not a time zone: choose one from the list (for example "
                "Asia/Shanghai)."
            ),
            code="unknown_time_zone",
            params={"value": value},
        )
