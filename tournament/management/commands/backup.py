"""Back up the whole event to one file while the site runs, e.g. every few minutes from cron."""

import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from tournament.server.backups import KEEP, BackupError, Kind, backup, backup_in_folder


class Command(BaseCommand):
    help = (
        "Write every tournament, player, draw, hand, penalty and account (with password "
        "hashes) to one file, from one consistent snapshot while the site keeps running. "
        "On PostgreSQL the file is pg_dump's custom format, on SQLite a copy of the database "
        "(SQLite's online backup): each restores only into its own kind of database. With "
        "--json, gzip-compressed JSON that restores into either (to move an event between "
        "SQLite and PostgreSQL). 'manage.py restore FILE' tells the kinds apart and brings "
        "the file back into an empty database. Examples: 'manage.py backup "
        "/var/backups/mcr/mcr.dump'; 'manage.py backup --folder /var/backups/mcr' (named "
        "by the time, the 48 newest kept); 'manage.py backup --json /tmp/event.json.gz'."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "file",
            nargs="?",
            help="the file to write, e.g. /var/backups/mcr/mcr.dump (PostgreSQL), "
            "mcr.sqlite3 (SQLite), mcr.json.gz (--json)",
        )
        parser.add_argument(
            "--folder",
            help="write mcr-YYYYMMDD-HHMM.dump (.sqlite3, .json.gz) in this folder instead, "
            "and remove its older backups beyond --keep",
        )
        parser.add_argument(
            "--keep",
            type=int,
            default=KEEP,
            help=f"with --folder: how many backups to keep, the newest (default {KEEP})",
        )
        parser.add_argument(
            "--json",
            action="store_true",
            help="the portable JSON, which restores into SQLite or PostgreSQL (slower, larger)",
        )

    def handle(self, *args, file=None, folder=None, keep=KEEP, json=False, **options):
        verbosity = options.get("verbosity", 1)
        if (file is None) == (folder is None):
            raise CommandError(_("Name either a file or a --folder."))
        if keep < 1:
            raise CommandError(_("--keep must be 1 or more."))
        started = time.monotonic()
        try:
            if folder is not None:
                path, info = backup_in_folder(Path(folder), portable=json, keep=keep)
            else:
                path = Path(file)
                info = backup(path, portable=json)
        except BackupError as error:
            raise CommandError(str(error)) from error
        seconds = time.monotonic() - started
        kind = info.kind
        if kind is not Kind.PORTABLE and path.name.endswith((".json", ".json.gz")):
            # An older cron line: the backup is written, under a name that says otherwise.
            self.stderr.write(
                _(
                    "%(path)s is a %(kind)s, not JSON: name it …%(suffix)s "
                    "(--json writes the portable JSON)."
                )
                % {"path": path, "kind": kind.label, "suffix": kind.suffix}
            )
        if verbosity >= 1:
            self.stdout.write(
                _("%(path)s: %(kind)s, %(rows)s rows, %(size)s bytes, %(seconds).2f s.")
                % {
                    "path": path,
                    "kind": kind.label,
                    "rows": info.rows,
                    "size": path.stat().st_size,
                    "seconds": seconds,
                }
            )
        if verbosity >= 2:
            for label, count in info.counts.items():
                self.stdout.write(f"  {label} {count}")
