"""The background workers that run the task queue (``manage.py worker``), as each last said
it was alive.

The queue itself is django-tasks' database backend (``django_tasks_db``): a task is a row
written in the transaction of the write that asks for it. What the library does not keep is
whether the process that took a task is still there: a worker killed outright (SIGKILL, the
machine lost) leaves its task marked running for ever. Each worker writes its row here every
few seconds; a worker whose row has gone quiet is dead, and what it held is run again
(``server.task_worker``)."""

from django.db import models


class TaskWorker(models.Model):
    # The id the worker writes into each task it takes (``DBTaskResult.worker_ids``).
    worker_id = models.CharField(max_length=64, primary_key=True)
    hostname = models.CharField(max_length=255)
    pid = models.PositiveIntegerField()
    started_at = models.DateTimeField()
    beat_at = models.DateTimeField(db_index=True)

    def __str__(self):
        return f"{self.worker_id} ({self.hostname}, pid {self.pid})"


class ScheduledJob(models.Model):
    """A task queued every so often (``server.schedule``): the next time it is due. The
    worker that moves ``next_run_at`` on queues the task; two workers seeing it due at
    once cannot both move it, so it is queued once."""

    name = models.CharField(max_length=64, primary_key=True)
    next_run_at = models.DateTimeField()

    def __str__(self):
        return f"{self.name} at {self.next_run_at:%Y-%m-%d %H:%M:%S}"
