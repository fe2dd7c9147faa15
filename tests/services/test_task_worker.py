"""The worker's pulse: a worker whose beat went quiet, or whose process on this machine is
gone, is dead; its running task goes back to the queue and the e-mails it held are released,
to be sent by another; a task that killed its worker five times is failed, not run again."""

import os
import socket
import subprocess
import sys
from datetime import timedelta

import pytest
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from tournament.models import OutgoingEmail, TaskWorker
from tournament.selectors.tasks import queue_state
from tournament.server.task_worker import MAX_RUNS, beat, orphans_requeue
from tournament.services.mail import emails_deliver

pytestmark = pytest.mark.django_db


def taken_by(worker_id: str, *, runs: int = 1) -> DBTaskResult:
    """An e-mail task taken by ``worker_id`` (after ``runs - 1`` dead others)."""
    task = DBTaskResult.objects.get(pk=emails_deliver.enqueue().id)
    task.worker_ids = [f"dead-{n}" for n in range(runs - 1)]
    task.claim(worker_id)
    return task


def held_email(tournament, worker_id: str) -> OutgoingEmail:
    return OutgoingEmail.objects.create(
        tournament=tournament,
        reason="seat",
        to="p1@example.org",
        subject="Table 1",
        body="Seat East",
        attempts=2,
        last_attempt_at=timezone.now(),
        claimed_by=worker_id,
    )


def test_a_quiet_workers_task_is_run_again_and_its_emails_released(tournament):
    beat("alive", started_at=timezone.now())
    beat("quiet", started_at=timezone.now())
    TaskWorker.objects.filter(worker_id="quiet").update(
        beat_at=timezone.now() - timedelta(seconds=11)
    )
    mine, theirs = taken_by("alive"), taken_by("quiet")
    kept, released = held_email(tournament, "alive"), held_email(tournament, "quiet")

    assert orphans_requeue() == 1
    mine.refresh_from_db()
    theirs.refresh_from_db()
    assert mine.status == "RUNNING"
    assert (theirs.status, theirs.started_at) == ("READY", None)
    kept.refresh_from_db()
    released.refresh_from_db()
    assert (kept.claimed_by, kept.attempts) == ("alive", 2)
    # The attempt it was making never finished: not counted, and due at once.
    assert (released.claimed_by, released.attempts, released.last_attempt_at) == ("", 1, None)
    assert set(TaskWorker.objects.values_list("worker_id", flat=True)) == {"alive"}


def test_a_worker_whose_process_is_gone_is_dead_at_once(tournament):
    finished = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    TaskWorker.objects.create(
        worker_id="restarted",
        hostname=socket.gethostname(),
        pid=int(finished.stdout),
        started_at=timezone.now(),
        beat_at=timezone.now(),  # it beat a moment ago, then was killed
    )
    task = taken_by("restarted")
    assert orphans_requeue() == 1
    task.refresh_from_db()
    assert task.status == "READY"


def test_this_process_and_other_machines_workers_count_on_their_beat(tournament):
    for worker_id, hostname, pid in (
        ("me", socket.gethostname(), os.getpid()),
        ("elsewhere", "other-machine", 1),
    ):
        TaskWorker.objects.create(
            worker_id=worker_id,
            hostname=hostname,
            pid=pid,
            started_at=timezone.now(),
            beat_at=timezone.now(),
        )
        taken_by(worker_id)
    assert orphans_requeue() == 0


def test_a_task_that_killed_its_worker_five_times_fails(tournament):
    task = taken_by("quiet", runs=MAX_RUNS)
    assert orphans_requeue() == 0
    task.refresh_from_db()
    assert task.status == "FAILED"
    assert "Its worker died 5 times." in task.traceback


def test_the_queue_state_counts_live_workers_and_the_oldest_wait():
    assert queue_state().problem() == "no task worker is running (0 tasks waiting)"
    beat("alive", started_at=timezone.now())
    emails_deliver.enqueue()
    emails_deliver.using(run_after=timezone.now() + timedelta(minutes=5)).enqueue()
    state = queue_state()
    assert (state.workers, state.ready, state.behind, state.problem()) == (1, 1, False, "")
