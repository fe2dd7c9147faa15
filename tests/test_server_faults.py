"""The event's server killed (SIGKILL, master and workers) in the middle of a burst of saves:
every hand a tablet was told is saved is stored exactly once, the database is intact, and the
saves that got no answer, sent again with their keys once the server is back (as the tablet's
queue does), are each stored once too.

Runs `make serve` on the suite's kind of database: a SQLite file, or a database of its own on
the PostgreSQL that DATABASE_URL names.
"""

import os
import sys
import threading
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from hall import Save, Server, Tablet, check

# Each test makes a database of its own, on the server DATABASE_URL names (SQLite without it).
pytestmark = [pytest.mark.slow, pytest.mark.database]

TABLES = 12
HANDS = 6


@pytest.fixture
def event(migrated_database):
    database = migrated_database(os.environ.get("DATABASE_URL")).copy()
    server = Server(database, workers=2)
    try:
        tokens = database.prepare(TABLES)
        server.start()
        yield database, server, tokens
    finally:
        server.stop()
        database.close()


def test_a_server_killed_mid_burst_keeps_every_acknowledged_hand_once(event):
    database, server, tokens = event
    tablets = [Tablet(server.port, table) for table in sorted(tokens)]
    for tablet in tablets:
        tablet.sign_in(tokens[tablet.table])
    saves = [
        [
            Save(tablet.table, number, winner=number % 4, fan=8 + tablet.table % 5)
            for number in range(1, HANDS + 1)
        ]
        for tablet in tablets
    ]
    acknowledged = threading.Semaphore(0)

    def enter(index: int) -> None:
        for entry in saves[index]:
            tablets[index].save(entry)
            if entry.saved:
                acknowledged.release()
            elif entry.status is None:
                return  # the server is gone: the rest waits on the tablet

    threads = [threading.Thread(target=enter, args=(i,)) for i in range(len(tablets))]
    for thread in threads:
        thread.start()
    # Killed once about a third of the hands were acknowledged, in the thick of the burst.
    for _ in range(TABLES * HANDS // 3):
        assert acknowledged.acquire(timeout=60)
    server.kill()
    for thread in threads:
        thread.join(timeout=60)
    # Sent: every save a request was made for, answered or not (a save cut by the kill may
    # have been stored before its answer was lost).
    sent = [entry for row in saves for entry in row if entry.milliseconds]
    unanswered = [entry for row in saves for entry in row if not entry.saved]
    assert sum(entry.saved for entry in sent) >= TABLES * HANDS // 3
    assert unanswered, "the kill came after the burst: nothing was cut"

    assert database.intact() == "ok"
    assert check(sent, database.stored()) == {"lost": 0, "duplicated": 0}

    # Back up; each tablet sends again, in order, what was not acknowledged, same keys.
    server.start()
    time.sleep(0.2)
    for index, tablet in enumerate(tablets):
        for entry in saves[index]:
            if not entry.saved:
                tablet.save(entry)
                assert entry.saved, (entry.table, entry.number, entry.status)
    everything = [entry for row in saves for entry in row]
    stored = database.stored()
    assert check(everything, stored) == {"lost": 0, "duplicated": 0}
    assert len(stored["hands"]) == TABLES * HANDS
    assert len(stored["keys"]) == TABLES * HANDS
