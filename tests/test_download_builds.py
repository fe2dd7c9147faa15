"""Fifty people downloading the standings workbook at the same moment, right after a hand:
the event's server (`make serve`, 4 workers, no task worker: the test runs the tasks) starts
one build of that version, and every reader gets a whole file once it is built; while it is
built, the wait page (no file yet) or the previous version's file.

Runs on the suite's kind of database: a SQLite file, or a database of its own on the
PostgreSQL that DATABASE_URL names.
"""

import http.client
import io
import os
import sys
import threading
from pathlib import Path

import openpyxl
import pytest

from tests import html

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from hall import SLUG, EventDatabase, Save, Server, Tablet

pytestmark = [pytest.mark.slow, pytest.mark.database]

READERS = 50
PATH = f"/t/{SLUG}/standings.xlsx"


@pytest.fixture
def hall(migrated_database):
    database = migrated_database(os.environ.get("DATABASE_URL")).copy()
    # No task worker beside the server: the builds wait until the test runs them.
    database.env["TASK_WORKERS"] = "0"
    server = Server(database, workers=4)
    try:
        tokens = database.prepare(1)
        server.start()
        yield database, server, tokens
    finally:
        server.stop()
        database.close()


def everyone_downloads(port: int) -> list[tuple[int, dict, bytes]]:
    """``READERS`` requests sent at the same moment, each on a connection of its own: the
    status, headers and body of each."""
    start = threading.Barrier(READERS)
    answers: list = [None] * READERS

    def reader(index: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        start.wait()
        connection.request("GET", PATH)
        response = connection.getresponse()
        answers[index] = (response.status, dict(response.getheaders()), response.read())
        connection.close()

    threads = [threading.Thread(target=reader, args=(i,)) for i in range(READERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert None not in answers
    return answers


def builds(database: EventDatabase) -> dict:
    """The stored files (kind, language, version, status) and how many build tasks exist."""
    return database.python(
        "import json\n"
        "from django_tasks_db.models import DBTaskResult\n"
        "from tournament.models import ExportFile\n"
        "from tournament.services.exports import export_build\n"
        "rows = ExportFile.objects.order_by('pk').values_list(\n"
        "    'kind', 'language', 'version', 'status')\n"
        "tasks = DBTaskResult.objects.filter(task_path=export_build.module_path).count()\n"
        "print(json.dumps({'rows': [list(r) for r in rows], 'tasks': tasks}))\n"
    )


def workbook_opens(body: bytes) -> bool:
    return openpyxl.load_workbook(io.BytesIO(body)).sheetnames[0] == "Standings"


def test_fifty_downloads_right_after_a_hand_start_one_build(hall):
    database, server, tokens = hall
    tablet = Tablet(server.port, 1)
    tablet.sign_in(tokens[1])
    assert tablet.save(Save(1, 1, winner=0, fan=8)).saved

    # No file yet: every reader is shown the page that waits for it; one build is queued.
    answers = everyone_downloads(server.port)
    assert {status for status, _headers, _body in answers} == {202}
    assert all(
        html.elements(body, "meta[http-equiv=refresh]") for _status, _headers, body in answers
    )
    stored = builds(database)
    assert [row[3] for row in stored["rows"]] == ["building"]
    assert stored["tasks"] == 1
    first_version = stored["rows"][0][2]

    database.manage("worker", "--once")
    answers = everyone_downloads(server.port)
    assert {(status, headers["X-Workbook-Status"]) for status, headers, _ in answers} == {
        (200, "current")
    }
    assert all(workbook_opens(body) for _status, _headers, body in answers)
    first_file = answers[0][2]
    assert {body for _status, _headers, body in answers} == {first_file}

    # The next hand: every reader gets the previous file while its one build is queued.
    assert tablet.save(Save(1, 2, winner=1, fan=8)).saved
    answers = everyone_downloads(server.port)
    assert {
        (status, headers["X-Workbook-Status"], headers["X-Workbook-Version"], body)
        for status, headers, body in answers
    } == {(200, "previous; a newer one is being prepared", first_version, first_file)}
    stored = builds(database)
    assert [row[3] for row in stored["rows"]] == ["ready", "building"]
    assert stored["tasks"] == 2

    database.manage("worker", "--once")
    answers = everyone_downloads(server.port)
    assert {(status, headers["X-Workbook-Status"]) for status, headers, _ in answers} == {
        (200, "current")
    }
    assert all(workbook_opens(body) for _status, _headers, body in answers)
    assert answers[0][2] != first_file
    # The previous file is gone: one kept.
    stored = builds(database)
    assert [row[3] for row in stored["rows"]] == ["ready"]
    assert stored["rows"][0][2] != first_version
    assert stored["tasks"] == 2
