"""The venue laptop's setup (docs/deploy.md, "A closed network without a certificate"):
nginx with the repository's configuration (deploy/nginx-venue.conf) in front of `make
serve`'s gunicorn, on free ports. Slow connections do not hold the app's workers, and an
upload larger than any the site takes is refused before it is read: by nginx in front, and
by the app itself (gunicorn alone, tournament/server/body_limit.py).

Needs nginx (Debian: ``apt-get install nginx``): without it these tests are skipped, unless
MCR_REQUIRE_NGINX is set (CI sets it and installs nginx), which makes them fail instead.
"""

import contextlib
import http.client
import os
import select
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from hall import Server, free_port

# What is measured here is nginx and gunicorn in front of the app, the same on any database:
# run once, on a SQLite file of its own (not again in CI's PostgreSQL pass). The module's tests
# share one server and one nginx, on one pytest worker (tests/conftest.py, SHARED_SET_UP).
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
MEGABYTE = 1024 * 1024
SLOW_CONNECTIONS = 50
# The finding's upload, and how much of it may be read before the refusal.
UPLOAD_BYTES = 600 * MEGABYTE
READ_AT_MOST = 10 * MEGABYTE


def nginx_binary() -> str:
    found = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")
    if found:
        return found
    message = "nginx is needed by these tests: apt-get install nginx"
    if os.environ.get("MCR_REQUIRE_NGINX"):
        pytest.fail(message)
    pytest.skip(message)


def replaced_once(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, f"deploy/nginx-venue.conf no longer has {old!r} once"
    return text.replace(old, new)


def status_of(port: int, method: str, path: str, body=None, timeout: float = 5, **headers):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, body, headers={"Host": "127.0.0.1", **headers})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


@pytest.fixture(scope="module")
def app(migrated_database):
    """`make serve` on a free port of 127.0.0.1, with the venue's environment."""
    database = migrated_database(None).copy()
    database.env["MCR_PROXY_COUNT"] = "1"
    server = Server(database, workers=2)
    try:
        server.start()
        yield server
    finally:
        server.stop()
        database.close()


@pytest.fixture(scope="module")
def nginx():
    """The nginx binary, found before the app is started for nothing."""
    return nginx_binary()


@pytest.fixture(scope="module")
def front(nginx, app):
    """nginx with deploy/nginx-venue.conf, its ports changed, in a folder of its own; the
    port it listens on."""
    folder = Path(tempfile.mkdtemp(prefix="mcr-nginx-"))
    # nginx's workers (another user when it runs as root) write the bodies' files here.
    folder.chmod(0o755)
    port = free_port()
    site = (ROOT / "deploy" / "nginx-venue.conf").read_text()
    site = replaced_once(site, "listen 80 default_server;", f"listen 127.0.0.1:{port};")
    site = replaced_once(site, "server 127.0.0.1:8000;", f"server 127.0.0.1:{app.port};")
    (folder / "mcr-venue.conf").write_text(site)
    temp_paths = "\n".join(
        f"    {kind}_temp_path {folder}/{kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    (folder / "nginx.conf").write_text(
        f"pid {folder}/nginx.pid;\n"
        f"error_log {folder}/error.log;\n"
        "worker_processes 1;\n"
        "events { worker_connections 512; }\n"
        "http {\n"
        f"    access_log {folder}/access.log;\n"
        f"{temp_paths}\n"
        f"    include {folder}/mcr-venue.conf;\n"
        "}\n"
    )
    process = subprocess.Popen(
        [nginx, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=open(folder / "nginx.err", "wb"),  # noqa: SIM115
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                if status_of(port, "GET", "/healthz")[0] == 200:
                    break
            except OSError:
                pass
            assert process.poll() is None, (folder / "nginx.err").read_text()
            assert time.monotonic() < deadline, "nginx did not answer"
            time.sleep(0.05)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=20)
        shutil.rmtree(folder, ignore_errors=True)


class SlowClients:
    """Connections that send a request's first line, then a header line every 2 s, never
    ending the header: each holds whatever reads it."""

    def __init__(self, port: int, count: int):
        self.sockets = [socket.create_connection(("127.0.0.1", port)) for _ in range(count)]
        for sock in self.sockets:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._trickle, daemon=True)
        self.thread.start()

    def _trickle(self) -> None:
        line = 0
        while not self.stop.wait(2):
            line += 1
            for sock in self.sockets:
                with contextlib.suppress(OSError):  # closed by the server: as intended
                    sock.sendall(f"X-Slow-{line}: 1\r\n".encode())

    def closed_by_the_server(self, within: float) -> int:
        """How many the server has closed (or reset) by ``within`` seconds from now."""
        deadline = time.monotonic() + within
        closed = 0
        for sock in self.sockets:
            sock.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                while sock.recv(4096):
                    pass
                closed += 1
            except ConnectionResetError:
                closed += 1
            except OSError:
                pass
        return closed

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        for sock in self.sockets:
            sock.close()


