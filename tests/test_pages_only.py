"""The web modules CI's second database leaves out (``tests/conftest.py``, ``PAGES_ONLY``)
name files that are there: a module renamed or removed would otherwise drop out of the list
without a word, and one added under its old name would be left out of that run unseen."""

from pathlib import Path

from tests.conftest import PAGES_ONLY

ROOT = Path(__file__).resolve().parents[1]


def test_every_module_left_out_of_the_second_database_run_exists():
    missing = sorted(path for path in PAGES_ONLY if not (ROOT / path).is_file())
    assert missing == []


def test_the_modules_left_out_are_web_tests_only():
    assert all(path.startswith("tests/web/test_") for path in PAGES_ONLY)
