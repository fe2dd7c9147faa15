"""Back up the whole event to one file while the site runs, e.g. every few minutes from cron."""

import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from tournament.server.backups import BackupError, backup


class Command(BaseCommand):
    help = (
        "Write every tournament, player, draw, hand, penalty and account (with password "
        "hashes) to one gzip-compressed JSON file, read from one consistent snapshot while "
        "the site keeps running. 'manage.py restore FILE' brings it back into an empty "
        "database, SQLite or PostgreSQL."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the file to write, e.g. /var/backups/mcr/mcr.json.gz")

    def handle(self, *args, file, verbosity=1, **options):
        path = Path(file)
        started = time.monotonic()
        try:
            info = backup(path)
        except BackupError as error:
            raise CommandError(str(error)) from error
        seconds = time.monotonic() - started
        if verbosity >= 1:
            self.stdout.write(
                _("%(path)s: %(rows)s rows, %(size)s bytes, %(seconds).2f s.")
                % {
                    "path": path,
                    "rows": info.rows,
                    "size": path.stat().st_size,
                    "seconds": seconds,
                }
            )
        if verbosity >= 2:
            for label, count in info.counts.items():
                self.stdout.write(f"  {label} {count}")
