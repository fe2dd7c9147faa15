"""Publishing a 300-player draw against a mail server that takes a second to accept each
message, with the task worker killed (SIGKILL) three times while it sends: the organiser's
request answers at once, and every player gets their seat message.

The event's server is `make serve` on a SQLite file of the test's own (bench/hall.py), with no
worker of its own (``TASK_WORKERS=0``): the test starts each worker, kills it, and starts the
next, as systemd's ``Restart=always`` would. The mail server is aiosmtpd in this process: on
each message it waits a second, then accepts it (stores it) and answers; a client gone in
that second cancels it, as a real server's unfinished transaction is dropped.

Not the suite's database, so not marked ``database``: it runs once, in `make test`.
"""

import asyncio
import collections
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from hall import ROOT, SLUG, Browser, EventDatabase, Server, free_port

pytestmark = pytest.mark.slow

PLAYERS = 300
ORGANISER_PASSWORD = "mail-organiser-password"


class SlowServer:
    """Accepts each message one second after its data ends; keeps the Message-ID of each
    message accepted, with the time."""

    def __init__(self):
        self.accepted: list[tuple[float, str, str]] = []  # (time, Message-ID, To)
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        await asyncio.sleep(1)
        text = envelope.content.decode("utf8", errors="replace")
        headers = dict(
            line.split(": ", 1)
            for line in text.split("\r\n\r\n", 1)[0].split("\r\n")
            if ": " in line
        )
        with self.lock:
            self.accepted.append((time.monotonic(), headers["Message-ID"], headers["To"]))
        return "250 Message accepted"

    def count(self) -> int:
        with self.lock:
            return len(self.accepted)


class Worker:
    """``manage.py worker`` on the event's database, killed outright when asked."""

    def __init__(self, database: EventDatabase, env: dict, log):
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "worker"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=log,
        )

    def kill(self) -> None:
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)


@pytest.fixture
def event(migrated_database):
    """300 players with an address, session 1 drawn for review (not yet public), the mail
    server, and `make serve` without a task worker."""
    mail = SlowServer()
    controller = Controller(mail, hostname="127.0.0.1", port=free_port())
    controller.start()
    database = migrated_database(None).copy()
    database.env.update(
        MCR_EMAIL_HOST="127.0.0.1",
        MCR_EMAIL_PORT=str(controller.port),
        MCR_EMAIL_TLS="0",
        MCR_EMAIL_FROM="desk@hall.example",
        MCR_EMAIL_CONNECTIONS="16",
        TASK_WORKERS="0",
    )
    server = None
    try:
        database.python(
            "import json\n"
            "from django.contrib.auth.models import User\n"
            "from tournament import services\n"
            f"organiser = User.objects.create_user('organiser', password='{ORGANISER_PASSWORD}')\n"
            f"t = services.tournament_create(name='Hall', slug='{SLUG}', session_count=4,\n"
            "    session_minutes=150, seating_method='lot', review_draws=True,\n"
            "    creator=organiser)\n"
            f"for n in range(1, {PLAYERS + 1}):\n"
            "    services.player_save(tournament=t, number=n, name=f'Player {n}',\n"
            "        email=f'p{n}@hall.example')\n"
            "services.session_draw(tournament=t, number=1, seed=1)\n"
            "print(json.dumps('ok'))\n"
        )
        server = Server(database, workers=2)
        # Other tests' servers may be gathering their static files first (one at a time).
        server.start(timeout=180)
        yield database, server, mail
    finally:
        if server:
            server.stop()
        database.close()
        controller.stop()


def sent_count(database: EventDatabase) -> int:
    return database.python(
        "import json\n"
        "from tournament.models import OutgoingEmail\n"
        "print(json.dumps(OutgoingEmail.objects.filter(sent_at__isnull=False).count()))\n"
    )


def test_a_300_player_draw_published_with_a_slow_mail_server_and_three_worker_kills(event):
    database, server, mail = event
    organiser = Browser(server.port)
    assert organiser.log_in("organiser", ORGANISER_PASSWORD) == 302

    started = time.monotonic()
    status, location, _ = organiser.request("POST", f"/t/{SLUG}/sessions/1/publish/", {})
    answered_in = time.monotonic() - started
    assert status == 302 and location.endswith(f"/t/{SLUG}/seating/1/")
    # The request queued 300 messages and their sending; the mail server was not asked.
    assert answered_in < 1.0, answered_in
    assert mail.count() == 0

    log = open(Path(database.folder.name) / "workers.log", "ab")  # noqa: SIM115
    kills = []
    worker = Worker(database, database.env, log)
    try:
        # Killed while sending: after about 30, 110 and 190 messages were accepted, at
        # whatever point each of its connections was (waiting for an answer, or between).
        for threshold in (30, 110, 190):
            deadline = time.monotonic() + 120
            while mail.count() < threshold:
                assert time.monotonic() < deadline, (threshold, mail.count())
                assert worker.process.poll() is None, Path(log.name).read_text()[-3000:]
                time.sleep(0.05)
            time.sleep(0.3)
            worker.kill()
            kills.append(mail.count())
            worker = Worker(database, database.env, log)
        deadline = time.monotonic() + 180
        while sent_count(database) < PLAYERS:
            assert time.monotonic() < deadline, (sent_count(database), mail.count())
            time.sleep(0.5)
        finished_in = time.monotonic() - started
    finally:
        worker.stop()
        log.close()

    per_id = collections.Counter(message_id for _at, message_id, _to in mail.accepted)
    per_player = collections.Counter(to for _at, _id, to in mail.accepted)
    duplicates = sum(count - 1 for count in per_id.values())
    print(
        f"\n{PLAYERS} seat messages, workers killed after {kills} accepted: "
        f"{len(mail.accepted)} accepted, {duplicates} duplicate(s), all sent in "
        f"{finished_in:.1f} s; the publishing request answered in {answered_in * 1000:.0f} ms"
    )
    # Every player got their message; one the server accepted in the instant before a kill,
    # before the worker marked it, may come twice (at least once, at most twice), never more.
    assert set(per_player) == {f"p{n}@hall.example" for n in range(1, PLAYERS + 1)}
    assert len(per_id) == PLAYERS
    assert max(per_id.values()) <= 2
    assert duplicates <= 1, per_id.most_common(5)
