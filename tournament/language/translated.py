"""The pure cores' messages and fan names in the reader's language.

The scoring and seating cores speak English and import no Django: each of their errors
carries a ``template`` (marked with ``gettext_noop``, so it is in the catalogue) and its
``params`` (see ``tournament.core_errors``). Every page and service that shows such
an error goes through ``core_message``; every fan name shown goes through ``fan_name``.
"""

from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.utils.translation import get_language, gettext

from tournament.core_errors import CoreError, Named, render


def fan_name(fan: Named) -> str:
    """A fan's name in the page's language: Chinese under Chinese, English otherwise."""
    return fan.name_zh if _chinese() else fan.name_en


def core_message(error: CoreError) -> str:
    """The message of a core error (HandError, SettlementError, SeatingError, DrawError) in
    the reader's language: its template through ``gettext``, its params translated too."""
    return render(error.template, error.params, translate=gettext, name=fan_name)


def core_error(error: CoreError) -> ValidationError:
    """A core error as a form error, with its code."""
    return ValidationError(core_message(error), code=error.code)


def fans_in_words(fans: Iterable) -> str:
    """Counted fans (each with ``count`` and a name, or a ``fan`` that has one) as a referee
    writes them, in the reader's language: "Mixed Straight, Short Straight ×2"."""
    words = []
    for each in fans:
        name = fan_name(getattr(each, "fan", each))
        words.append(name if each.count == 1 else f"{name} ×{each.count}")
    return list_in_words(words)


def list_in_words(words: Iterable[str]) -> str:
    """Words listed as the reader's language lists them: "a, b" in English, "甲、乙" in
    Chinese (the enumeration comma)."""
    return ("、" if _chinese() else ", ").join(words)


def _chinese() -> bool:
    return (get_language() or "").startswith("zh")
