"""The hall, scripted: an event's server as `make serve` runs it, and tablets that sign in at
their tables from the table cards' links and save hands as the referee sheet does; for
several servers, an app machine (one pool or two, hall first) and the proxy in front.

Used by ``bench/loadtest.py`` and ``bench/cluster.py`` (the figures) and by the fault test of
the suite (``tests/test_server_faults.py``). The database is a SQLite file, or a database of
its own on the PostgreSQL server that ``DATABASE_URL`` names (made here, dropped by
``close``).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import math
import os
import random
import secrets
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SLUG = "hall"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def cpu_seconds(process_groups) -> float:
    """The CPU time (user and system) the processes now in ``process_groups`` have used so
    far: a server's ``make serve``, the gunicorn it started and its workers, its task worker
    (``Server.process_group``). Read from /proc (Linux); a group with no process counts 0."""
    groups = set(process_groups)
    ticks = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # gone since the listing
            continue
        # After the command's name (in parentheses, which may hold spaces): state, parent,
        # process group, ..., then user and system time at the 12th and 13th places.
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[2]) in groups:
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def machine_ticks() -> tuple[int, int]:
    """The machine's CPU time so far, busy and in all, in clock ticks (/proc/stat): the
    share of its cores in use between two readings is the busy ticks over all the ticks."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]  # idle, and waiting for the disk
    return sum(values) - idle, sum(values)


