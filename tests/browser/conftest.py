"""A real browser against the live server: Debian's headless Chromium driven by Selenium.

The browser tests are marked ``browser``. ``make test`` runs them when ``chromium`` and
``chromedriver`` are installed and otherwise says how to install them; CI sets
``MCR_REQUIRE_BROWSER=1`` so that a machine without the browser fails instead of skipping.
"""

import contextlib
import os
import shutil
import socket
import threading

import pytest
from django.contrib.auth.models import User
from django.core.servers.basehttp import ThreadedWSGIServer
from django.test.testcases import LiveServerThread, QuietWSGIRequestHandler
from pytest_django.live_server_helper import LiveServer

from tests.conftest import give_all_tables, make_players, make_tournament, make_user
from tournament import services

TABLET_UPRIGHT = (768, 1024)
TABLET_LANDSCAPE = (1024, 768)
PHONE = (390, 844)


def _chromium_paths() -> tuple[str | None, str | None]:
    return shutil.which("chromium"), shutil.which("chromedriver")


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def chromium():
    """Paths of the browser and its driver; missing, a skip (or a failure under CI)."""
    browser, driver = _chromium_paths()
    if browser and driver:
        return browser, driver
    message = "chromium and chromedriver are needed: apt-get install chromium chromium-driver"
    if os.environ.get("MCR_REQUIRE_BROWSER"):
        pytest.fail(message)
    pytest.skip(message)


class _StoppableServer(ThreadedWSGIServer):
    """The live server, keeping hold of its open connections: stopping it drops them and
    waits for their threads, as a server process that dies takes them along. (Otherwise a
    browser's kept-alive connection would still be answered after the server stopped.)"""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.open_requests = {}
        self.requests_lock = threading.Lock()

    def process_request_thread(self, request, client_address):
        with self.requests_lock:
            self.open_requests[request] = threading.current_thread()
        try:
            super().process_request_thread(request, client_address)
        finally:
            with self.requests_lock:
                self.open_requests.pop(request, None)

    def server_close(self):
        super().server_close()
        with self.requests_lock:
            dropped = list(self.open_requests.items())
        for request, _thread in dropped:
            with contextlib.suppress(OSError):
                request.shutdown(socket.SHUT_RDWR)
        # Their threads close the database connection they share with the tests: done
        # before the server counts as stopped.
        for _request, thread in dropped:
            thread.join(timeout=10)


class _StoppableServerThread(LiveServerThread):
    def _create_server(self, connections_override=None):
        # Reusing the address lets the server start again on its port at once.
        return _StoppableServer(
            (self.host, self.port),
            QuietWSGIRequestHandler,
            allow_reuse_address=True,
            connections_override=connections_override,
        )


def _stoppable_thread(like: LiveServerThread) -> LiveServerThread:
    thread = _StoppableServerThread(
        like.host,
        static_handler=like.static_handler,
        connections_override=like.connections_override,
        port=like.port,
    )
    thread.daemon = True
    return thread


@pytest.fixture(scope="session")
def live_server():
    """Django's live server (as pytest-django's fixture of the same name), which a test can
    stop and start again on the same address with ``server_down`` and ``server_up``."""
    server = LiveServer(os.getenv("DJANGO_LIVE_TEST_SERVER_ADDRESS") or "localhost", start=False)
    server.thread = _stoppable_thread(server.thread)
    server.start()
    yield server
    server.stop()


def server_down(live_server) -> None:
    """Stop the server: it no longer listens and its open connections are dropped."""
    live_server.stop()


def server_up(live_server) -> None:
    """Start the server again where it was, on the same database."""
    live_server.thread = _stoppable_thread(live_server.thread)
    live_server.start()


