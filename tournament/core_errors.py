"""Messages of the pure cores (scoring and seating), translatable without Django.

An error of a core carries a ``template`` and its ``params``; its English ``message`` is
``render(template, params)``. Every template is a string literal wrapped in
``gettext_noop`` where it is written, so the catalogue's extractor (Django's
``makemessages``, or any xgettext) finds it as a msgid; the web pages render the same
template and params through ``gettext`` and the reader's language (``render``'s
``translate`` and ``name``).

A parameter is plain data (a number, a tile, a repr of what was typed: shown as is), a
`Message` (a translatable phrase of its own, such as "meld 2"), or a named thing with
``name_en`` and ``name_zh`` (a fan: shown in the reader's language).

A template is %-formatted only when it has params, so a template without params needs no
``%%`` for a percent sign.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Protocol


def gettext_noop(message: str) -> str:
    """Mark a literal as a message to translate, and return it unchanged.

    Named as Django's own marker so ``makemessages`` extracts the literal; the translation
    happens where the message is shown (``render`` with ``translate=gettext``).
    """
    return message


class Named(Protocol):
    """A thing named in both languages, such as a fan."""

    name_en: str
    name_zh: str


@dataclass(frozen=True)
class Message:
    """A translatable phrase: a ``gettext_noop`` template and its params."""

    template: str
    params: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))

    def __str__(self) -> str:
        return render(self.template, self.params)


def _same(text: str) -> str:
    return text


def english_name(thing: Named) -> str:
    return thing.name_en


def render(
    template: str,
    params: Mapping[str, object] | None = None,
    *,
    translate: Callable[[str], str] = _same,
    name: Callable[[Named], str] = english_name,
) -> str:
    """The text of ``template`` with ``params``: in English by default.

    ``translate`` is applied to the template and to every `Message` among the params (the
    web pages pass ``gettext``), ``name`` gives a named param's name (the web pages pass
    the name in the reader's language).
    """
    text = translate(template)
    if not params:
        return text
    return text % {key: _param(value, translate, name) for key, value in params.items()}


def _param(value: object, translate, name) -> object:
    if isinstance(value, Message):
        return render(value.template, value.params, translate=translate, name=name)
    if hasattr(value, "name_en") and hasattr(value, "name_zh"):
        return name(value)
    return value


class CoreError(ValueError):
    """An error of a core: ``template`` and ``params`` (see the module docstring), and its
    English ``message``, which is also ``str(error)``. Each kind adds a stable ``code``."""

    def __init__(self, template: str, params: Mapping[str, object] | None = None) -> None:
        self.template = template
        self.params = dict(params or {})
        self.message = render(template, self.params)
        super().__init__(self.message)
