"""A Redis and a PostgreSQL of one's own, to take away and bring back under a running app:
the outage tests (``tests/test_cache_outage.py``, ``tests/test_outages.py``) stop and start
them. Never the machine's own servers, which other runs share.

PostgreSQL refuses to run as root: as root, its commands run as the ``postgres`` system user
(``runuser``), in a folder given to it.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from hall import free_port


def redis_available() -> bool:
    return shutil.which("redis-server") is not None


def postgres_bin() -> Path | None:
    """The folder of PostgreSQL's server programs (Debian keeps them out of PATH)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class RedisServer:
    """``redis-server`` on a free port, its data in a folder of its own: ``stop`` saves it
    there and ``start`` reads it back, as a Redis with persistence restarted would (what it
    held before the outage comes back); ``freeze`` and ``thaw`` make it a black hole (the
    port open, nothing answered) and bring it back."""

    def __init__(self):
        self.port = free_port()
        self.folder = tempfile.TemporaryDirectory(prefix="mcr-redis-")
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--dir",
                self.folder.name,
                "--save",
                "",
                "--appendonly",
                "no",
                "--daemonize",
                "no",
                "--logfile",
                str(Path(self.folder.name) / "redis.log"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.answers():
                return
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def answers(self) -> bool:
        import redis

        try:
            return redis.Redis(port=self.port, socket_timeout=1, socket_connect_timeout=1).ping()
        except (redis.RedisError, OSError):
            return False

    def client(self):
        import redis

        return redis.Redis(port=self.port, socket_timeout=5)

    def stop(self) -> None:
        """Stopped, its data saved for the next ``start`` (``SAVE``, then killed: Redis's own
        ``SHUTDOWN`` takes seconds)."""
        if self.process and self.process.poll() is None:
            self.thaw()
            self.client().save()
            self.process.kill()
            self.process.wait()

    def freeze(self) -> None:
        self.process.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)

    def close(self) -> None:
        if self.process and self.process.poll() is None:
            self.thaw()
            self.process.kill()
            self.process.wait()
        self.folder.cleanup()


class PostgresCluster:
    """A PostgreSQL cluster of its own in a temporary folder, on a free port (its socket in
    the folder): ``url`` reaches it as ``postgres`` without a password."""

    def __init__(self):
        self.bin = postgres_bin()
        if self.bin is None:
            raise RuntimeError("PostgreSQL's initdb was not found")
        self.port = free_port()
        self.folder = tempfile.mkdtemp(prefix="mcr-postgres-")
        self.data = os.path.join(self.folder, "data")
        self.as_root = os.geteuid() == 0
        if self.as_root:
            shutil.chown(self.folder, "postgres", "postgres")
        self._run("initdb", "--no-sync", "-A", "trust", "-U", "postgres", "-D", self.data)
        with open(os.path.join(self.data, "postgresql.auto.conf"), "a") as conf:
            # A test's cluster: nothing to keep past the machine's own crash.
            conf.write(
                f"port = {self.port}\nlisten_addresses = '127.0.0.1'\n"
                f"unix_socket_directories = '{self.folder}'\n"
                "fsync = off\nfull_page_writes = off\nsynchronous_commit = off\n"
            )

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, program: str, *args: str, check: bool = True) -> int:
        command = [str(self.bin / program), *args]
        if self.as_root:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, cwd=self.folder)
        if check and done.returncode:
            raise RuntimeError(f"{program} failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
        return done.returncode

    def _pg_ctl(self, *args: str) -> None:
        log = os.path.join(self.folder, "postgres.log")
        self._run("pg_ctl", "-D", self.data, "-l", log, "-w", "-t", "30", *args)

    def start(self) -> None:
        self._pg_ctl("start")

    def running(self) -> bool:
        return self._run("pg_ctl", "-D", self.data, "status", check=False) == 0

    def stop(self) -> None:
        """A fast shutdown: the connections cut, what they were doing rolled back."""
        self._pg_ctl("stop", "-m", "fast")

    def close(self) -> None:
        with contextlib.suppress(RuntimeError):  # not running
            self._pg_ctl("stop", "-m", "immediate")
        shutil.rmtree(self.folder, ignore_errors=True)
