"""Run the background tasks (e-mails, imports, workbooks, backups) until stopped.

`make run` and `make serve` start one beside the site; an event's server runs it as a
service of its own (deploy/mcr-worker.service, docs/deploy.md): one per machine, or more for
a queue that falls behind. Every worker takes tasks from the same database, so any number of
them on any number of machines share the work."""

from django.core.management.base import BaseCommand

from tournament.server.task_worker import new_worker_id, run_worker, tasks_run_ready


class Command(BaseCommand):
    help = (
        "Run the site's background tasks (e-mails, imports, workbooks, backups) as they are "
        "queued, until stopped by SIGTERM or Ctrl+C (the task under way finishes first). "
        "Several may run at once, on one machine or several."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--once",
            action="store_true",
            help="run the tasks ready now, here, then stop (no other worker needed)",
        )
        parser.add_argument(
            "--interval",
            type=float,
            default=0.5,
            help="seconds between two looks at an empty queue (default %(default)s)",
        )

    def handle(self, *args, once=False, interval=0.5, **options):
        if once:
            tasks_run_ready()
            return
        run_worker(worker_id=new_worker_id(), interval=interval)
