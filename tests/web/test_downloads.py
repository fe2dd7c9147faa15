"""The public downloads built by the task queue once per version of their data and served
from the stored copy (``services.exports``, ``views.downloads``): the wait page before the
first file, the previous file while a newer one is built, one build however many readers
ask, a failed build shown and tried again, the pages' note beside the links."""

import csv
import io
import zipfile
from datetime import timedelta

import openpyxl
import pytest
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from tests import html
from tests.conftest import download, login
from tournament import services
from tournament.models import ExportFile
from tournament.server.task_worker import orphans_requeue, tasks_run_ready
from tournament.services import exports as export_services
from tournament.services.exports import RETRY_AFTER, export_build

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
DOWNLOADS = ["standings_xlsx", "ema_xlsx", "ema_csv"]
NOTE = "A newer standings workbook is being prepared"


def url(name, slug="spring-open"):
    return reverse(name, args=[slug])


def hand(session, number: int) -> None:
    """A self-drawn win at table 1: the tournament's data version goes up."""
    services.hand_record(
        table=session.tables.get(number=1),
        entry=services.HandEntry(number=number, outcome="self_drawn", winner=0, fan=8),
    )


def rows(**filters) -> list[tuple]:
    return list(
        ExportFile.objects.filter(**filters)
        .order_by("pk")
        .values_list("kind", "language", "version", "status")
    )


def build_tasks() -> int:
    return DBTaskResult.objects.filter(task_path=export_build.module_path).count()


def opens(response) -> bool:
    """A whole file: the workbook opens, the CSV has its header."""
    if response["Content-Type"] == XLSX:
        openpyxl.load_workbook(io.BytesIO(response.content))
        return True
    return next(csv.reader(io.StringIO(response.content.decode())))[0] == "Place"


@pytest.fixture
def series(tournament, organiser):
    return services.series_save(
        user=organiser,
        tournaments=[tournament],
        name="Season",
        slug="season",
        rule="best",
        counted_results=None,
        place_points="",
    )


# ---------------------------------------------------------------- who may download


@pytest.mark.parametrize("persona", ["organiser", "referee", "other_referee", "anonymous"])
@pytest.mark.parametrize("name", DOWNLOADS)
def test_everyone_is_shown_the_wait_page_then_given_the_file(
    personas, session_in_play, persona, name
):
    client = personas[persona]
    wait = client.get(url(name))
    assert wait.status_code == 202
    page = wait.content.decode()
    assert html.one(page, "meta[http-equiv=refresh]").attrs["content"] == "2"
    assert "is being prepared" in html.text(page)
    # The page waits by itself: no script of its own (the site's scripts load from files).
    assert not [script for script in html.elements(page, "script") if "src" not in script.attrs]
    assert wait["Retry-After"] == "2"
    tasks_run_ready()
    response = client.get(url(name))
    assert response.status_code == 200
    assert response["Content-Disposition"] == (
        f'attachment; filename="spring-open-{name.replace("_", ".")}"'
    )
    assert response["X-Workbook-Status"] == "current"
    assert opens(response)


@pytest.mark.parametrize("persona", ["organiser", "referee", "other_referee", "anonymous"])
def test_the_series_workbook_likewise(personas, series, persona):
    client = personas[persona]
    assert client.get(reverse("series_xlsx", args=["season"])).status_code == 202
    tasks_run_ready()
    response = client.get(reverse("series_xlsx", args=["season"]))
    assert (response.status_code, response["Content-Type"]) == (200, XLSX)
    assert opens(response)


@pytest.mark.parametrize("name", DOWNLOADS)
def test_an_unknown_tournament_is_404_and_builds_nothing(db, name):
    assert login(None).get(url(name, "no-such-cup")).status_code == 404
    assert build_tasks() == 0


@pytest.mark.parametrize("persona", ["organiser", "anonymous"])
@pytest.mark.parametrize("name", DOWNLOADS)
def test_post_is_refused_and_builds_nothing(personas, tournament, persona, name):
    assert personas[persona].post(url(name)).status_code == 405
    assert build_tasks() == 0


def test_head_answers_as_get_without_the_body(session_in_play):
    client = login(None)
    assert client.head(url("standings_xlsx")).status_code == 202
    tasks_run_ready()
    head = client.head(url("standings_xlsx"))
    assert (head.status_code, head.content, head["Content-Type"]) == (200, b"", XLSX)


# ---------------------------------------------------------------- one build per version


def test_readers_asking_together_start_one_build(session_in_play):
    for _reader in range(5):
        assert login(None).get(url("standings_xlsx")).status_code == 202
    assert [(kind, language, status) for kind, language, _v, status in rows()] == [
        ("standings.xlsx", "en", "building")
    ]
    assert build_tasks() == 1
    tasks_run_ready()
    assert [status for *_key, status in rows()] == ["ready"]
    for _reader in range(5):
        assert opens(login(None).get(url("standings_xlsx")))
    assert build_tasks() == 1


