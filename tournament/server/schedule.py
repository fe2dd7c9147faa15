"""Tasks queued every so often by the workers themselves: the event's backups.

Each worker's pulse (``server.task_worker``) calls ``schedules_enqueue_due`` every few
seconds. A job is due when its row's ``next_run_at`` has passed; the worker whose update
moves it on (one statement, true for one worker only) queues the task in the same
transaction. Workers on several machines therefore queue each run once, and a job's runs
keep their pace while workers come and go. No worker running: nothing is queued, and the
health check says so.
"""

import logging
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django_tasks import task

from tournament.models import ScheduledJob

logger = logging.getLogger(__name__)

BACKUP_JOB = "backup"


@task()
def backup_scheduled() -> str:
    """The scheduled backup: the database's own, into ``BACKUP_DIR`` named by its time, the
    oldest removed beyond ``BACKUP_KEEP`` (``backups.backup_write``). Returns the file's path.
    Run twice (its worker killed), it writes the file again: harmless."""
    from tournament.server.backups import backup_write

    folder = Path(settings.BACKUP_DIR)
    folder.mkdir(parents=True, exist_ok=True)
    path = backup_write(folder, keep=settings.BACKUP_KEEP)
    logger.info("Backup %s: %s bytes", path, path.stat().st_size)
    return str(path)


def scheduled_jobs() -> dict[str, tuple]:
    """The jobs of this site's settings: name → (task, interval)."""
    jobs = {}
    if settings.BACKUP_DIR:
        jobs[BACKUP_JOB] = (backup_scheduled, timedelta(minutes=settings.BACKUP_MINUTES))
    return jobs


def schedules_enqueue_due(now=None) -> list[str]:
    """Queue each job that is due, once, and set its next time; the names queued."""
    now = now or timezone.now()
    queued = []
    for name, (job_task, interval) in scheduled_jobs().items():
        with transaction.atomic():
            ScheduledJob.objects.get_or_create(name=name, defaults={"next_run_at": now})
            moved = ScheduledJob.objects.filter(name=name, next_run_at__lte=now).update(
                next_run_at=now + interval
            )
            if moved:
                job_task.enqueue()
                queued.append(name)
    return queued
