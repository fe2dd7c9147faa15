"""The Chinese catalogue, kept in step with the source without any system tool.

Every string the pages, forms, services and the two cores mark for translation (``gettext``,
``gettext_lazy as _``, ``gettext_noop``, ``ngettext``, ``pgettext``; ``{% translate %}`` and
``{% blocktranslate %}`` in templates) is read from the source the way Django's
``makemessages`` reads it: templates go through Django's own ``templatize`` and the result,
like every Python file, through Babel's Python extractor. So the catalogue never depends on
GNU gettext being installed, on a developer's machine or a server.

``python manage.py catalogue`` adds what is new to ``locale/zh_Hans/LC_MESSAGES/django.po``
(empty, to be translated), drops what the source no longer has and compiles the ``.mo`` that
Django reads; ``python manage.py catalogue --check`` (and the test suite) lists every string
without a translation, every placeholder a translation lost, and a ``.mo`` older than its
``.po``. docs/translation.md has the workflow.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po
from django.conf import settings
from django.utils.translation.template import templatize

LOCALE = "zh_Hans"
DOMAIN = "django"

# The marking functions Django's makemessages knows, with where their message arguments are
# (Babel's notation: a number is a positional argument, (n, "c") the context).
KEYWORDS = {
    "_": None,
    "gettext": None,
    "gettext_lazy": None,
    "gettext_noop": None,
    "ngettext": (1, 2),
    "ngettext_lazy": (1, 2),
    "pgettext": ((1, "c"), 2),
    "pgettext_lazy": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
    "npgettext_lazy": ((1, "c"), 2, 3),
}

# Where translatable strings live, relative to the project folder. Tests, benchmarks and
# migrations speak to developers only.
SOURCES = (
    ("templates", "*.html"),
    ("templates", "*.txt"),
    ("tournament", "*.html"),
    ("tournament", "*.py"),
)
LEFT_OUT = ("tournament/migrations/", "tournament/settings_test.py")


@dataclass(frozen=True)
class Paths:
    root: Path
    po: Path
    mo: Path

    @classmethod
    def default(cls) -> Paths:
        root = Path(settings.BASE_DIR)
        folder = root / "locale" / LOCALE / "LC_MESSAGES"
        return cls(root=root, po=folder / f"{DOMAIN}.po", mo=folder / f"{DOMAIN}.mo")


def source_files(root: Path) -> list[Path]:
    found = set()
    for folder, pattern in SOURCES:
        for path in (root / folder).rglob(pattern):
            relative = path.relative_to(root).as_posix()
            if not relative.startswith(LEFT_OUT):
                found.add(path)
    return sorted(found)


def _python_text(path: Path) -> bytes:
    text = path.read_text(encoding="utf-8")
    if path.suffix in (".html", ".txt"):
        # Django's own reading of {% translate %}/{% blocktranslate %} as gettext() calls,
        # the same text makemessages hands to its extractor.
        text = templatize(text, origin=str(path))
        # Its calls are whole on one line; the indentation left of them means nothing and
        # would trip Python's tokenizer.
        text = "\n".join(line.lstrip() for line in text.splitlines())
    return text.encode("utf-8")


def extract_catalog(root: Path) -> Catalog:
    """Every marked string of the source, with the places it comes from."""
    catalog = Catalog(locale=LOCALE, domain=DOMAIN)
    for path in source_files(root):
        relative = path.relative_to(root).as_posix()
        messages = extract(
            "python", io.BytesIO(_python_text(path)), keywords=KEYWORDS, comment_tags=()
        )
        for lineno, message, _comments, context in messages:
            catalog.add(message, None, locations=[(relative, lineno)], context=context)
    return catalog


def _key(message) -> tuple[str | None, str]:
    msgid = message.id[0] if isinstance(message.id, tuple | list) else message.id
    return message.context, msgid


def _strings(message) -> tuple[str, ...]:
    if isinstance(message.string, tuple | list):
        return tuple(message.string)
    return (message.string,)


def _translated(message) -> bool:
    return all(_strings(message)) and bool(_strings(message))


# %(name)s and %s style placeholders; %% is a literal percent sign.
PLACEHOLDER = re.compile(r"%(?:\((\w+)\))?[-#0 +]*\d*(?:\.\d+)?[sdifrx]|%%")


def placeholders(text: str) -> list[str]:
    """The placeholders a text fills, sorted: names, and "%" for each positional one."""
    return sorted(
        match.group(1) or "%" for match in PLACEHOLDER.finditer(text) if match.group() != "%%"
    )


def _placeholder_problems(message) -> list[str]:
    """A translation must fill the placeholders its English fills, no more, no fewer. Chinese
    has one plural form, used for every count: it follows the English plural, which is the
    one that names every value (the singular may say "once" where the plural says "%(n)s")."""
    msgid = message.id[-1] if isinstance(message.id, tuple | list) else message.id
    wanted = placeholders(msgid)
    return [
        f"{_key(message)[1]!r}: the translation fills {placeholders(text)}, not {wanted}"
        for text in _strings(message)
        if placeholders(text) != wanted
    ]


def read_catalog(path: Path) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=LOCALE, domain=DOMAIN)


def compiled(catalog: Catalog) -> bytes:
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    return buffer.getvalue()


def problems(paths: Paths | None = None) -> list[str]:
    """What stands between the source and a complete, compiled Chinese catalogue."""
    paths = paths or Paths.default()
    if not paths.po.exists():
        return [f"{paths.po} is missing: run python manage.py catalogue"]
    source = extract_catalog(paths.root)
    translated = read_catalog(paths.po)
    found = []
    known = {_key(message): message for message in translated if message.id}
    for message in source:
        if not message.id:
            continue
        entry = known.get(_key(message))
        where = ", ".join(f"{file}:{line}" for file, line in message.locations[:2])
        if entry is None:
            found.append(f"not in the catalogue: {_key(message)[1]!r} ({where})")
        elif entry.fuzzy:
            found.append(f"marked fuzzy, to be checked: {_key(message)[1]!r} ({where})")
        elif not _translated(entry):
            found.append(f"no Chinese translation: {_key(message)[1]!r} ({where})")
    wanted = {_key(message) for message in source if message.id}
    found += [f"no longer in the source: {key[1]!r}" for key in known if key not in wanted]
    for message in translated:
        if message.id and _translated(message):
            found += _placeholder_problems(message)
    if not paths.mo.exists() or paths.mo.read_bytes() != compiled(translated):
        found.append(f"{paths.mo.name} is not compiled from {paths.po.name}: run catalogue")
    return found


def update(paths: Paths | None = None) -> tuple[int, int]:
    """Bring the .po in step with the source and compile it; return (new, dropped) counts."""
    paths = paths or Paths.default()
    source = extract_catalog(paths.root)
    if paths.po.exists():
        catalog = read_catalog(paths.po)
    else:
        paths.po.parent.mkdir(parents=True, exist_ok=True)
        catalog = Catalog(locale=LOCALE, domain=DOMAIN, project="mcr-tournament")
    before = {_key(message) for message in catalog if message.id}
    # Babel's update keeps the translations of strings still in the source and forgets the
    # rest; a changed string starts untranslated rather than as a guessed "fuzzy" match.
    catalog.update(source, no_fuzzy_matching=True)
    catalog.obsolete.clear()
    after = {_key(message) for message in catalog if message.id}
    with paths.po.open("wb") as file:
        write_po(file, catalog, width=100, sort_by_file=True, include_previous=False)
    paths.mo.write_bytes(compiled(read_catalog(paths.po)))
    return len(after - before), len(before - after)
