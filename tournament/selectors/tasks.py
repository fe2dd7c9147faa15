"""The task queue as the health check and the organiser's pages tell of it: whether any
worker is alive (``server.task_worker`` beats for each), and how long the oldest ready task
has waited."""

from dataclasses import dataclass
from datetime import timedelta

from django.utils import timezone
from django.utils.translation import ngettext
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from tournament.models import TaskWorker

# Each worker writes its row this often.
BEAT_SECONDS = 2.0
# A worker silent this long is dead: five beats missed, far more than a busy database or a
# long task's pause between two beats (the beat has a thread of its own).
DEAD_AFTER = timedelta(seconds=10)
# The queue is *behind* when a ready task has waited longer than this.
BEHIND_AFTER = timedelta(seconds=60)


def live_worker_ids(now=None) -> set[str]:
    now = now or timezone.now()
    return set(
        TaskWorker.objects.filter(beat_at__gte=now - DEAD_AFTER).values_list("worker_id", flat=True)
    )


@dataclass(frozen=True)
class QueueState:
    workers: int  # alive
    ready: int  # tasks waiting for a worker
    oldest_wait: timedelta | None  # of the ready tasks

    @property
    def behind(self) -> bool:
        return self.oldest_wait is not None and self.oldest_wait > BEHIND_AFTER

    def problem(self) -> str:
        """One line for the health check and the organiser's pages; "" when all is well."""
        if not self.workers:
            return ngettext(
                "no task worker is running (%(count)s task waiting)",
                "no task worker is running (%(count)s tasks waiting)",
                self.ready,
            ) % {"count": self.ready}
        if self.behind:
            return ngettext(
                "the task queue is behind: %(count)s task waiting, the oldest for %(seconds)s s",
                "the task queue is behind: %(count)s tasks waiting, the oldest for %(seconds)s s",
                self.ready,
            ) % {"count": self.ready, "seconds": round(self.oldest_wait.total_seconds())}
        return ""


def queue_state() -> QueueState:
    now = timezone.now()
    ready = DBTaskResult.objects.ready()
    oldest = ready.order_by("enqueued_at").values_list("enqueued_at", "run_after").first()
    wait = None
    if oldest is not None:
        enqueued_at, run_after = oldest
        # A deferred task waits from the time it was due, not from when it was written.
        due = max(enqueued_at, run_after) if run_after.year < 9999 else enqueued_at
        wait = max(now - due, timedelta(0))
    return QueueState(workers=len(live_worker_ids(now)), ready=ready.count(), oldest_wait=wait)


def task_ended(task_id: str) -> bool:
    """Whether the queue has ended the task ``task_id`` (a job's, whose row says it is still
    waiting or running): given up after its workers died too often
    (``server.task_worker.MAX_RUNS``), or gone. False without a task id."""
    if not task_id:
        return False
    status = DBTaskResult.objects.filter(pk=task_id).values_list("status", flat=True).first()
    return status is None or status in (TaskResultStatus.FAILED, TaskResultStatus.SUCCESSFUL)