def healthz_latencies(port: int, seconds: float) -> list[float]:
    """Seconds each /healthz took, asked one after the other for ``seconds``; a request
    that got no answer within 5 s counts 5 s."""
    latencies = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        started = time.monotonic()
        with contextlib.suppress(OSError, http.client.HTTPException):
            assert status_of(port, "GET", "/healthz", timeout=5)[0] == 200
        latencies.append(time.monotonic() - started)
        time.sleep(0.2)
    return latencies


def streamed_upload(port: int) -> tuple[int | None, int]:
    """An anonymous 600 MB upload to the login page, with a made-up CSRF cookie (so that
    Django's CSRF check reads the body for the token), streamed as fast as the server takes
    it until an answer comes, the server closes, or it took more than ``READ_AT_MOST``
    without answering. The answer's status (None: none came) and the bytes of the body the
    server accepted before it."""
    boundary = "mcr-upload"
    header = (
        "POST /accounts/login/ HTTP/1.1\r\n"
        "Host: 127.0.0.1\r\n"
        f"Cookie: csrftoken={'a' * 32}\r\n"
        f"Content-Type: multipart/form-data; boundary={boundary}\r\n"
        f"Content-Length: {UPLOAD_BYTES}\r\n"
        "\r\n"
    ).encode()
    part = (
        f"--{boundary}\r\n"
        'Content-Disposition: form-data; name="file"; filename="players.csv"\r\n'
        "Content-Type: text/csv\r\n\r\n"
    ).encode()
    chunk = part + b"x" * (64 * 1024 - len(part))
    sock = socket.create_connection(("127.0.0.1", port))
    # A small send buffer: what the client holds is not counted as accepted by the server.
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 64 * 1024)
    sock.sendall(header)
    sock.setblocking(False)
    sent, answer = 0, b""
    try:
        while sent <= READ_AT_MOST:
            readable, writable, _ = select.select([sock], [sock], [], 5)
            if readable:
                break
            if not writable:
                break  # neither reading nor answering
            try:
                sent += sock.send(chunk if sent == 0 else chunk[len(part) :])
            except BlockingIOError:
                continue
            except (BrokenPipeError, ConnectionResetError):
                break
        sock.setblocking(True)
        sock.settimeout(5)
        try:
            while b"\r\n" not in answer:
                data = sock.recv(4096)
                if not data:
                    break
                answer += data
        except (ConnectionResetError, TimeoutError):
            pass
    finally:
        sock.close()
    status = int(answer.split()[1]) if answer.startswith(b"HTTP/1.") else None
    return status, sent


def test_slow_connections_leave_the_health_check_answering_within_a_second(front):
    slow = SlowClients(front, SLOW_CONNECTIONS)
    try:
        latencies = healthz_latencies(front, seconds=8)
        # nginx gives a request's whole header client_header_timeout (10 s) from the start.
        closed = slow.closed_by_the_server(within=6)
    finally:
        slow.close()
    assert max(latencies) < 1, latencies
    assert closed == SLOW_CONNECTIONS


def test_an_upload_over_the_limit_is_refused_by_nginx_before_it_is_read(front):
    status, accepted = streamed_upload(front)
    assert status == 413
    assert accepted < READ_AT_MOST


def test_an_upload_over_the_limit_is_refused_by_the_app_before_it_is_read(app):
    """gunicorn alone, as `make serve` runs it: the app's 413 comes from the declared
    length, the body unread."""
    status, accepted = streamed_upload(app.port)
    assert status == 413
    assert accepted < READ_AT_MOST


def test_a_form_in_another_charset_is_a_400_and_one_warning_line(front, app):
    log = Path(app.log.name)
    before = log.stat().st_size
    status, _, body = status_of(
        front,
        "POST",
        "/accounts/login/",
        b"username=referee&password=wrong",
        **{
            "Cookie": f"csrftoken={'a' * 32}",
            "Content-Type": "application/x-www-form-urlencoded; charset=latin-1",
        },
    )
    assert status == 400
    assert b"The server could not read this request" in body
    time.sleep(0.2)
    written = log.read_bytes()[before:].decode()
    assert "WARNING django.request: HTTP requests with the" in written
    assert "must be UTF-8 encoded.: /accounts/login/\n" in written
    assert "Traceback" not in written
    assert " ERROR " not in written


def test_head_on_the_api_through_the_front(front):
    status, headers, body = status_of(front, "HEAD", "/api/v1/tournaments")
    assert (status, body) == (200, b"")
    assert int(headers["Content-Length"]) > 0
    assert status_of(front, "OPTIONS", "/api/v1/tournaments")[1]["Allow"] == "GET, HEAD, OPTIONS"
