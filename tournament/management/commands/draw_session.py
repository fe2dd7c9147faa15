from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from tournament import services
from tournament.models import SEAT_LABELS, Tournament


class Command(BaseCommand):
    help = "Draw seats by lot for one session. The same seed always gives the same seating."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("session", type=int)
        parser.add_argument("--seed", type=int, default=None, help="reuse a published seed")

    def handle(self, *args, slug, session, seed, **options):
        try:
            tournament = Tournament.objects.get(slug=slug)
        except Tournament.DoesNotExist as error:
            raise CommandError(f"No tournament with slug {slug!r}.") from error
        try:
            drawn = services.session_draw(tournament=tournament, number=session, seed=seed)
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from error
        self.stdout.write(f"Session {drawn.number} drawn with seed {drawn.seed}")
        for seat in drawn.seats.select_related("table", "player").order_by("table__number", "seat"):
            self.stdout.write(
                f"table {seat.table.number} {SEAT_LABELS[seat.seat]} lot {seat.lot}: "
                f"{seat.player.number} {seat.player.name}"
            )
