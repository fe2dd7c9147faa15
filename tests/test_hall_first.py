"""docs/deploy.md's nginx for one machine, hall first: nginx with the page's own `map`,
upstreams and `location /`, in front of two stand-in pools on free ports, sends each request
where the page says (a spectator's read to the spectators' pool, the rest to the hall's, the
spectators to the hall's while theirs is down); the page's upstreams for several app servers
pass nginx's own check.

Needs nginx, as tests/test_venue_laptop.py does (skipped without it unless MCR_REQUIRE_NGINX
is set).
"""

import http.server
import re
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest
from django.conf import settings

from tests.test_venue_laptop import nginx_binary, status_of

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = (ROOT / "docs" / "deploy.md").read_text()


def docs_block(starting: str) -> str:
    """The code block of docs/deploy.md whose text starts with the line ``starting``."""
    start = DEPLOY.index(starting)
    return DEPLOY[start : DEPLOY.index("```", start)]


SITE = docs_block("# /etc/nginx/sites-available/mcr (linked from sites-enabled/)")
# What comes before the site's first server block: the map and the upstreams.
ROUTING = SITE[: SITE.index("\nserver {")]
# The certificate's server's location, where every request is passed.
LOCATION = re.search(r"\n    location / \{\n.*?\n    \}\n", SITE, re.S).group(0)
SEVERAL = docs_block("# nginx, instead of the two upstreams above (the map stays)")


class Pool:
    """A stand-in for one pool of app workers: answers every request with its name."""

    def __init__(self, name: str):
        pool = self

        class Answer(http.server.BaseHTTPRequestHandler):
            def answer(self):
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                # Counted before the answer is sent: the test reads it as soon as it is.
                pool.methods.append(self.command)
                body = pool.name.encode()
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(body)

            do_GET = do_HEAD = do_POST = answer

            def log_message(self, *args):
                pass

        self.name = name
        self.methods: list[str] = []
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Answer)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def nginx_config(folder: Path, http_part: str) -> Path:
    temp_paths = "\n".join(
        f"    {kind}_temp_path {folder}/{kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    config = folder / "nginx.conf"
    config.write_text(
        f"pid {folder}/nginx.pid;\nerror_log {folder}/error.log;\nworker_processes 1;\n"
        f"events {{ worker_connections 64; }}\nhttp {{\n    access_log off;\n{temp_paths}\n"
        f"{http_part}\n}}\n"
    )
    return config


@pytest.fixture
def folder():
    made = Path(tempfile.mkdtemp(prefix="mcr-hall-first-"))
    made.chmod(0o755)
    yield made
    shutil.rmtree(made, ignore_errors=True)


@pytest.fixture
def hall_first(folder):
    """nginx with the page's routing in front of the two stand-in pools, on a free port."""
    nginx = nginx_binary()
    hall, spectators = Pool("hall"), Pool("spectators")
    routing = ROUTING.replace("127.0.0.1:8000", f"127.0.0.1:{hall.port}").replace(
        "127.0.0.1:8001", f"127.0.0.1:{spectators.port}"
    )
    probe = Pool("probe")
    port = probe.port
    probe.stop()
    config = nginx_config(folder, f"{routing}\nserver {{\n    listen 127.0.0.1:{port};{LOCATION}}}")
    process = subprocess.Popen(
        [nginx, "-p", str(folder), "-c", str(config), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                status_of(port, "GET", "/healthz")
                break
            except OSError:
                assert process.poll() is None, process.stderr.read().decode()
                assert time.monotonic() < deadline, "nginx did not answer"
                time.sleep(0.05)
        hall.methods.clear()
        spectators.methods.clear()
        yield port, hall, spectators
    finally:
        process.terminate()
        process.wait(timeout=20)
        hall.stop()
        spectators.stop()


def answered_by(port: int, method: str = "GET", cookie: str = "", body=None) -> str:
    headers = {"Cookie": cookie} if cookie else {}
    if body is not None:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    status, _headers, content = status_of(port, method, "/t/open/standings/", body, **headers)
    assert status == 200
    return content.decode()


def test_the_page_reads_the_session_cookie_the_site_sets():
    assert "$cookie_" + settings.SESSION_COOKIE_NAME in ROUTING
    assert "proxy_pass http://$mcr_pool;" in LOCATION


def test_a_spectators_read_goes_to_the_spectators_pool(hall_first):
    port, hall, spectators = hall_first
    assert answered_by(port) == "spectators"
    # A language chosen or a form token kept is no session: still a spectator.
    assert answered_by(port, cookie="csrftoken=abc; django_language=zh-hans") == "spectators"
    answered_by(port, "HEAD")
    assert spectators.methods == ["GET", "GET", "HEAD"]
    assert hall.methods == []


def test_a_session_or_a_form_sent_goes_to_the_halls_pool(hall_first):
    port, hall, spectators = hall_first
    # A tablet, a referee or an organiser: signed in.
    assert answered_by(port, cookie=f"{settings.SESSION_COOKIE_NAME}=x1y2") == "hall"
    # A form sent without a session (a login, the language switch, a sign-up).
    assert answered_by(port, "POST", body="a=1") == "hall"
    assert answered_by(port, "POST", cookie="csrftoken=abc", body="a=1") == "hall"
    assert hall.methods == ["GET", "POST", "POST"]
    assert spectators.methods == []


def test_the_halls_pool_answers_the_spectators_while_theirs_is_down(hall_first):
    port, hall, spectators = hall_first
    spectators.stop()
    assert answered_by(port) == "hall"
    assert hall.methods == ["GET"]


def test_the_pages_upstreams_for_several_app_servers_pass_nginxs_check(folder):
    nginx = nginx_binary()
    assert "upstream mcr_hall" in SEVERAL and "upstream mcr_spectators" in SEVERAL
    map_only = ROUTING[: ROUTING.index("\nupstream ")]
    config = nginx_config(
        folder,
        f"{map_only}\n{SEVERAL}\nserver {{\n    listen 127.0.0.1:1;{LOCATION}}}",
    )
    checked = subprocess.run(
        [nginx, "-t", "-p", str(folder), "-c", str(config)], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stderr
