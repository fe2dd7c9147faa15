"""Bring a backup back into an empty database: a new machine, or the event's database lost."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from tournament.server.backups import BackupError, restore


class Command(BaseCommand):
    help = (
        "Load a file written by 'manage.py backup' into this database; its kind is read "
        "from its first bytes. A PostgreSQL dump restores only into PostgreSQL (by "
        "pg_restore), a SQLite copy only into SQLite, into a database that holds no data: "
        "just created (createdb; on SQLite a new MCR_DB_PATH), or migrated with no rows; "
        "the file brings its own tables. The portable JSON (backup --json) restores into "
        "either, migrated first ('manage.py migrate') and holding no data, not even an "
        "account. The backup must be of this version of the site. All or nothing: a "
        "refused or failed restore changes nothing. Restore with the site stopped."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="a file written by 'manage.py backup'")

    def handle(self, *args, file, verbosity=1, **options):
        path = Path(file)
        try:
            info = restore(path)
        except BackupError as error:
            raise CommandError(str(error)) from error
        if verbosity >= 1:
            self.stdout.write(
                _(
                    "Restored %(rows)s rows from %(path)s (%(kind)s, backup of "
                    "%(created_at)s, %(database)s)."
                )
                % {
                    "rows": info.rows,
                    "path": path,
                    "kind": info.kind.label,
                    "created_at": info.created_at,
                    "database": info.database,
                }
            )
            for label, count in info.counts.items():
                if count:
                    self.stdout.write(f"  {label} {count}")