def test_each_file_and_language_is_built_on_its_own(session_in_play):
    for name in DOWNLOADS:
        download(login(None), url(name))
    download(login(None), url("standings_xlsx"), HTTP_ACCEPT_LANGUAGE="zh-hans")
    kinds = {(kind, language) for kind, language, _version, _status in rows(status="ready")}
    assert kinds == {
        ("standings.xlsx", "en"),
        ("standings.xlsx", "zh-hans"),
        ("ema.xlsx", ""),
        ("ema.csv", ""),
    }


def test_after_a_hand_the_previous_file_is_served_while_the_new_one_is_built(session_in_play):
    client = login(None)
    first = download(client, url("standings_xlsx"))
    (old,) = rows()
    hand(session_in_play, 1)

    during = client.get(url("standings_xlsx"))
    assert during.status_code == 200
    assert during.content == first.content
    assert during["X-Workbook-Status"] == "previous; a newer one is being prepared"
    assert during["X-Workbook-Version"] == old[2]
    assert [status for *_key, status in rows()] == ["ready", "building"]
    assert build_tasks() == 2

    tasks_run_ready()
    after = client.get(url("standings_xlsx"))
    assert after["X-Workbook-Status"] == "current"
    assert after.content != first.content
    # The older file is gone: one file kept per kind and language.
    assert [status for *_key, status in rows()] == ["ready"]
    assert rows()[0][2] == after["X-Workbook-Version"] != old[2]


def test_one_build_at_a_time_per_file_whatever_the_version(session_in_play):
    client = login(None)
    download(client, url("standings_xlsx"))
    hand(session_in_play, 1)
    client.get(url("standings_xlsx"))  # the build of this version queued
    hand(session_in_play, 2)
    answer = client.get(url("standings_xlsx"))
    # Still the one build under way: the newest version waits for it to end.
    assert answer["X-Workbook-Status"] == "previous; a newer one is being prepared"
    assert [status for *_key, status in rows()] == ["ready", "building"]
    tasks_run_ready()
    # Built from the data as it was when the build ran (the second hand too), under the
    # version asked for: the next reader asks for the newest.
    assert client.get(url("standings_xlsx"))["X-Workbook-Status"] == (
        "previous; a newer one is being prepared"
    )
    tasks_run_ready()
    assert client.get(url("standings_xlsx"))["X-Workbook-Status"] == "current"
    assert build_tasks() == 3


def test_a_build_run_twice_stores_the_file_once(session_in_play):
    client = login(None)
    first = download(client, url("standings_xlsx"))
    (row,) = ExportFile.objects.all()
    # Its task put back in the queue (as for a worker killed after the build ended).
    DBTaskResult.objects.filter(id=row.task_id).update(status=TaskResultStatus.READY)
    tasks_run_ready()
    assert DBTaskResult.objects.get(id=row.task_id).return_value == "not building"
    assert ExportFile.objects.get().pk == row.pk
    assert client.get(url("standings_xlsx")).content == first.content


def test_a_build_whose_worker_died_is_built_by_the_next(session_in_play):
    client = login(None)
    client.get(url("standings_xlsx"))
    (row,) = ExportFile.objects.all()
    DBTaskResult.objects.filter(id=row.task_id).update(
        status=TaskResultStatus.RUNNING, worker_ids=["a-dead-worker"], started_at=timezone.now()
    )
    wait = client.get(url("standings_xlsx"))
    assert "Being built for" in wait.content.decode()
    assert orphans_requeue() == 1
    tasks_run_ready()
    assert opens(client.get(url("standings_xlsx")))


# ---------------------------------------------------------------- failures


@pytest.fixture
def failing_build(monkeypatch):
    """The standings workbook's builder fails until the returned function mends it."""
    builder = export_services.BUILDERS["standings.xlsx"]

    def fail(tournament):
        raise RuntimeError("the disk is full")

    monkeypatch.setitem(export_services.BUILDERS, "standings.xlsx", fail)
    return lambda: monkeypatch.setitem(export_services.BUILDERS, "standings.xlsx", builder)


def test_a_failed_build_is_said_and_tried_again_after_a_while(session_in_play, failing_build):
    client = login(None)
    client.get(url("standings_xlsx"))
    tasks_run_ready()
    failed = client.get(url("standings_xlsx"))
    assert failed.status_code == 503
    assert "could not be built" in failed.content.decode()
    assert int(failed["Retry-After"]) == RETRY_AFTER.total_seconds()
    (row,) = ExportFile.objects.all()
    assert (row.status, row.error) == ("failed", "RuntimeError: the disk is full")
    # Not again at once: a failing build is not run for every reader.
    assert client.get(url("standings_xlsx")).status_code == 503
    assert build_tasks() == 1

    failing_build()  # mended
    ExportFile.objects.update(finished_at=timezone.now() - RETRY_AFTER - timedelta(seconds=1))
    assert client.get(url("standings_xlsx")).status_code == 202
    assert build_tasks() == 2
    tasks_run_ready()
    assert opens(client.get(url("standings_xlsx")))


