"""The cores' messages: the same English as before, every template a literal the catalogue's
extractor finds (``gettext_noop("...")``), every word among the params translatable too."""

import ast
from pathlib import Path

import pytest

from tests.core_error_cases import CASES
from tournament.core_errors import CoreError, Message, gettext_noop, render
from tournament.scoring.fans import fan_by_name

ROOT = Path(__file__).resolve().parents[2]
CORE_SOURCES = sorted(
    [
        *(ROOT / "tournament" / "scoring").glob("*.py"),
        *(ROOT / "tournament" / "seating").glob("*.py"),
        ROOT / "tournament" / "core_errors.py",
    ]
)


def _calls_named(tree: ast.AST, names: set[str]):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name in names:
                yield node


def marked_literals() -> dict[str, list[str]]:
    """Every ``gettext_noop`` argument in the cores' sources -> where it is (file:line)."""
    found: dict[str, list[str]] = {}
    for path in CORE_SOURCES:
        for call in _calls_named(ast.parse(path.read_text()), {"gettext_noop"}):
            (argument,) = call.args
            where = f"{path.relative_to(ROOT)}:{call.lineno}"
            assert isinstance(argument, ast.Constant) and isinstance(argument.value, str), where
            found.setdefault(argument.value, []).append(where)
    return found


MARKED = marked_literals()


def raised(case):
    with pytest.raises(CoreError) as caught:
        case.call()
    return caught.value


def templates(template: str, params) -> list[str]:
    """The template and the templates of the Messages among its params, nested ones too."""
    found = [template]
    for value in params.values():
        if isinstance(value, Message):
            found += templates(value.template, value.params)
    return found


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_every_error_says_what_it_said_before(case):
    error = raised(case)
    assert (error.code, error.message, str(error)) == (case.code, case.message, case.message)


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_every_template_is_a_literal_the_extractor_finds(case):
    error = raised(case)
    for template in templates(error.template, error.params):
        assert template in MARKED


def test_every_marked_literal_is_said_by_some_case():
    said = {t for case in CASES for t in templates(raised(case).template, raised(case).params)}
    assert set(MARKED) - said == set()


# The constructors of the cores' errors and phrases, with the position of their template.
TEMPLATE_ARGUMENT = {"HandError": 1, "SettlementError": 1, "DrawError": 0, "SeatingError": 0}
TEMPLATE_ARGUMENT_IN = {
    **{path: TEMPLATE_ARGUMENT for path in CORE_SOURCES},
    # The notation's helpers that build its HandErrors and phrases.
    ROOT / "tournament" / "scoring" / "notation.py": {
        **TEMPLATE_ARGUMENT,
        "_error": 1,
        "_located": 4,
        "Message": 0,
    },
}


@pytest.mark.parametrize("path", CORE_SOURCES, ids=lambda path: path.name)
def test_no_error_is_built_from_text_the_extractor_cannot_find(path):
    # A literal or an f-string passed straight as a template is English no catalogue holds.
    arguments = TEMPLATE_ARGUMENT_IN[path]
    for call in _calls_named(ast.parse(path.read_text()), set(arguments)):
        name = call.func.id if isinstance(call.func, ast.Name) else call.func.attr
        template = call.args[arguments[name]]
        plain = isinstance(template, ast.Constant | ast.JoinedStr | ast.BinOp)
        assert not plain, f"{path.name}:{call.lineno}"


def test_gettext_noop_gives_the_text_back():
    assert gettext_noop("the hand") == "the hand"


def test_render_translates_the_template_and_the_phrases_among_its_params():
    inner = Message("meld %(number)s", {"number": 2})
    text = render(
        "%(tile)s in %(where)s", {"tile": "'X'", "where": inner}, translate=lambda t: f"«{t}»"
    )
    assert text == "«'X' in «meld 2»»"


def test_render_names_a_fan_in_english_unless_told_otherwise():
    params = {"fan": fan_by_name("清龙")}
    assert render("%(fan)s!", params) == "Pure Straight!"
    assert render("%(fan)s!", params, name=lambda fan: fan.name_zh) == "清龙!"


def test_a_template_without_params_is_not_formatted():
    # So a message with a percent sign needs no escaping, and gettext sees it as written.
    assert render("100% sure") == "100% sure"
    assert str(Message("100% sure")) == "100% sure"


def test_the_cores_import_no_django():
    for path in CORE_SOURCES:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith("django") for a in node.names), path.name
            if isinstance(node, ast.ImportFrom):
                assert not (node.module or "").startswith("django"), path.name
