"""`make serve`'s gunicorn (gunicorn.conf.py) listens beyond the machine itself only when
told that a proxy stands in front: on the network directly, a few slow connections hold
every worker (docs/deploy.md, tests/test_venue_laptop.py)."""

import os
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "gunicorn.conf.py"


def config(monkeypatch, **environ) -> dict:
    for name in ("MCR_BIND", "MCR_BIND_EXPOSED", "PORT"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(CONFIG))


@pytest.mark.parametrize("address", ["0.0.0.0", "::", "[::]", "192.168.1.10", "venue-laptop", ""])
def test_an_address_on_the_network_is_refused_without_the_opt_in(monkeypatch, address):
    with pytest.raises(SystemExit) as refused:
        config(monkeypatch, MCR_BIND=address)
    message = str(refused.value)
    assert f"MCR_BIND={address!r}" in message
    assert "docs/deploy.md" in message
    assert "MCR_BIND_EXPOSED=1" in message


@pytest.mark.parametrize("address", ["127.0.0.1", "127.0.0.2", "localhost", "::1", "[::1]"])
def test_the_machine_itself_needs_no_opt_in(monkeypatch, address):
    assert config(monkeypatch, MCR_BIND=address, PORT="8123")["bind"] == f"{address}:8123"


def test_the_default_is_loopback(monkeypatch):
    assert config(monkeypatch)["bind"] == "127.0.0.1:8000"


def test_the_opt_in_binds_anywhere(monkeypatch):
    bound = config(monkeypatch, MCR_BIND="0.0.0.0", MCR_BIND_EXPOSED="1")["bind"]
    assert bound == "0.0.0.0:8000"


def test_the_opt_in_is_1_or_0(monkeypatch):
    with pytest.raises(SystemExit, match="MCR_BIND_EXPOSED must be 1 or 0, not 'yes'"):
        config(monkeypatch, MCR_BIND="0.0.0.0", MCR_BIND_EXPOSED="yes")
    with pytest.raises(SystemExit):
        config(monkeypatch, MCR_BIND="0.0.0.0", MCR_BIND_EXPOSED="0")


def test_gunicorn_itself_refuses_to_start():
    """As `make serve` and the systemd unit start it: gunicorn reading gunicorn.conf.py."""
    environ = {**os.environ, "MCR_BIND": "0.0.0.0"}
    environ.pop("MCR_BIND_EXPOSED", None)
    done = subprocess.run(
        [
            Path(sys.executable).parent / "gunicorn",
            "--config",
            CONFIG,
            "--check-config",
            "tournament.wsgi",
        ],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "MCR_BIND='0.0.0.0' would put gunicorn on the network" in done.stderr
