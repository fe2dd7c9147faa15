"""The event's server (`make serve`, 2 workers, on PostgreSQL with a Redis cache) while its
Redis goes away and comes back, and while its PostgreSQL restarts: the tablets keep saving,
the pages keep answering, nothing is stale afterwards, no hand is lost or stored twice, and
no worker is left broken.

Each test runs its own redis-server and its own database on a PostgreSQL cluster of the
module's own (bench/outages.py; the module on one pytest worker, tests/conftest.py's
SHARED_SET_UP), copied from one migrated once: not the suite's database, so the tests are not
marked ``database`` and run once, in `make test`.
"""

import json
import sys
import threading
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from hall import SLUG, Browser, EventDatabase, Save, Server, Tablet, check
from outages import PostgresCluster, RedisServer, postgres_bin, redis_available

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not redis_available() or postgres_bin() is None,
        reason="needs redis-server and PostgreSQL's server programs (initdb, pg_ctl)",
    ),
]

TABLES = 4
REFEREE_PASSWORD = "hall-referee-password"
# A self-drawn win of 8 fan: 8 + 8 from each of the three others.
SELF_DRAWN_8 = 48
PUBLIC_PAGES = (
    f"/t/{SLUG}/",
    f"/t/{SLUG}/standings/",
    f"/t/{SLUG}/seating/1/",
    f"/t/{SLUG}/players/1/",
    f"/api/v1/tournaments/{SLUG}/standings",
    f"/t/{SLUG}/standings.xlsx",
)


def built(browser: Browser, path: str) -> int:
    """The answer to ``path`` once what it serves is there: a download's first request
    answers with a page that waits (202) while the task worker beside the server builds
    its file."""
    deadline = time.monotonic() + 60
    status = browser.get(path)
    while status == 202 and time.monotonic() < deadline:
        time.sleep(0.5)
        status = browser.get(path)
    return status


def api(port: int, path: str):
    status, _, payload = Browser(port).request("GET", f"/api/v1/tournaments/{SLUG}/{path}")
    assert status == 200, (path, status)
    return json.loads(payload)


def healthz(port: int, query: str = "") -> tuple[int, str]:
    status, _, payload = Browser(port).request("GET", "/healthz" + query)
    return status, payload.decode()


@pytest.fixture(scope="module")
def cluster():
    """The module's PostgreSQL cluster, running."""
    cluster = PostgresCluster()
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.close()


@pytest.fixture(scope="module")
def migrated(cluster):
    """A migrated database on the module's cluster, which each test copies."""
    database = EventDatabase(cluster.url)
    try:
        database.migrate()
        yield database
    finally:
        database.close()


@pytest.fixture
def hall(cluster, migrated):
    """A database of the test's own on the module's PostgreSQL and a Redis of its own, the
    hall's tournament on them with a referee account, and `make serve` (2 workers) using
    both."""
    redis = RedisServer()
    database = None
    server = None
    try:
        redis.start()
        database = migrated.copy()
        database.env["MCR_REDIS_URL"] = redis.url
        tokens = database.prepare(TABLES)
        database.python(
            "import json\n"
            "from django.contrib.auth.models import User\n"
            "from tournament import services\n"
            "from tournament.models import Tournament\n"
            f"referee = User.objects.create_user('referee', password='{REFEREE_PASSWORD}')\n"
            f"t = Tournament.objects.get(slug='{SLUG}')\n"
            "services.tournament_update(tournament=t, referees=[referee])\n"
            "services.tables_assign(session=t.sessions.get(number=1), referee=referee,\n"
            "    tables=[1])\n"
            "print(json.dumps('ok'))\n"
        )
        server = Server(database, workers=2)
        server.start()
        yield cluster, redis, database, server, tokens
    finally:
        if server:
            server.stop()
        if database:
            # A test that failed may have left the module's cluster stopped: running again,
            # for the next test and to drop this one's database.
            if not cluster.running():
                cluster.start()
            database.close()
        redis.close()


def server_log(server: Server) -> str:
    return Path(server.log.name).read_text(errors="replace")


def east_score(port: int, table: int) -> int:
    tables = api(port, "sessions/1/tables")["items"]
    east = next(t for t in tables if t["number"] == table)["seats"][0]["player"]
    standings = api(port, "standings?page_size=500")["items"]
    return next(row["score"] for row in standings if row["player"] == east)


