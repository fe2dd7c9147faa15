"""A pure module's promise, checked in a fresh interpreter: importing it imports no Django."""

import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]


def assert_imports_no_django(module: str) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import sys, {module}; assert 'django' not in sys.modules, sorted(sys.modules)",
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
