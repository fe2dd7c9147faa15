"""Send the players' e-mails that are due: those a draw or registration queued and the
retries of those that failed (the site sends after each write; a timer running this every
minute or two sends what a failure left waiting)."""

from django.core.management.base import BaseCommand

from tournament import services
from tournament.models.mail import MAX_ATTEMPTS
from tournament.selectors.lookups import tournament_by_slug
from tournament.services.mail import SEND_BATCH


class Command(BaseCommand):
    help = (
        "Send the e-mails to players that are due (new ones, and failed ones once their "
        f"wait is over, up to {MAX_ATTEMPTS} attempts); prints how many were sent."
    )

    def add_arguments(self, parser):
        parser.add_argument("--tournament", help="only this tournament's (its short name)")
        parser.add_argument(
            "--limit", type=int, default=SEND_BATCH, help="at most this many (default %(default)s)"
        )

    def handle(self, *args, tournament=None, limit=SEND_BATCH, **options):
        found = None
        if tournament:
            found = tournament_by_slug(tournament)
            if found is None:
                self.stderr.write(f"No tournament {tournament!r}.")
                raise SystemExit(2)
        sent = services.emails_send_due(tournament=found, limit=limit)
        self.stdout.write(f"{sent} sent")
