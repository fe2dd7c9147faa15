"""The scheduled backups: queued once per interval however many workers look, written by
the task into the folder of the settings, the oldest removed beyond the number kept."""

from datetime import timedelta

import pytest
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from tournament.server.schedule import schedules_enqueue_due
from tournament.server.task_worker import tasks_run_ready

# A backup reads its own snapshot, outside any transaction: these tests commit.
pytestmark = pytest.mark.django_db


@pytest.fixture
def backups(settings, tmp_path):
    settings.BACKUP_DIR = str(tmp_path / "backups")
    settings.BACKUP_MINUTES = 5
    settings.BACKUP_KEEP = 2
    return tmp_path / "backups"


def test_nothing_is_scheduled_without_a_folder(settings):
    settings.BACKUP_DIR = ""
    assert schedules_enqueue_due() == []
    assert not DBTaskResult.objects.exists()


def test_a_backup_is_queued_once_per_interval_and_written(backups, transactional_db, tournament):
    now = timezone.now()
    assert schedules_enqueue_due(now) == ["backup"]
    # Another worker's pulse a moment later, and the same one again: not due.
    assert schedules_enqueue_due(now) == []
    assert schedules_enqueue_due(now + timedelta(minutes=4)) == []
    assert DBTaskResult.objects.count() == 1
    tasks_run_ready()
    (written,) = backups.iterdir()
    assert written.name.startswith("mcr-") and written.stat().st_size > 0
    assert schedules_enqueue_due(now + timedelta(minutes=5)) == ["backup"]


def test_the_oldest_backups_go_beyond_the_number_kept(backups, transactional_db, tournament):
    backups.mkdir()
    for name in ("mcr-20261205-0900.sqlite3", "mcr-20261205-0905.sqlite3"):
        (backups / name).write_bytes(b"old")
    schedules_enqueue_due()
    tasks_run_ready()
    names = sorted(path.name for path in backups.iterdir())
    assert len(names) == 2
    assert names[0] == "mcr-20261205-0905.sqlite3"
    assert names[1] > names[0]  # the new one
