"""The house's shape (docs/architecture.md): the map names every package, the top of
``tournament/`` stays small, and no module outside the cores grows past 700 lines. The
import contracts themselves are checked by ``lint-imports`` in ``make test``."""

import re
import tomllib
from pathlib import Path

import pytest

from tests.purity import assert_imports_no_django

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "tournament"
MAP = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")

# The two pure cores, their tests and reference, and the migrations may hold bigger modules:
# a core's module is one rule (the 81 fans, the notation), its error cases one table, a
# migration is written once.
UNBOUNDED = (
    "tournament/scoring/",
    "tournament/seating/",
    "tournament/migrations/",
    "tests/scoring/",
    "tests/seating/",
    "tests/core_error_cases.py",
    "reference/",
)
# Every folder of Python the repository holds, but the virtual environment's.
CODE_FOLDERS = ("tournament", "tests", "bench", "fixtures", "reference")
MOST_LINES = 700
MOST_TOP_LEVEL_MODULES = 16


def packages() -> list[str]:
    return sorted(p.parent.name for p in APP.glob("*/__init__.py"))


def top_level_modules() -> list[str]:
    return sorted(p.name for p in APP.glob("*.py"))


@pytest.mark.parametrize("package", packages())
def test_the_map_names_every_package(package):
    assert f"`{package}/" in MAP


@pytest.mark.parametrize(
    "module", [m for m in top_level_modules() if m not in ("__init__.py", "settings_test.py")]
)
def test_the_map_names_every_top_level_module(module):
    assert f"`{module}`" in MAP


def test_the_map_names_every_selector_area():
    areas = sorted(p.stem for p in (APP / "selectors").glob("*.py") if p.stem != "__init__")
    listed = re.search(r"\| `selectors/` \|([^\n]*)", MAP).group(1)
    assert [area for area in areas if f"`{area}`" not in listed] == []


def test_the_top_of_the_app_holds_few_modules():
    assert len(top_level_modules()) <= MOST_TOP_LEVEL_MODULES, top_level_modules()


def test_no_module_outside_the_cores_is_over_700_lines():
    modules = [path for folder in CODE_FOLDERS for path in (ROOT / folder).rglob("*.py")]
    too_long = {
        name: lines
        for path in modules
        if not (name := path.relative_to(ROOT).as_posix()).startswith(UNBOUNDED)
        and (lines := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES
    }
    assert len(modules) > 250
    assert too_long == {}


def test_every_pure_module_named_by_the_map_is_kept_pure_by_the_contract():
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    pure = next(c for c in contracts["contracts"] if c["id"] == "pure")
    assert "django" in pure["forbidden_modules"]
    named = re.findall(r"`((?:hall|players|exports|server)/\w+\.py)`", MAP.split("## The")[0])
    contract_paths = {
        m.removeprefix("tournament.").replace(".", "/") + ".py" for m in pure["source_modules"]
    }
    assert named and set(named) <= contract_paths


PURE_MODULES = next(
    contract["source_modules"]
    for contract in tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"][
        "contracts"
    ]
    if contract["id"] == "pure"
)


@pytest.mark.parametrize("module", PURE_MODULES)
def test_every_pure_module_imports_no_django_when_run(module):
    # The contract reads the imports as written; this imports the module for real.
    assert_imports_no_django(module)
