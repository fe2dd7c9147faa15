"""A tournament's player import as its page shows it: waiting, running (rows checked of
all), saving, done (what it did) or failed (why)."""

from dataclasses import dataclass
from datetime import datetime

from django.utils.translation import gettext as _
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from tournament.models import PLAYER_IMPORT_ACTIVE, PlayerImport, Tournament


def import_task_ended(job: PlayerImport) -> bool:
    """Whether the queue has ended the job's task while the job has not ended: given up
    after its workers died too often (``server.task_worker.MAX_RUNS``), or gone."""
    if job.status not in PLAYER_IMPORT_ACTIVE or not job.task_id:
        return False
    status = DBTaskResult.objects.filter(pk=job.task_id).values_list("status", flat=True).first()
    return status is None or status in (TaskResultStatus.FAILED, TaskResultStatus.SUCCESSFUL)


def import_abandoned_message() -> str:
    return _("The task worker stopped during the import, again and again: nothing was imported.")


@dataclass(frozen=True)
class ImportState:
    # "queued", "running", "saving" (every row checked, the players being stored), "done"
    # or "failed".
    status: str
    rows_done: int
    rows_total: int
    created: int
    updated: int
    unchanged: int
    error: str
    started_by: str
    created_at: datetime
    finished_at: datetime | None

    @property
    def active(self) -> bool:
        return self.status in ("queued", "running", "saving")


def player_import_latest(tournament: Tournament) -> ImportState | None:
    """The tournament's last import, or None when it has had none."""
    job = (
        PlayerImport.objects.filter(tournament=tournament)
        .select_related("started_by")
        .defer("rows")
        .order_by("-created_at", "-id")
        .first()
    )
    if job is None:
        return None
    status, error = job.status, job.error
    if import_task_ended(job):
        # Written so by the next import started (a page's GET writes nothing).
        status, error = "failed", import_abandoned_message()
    elif status == "running" and job.rows_done == job.rows_total:
        status = "saving"
    return ImportState(
        status=status,
        rows_done=job.rows_done,
        rows_total=job.rows_total,
        created=job.players_created,
        updated=job.players_updated,
        unchanged=job.players_unchanged,
        error=error,
        started_by=job.started_by.get_username() if job.started_by else "",
        created_at=job.created_at,
        finished_at=job.finished_at,
    )
