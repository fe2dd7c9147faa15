from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from tournament import services
from tournament.models import Session

# The username that stands for nobody: the tables are cleared.
NOBODY = "-"


class Command(BaseCommand):
    help = (
        "Give tables of one session to a referee, e.g. "
        "'assign_referees spring-open 2 alice --tables 1-6'; username '-' or --clear "
        "leaves the tables to nobody."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("session", type=int)
        parser.add_argument(
            "username", nargs="?", default=None, help=f"the referee, or {NOBODY!r} for nobody"
        )
        parser.add_argument("--tables", required=True, help="table numbers: 1-6, or 1-3,7,9")
        parser.add_argument(
            "--clear", action="store_true", help="leave the tables to nobody (organisers only)"
        )

    def handle(self, *args, slug, session, username, tables, clear=False, **options):
        if clear and username not in (None, NOBODY):
            raise CommandError("Give a username or --clear, not both.")
        if not clear and username is None:
            raise CommandError(f"Give the referee's username, or {NOBODY!r} or --clear.")
        found = (
            Session.objects.select_related("tournament")
            .filter(tournament__slug=slug, number=session)
            .first()
        )
        if found is None:
            raise CommandError(f"No session {session} in a tournament with slug {slug!r}.")
        referee = None
        if not clear and username != NOBODY:
            try:
                referee = get_user_model().objects.get_by_natural_key(username)
            except get_user_model().DoesNotExist as error:
                raise CommandError(f"No account with username {username!r}.") from error
        try:
            numbers = services.parse_table_numbers(tables)
            assigned = services.tables_assign(session=found, referee=referee, tables=numbers)
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from error
        listed = ", ".join(str(table.number) for table in assigned)
        who = referee.get_username() if referee else "nobody"
        self.stdout.write(f"Session {found.number}: tables {listed} -> {who}")
