"""Import a player list from the command line, with the same checks as the web page.

The command imports at once, in its own process (``services.players_import``), and
returns when the players are stored: it is not a request, so nothing times it out, and it
needs no task worker (the pages queue their imports for one)."""

from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournament import services
from tournament.models import Tournament
from tournament.players import player_file
from tournament.players.player_import import import_preview
from tournament.services.player_imports import refusal_message


class Command(BaseCommand):
    help = gettext_lazy(
        "Import players from a .csv or .xlsx file into a tournament. Nothing is saved when any "
        "row has an error."
    )

    def add_arguments(self, parser):
        # argparse wants plain strings, not lazy translations.
        parser.description = str(self.help)
        parser.add_argument("slug", help=_("The tournament's short name in addresses."))
        parser.add_argument("file", help=_("The .csv or .xlsx player list."))

    def handle(self, *args, slug, file, **options):
        try:
            tournament = Tournament.objects.get(slug=slug)
        except Tournament.DoesNotExist as error:
            raise CommandError(_("No tournament “%(slug)s”.") % {"slug": slug}) from error
        path = Path(file)
        try:
            content = path.read_bytes()
        except OSError as error:
            raise CommandError(
                _("Cannot read %(file)s: %(error)s") % {"file": file, "error": error.strerror}
            ) from error
        try:
            preview = import_preview(tournament, filename=path.name, content=content)
        except player_file.ImportFileError as error:
            raise CommandError(error.message) from error

        if preview.has_errors:
            for problem in preview.header_problems:
                self.stderr.write(
                    _("row %(line)s: %(message)s")
                    % {"line": preview.header_line, "message": problem.message}
                )
            for row in preview.error_rows:
                for problem in row.problems:
                    self.stderr.write(
                        _("row %(line)s: %(message)s")
                        % {"line": row.line, "message": problem.message}
                    )
            raise CommandError(_("The file has errors: nothing was imported."))

        try:
            outcome = services.players_import(
                tournament=tournament, rows=preview.rows_to_import, fingerprint=preview.fingerprint
            )
        except ValidationError as error:
            raise CommandError(refusal_message(error)) from error
        self.stdout.write(
            _("created %(created)s, updated %(updated)s, unchanged %(unchanged)s")
            % {
                "created": outcome.created,
                "updated": outcome.updated,
                "unchanged": outcome.unchanged,
            }
        )