def _start_chromium(chromium, live_server):
    """A headless Chromium at the size of a tablet held upright, on the live server."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    binary, driver_path = chromium
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-extensions",
        f"--window-size={TABLET_UPRIGHT[0]},{TABLET_UPRIGHT[1]}",
    ):
        options.add_argument(flag)
    # The console, read after each test for Content-Security-Policy violations.
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    set_viewport(driver, *TABLET_UPRIGHT)
    driver.implicitly_wait(0)
    driver.set_page_load_timeout(30)
    driver.live_server_url = live_server.url
    return driver


def csp_violations(driver) -> list[str]:
    """What the browser's console said of the Content-Security-Policy since it was last read:
    a script the policy refused (an inline script, an event-handler attribute)."""
    return [
        entry["message"]
        for entry in driver.get_log("browser")
        if "Content Security Policy" in entry["message"]
    ]


@pytest.fixture
def browser(chromium, live_server):
    """A headless Chromium at the size of a tablet held upright, on the live server. After
    the test, its console must hold no Content-Security-Policy violation."""
    driver = _start_chromium(chromium, live_server)
    yield driver
    try:
        violations = csp_violations(driver)
    finally:
        driver.quit()
    assert violations == []


@pytest.fixture
def open_browser(chromium, live_server):
    """Start another browser like ``browser``, with its own cookies and storage (another
    tablet, or the organiser's laptop); each is closed at the end of the test, its console
    checked for Content-Security-Policy violations as ``browser``'s."""
    started = []

    def start():
        started.append(_start_chromium(chromium, live_server))
        return started[-1]

    yield start
    try:
        violations = [message for driver in started for message in csp_violations(driver)]
    finally:
        for driver in started:
            driver.quit()
    assert violations == []


def set_viewport(driver, width: int, height: int) -> None:
    """The page's viewport exactly ``width`` × ``height`` CSS pixels, as on a tablet or
    phone, whatever room the window's own bars take."""
    driver.set_window_size(width, height + 200)
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
    )


def navigates(driver, action, timeout: float = 20) -> None:
    """Run ``action`` (a click, Back) and wait until the next page has loaded.

    Reading the page before the old one is gone reads the old one, or nothing: every step
    that leaves the page goes through here.
    """
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.wait import WebDriverWait

    old = driver.find_element(By.TAG_NAME, "html")
    action()

    def gone(_driver) -> bool:
        try:
            old.is_enabled()
        except WebDriverException:
            # Stale, or (mid-navigation) "node does not belong to the document": gone either way.
            return True
        return False

    # While the next page replaces the old one, the driver may answer with an error: ask again.
    wait = WebDriverWait(driver, timeout, ignored_exceptions=(WebDriverException,))
    wait.until(gone)
    wait.until(lambda d: d.execute_script("return document.readyState") == "complete")


def wait_for(driver, timeout: float):
    """A wait that reads again an element the page replaced meanwhile (the sheet's parts are
    swapped in place as it refreshes)."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.wait import WebDriverWait

    return WebDriverWait(driver, timeout, ignored_exceptions=(StaleElementReferenceException,))


def log_in(driver, username: str, password: str) -> None:
    """Log in through the login page, as a referee does on a tablet."""
    from selenium.webdriver.common.by import By

    driver.get(driver.live_server_url + "/accounts/login/")
    driver.find_element(By.NAME, "username").send_keys(username)
    driver.find_element(By.NAME, "password").send_keys(password)
    navigates(driver, driver.find_element(By.CSS_SELECTOR, "main form [type=submit]").click)


@pytest.fixture
def table_in_play(transactional_db):
    """Session 1 of a 16-player tournament in play; table 1 refereed by ``referee``."""
    organiser = make_user("organiser", can_create=True)
    referee: User = make_user("referee")
    tournament = make_tournament(creator=organiser)
    tournament.referees.add(referee)
    make_players(tournament, 16)
    session = services.session_open(
        session=services.session_draw(tournament=tournament, number=1, seed=20261130)
    )
    give_all_tables(session, referee)
    return session.tables.get(number=1)