def test_a_builder_failing_at_every_version_leaves_one_failed_row(session_in_play, failing_build):
    client = login(None)
    for number in (1, 2, 3):
        hand(session_in_play, number)
        client.get(url("standings_xlsx"))
        tasks_run_ready()
    assert [status for *_key, status in rows()] == ["failed"]
    assert build_tasks() == 3


def test_a_failed_newer_build_leaves_the_previous_file_served(session_in_play, monkeypatch):
    client = login(None)
    first = download(client, url("standings_xlsx"))
    hand(session_in_play, 1)
    monkeypatch.setitem(
        export_services.BUILDERS, "standings.xlsx", lambda t: (_ for _ in ()).throw(OSError)
    )
    client.get(url("standings_xlsx"))
    tasks_run_ready()
    answer = client.get(url("standings_xlsx"))
    assert (answer.status_code, answer.content) == (200, first.content)
    assert answer["X-Workbook-Status"] == "previous; the newer one could not be built"


def test_a_build_whose_task_ended_without_it_is_taken_for_failed(session_in_play):
    client = login(None)
    client.get(url("standings_xlsx"))
    (row,) = ExportFile.objects.all()
    # Failed by the pulse after its worker died too often (``MAX_RUNS``).
    DBTaskResult.objects.filter(id=row.task_id).update(status=TaskResultStatus.FAILED)
    answer = client.get(url("standings_xlsx"))
    assert answer.status_code == 503
    assert ExportFile.objects.get().status == "failed"


def test_with_no_worker_the_wait_page_says_so(session_in_play):
    page = login(None).get(url("standings_xlsx")).content.decode()
    assert "no task worker is running (1 task waiting)" in page


# ---------------------------------------------------------------- the file served


def test_a_reader_who_has_the_file_gets_304(session_in_play):
    client = login(None)
    response = download(client, url("standings_xlsx"))
    assert response["Cache-Control"] == "no-cache"
    assert response["Last-Modified"]
    again = client.get(url("standings_xlsx"), HTTP_IF_NONE_MATCH=response["ETag"])
    assert (again.status_code, again.content) == (304, b"")
    assert again["ETag"] == response["ETag"]
    hand(session_in_play, 1)
    download(client, url("standings_xlsx"))
    newer = client.get(url("standings_xlsx"), HTTP_IF_NONE_MATCH=response["ETag"])
    assert newer.status_code == 200
    assert newer["ETag"] != response["ETag"]


def test_the_stored_file_is_the_one_the_exporter_builds(session_in_play):
    from tournament.exports import ema

    response = download(login(None), url("ema_csv"))
    assert response.content == ema.ema_csv_text(session_in_play.tournament).encode()
    with zipfile.ZipFile(io.BytesIO(download(login(None), url("ema_xlsx")).content)) as book:
        assert "xl/workbook.xml" in book.namelist()


# ---------------------------------------------------------------- the pages say it


def test_the_standings_page_says_when_the_download_is_behind(session_in_play):
    page = url("standings")
    # Never built: no note (the download's own page says it is prepared).
    assert NOTE not in login(None).get(page).content.decode()
    download(login(None), url("standings_xlsx"))
    assert NOTE not in login(None).get(page).content.decode()
    hand(session_in_play, 1)
    assert NOTE in login(None).get(page).content.decode()
    download(login(None), url("standings_xlsx"))
    assert NOTE not in login(None).get(page).content.decode()
    assert not html.elements(
        login(None).get(page).content, "a[href='/t/spring-open/standings.xlsx'][download]"
    )


def test_the_ema_page_says_when_its_downloads_are_behind(session_in_play, organiser):
    client = login(organiser)
    note = "Newer results for the EMA are being prepared"
    download(client, url("ema_xlsx"))
    assert note not in client.get(url("ema_results")).content.decode()
    hand(session_in_play, 1)
    assert note in client.get(url("ema_results")).content.decode()


def test_the_series_page_says_when_its_workbook_is_behind(series, session_in_play):
    note = "A newer series workbook is being prepared"
    page = reverse("series", args=["season"])
    download(login(None), reverse("series_xlsx", args=["season"]))
    assert note not in login(None).get(page).content.decode()
    hand(session_in_play, 1)
    assert note in login(None).get(page).content.decode()
