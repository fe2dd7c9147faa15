"""Two app servers on one database (and one Redis cache, when MCR_REDIS_URL names one, as
CI's PostgreSQL run does): a hand saved through one server is in the standings the other
serves at once, whatever either had cached.

Runs `make serve` twice on the suite's kind of database, as the server-fault test does."""

import http.client
import json
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from hall import SLUG, Save, Server, Tablet

pytestmark = [pytest.mark.slow, pytest.mark.database]

HANDS = 3
# A self-drawn win of 8 fan: 8 + 8 from each of the three others.
SELF_DRAWN_8 = 48


def api(port: int, path: str):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", f"/api/v1/tournaments/{SLUG}/{path}")
    response = connection.getresponse()
    assert response.status == 200, path
    return json.loads(response.read())


def score_of(port: int, player: int) -> int:
    standings = api(port, "standings?page_size=500")["items"]
    return next(row["score"] for row in standings if row["player"] == player)


@pytest.fixture
def two_servers(migrated_database):
    database = migrated_database(os.environ.get("DATABASE_URL")).copy()
    servers = [Server(database, workers=1), Server(database, workers=1)]
    try:
        tokens = database.prepare(2)
        # Side by side: the second starts while the first does.
        for server in servers:
            server.launch()
        for server in servers:
            server.wait_until_up()
        yield tokens, servers
    finally:
        for server in servers:
            server.stop()
        database.close()


def test_a_save_on_one_server_is_in_the_standings_of_the_other_at_once(two_servers):
    tokens, (saving, reading) = two_servers
    east = api(reading.port, "sessions/1/tables")["items"][0]["seats"][0]["player"]
    # Both servers have read (and cached) the standings before the saves.
    assert score_of(saving.port, east) == score_of(reading.port, east) == 0
    tablet = Tablet(saving.port, 1)
    tablet.sign_in(tokens[1])
    for number in range(1, HANDS + 1):
        entry = tablet.save(Save(1, number, winner=0, fan=8))
        assert entry.saved, entry
        assert score_of(reading.port, east) == SELF_DRAWN_8 * number
        assert score_of(saving.port, east) == SELF_DRAWN_8 * number
