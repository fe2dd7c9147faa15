"""Check a tournament's stored seat results against its hands, settled again from scratch."""

from django.core.management.base import BaseCommand, CommandError

from tournament.language import formatting
from tournament.language.formatting import SEAT_LABELS
from tournament.models import Table, Tournament
from tournament.selectors.standings import stored_results_differences
from tournament.services.results import results_restore


def _result(score, place, points, won) -> str:
    where = f"place {place}" if place is not None else "no place"
    return (
        f"score {score:+d}, {where}, {formatting.format_table_points(points)} table points, "
        f"{won} hands won"
    )


class Command(BaseCommand):
    help = (
        "Settle every hand of a tournament again and compare each seat's result (score, "
        "place, table points, hands won) with the one stored for the standings; exit status 1 "
        "when any differs."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the tournament's short name, as in its address")
        parser.add_argument(
            "--repair",
            action="store_true",
            help="store the results the hands give at the tables that differ",
        )

    def handle(self, *args, slug, repair=False, **options):
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"No tournament with the short name {slug}.")
        tables, differences = stored_results_differences(tournament)
        for difference in differences:
            self.stdout.write(
                f"session {difference.session} table {difference.table} "
                f"{SEAT_LABELS[difference.seat]} {difference.player.name}: stored "
                f"{_result(*difference.stored)}; from the hands {_result(*difference.from_hands)}"
            )
        self.stdout.write(
            f"{tournament.slug}: {tables} tables checked, {len(differences)} seats differ."
        )
        if differences and repair:
            keys = {(d.session, d.table) for d in differences}
            at = [
                table
                for table in Table.objects.filter(session__tournament=tournament).select_related(
                    "session"
                )
                if (table.session.number, table.number) in keys
            ]
            results_restore(tournament=tournament, tables=at)
            self.stdout.write(f"Stored the hands' results at {len(at)} tables.")
        elif differences:
            raise CommandError(
                "The stored results differ from the hands: run again with --repair to store "
                "what the hands give."
            )
