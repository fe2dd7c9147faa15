from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from tournament import services
from tournament.language.formatting import SEAT_LABELS
from tournament.models import SEATING_METHOD_CHOICES, Tournament
from tournament.selectors.withdrawals import draw_substitute_warning
from tournament.services.draws import DEFAULT_TOP_TABLES


class Command(BaseCommand):
    help = "Seat one session. The same method, players and seed always give the same seating."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("session", type=int)
        parser.add_argument("--seed", type=int, default=None, help="reuse a published seed")
        parser.add_argument(
            "--method",
            choices=[key for key, _label in SEATING_METHOD_CHOICES],
            default=None,
            help="seating method (default: the tournament's)",
        )
        parser.add_argument(
            "--top",
            type=int,
            default=DEFAULT_TOP_TABLES,
            help="top tables seated by standings (top_tables)",
        )

    def handle(self, *args, slug, session, seed, method=None, top=DEFAULT_TOP_TABLES, **options):
        try:
            tournament = Tournament.objects.get(slug=slug)
        except Tournament.DoesNotExist as error:
            raise CommandError(f"No tournament with slug {slug!r}.") from error
        # Who the draw seats is known before it is made: the warning is said with its outcome.
        warning = draw_substitute_warning(tournament)
        try:
            drawn = services.session_draw(
                tournament=tournament, number=session, seed=seed, method=method, top=top
            )
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from error
        self.stdout.write(f"Session {drawn.number} drawn with seed {drawn.seed}")
        if warning:
            self.stderr.write(warning)
        for seat in drawn.seats.select_related("table", "player").order_by("table__number", "seat"):
            self.stdout.write(
                f"table {seat.table.number} {SEAT_LABELS[seat.seat]} lot {seat.lot}: "
                f"{seat.player.number} {seat.player.name}"
            )
