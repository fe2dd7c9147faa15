"""The Chinese catalogue is complete, in step with the source and compiled; the check that
says so catches each way it could stop being so."""

import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po
from django.conf import settings

from tournament.language import catalogue


def test_every_translatable_string_has_a_chinese_translation():
    assert catalogue.problems() == []


@pytest.fixture
def copy(tmp_path) -> catalogue.Paths:
    """The real source with a copy of the catalogue that a test may spoil."""
    paths = catalogue.Paths.default()
    po, mo = tmp_path / "django.po", tmp_path / "django.mo"
    shutil.copy(paths.po, po)
    shutil.copy(paths.mo, mo)
    return replace(paths, po=po, mo=mo)


def _rewrite(paths: catalogue.Paths, change) -> None:
    with paths.po.open("rb") as file:
        translated = read_po(file, locale=catalogue.LOCALE)
    change(translated)
    with paths.po.open("wb") as file:
        write_po(file, translated)
    paths.mo.write_bytes(catalogue.compiled(catalogue.read_catalog(paths.po)))


def test_a_string_left_untranslated_is_reported(copy):
    def blank(translated):
        translated["Standings"].string = ""

    _rewrite(copy, blank)
    assert any("no Chinese translation: 'Standings'" in p for p in catalogue.problems(copy))


def test_a_string_missing_from_the_catalogue_is_reported(copy):
    _rewrite(copy, lambda translated: translated.delete("Standings"))
    assert any("not in the catalogue: 'Standings'" in p for p in catalogue.problems(copy))


def test_a_translation_that_loses_a_placeholder_is_reported(copy):
    msgid = "Tablet of table %(n)s"

    def spoil(translated):
        translated[msgid].string = "平板"

    _rewrite(copy, spoil)
    assert any(msgid in p for p in catalogue.problems(copy))


def test_a_catalogue_not_compiled_since_its_last_change_is_reported(copy):
    with copy.po.open("rb") as file:
        translated = read_po(file, locale=catalogue.LOCALE)
    translated["Standings"].string = "名次表"
    with copy.po.open("wb") as file:
        write_po(file, translated)
    assert any("is not compiled" in p for p in catalogue.problems(copy))


def test_the_extraction_reads_templates_and_python_like_makemessages():
    found = {message.id for message in catalogue.extract_catalog(Path(settings.BASE_DIR))}
    # A {% translate %} of base.html, a {% blocktranslate %} with a variable, a gettext_lazy
    # of the models and an ngettext plural (its singular is the key).
    assert {"Standings", "Tablet of table %(n)s", "name"} <= found
    plurals = [m for m in catalogue.extract_catalog(Path(settings.BASE_DIR)) if m.pluralizable]
    assert plurals


def test_update_adds_new_strings_and_drops_old_ones_keeping_translations(copy, tmp_path):
    source = tmp_path / "source"
    (source / "templates").mkdir(parents=True)
    (source / "tournament").mkdir()
    (source / "templates" / "page.html").write_text(
        '{% load i18n %}{% translate "Standings" %} {% translate "A string new here" %}'
    )
    paths = replace(copy, root=source)
    new, dropped = catalogue.update(paths)
    assert new == 1 and dropped > 100
    translated = catalogue.read_catalog(paths.po)
    assert translated["Standings"].string  # kept
    assert translated["A string new here"].string == ""
    assert [p for p in catalogue.problems(paths)] == [
        "no Chinese translation: 'A string new here' (templates/page.html:1)"
    ]


def test_every_marking_function_is_imported_under_a_name_the_extraction_reads():
    """A function imported as ``gettext_lazy as _lazy`` marks strings the extraction never
    sees: they stay in English on Chinese pages (the hand entry's messages once did)."""
    imported = re.compile(r"from django\.utils\.translation import ([^\n(]+|\([^)]*\))")
    unknown = []
    for path in catalogue.source_files(Path(settings.BASE_DIR)):
        if path.suffix != ".py":
            continue
        for names in imported.findall(path.read_text(encoding="utf-8")):
            for name in names.strip("()").split(","):
                parts = name.split("#")[0].split()
                if not parts:
                    continue
                function, alias = parts[0], parts[-1]
                if function in catalogue.KEYWORDS and alias not in catalogue.KEYWORDS:
                    unknown.append(f"{path.name}: {function} as {alias}")
    assert unknown == []
