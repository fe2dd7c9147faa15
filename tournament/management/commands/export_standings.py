"""Write a tournament's standings workbook to a file, e.g. for the results board or a federation."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from tournament.exports.workbook import standings_xlsx_bytes
from tournament.models import Tournament


class Command(BaseCommand):
    help = "Export a tournament's standings, sessions, hands and penalties as an .xlsx workbook."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the tournament's short name, as in its address")
        parser.add_argument(
            "-o",
            "--output",
            help="file to write (default: <slug>-standings.xlsx in the current folder)",
        )

    def handle(self, *args, slug, output=None, **options):
        try:
            tournament = Tournament.objects.get(slug=slug)
        except Tournament.DoesNotExist as error:
            raise CommandError(
                _("No tournament with the short name %(slug)s.") % {"slug": slug}
            ) from error
        path = Path(output or f"{tournament.slug}-standings.xlsx")
        try:
            path.write_bytes(standings_xlsx_bytes(tournament))
        except OSError as error:
            raise CommandError(
                _("Cannot write %(path)s: %(error)s") % {"path": path, "error": error}
            ) from error
        self.stdout.write(str(path))