def _admin(url: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(sql)


class EventDatabase:
    """A fresh database for one run: SQLite by default, PostgreSQL with ``postgres_url``;
    with ``template`` (a migrated database of the same kind, ``copy`` makes them), a copy of
    it instead of an empty one."""

    def __init__(self, postgres_url: str | None = None, *, template: EventDatabase | None = None):
        self.postgres_url = postgres_url
        # A copy of a migrated database is migrated: `migrate` has nothing left to do.
        self.migrated = template is not None and template.migrated
        self.folder = tempfile.TemporaryDirectory(prefix="mcr-hall-")
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "tournament.settings",
            # A real event's settings, on loopback without TLS.
            "MCR_DEBUG": "0",
            "MCR_SECRET_KEY": secrets.token_urlsafe(50),
            "MCR_ALLOWED_HOSTS": "127.0.0.1,localhost",
            "MCR_SECURE_SSL_REDIRECT": "0",
            "MCR_SECURE_COOKIES": "0",
            "MCR_SECURE_HSTS_SECONDS": "0",
        }
        self.env.pop("DATABASE_URL", None)
        self.name = None
        if postgres_url:
            self.name = f"mcr_hall_{uuid.uuid4().hex[:12]}"
            copied = f' TEMPLATE "{template.name}"' if template else ""
            _admin(postgres_url, f'CREATE DATABASE "{self.name}"{copied}')
            parts = urllib.parse.urlsplit(postgres_url)
            self.env["DATABASE_URL"] = urllib.parse.urlunsplit(parts._replace(path="/" + self.name))
        else:
            self.env["MCR_DB_PATH"] = str(Path(self.folder.name) / "event.sqlite3")
            if template:
                # SQLite's own backup: the pages still in the template's write-ahead log too.
                with (
                    contextlib.closing(sqlite3.connect(template.env["MCR_DB_PATH"])) as source,
                    contextlib.closing(sqlite3.connect(self.env["MCR_DB_PATH"])) as target,
                ):
                    source.backup(target)

    def copy(self) -> EventDatabase:
        """A new database holding what this one holds: a test copies one migrated once
        instead of migrating its own (seconds each time)."""
        return EventDatabase(self.postgres_url, template=self)

    @property
    def kind(self) -> str:
        return "postgresql" if self.postgres_url else "sqlite"

    def manage(self, *args: str) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
        )
        if done.returncode:
            raise RuntimeError(f"manage.py {args[0]} failed:\n{done.stderr[-3000:]}")
        return done.stdout

    def python(self, code: str):
        """The JSON that ``code`` prints, run with Django set up on this database."""
        return json.loads(self.manage("shell", "-c", code).strip().splitlines()[-1])

    def migrate(self) -> None:
        if not self.migrated:
            self.manage("migrate", "--noinput")
            self.migrated = True

    def prepare(self, tables: int) -> dict[int, str]:
        """Migrate (unless copied from a migrated database), then a tournament with
        ``tables`` tables in session 1, open for play; the device link token of each table."""
        self.migrate()
        return {
            int(number): token
            for number, token in self.python(
                "import json\n"
                "from django.contrib.auth.models import User\n"
                "from tournament import services\n"
                "from tournament.hall.device_links import device_token\n"
                "organiser = User.objects.create_user('organiser', password='hall-organiser')\n"
                f"t = services.tournament_create(name='Hall', slug='{SLUG}', session_count=4,\n"
                "    session_minutes=150, seating_method='lot', creator=organiser)\n"
                f"for n in range(1, {tables * 4 + 1}):\n"
                "    services.player_save(tournament=t, number=n, name=f'Player {n}')\n"
                "s = services.session_open(session=services.session_draw(tournament=t,\n"
                "    number=1, seed=1))\n"
                "print(json.dumps({t.number: device_token(t) for t in s.tables.all()}))\n"
            ).items()
        }

    def stored(self) -> dict:
        """What the database holds: every hand by (table, number) with its figures and the
        submission keys that stored it."""
        rows = self.python(
            "import json\n"
            "from tournament.models import Hand, HandSubmission\n"
            "hands = list(Hand.objects.filter(table__session__number=1).values_list(\n"
            "    'table__number', 'number', 'winner', 'fan'))\n"
            "keys = list(HandSubmission.objects.values_list('key', 'hand__table__number',\n"
            "    'hand__number'))\n"
            "print(json.dumps({'hands': hands, 'keys': [[str(k), t, n] for k, t, n in keys]}))\n"
        )
        return rows

    def intact(self) -> str:
        """The database's own check: SQLite's integrity check, or PostgreSQL's answer to a
        read of every hand (its indexes and constraints in use)."""
        return self.python(
            "import json\n"
            "from django.db import connection\n"
            "from tournament.models import Hand\n"
            "if connection.vendor == 'sqlite':\n"
            "    c = connection.cursor(); c.execute('PRAGMA integrity_check')\n"
            "    print(json.dumps(c.fetchone()[0]))\n"
            "else:\n"
            "    Hand.objects.count(); print(json.dumps('ok'))\n"
        )

    def close(self) -> None:
        if self.name:
            _admin(self.postgres_url, f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
        self.folder.cleanup()


class Server:
    """``make serve`` on a free port (its own process group, so that a kill takes the
    master and every worker at once, as a crash of the machine's service would)."""

    def __init__(
        self,
        database: EventDatabase,
        workers: int = 4,
        root: Path = ROOT,
        *,
        spectators_only: bool = False,
    ):
        self.database = database
        self.workers = workers
        # The spectators' pool of docs/deploy.md's hall-first layout: at a lower CPU priority
        # (nice 10) and without a task worker of its own (the hall's pool has one).
        self.spectators_only = spectators_only
        # The checkout served: this one, or another (``bench/cluster.py --against``).
        self.root = root
        self.port = free_port()
        self.process: subprocess.Popen | None = None
        self.log = open(Path(database.folder.name) / "server.log", "ab")  # noqa: SIM115

    def start(self, timeout: float = 60) -> None:
        self.launch()
        self.wait_until_up(timeout)

    def launch(self) -> None:
        """``make serve`` started, not waited for: servers launched together start side by
        side (``wait_until_up`` each)."""
        env = {**self.database.env, "PORT": str(self.port), "MCR_WORKERS": str(self.workers)}
        command = ["make", "--no-print-directory", "-s", "serve"]
        if self.spectators_only:
            env["TASK_WORKERS"] = "0"
            command = ["nice", "-n", "10", *command]
        self.process = subprocess.Popen(
            command,
            cwd=self.root,
            env=env,
            stdout=self.log,
            stderr=self.log,
            start_new_session=True,
        )

    def wait_until_up(self, timeout: float = 60) -> None:
        """Until the health check answers; a server that does not start raises, with the end
        of its log."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                connection.request("GET", "/healthz")
                if connection.getresponse().status == 200:
                    return
            except OSError:
                pass
            if self.process.poll() is not None:
                break
            # Asked often: the test waits on this and nothing else (a refused connection
            # costs nothing).
            time.sleep(0.05)
        self.log.flush()
        tail = Path(self.log.name).read_text(errors="replace")[-3000:]
        raise RuntimeError(f"the server did not start in {timeout:.0f} s; its log ends:\n{tail}")

    @property
    def process_group(self) -> int | None:
        """The process group of ``make serve`` and all it started (its own session)."""
        return self.process.pid if self.process else None

    def kill(self) -> None:
        """SIGKILL to the whole process group: nothing gets to finish or clean up."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()
        self.log.close()


# ---------------------------------------------------------------- several servers and the proxy


class Machine:
    """One app machine: one ``make serve``, or hall first two (the hall's pool, then the
    spectators' at a lower priority), killed and started again together."""

    def __init__(self, database, workers: int, root: Path, *, hall_first: bool):
        if hall_first:
            self.servers = [
                Server(database, workers=workers // 2, root=root),
                Server(database, workers=workers // 2, root=root, spectators_only=True),
            ]
        else:
            self.servers = [Server(database, workers=workers, root=root)]

    @property
    def hall_port(self) -> int:
        return self.servers[0].port

    @property
    def spectators_port(self) -> int:
        return self.servers[-1].port

    def start(self, timeout: float) -> None:
        for server in self.servers:
            server.launch()
        for server in self.servers:
            server.wait_until_up(timeout)

    def kill(self) -> None:
        for server in self.servers:
            server.kill()

    def stop(self) -> None:
        for server in self.servers:
            server.stop()


class Balancer:
    """Sends each request to a server as a proxy balancing by least connections does
    (nginx's ``least_conn``, haproxy's ``balance leastconn``: docs/deploy.md): to the server
    with the fewest requests in flight, at random among equals. A server that refused a
    connection is left out for ``rest`` seconds."""

    def __init__(self, ports: list[int], rng: random.Random, rest: float = 3.0):
        self.ports = ports
        self.rng = rng
        self.rest = rest
        self.down_until: dict[int, float] = {}
        self.in_flight = dict.fromkeys(ports, 0)
        self.lock = threading.Lock()

    def pick(self) -> int:
        """A server for one request, counted in flight until ``done``."""
        now = time.monotonic()
        with self.lock:
            up = [p for p in self.ports if self.down_until.get(p, 0) <= now] or self.ports
            fewest = min(self.in_flight[p] for p in up)
            port = self.rng.choice([p for p in up if self.in_flight[p] == fewest])
            self.in_flight[port] += 1
            return port

    def done(self, port: int) -> None:
        with self.lock:
            self.in_flight[port] -= 1

    def refused(self, port: int) -> None:
        with self.lock:
            self.down_until[port] = time.monotonic() + self.rest

    def request(self, method: str, path: str, **kwargs) -> Answer:
        """``request`` on the server picked; one that does not answer is left out a while."""
        port = self.pick()
        try:
            answer = request(port, method, path, **kwargs)
        finally:
            self.done(port)
        if answer.status is None:
            self.refused(port)
        return answer


@dataclass
class Answer:
    status: int | None  # None: no answer
    body: bytes
    milliseconds: float
    port: int


def request(port: int, method: str, path: str, *, body=None, headers=None) -> Answer:
    """One request on a connection of its own (the servers' sync workers close it after)."""
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        payload = response.read()
        status = response.status
        cookies = [v for h, v in response.getheaders() if h.lower() == "set-cookie"]
    except (OSError, http.client.HTTPException):
        status, payload, cookies = None, b"", []
    finally:
        connection.close()
    answer = Answer(status, payload, (time.perf_counter() - started) * 1000, port)
    answer.cookies = cookies
    return answer


class Browser:
    """A browser's cookies and requests, one connection per request."""

    def __init__(self, port: int):
        self.port = port
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, fields: dict | None = None, accept: str = ""):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if accept:
            headers["Accept"] = accept
        body = None
        if fields is not None:
            fields = {"csrfmiddlewaretoken": self.cookies.get("csrftoken", ""), **fields}
            body = urllib.parse.urlencode(fields)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        payload = response.read()
        connection.close()
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                value = rest.split(";", 1)[0]
                if value in ("", '""'):
                    self.cookies.pop(name.strip(), None)
                else:
                    self.cookies[name.strip()] = value
        return response.status, response.getheader("Location") or "", payload

    def get(self, path: str) -> int:
        return self.request("GET", path)[0]

    def log_in(self, username: str, password: str) -> int:
        self.get("/accounts/login/")  # the form's token cookie
        status, _, _ = self.request(
            "POST", "/accounts/login/", {"username": username, "password": password}
        )
        return status


@dataclass
class Save:
    """One hand a tablet sent, and what came back."""

    table: int
    number: int
    winner: int
    fan: int
    key: str = field(default_factory=lambda: str(uuid.uuid4()))
    status: int | None = None  # None: no answer (the connection failed)
    saved: bool = False
    milliseconds: float = 0.0


def save_request(entry: Save, csrf: str) -> tuple[str, dict]:
    """The body and headers of the sheet's background save of ``entry`` (a self-drawn win):
    the entry form's fields, answered in JSON."""
    fields = {
        "csrfmiddlewaretoken": csrf,
        "number": entry.number,
        "submission_key": entry.key,
        "outcome": "self_drawn",
        "winner": entry.winner,
        "fan": entry.fan,
        "flowers": 0,
        "penalty-TOTAL_FORMS": 0,
        "penalty-INITIAL_FORMS": 0,
        "penalty-MIN_NUM_FORMS": 0,
        "penalty-MAX_NUM_FORMS": 8,
    }
    headers = {
        "Content-Type": "application/x-www-form-urlencoded",
        "Accept": "application/json",
        "X-CSRFToken": csrf,
    }
    return urllib.parse.urlencode(fields), headers


class Tablet:
    """A table's tablet: signed in once with the table card's link, then saving hands with
    the background save's request (the entry form's fields, answered in JSON)."""

    def __init__(self, port: int, table: int):
        self.port = port
        self.table = table
        self.cookies: dict[str, str] = {}
        self.connection: http.client.HTTPConnection | None = None
        self.path = f"/t/{SLUG}/sessions/1/tables/{table}/"

    def _request(self, method: str, path: str, body: str | None = None, headers=None):
        if self.connection is None:
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {
            **(headers or {}),
            "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
        }
        try:
            self.connection.request(method, path, body=body, headers=headers)
            response = self.connection.getresponse()
            payload = response.read()
        except (OSError, http.client.HTTPException):
            self.connection.close()
            self.connection = None
            raise
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
        return response.status, payload

    def sign_in(self, token: str) -> None:
        status, _ = self._request("GET", f"/device/{token}/")
        if status != 302:
            raise RuntimeError(f"table {self.table}: the device link answered {status}")
        self.sheet()

    def sheet(self) -> float:
        """Load the sheet, as after each save; its time in ms."""
        started = time.perf_counter()
        status, _payload = self._request("GET", self.path)
        if status != 200:
            raise RuntimeError(f"table {self.table}: the sheet answered {status}")
        return (time.perf_counter() - started) * 1000

    def save(self, entry: Save) -> Save:
        body, headers = save_request(entry, self.cookies.get("csrftoken", ""))
        started = time.perf_counter()
        try:
            status, payload = self._request("POST", self.path, body, headers)
        except (OSError, http.client.HTTPException):
            entry.status, entry.saved = None, False
        else:
            entry.status = status
            try:
                entry.saved = bool(json.loads(payload).get("saved"))
            except ValueError:
                entry.saved = False
        entry.milliseconds = (time.perf_counter() - started) * 1000
        return entry


def check(saves: list[Save], stored: dict) -> dict[str, int]:
    """Each acknowledged save against the database: lost (acknowledged, not stored as sent),
    duplicated (a key stored twice, or a hand stored by no save that was sent)."""
    hands = {(t, n): (w, f) for t, n, w, f in stored["hands"]}
    keys: dict[str, list] = {}
    for key, table, number in stored["keys"]:
        keys.setdefault(key, []).append((table, number))
    sent = {s.key for s in saves}
    lost = sum(
        1
        for s in saves
        if s.saved
        and (
            keys.get(s.key) != [(s.table, s.number)]
            or hands.get((s.table, s.number))
            != (
                s.winner,
                s.fan,
            )
        )
    )
    duplicated = sum(len(places) - 1 for places in keys.values()) + sum(
        1 for key in keys if key not in sent
    )
    return {"lost": lost, "duplicated": duplicated}


def percentile(values: list[float], share: float) -> float:
    """The ``share`` percentile (0–100) by nearest rank; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(share / 100 * len(ordered)))
    return ordered[rank - 1]


def chromium(width: int, height: int, *, console_log: bool = False):
    """Debian's headless Chromium with a viewport of exactly ``width`` × ``height`` CSS
    pixels, as on a tablet; ``console_log`` keeps the page's console for reading."""
    import shutil

    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--no-first-run",
        f"--window-size={width},{height + 200}",
    ):
        options.add_argument(flag)
    if console_log:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
    )
    return driver
