"""The background worker (``manage.py worker``): django-tasks' database worker, with a pulse.

The library's worker takes the ready tasks one by one and records how each ended. It does
not know when another worker died holding one: a task taken by a process killed outright
(SIGKILL, the machine lost) stays *running* for ever. So each worker writes its row of
``TaskWorker`` every ``BEAT_SECONDS`` from a thread of its own, and on each beat looks for
workers silent for ``DEAD_AFTER``, or whose process on this machine is gone: their running
tasks go back to the queue, and what else they held (e-mails being sent) is released, to be
run again by whoever is alive. The pulse also queues the tasks that run every so often
(``server.schedule``: the backups). A task is
therefore run at least once; each task says what running it twice does.

What the health check and the organiser's pages tell of the workers is read by
``selectors.tasks.queue_state``.
"""

import contextlib
import logging
import os
import socket
import threading
import time
import uuid

from django.db import DatabaseError, close_old_connections, connection, transaction
from django.utils import timezone
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult

from tournament.models import TaskWorker
from tournament.selectors.tasks import BEAT_SECONDS, live_worker_ids
from tournament.server.schedule import schedules_enqueue_due

logger = logging.getLogger(__name__)

# How long a worker waits before it asks a database that could not be reached again.
DATABASE_RETRY_SECONDS = 1.0
# A task put back this many times has killed its worker as often: it is marked failed, not
# run again.
MAX_RUNS = 5


def new_worker_id() -> str:
    return f"{socket.gethostname()[:40]}-{os.getpid()}-{uuid.uuid4().hex[:8]}"


def beat(worker_id: str, *, started_at) -> None:
    now = timezone.now()
    TaskWorker.objects.update_or_create(
        worker_id=worker_id,
        defaults={"beat_at": now},
        create_defaults={
            "hostname": socket.gethostname()[:255],
            "pid": os.getpid(),
            "started_at": started_at,
            "beat_at": now,
        },
    )


def orphans_requeue(now=None) -> int:
    """Put back in the queue the running tasks of workers that died, release what else they
    held, and forget the dead workers' rows. Returns how many tasks went back."""
    # Imported here: the services import the task decorator at load, and this module is
    # loaded by the worker command before them.
    from tournament.services.mail import emails_release

    now = now or timezone.now()
    alive = live_worker_ids(now) - _gone_from_this_machine()
    requeued = 0
    with transaction.atomic():
        for task in DBTaskResult.objects.running().select_for_update(skip_locked=True):
            if task.worker_ids and task.worker_ids[-1] in alive:
                continue
            if len(task.worker_ids) >= MAX_RUNS:
                task.set_failed(RuntimeError(f"Its worker died {len(task.worker_ids)} times."))
                continue
            task.status = TaskResultStatus.READY
            task.started_at = None
            task.save(update_fields=["status", "started_at"])
            requeued += 1
            logger.warning(
                "Task %s (%s) put back in the queue: its worker %s died.",
                task.id,
                task.task_path,
                task.worker_ids[-1] if task.worker_ids else "?",
            )
        emails_release(keep=alive)
        TaskWorker.objects.exclude(worker_id__in=alive).delete()
    return requeued


def _gone_from_this_machine() -> set[str]:
    """The workers of this machine whose process is no more: dead at once, without waiting
    for their beat to go quiet (a worker restarted by systemd takes its predecessor's task
    back within seconds). A process id taken again by another process counts as alive:
    then the beat decides."""
    gone = set()
    here = TaskWorker.objects.filter(hostname=socket.gethostname()[:255]).exclude(pid=os.getpid())
    for worker_id, pid in here.values_list("worker_id", "pid"):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            gone.add(worker_id)
        except PermissionError:
            pass  # another user's process: alive
    return gone


class Pulse(threading.Thread):
    """Beats for ``worker_id`` and requeues the dead's tasks until ``stop`` is set."""

    def __init__(self, worker_id: str):
        super().__init__(name="task-worker-pulse", daemon=True)
        self.worker_id = worker_id
        self.started_at = timezone.now()
        self.stop = threading.Event()

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                try:
                    close_old_connections()
                    beat(self.worker_id, started_at=self.started_at)
                    orphans_requeue()
                    schedules_enqueue_due()
                except DatabaseError as error:
                    # The database away for a moment (a restart): the next beat tries again.
                    logger.warning("Task worker %s could not beat: %s", self.worker_id, error)
                    connection.close()
                except Exception:
                    logger.exception("Task worker %s could not beat", self.worker_id)
                self.stop.wait(BEAT_SECONDS)
        finally:
            connection.close()

    def finish(self) -> None:
        self.stop.set()
        self.join(timeout=10)
        # With the database away, its beat goes quiet instead.
        with contextlib.suppress(DatabaseError):
            TaskWorker.objects.filter(worker_id=self.worker_id).delete()


def _worker(worker_id: str, *, interval: float, batch: bool) -> Worker:
    """django-tasks' database worker on every queue; ``batch``: it stops when none is ready."""
    return Worker(
        queue_names=["*"],
        interval=interval,
        batch=batch,
        backend_name="default",
        startup_delay=not batch,
        max_tasks=None,
        worker_id=worker_id,
        excluded_queue_names=[],
    )


def run_worker(*, worker_id: str, interval: float = 0.5, batch: bool = False) -> None:
    """Run tasks until stopped (SIGTERM or SIGINT: the task under way ends first), beating
    meanwhile. ``batch``: stop when no task is ready."""
    pulse = Pulse(worker_id)
    beat(worker_id, started_at=pulse.started_at)
    pulse.start()
    worker = _worker(worker_id, interval=interval, batch=batch)
    worker.configure_signals()
    try:
        while True:
            try:
                worker.run()
                return
            except DatabaseError as error:
                # The database went away between two tasks (a task's own errors are its
                # result): wait for it, as the app servers do, instead of exiting.
                logger.warning(
                    "Task worker %s: the database cannot be reached: %s", worker_id, error
                )
                connection.close()
                time.sleep(DATABASE_RETRY_SECONDS)
    finally:
        pulse.finish()


def tasks_run_ready(worker_id: str = "in-process") -> None:
    """Run every ready task here and now, in this thread (the tests, and commands that must
    finish their work before they return)."""
    _worker(worker_id, interval=0, batch=True).run()