def test_redis_stopped_and_started_again_under_the_app(hall):
    _cluster, redis, _database, server, tokens = hall
    port = server.port
    tablets = [Tablet(port, table) for table in sorted(tokens)]
    for tablet in tablets:
        tablet.sign_in(tokens[tablet.table])
        assert tablet.save(Save(tablet.table, 1, winner=0, fan=8)).saved
    referee, leaving = Browser(port), Browser(port)
    assert referee.log_in("referee", REFEREE_PASSWORD) == 302
    assert leaving.log_in("referee", REFEREE_PASSWORD) == 302
    referee_pages = (f"/t/{SLUG}/referee/", f"/t/{SLUG}/sessions/1/tables/1/")
    for path in (*PUBLIC_PAGES, *referee_pages):
        assert built(referee, path) == 200, path
    for path in PUBLIC_PAGES:
        assert Browser(port).get(path) == 200, path
    assert leaving.get(referee_pages[0]) == 200
    old_session = leaving.cookies["sessionid"]

    redis.stop()
    answers: dict[str, int] = {}
    started = time.monotonic()
    # Twice each, so that both workers meet the outage.
    for _ in range(2):
        for path in PUBLIC_PAGES:
            answers[path] = max(answers.get(path, 0), Browser(port).get(path))
        for path in referee_pages:
            answers["referee " + path] = max(answers.get("referee " + path, 0), referee.get(path))
    newcomer = Browser(port)
    answers["login"] = newcomer.log_in("referee", REFEREE_PASSWORD)
    answers["newcomer's referee page"] = newcomer.get(referee_pages[0])
    for tablet in tablets:
        entry = tablet.save(Save(tablet.table, 2, winner=0, fan=8))
        answers[f"tablet {tablet.table}"] = entry.status if entry.saved else -1
    answers["logout"] = leaving.request("POST", "/accounts/logout/", {})[0]
    # A tablet signing in with its table card's link: its session written, then read.
    late = Tablet(port, 1)
    late.sign_in(tokens[1])
    answers["table link"] = late._request("GET", late.path)[0]
    during = time.monotonic() - started
    assert answers == {
        **dict.fromkeys(PUBLIC_PAGES, 200),
        **{"referee " + path: 200 for path in referee_pages},
        "login": 302,
        "newcomer's referee page": 200,
        **{f"tablet {tablet.table}": 200 for tablet in tablets},
        "logout": 302,
        "table link": 200,
    }
    status, text = healthz(port)
    assert (status, text.splitlines()[0]) == (200, "ok")
    assert "cache unreachable" in text
    assert healthz(port, "?cache=1")[0] == 503
    # No request waits for the missing cache: ~30 requests in a few seconds on 2 cores.
    assert during < 15, during

    # Back with what it held before (the logged-out session among it).
    redis.start()
    deadline = time.monotonic() + 20
    while healthz(port)[1] != "ok\n" or healthz(port)[1] != "ok\n":
        assert time.monotonic() < deadline, "the cache was not found again"
        time.sleep(0.2)
    time.sleep(3)  # every worker's look-out (a few seconds apart) has found it again
    assert healthz(port, "?cache=1")[0] == 200
    # Signed out during the outage: still signed out, whichever worker answers.
    for _ in range(6):
        gone = Browser(port)
        gone.cookies["sessionid"] = old_session
        status, location, _ = gone.request("GET", referee_pages[0])
        assert status == 302 and "/accounts/login/" in location
    # The hands saved during the outage are in the standings, from any worker.
    for tablet in tablets:
        for _ in range(3):
            assert east_score(port, tablet.table) == 2 * SELF_DRAWN_8
    for path in PUBLIC_PAGES:
        assert Browser(port).get(path) == 200
    log = server_log(server)
    assert "Traceback" not in log
    # One line per worker that met the outage, not one per request: the cache's, and the
    # API's rate limit letting requests through.
    assert 1 <= log.count("tournament.server.cache: The cache cannot be reached") <= 2, log
    assert log.count("tournament.server.rate_limits:") <= 2, log


def test_postgresql_restarted_under_the_app(hall):
    cluster, _redis, database, server, tokens = hall
    port = server.port
    hands = 8
    tablets = [Tablet(port, table) for table in sorted(tokens)]
    for tablet in tablets:
        tablet.sign_in(tokens[tablet.table])
    saves = [
        [Save(tablet.table, n, winner=n % 4, fan=8 + n % 5) for n in range(1, hands + 1)]
        for tablet in tablets
    ]
    statuses: list[int | None] = []
    acknowledged = threading.Semaphore(0)
    refused = []

    def enter(index: int) -> None:
        # As tablet.js does: an entry kept and sent again, with its key, until the server
        # gives its verdict.
        for entry in saves[index]:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                tablets[index].save(entry)
                statuses.append(entry.status)
                if entry.saved:
                    acknowledged.release()
                    break
                if entry.status is not None and entry.status < 500:
                    refused.append((entry.table, entry.number, entry.status))
                    return
                time.sleep(0.2)

    threads = [threading.Thread(target=enter, args=(i,)) for i in range(len(tablets))]
    for thread in threads:
        thread.start()
    for _ in range(TABLES * hands // 4):
        assert acknowledged.acquire(timeout=60)
    cluster.stop()
    time.sleep(1)
    during = Browser(port).request("GET", f"/t/{SLUG}/standings/")
    tablet = Browser(port)
    tablet.cookies = dict(tablets[0].cookies)
    as_json = tablet.request("GET", tablets[0].path, accept="application/json")
    cluster.start()
    for thread in threads:
        thread.join(timeout=90)

    assert not refused
    assert during[0] == 503
    assert as_json[0] == 503
    answer = json.loads(as_json[2])
    assert answer["saved"] is False and answer["retry"] is True
    assert 500 not in statuses, server_log(server)
    assert 503 in statuses, "no save met the restart"
    everything = [entry for row in saves for entry in row]
    assert all(entry.saved for entry in everything)
    stored = database.stored()
    assert check(everything, stored) == {"lost": 0, "duplicated": 0}
    assert len(stored["hands"]) == TABLES * hands

    # Every worker answers again: requests at once, so that both take some.
    results: list[int] = []

    def read() -> None:
        browser = Browser(port)
        for path in (f"/t/{SLUG}/standings/", f"/api/v1/tournaments/{SLUG}/standings"):
            for _ in range(4):
                results.append(browser.get(path))

    readers = [threading.Thread(target=read) for _ in range(6)]
    for reader in readers:
        reader.start()
    for reader in readers:
        reader.join()
    assert results == [200] * 48
    for tablet in tablets:
        assert tablet.sheet() > 0  # the sheet answers 200 (it raises otherwise)
    log = server_log(server)
    assert "Traceback" not in log
    assert "database cannot be reached" in log
